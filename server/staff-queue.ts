// Staff calls, fairly across desks: each desk's calls wait in their own line, in the order sent,
// and the lines take turns (round robin), so a desk that sends many calls does not hold back one
// that sends a few. Calls are let through to the credential's budget only as the window has room
// for them (and a handful at a time), so a call waits here, in its line, and nowhere else: while
// the budget has room nobody waits at all.
//
// When the offered load is past the limit, a call learns its wait before it waits: over
// TOLD_AFTER_MS the desk is told the estimate (staff see it in one sentence) and the call stays
// in line; over QUEUE_AT_MOST_MS it is refused at once with the wait (429 and Retry-After), not
// done. A call still in line QUEUE_AT_MOST_MS after it came (others cut in ahead of the estimate)
// leaves the line then, refused the same way: so every call is answered well within the desk's
// patience (its client gives up after 15 s), done once or reported as not done. A call whose
// desk stops waiting (the connection closed) leaves the line, not done.
import type { CredentialBudget } from './credential-budget.ts';

/**
 * A wait longer than this is told to staff. Staff are owed word of any wait past 2 s; the server
 * sees only its own part of it, so it tells from 1.5 s, leaving half a second for the way to and
 * from the desk (bench:fleet at twice the limit: three lookups of 2,080 ms told nothing when the
 * server told from 2 s).
 */
export const TOLD_AFTER_MS = 1_500;
/** A wait longer than this is refused (the desk's client gives up on an answer after 15 s). */
export const QUEUE_AT_MOST_MS = 10_000;
/** Calls let through to the budget at a time (those on the wire to the partner included); the rest wait in their desk's line. */
export const THROUGH_AT_A_TIME = 12;

/** The call would wait longer than a desk should: refused, not done. */
export class WaitTooLong extends Error {
  readonly waitMs: number;
  constructor(waitMs: number) {
    super(`The lending service's limit is reached: this call would wait about ${Math.ceil(waitMs / 1000)} seconds.`);
    this.waitMs = waitMs;
  }
}

interface Job {
  /** In its line; let through to the budget (its work under way); or out of the line, not done. */
  state: 'waiting' | 'through' | 'gone';
  start: () => void;
  refuse: (reason: unknown) => void;
}

export class StaffQueue {
  private readonly budget: CredentialBudget;
  private readonly lines = new Map<string, Job[]>();
  /** Desks with calls in line, in turn order. */
  private turns: string[] = [];
  /** Calls let through and not finished. */
  private through = 0;
  /** Set while calls wait for the window to move rather than for a call to finish. */
  private wake: ReturnType<typeof setTimeout> | undefined;

  constructor(budget: CredentialBudget) {
    this.budget = budget;
  }

  /** How long a staff call asked now would wait for the window with `ahead` calls before it (0: it goes at once). */
  windowWaitMs(ahead: number): number {
    return this.budget.estimateWaitMs(ahead);
  }

  /** Calls waiting in the desks' lines. */
  get waiting(): number {
    let n = 0;
    for (const line of this.lines.values()) n += line.length;
    return n;
  }

