// The owner times every call it serves, as Signal Desktop's database worker times each of its
// calls, and tells main of the slow ones: one `mirror.slow-call` entry for the app log with the
// call's name, its time and the shapes of the statements that took it (query-trace.ts). Never
// its arguments: a Collection search's text stays out of the log like anything else staff type
// (docs/security.md), and the shapes carry no values either.
import type { MirrorCall, OwnerLogEntry, SlowCall } from '../node/mirror-interface.ts';
import { tenths, type StatementTrace } from './query-trace.ts';

/**
 * A call this long is slow. The owner answers one call at a time, in the order they came, so
 * every request behind a call waits as long as it runs — a keystroke's rows among them, whose
 * whole way from the key to painted rows is to fit in two frames (33 ms). 50 ms on the owner
 * alone is past that, and short of what a full run's end or a first Collection build takes.
 */
export const SLOW_CALL_MS = 50;

/**
 * At most one entry per call name this often; the slow calls in between are counted in the next
 * (`alsoSlow`). A full sync of a million titles stores two thousand pages: an entry each would
 * push everything else out of the app log, which keeps 4 MiB in all.
 */
export const SLOW_CALL_LOG_EVERY_MS = 60_000;

/** Statements an entry names, the slowest first. */
const STATEMENTS_LOGGED = 5;

export class CallTimer {
  private readonly trace: StatementTrace;
  private readonly log: (entry: OwnerLogEntry) => void;
  private readonly slowMs: number;
  /** Per call name: when its last entry was made, and the slow calls since. */
  private readonly logged = new Map<MirrorCall, { at: number; since: number }>();

  /** `trace`: the file's, whose clock times the calls too; `slowMs`: SLOW_CALL_MS unless a test asks for 0 (every call). */
  constructor(trace: StatementTrace, log: (entry: OwnerLogEntry) => void, slowMs = SLOW_CALL_MS) {
    this.trace = trace;
    this.log = log;
    this.slowMs = slowMs;
  }

  /** Runs one call's work, timed; a slow one is logged once it is done. */
  time<T>(call: MirrorCall, work: () => T): T {
    const { clock } = this.trace;
    this.trace.begin();
    const started = clock();
    try {
      return work();
    } finally {
      const ms = clock() - started;
      if (ms >= this.slowMs) this.slow(call, ms);
    }
  }

  private slow(call: MirrorCall, ms: number): void {
    const now = this.trace.clock();
    const last = this.logged.get(call);
    if (last && now - last.at < SLOW_CALL_LOG_EVERY_MS) {
      last.since++;
      return;
    }
    const fields: SlowCall = { call, ms: tenths(ms), statements: this.trace.slowest(STATEMENTS_LOGGED), ...(last?.since ? { alsoSlow: last.since } : {}) };
    this.logged.set(call, { at: now, since: 0 });
    this.log({ event: 'mirror.slow-call', fields });
  }
}
