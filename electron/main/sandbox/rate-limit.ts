// The service's published rate rule, enforced as the stricter reading has it: at most N requests
// in any 60 seconds per credential (its username), whichever machine sends them; beyond that a
// 429 with Retry-After (the seconds until the oldest request in the window leaves it). Off unless
// set. A refused request does not count: a client that honours Retry-After gets through.
// The window is a minute unless set shorter: the fleet bench compresses time (a "minute" of a
// few seconds), so the same 100 requests a window model an hour in minutes.

const RATE_WINDOW_MS = 60_000;

export class CredentialRateLimit {
  private perMinute: number | undefined;
  /** When each credential's admitted requests of the last minute came, oldest first. */
  private readonly sent = new Map<string, number[]>();
  private refusedCount = 0;
  private readonly windowMs: number;

  constructor(perMinute?: number, windowMs = RATE_WINDOW_MS) {
    if (!Number.isInteger(windowMs) || windowMs < 1000 || windowMs > RATE_WINDOW_MS) {
      throw new Error('The rate window is a whole number of milliseconds, from 1000 to 60000');
    }
    this.windowMs = windowMs;
    this.set(perMinute);
  }

  /** N requests a minute per credential; undefined turns the limit off. */
  set(perMinute: number | undefined): void {
    if (perMinute !== undefined && (!Number.isInteger(perMinute) || perMinute < 1 || perMinute > 1_000_000)) {
      throw new Error('The rate limit is a whole number of requests a minute, from 1 to 1000000');
    }
    this.perMinute = perMinute;
    this.sent.clear();
  }

  /** The limit and how many requests it has refused (since the sandbox started). */
  describe(): { perMinute: number | null; refused: number } {
    return { perMinute: this.perMinute ?? null, refused: this.refusedCount };
  }

  /** Counts a request of `credential` at `now`; answers the Retry-After seconds when it is refused. */
  admit(credential: string, now: number): number | undefined {
    if (this.perMinute === undefined) return undefined;
    const times = this.sent.get(credential) ?? [];
    while (times.length > 0 && (times[0] as number) <= now - this.windowMs) times.shift();
    if (times.length >= this.perMinute) {
      this.refusedCount += 1;
      return Math.max(1, Math.ceil(((times[0] as number) + this.windowMs - now) / 1000));
    }
    times.push(now);
    this.sent.set(credential, times);
    return undefined;
  }
}
