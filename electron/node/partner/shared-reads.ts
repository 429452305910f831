// Reads that ask the service the same thing share one request (issue #34, the guidance's "combine
// similar requests"): a second caller of an identical read while the first is in flight waits for
// the same answer. The request is cancelled only when every caller has gone (each caller's own
// signal cancels its wait). Some answers are kept a short while (the guidance's "cache with a
// lifetime"): a search paged back and forth, availability asked again a moment later. What a
// patron did changes availability, so an action forgets the kept availability; the lock forgets
// everything kept (what was searched is what a patron asked for).

interface InFlight { answer: Promise<unknown>; stop: AbortController; waiting: number }
interface Kept { answer: unknown; until: number; kind: string }

/** Answers kept at most: a desk's searches and availability reads of a few minutes. */
const KEPT_AT_MOST = 200;

export class SharedReads {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly kept = new Map<string, Kept>();
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  /**
   * The answer to the read `key`: kept (when `keepMs` > 0 and fresh), joined (the same read in
   * flight), or fetched. `signal` stops this caller's wait; the request stops when no caller waits.
   */
  async read(key: string, kind: string, keepMs: number, signal: AbortSignal | undefined, fetch: (signal: AbortSignal) => Promise<unknown>): Promise<unknown> {
    signal?.throwIfAborted();
    const kept = keepMs > 0 ? this.kept.get(key) : undefined;
    if (kept && kept.until > this.now()) return kept.answer;
    let shared = this.inFlight.get(key);
    if (!shared) {
      const entry: InFlight = { answer: undefined as unknown as Promise<unknown>, stop: new AbortController(), waiting: 0 };
      entry.answer = fetch(entry.stop.signal);
      entry.answer.then((answer) => { if (keepMs > 0) this.keep(key, kind, answer, keepMs); }, () => {});
      void entry.answer.finally(() => { if (this.inFlight.get(key) === entry) this.inFlight.delete(key); }).catch(() => {});
      this.inFlight.set(key, entry);
      shared = entry;
    }
    shared.waiting += 1;
    try {
      return await untilAborted(shared.answer, signal);
    } finally {
      shared.waiting -= 1;
      // The last caller gone before the answer: nobody wants it, so it is not asked for (or stops on the wire).
      if (shared.waiting === 0 && signal?.aborted && this.inFlight.get(key) === shared) {
        this.inFlight.delete(key);
        shared.stop.abort(signal.reason);
      }
    }
  }

  /** Forgets the kept answers of `kind`, or all of them. */
  forget(kind?: string): void {
    for (const [key, kept] of this.kept) if (kind === undefined || kept.kind === kind) this.kept.delete(key);
  }

  private keep(key: string, kind: string, answer: unknown, keepMs: number): void {
    this.kept.delete(key);
    this.kept.set(key, { answer, until: this.now() + keepMs, kind });
    if (this.kept.size > KEPT_AT_MOST) this.kept.delete(this.kept.keys().next().value as string);
  }
}

/** `work`, or the signal's reason as soon as it aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}
