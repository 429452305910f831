// Staff calls, fairly across desks: each desk's calls wait in their own line, in the order sent,
// and the lines take turns (round robin), so a desk that sends many calls does not hold back one
// that sends a few. A handful at a time go on to the credential's budget; while the budget has
// room nobody waits here at all.
//
// When the offered load is past the limit, a call learns its wait before it waits: over
// TOLD_AFTER_MS the desk is told the estimate (staff see it in one sentence) and the call stays
// in line; over QUEUE_AT_MOST_MS it is refused at once with the wait (429 and Retry-After), not
// done — so every call is done once or reported as not done. A call whose desk stops waiting
// (the connection closed) leaves the line, not done.
import type { CredentialBudget } from './credential-budget.ts';

/** A wait longer than this is told to staff. */
export const TOLD_AFTER_MS = 2_000;
/** A wait longer than this is refused at once (the desk's client gives up on an answer after 15 s). */
export const QUEUE_AT_MOST_MS = 10_000;
/** Calls let through to the budget at a time; the rest wait in their desk's line. */
const THROUGH_AT_A_TIME = 12;

/** The call would wait longer than a desk should: refused, not done. */
export class WaitTooLong extends Error {
  readonly waitMs: number;
  constructor(waitMs: number) {
    super(`The lending service's limit is reached: this call would wait about ${Math.ceil(waitMs / 1000)} seconds.`);
    this.waitMs = waitMs;
  }
}

interface Job {
  start: () => void;
  /** The call's desk stopped waiting. */
  abandoned: boolean;
}

export class StaffQueue {
  private readonly budget: CredentialBudget;
  private readonly lines = new Map<string, Job[]>();
  /** Desks with calls in line, in turn order. */
  private turns: string[] = [];
  private through = 0;

  constructor(budget: CredentialBudget) {
    this.budget = budget;
  }

  /** Calls waiting in the desks' lines. */
  get waiting(): number {
    let n = 0;
    for (const line of this.lines.values()) n += line.length;
    return n;
  }

  /**
   * Runs `work` in `desk`'s turn. `told` hears the wait when it is over TOLD_AFTER_MS; a wait over
   * QUEUE_AT_MOST_MS rejects with WaitTooLong before anything is done. `signal` (the desk gone)
   * takes a call still in line out of it, not done.
   */
  async run<T>(desk: string, work: () => Promise<T>, told: (waitMs: number) => void, signal?: AbortSignal): Promise<T> {
    const waitMs = this.estimate(desk);
    if (waitMs > QUEUE_AT_MOST_MS) throw new WaitTooLong(waitMs);
    let toldOnce = false;
    const tell = (ms: number): void => {
      toldOnce = true;
      told(ms);
    };
    if (waitMs > TOLD_AFTER_MS) tell(waitMs);
    // A call the estimate did not see coming (others arrived at the same moment) is told once its
    // wait passes the mark, if calls are still waiting for the budget then.
    let finished = false;
    const late = setTimeout(() => {
      const still = this.budget.estimateWaitMs(this.unsent());
      if (!toldOnce && !finished && this.unsent() > 0) tell(Math.max(1000, still));
    }, TOLD_AFTER_MS);
    try {
      await this.turn(desk, signal);
      return await work();
    } finally {
      finished = true;
      clearTimeout(late);
      this.through -= 1;
      this.next();
    }
  }

  /** How long a new call of `desk` would wait: the calls before it that are not on the wire yet, at the budget's pace. */
  private estimate(desk: string): number {
    return this.budget.estimateWaitMs(this.unsent() + this.aheadOf(desk));
  }

  /** Calls let through to the budget and not on the wire yet. */
  private unsent(): number {
    return Math.max(0, this.through - this.budget.staffOnWire);
  }

  /** Calls that go before a new one of `desk`: from each line, as many as take their turn before it. */
  private aheadOf(desk: string): number {
    const position = this.lines.get(desk)?.length ?? 0;
    let ahead = position;
    for (const [other, line] of this.lines) if (other !== desk) ahead += Math.min(line.length, position + 1);
    return ahead;
  }

  private turn(desk: string, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      signal?.throwIfAborted();
      const job: Job = { start: resolve, abandoned: false };
      const line = this.lines.get(desk);
      if (line) line.push(job);
      else {
        this.lines.set(desk, [job]);
        this.turns.push(desk);
      }
      signal?.addEventListener('abort', () => {
        job.abandoned = true;
        reject(signal.reason);
      }, { once: true });
      this.next();
    });
  }

  /** Lets the next calls through, one desk's turn at a time. */
  private next(): void {
    while (this.through < THROUGH_AT_A_TIME && this.turns.length > 0) {
      const desk = this.turns.shift() as string;
      const line = this.lines.get(desk) as Job[];
      const job = line.shift() as Job;
      if (line.length > 0) this.turns.push(desk);
      else this.lines.delete(desk);
      if (job.abandoned) continue;
      this.through += 1;
      job.start();
    }
  }
}