  /**
   * Runs `work` in `desk`'s turn. `told` hears the wait when it is over TOLD_AFTER_MS; a wait over
   * QUEUE_AT_MOST_MS rejects with WaitTooLong before anything is done, and so does a call still in
   * line that long. `signal` (the desk gone) takes a call still in line out of it, not done.
   */
  async run<T>(desk: string, work: () => Promise<T>, told: (waitMs: number) => void, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    const waitMs = this.waitFor(desk, this.lines.get(desk)?.length ?? 0);
    if (waitMs > QUEUE_AT_MOST_MS) throw new WaitTooLong(waitMs);
    let toldOnce = waitMs > TOLD_AFTER_MS;
    if (toldOnce) told(waitMs);
    let job!: Job;
    const turn = new Promise<void>((start, refuse) => { job = { state: 'waiting', start, refuse }; });
    this.join(desk, job);
    // A call the estimate did not see coming (others cut in, the window moved slower) is told once
    // its wait passes the mark, while it is still in line or not yet sent.
    const late = setTimeout(() => {
      if (toldOnce) return;
      const still = job.state === 'waiting' ? this.waitFor(desk, this.positionOf(desk, job))
        : job.state === 'through' && this.unsent() > 0 ? this.budget.estimateWaitMs(this.unsent()) : undefined;
      if (still === undefined) return;
      toldOnce = true;
      told(Math.max(1000, still));
    }, TOLD_AFTER_MS);
    const deadline = setTimeout(() => {
      if (job.state === 'waiting') this.leave(desk, job, new WaitTooLong(Math.max(1000, this.waitFor(desk, this.positionOf(desk, job)))));
    }, QUEUE_AT_MOST_MS);
    const gone = (): void => {
      if (job.state === 'waiting') this.leave(desk, job, signal?.reason);
    };
    signal?.addEventListener('abort', gone, { once: true });
    this.next();
    try {
      await turn;
      return await work();
    } finally {
      clearTimeout(late);
      clearTimeout(deadline);
      signal?.removeEventListener('abort', gone);
      if (job.state === 'through') this.through -= 1;
      job.state = 'gone';
      this.next();
    }
  }

  /** How long a call of `desk` at `position` in its line waits: the calls before it that are not on the wire yet, at the budget's pace. */
  private waitFor(desk: string, position: number): number {
    return this.budget.estimateWaitMs(this.unsent() + this.aheadOf(desk, position));
  }

  /** Calls let through to the budget and not on the wire yet. */
  private unsent(): number {
    return Math.max(0, this.through - this.budget.staffOnWire);
  }

  /** Calls that go before the one at `position` in `desk`'s line: from each line, as many as take their turn before it. */
  private aheadOf(desk: string, position: number): number {
    let ahead = position;
    for (const [other, line] of this.lines) if (other !== desk) ahead += Math.min(line.length, position + 1);
    return ahead;
  }

  private positionOf(desk: string, job: Job): number {
    return Math.max(0, this.lines.get(desk)?.indexOf(job) ?? 0);
  }

  private join(desk: string, job: Job): void {
    const line = this.lines.get(desk);
    if (line) line.push(job);
    else {
      this.lines.set(desk, [job]);
      this.turns.push(desk);
    }
  }

  /** Takes a call out of its line, not done. */
  private leave(desk: string, job: Job, reason: unknown): void {
    job.state = 'gone';
    const line = this.lines.get(desk);
    const at = line?.indexOf(job) ?? -1;
    if (line && at >= 0) {
      line.splice(at, 1);
      if (line.length === 0) {
        this.lines.delete(desk);
        this.turns = this.turns.filter((d) => d !== desk);
      }
    }
    job.refuse(reason);
  }

  /**
   * Lets the next calls through, one desk's turn at a time, as many as the window has room for now;
   * when it is full, looks again as soon as it may have room (the sync waits below staff's share,
   * so that place is staff's).
   */
  private next(): void {
    while (this.turns.length > 0 && this.through < THROUGH_AT_A_TIME && this.unsent() < this.budget.roomNow()) {
      const desk = this.turns.shift() as string;
      const line = this.lines.get(desk) as Job[];
      const job = line.shift() as Job;
      if (line.length > 0) this.turns.push(desk);
      else this.lines.delete(desk);
      job.state = 'through';
      this.through += 1;
      job.start();
    }
    clearTimeout(this.wake);
    this.wake = undefined;
    if (this.turns.length === 0 || this.through >= THROUGH_AT_A_TIME) return;
    // Set afresh each time from the budget's clock: a wake-up set before the clock stepped forward
    // (NTP; the budget's window is read by the clock) would hold calls back past the room it waited for.
    this.wake = setTimeout(() => {
      this.wake = undefined;
      this.next();
    }, this.budget.nextRoomInMs());
  }
}
