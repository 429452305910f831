// Simulated time for a bench that must wait minutes for a rate limit without taking them:
// `sleep` registers a wake-up, and `run` moves the clock to the next wake-up only once nothing
// else is under way — no fetch waiting for its answer, no other party at work (the mirror's
// owner thread answering a request), no promise ready to run. Fetches to a sandbox in another
// process are real I/O; the tracked fetch counts them while they are out.

/** Work the clock must not run past: another thread's, say. */
export interface Busy { readonly busy: boolean; idle(): Promise<void> }

export class SimulatedTime {
  private current: number;
  private readonly timers: { at: number; wake: () => void }[] = [];
  private outstanding = 0;
  private idle: (() => void) | undefined;
  private readonly others: Busy[] = [];

  constructor(start = Date.now()) {
    this.current = start;
  }

  readonly now = (): number => this.current;

  readonly sleep = (ms: number): Promise<void> =>
    new Promise((wake) => {
      this.timers.push({ at: this.current + Math.max(0, ms), wake });
    });

  /** Wraps a fetch so the clock waits for its answers (and adds `networkMs` of simulated time to each). */
  track(fetch: (input: string, init: RequestInit) => Promise<Response>, networkMs = 0): (input: string, init: RequestInit) => Promise<Response> {
    return async (input, init) => {
      this.outstanding += 1;
      try {
        const response = await fetch(input, init);
        const text = await response.text();
        return new Response(text, { status: response.status, headers: response.headers });
      } finally {
        this.outstanding -= 1;
        if (this.outstanding === 0) this.idle?.();
        if (networkMs > 0) await this.sleep(networkMs);
      }
    };
  }

  /** The clock also waits for this party to be idle before it moves. */
  waitFor(other: Busy): void {
    this.others.push(other);
  }

  /** Runs simulated time until `work` settles. */
  async run<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const settled = work.finally(() => {
      done = true;
    });
    settled.catch(() => {});
    while (!done) {
      await this.quiet();
      if (done) break;
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift();
      if (!next) throw new Error('simulated time: nothing left to wait for, and the work is not done');
      this.current = Math.max(this.current, next.at);
      next.wake();
    }
    return settled;
  }

  private async quiet(): Promise<void> {
    for (let calm = 0; calm < 3; ) {
      if (this.outstanding > 0) {
        await new Promise<void>((resolve) => {
          this.idle = resolve;
        });
        this.idle = undefined;
        calm = 0;
        continue;
      }
      const busy = this.others.find((other) => other.busy);
      if (busy) {
        await busy.idle();
        calm = 0;
        continue;
      }
      await new Promise((resolve) => setImmediate(resolve));
      calm += 1;
    }
  }
}
