// The service's share of the credential's request budget gives way to the desks. One partner
// credential serves the service and every desk of the library, and the service cannot see what
// the desks send; a 429 it meets says the credential's window is full, so desks are busy with
// patrons. It then halves its share at once (at most once a window: one full window is one
// signal), and takes back one request a window for each window that passes without a 429 —
// additive increase, multiplicative decrease, the way TCP senders share a link — and all of what
// IT configured once 10 windows have passed without one (the busy hour is over). Growing slowly
// matters: each probe past what the desks leave costs a desk a 429 (bench:fleet measured p95
// lookups of a second when it grew back by a tenth a window). The sync slows while the desks are
// busy; patron calls keep the window.
// And it backs off exponentially, as the guidance asks: after a 429 nothing more is sent for a
// window, after a second in a row for two, then four (the cap); an answer ends the backoff. A
// desk retries at Retry-After because staff are waiting; the service can leave the freed slots
// to them, and each 429 it avoids is a request nobody spends.
import type { RequestBudget } from '../electron/node/partner/request-budget.ts';
import type { FetchFn, SendGate } from '../electron/node/partner/transport.ts';

const MAX_BACKOFF_WINDOWS = 4;
/** Windows without a 429 after which the whole configured share is back. */
const RESTORE_AFTER_WINDOWS = 10;

export class YieldingShare {
  readonly #budget: RequestBudget;
  readonly #configured: number;
  readonly #now: () => number;
  /** When the share last changed (a cut or a step back up). */
  #changedAt: number;
  #lastCut = Number.NEGATIVE_INFINITY;
  #last429 = Number.NEGATIVE_INFINITY;
  #refusals = 0;
  /** 429s in a row, and when the backoff they set ends. */
  #inARow = 0;
  #quietUntil = Number.NEGATIVE_INFINITY;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #changed: (perMinute: number) => void;

  /** `changed` hears each cut and the share's return to what IT configured (for the service's log). */
  constructor(budget: RequestBudget, now: () => number, changed: (perMinute: number) => void = () => {}, sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))) {
    this.#changed = changed;
    this.#sleep = sleep;
    this.#budget = budget;
    this.#configured = budget.limit;
    this.#now = now;
    this.#changedAt = now();
  }

  /** Node's fetch (or the one given) watched: every answer tells the share whether the window was full. */
  watch(fetch: FetchFn): FetchFn {
    return async (input, init) => {
      const answer = await fetch(input, init);
      if (answer.status === 429) this.refused();
      else this.answered();
      return answer;
    };
  }

  /**
   * The budget's gate, behind the backoff: the sync's exchanges wait until the backoff is over,
   * then for the budget. Staff calls go straight to the budget (the transport's Retry-After pause
   * holds them, and everything else, as long as the service asked).
   */
  gate(inner: SendGate): SendGate {
    return async (priority, send, signal) => {
      if (priority === 'background') {
        for (let wait = this.#quietUntil - this.#now(); wait > 0; wait = this.#quietUntil - this.#now()) await this.#sleep(wait);
      }
      return inner(priority, send, signal);
    };
  }

  /** The share the service allows itself now, and the 429s it has met. */
  describe(): { perMinute: number; configured: number; refusals: number } {
    return { perMinute: this.#budget.limit, configured: this.#configured, refusals: this.#refusals };
  }

  refused(): void {
    const now = this.#now();
    this.#refusals += 1;
    this.#last429 = now;
    this.#inARow += 1;
    this.#quietUntil = now + this.#budget.windowMs * Math.min(MAX_BACKOFF_WINDOWS, 2 ** (this.#inARow - 1));
    this.#changedAt = now; // the quiet windows that give the share back count from the last 429
    if (now - this.#lastCut < this.#budget.windowMs) return;
    this.#lastCut = now;
    this.#budget.setPerMinute(Math.max(1, Math.floor(this.#budget.limit / 2)));
    this.#changed(this.#budget.limit);
  }

  answered(): void {
    const now = this.#now();
    this.#inARow = 0;
    const windows = Math.floor((now - this.#changedAt) / this.#budget.windowMs);
    if (windows < 1 || this.#budget.limit >= this.#configured) return;
    this.#changedAt += windows * this.#budget.windowMs;
    const quietLongEnough = now - this.#last429 >= RESTORE_AFTER_WINDOWS * this.#budget.windowMs;
    this.#budget.setPerMinute(quietLongEnough ? this.#configured : Math.min(this.#configured, this.#budget.limit + windows));
    if (this.#budget.limit === this.#configured) this.#changed(this.#budget.limit);
  }
}
