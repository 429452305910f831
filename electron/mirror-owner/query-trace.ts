// Where a call's time went on the mirror's file. Every statement the owner runs passes through
// the file (mirror-file.ts), which reads the clock before and after it and adds the time to the
// statement's own tally, so a slow call can be logged with the statements that took its time
// (slow-calls.ts) instead of with what it was asked. A tally is kept per SQL text, not per run:
// a page of 500 titles runs the same few statements 500 times and costs one entry each.
//
// What reaches the log is a statement's shape: its SQL with every literal a placeholder. The
// values a statement runs with (a search's words, content ids, a library's number) are bound,
// never part of the text; a literal written into the text is dropped as well, so nothing staff
// typed can reach the app log this way (docs/security.md).
import type { StatementTime } from '../node/mirror-interface.ts';

/** One statement's tally in the span under way (`span`: the span it was last counted in). */
export interface Timing { readonly sql: string; runs: number; ms: number; span: number }

/** A shape longer than this is cut: the log entry stays one short line whatever a statement's length. */
const SHAPE_LENGTH = 400;

/** Comments, then quoted text, blobs and numbers: each becomes a placeholder (a comment, nothing). */
const COMMENT = /--[^\n]*|\/\*[\s\S]*?\*\//g;
const LITERAL = /[xX]?'(?:[^']|'')*'|"(?:[^"]|"")*"|\b0[xX][0-9a-fA-F]+\b|\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b/g;

/** A statement's SQL as the log may carry it: literals replaced by `?`, white space made single spaces. */
export function queryShape(sql: string): string {
  const shape = sql.replace(COMMENT, ' ').replace(LITERAL, '?').replace(/\s+/g, ' ').trim();
  return shape.length > SHAPE_LENGTH ? `${shape.slice(0, SHAPE_LENGTH - 1)}…` : shape;
}

/** Milliseconds to a tenth: finer says nothing in a log. */
export const tenths = (ms: number): number => Math.round(ms * 10) / 10;

export class StatementTrace {
  /** Milliseconds, from any origin: only differences are read. */
  readonly clock: () => number;
  /** Counts spans: a tally from an earlier one starts again at its next run. */
  private span = 1;
  /** The tallies counted in this span. */
  private touched: Timing[] = [];

  constructor(clock: () => number) {
    this.clock = clock;
  }

  timing(sql: string): Timing {
    return { sql, runs: 0, ms: 0, span: 0 };
  }

  /** A statement ran from `started` (a reading of `clock`) until now. */
  took(timing: Timing, started: number): void {
    if (timing.span !== this.span) {
      timing.span = this.span;
      timing.runs = 0;
      timing.ms = 0;
      this.touched.push(timing);
    }
    timing.runs++;
    timing.ms += this.clock() - started;
  }

  /** A call begins: what ran before it (a fill's batch, an upgrade's chunk between two calls) is not its. */
  begin(): void {
    this.span++;
    this.touched = [];
  }

  /** The statements that ran since `begin`, as the log may carry them: by shape (texts that differ only in literals are one), the slowest `most` first. */
  slowest(most: number): StatementTime[] {
    const byShape = new Map<string, StatementTime>();
    for (const t of this.touched) {
      const sql = queryShape(t.sql);
      const shape = byShape.get(sql) ?? { sql, runs: 0, ms: 0 };
      shape.runs += t.runs;
      shape.ms += t.ms;
      byShape.set(sql, shape);
    }
    return [...byShape.values()].sort((a, b) => b.ms - a.ms).slice(0, most).map((shape) => ({ ...shape, ms: tenths(shape.ms) }));
  }
}
