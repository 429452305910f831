// The mirror's file (node:sqlite, WAL), opened only by its owner thread (mirror-owner.ts), and
// the one holder of its handle. Every other part of the owner reaches SQLite through the doors
// here: writers through `prepare` and `exec`, readers through `query`, which answers only
// statements that read. So each statement is prepared once, and each run is timed for the
// slow-call log (query-trace.ts) — which a part holding the handle itself would slip past.
// Besides, it keeps what every part shares: the transaction under way, the generation the
// Collection's indexes are built at, the vocabulary and the content keys.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { ContentKeys } from './content-keys.ts';
import { StatementTrace, type Timing } from './query-trace.ts';
import { migrate } from './schema.ts';
import { StoredVocabulary } from './vocabulary.ts';

/** A statement that may write; a query, one that only reads. */
export type Statement = Pick<StatementSync, 'get' | 'all' | 'run'>;
export type Query = Pick<StatementSync, 'get' | 'all'>;
/** Where a part prepares its statements: the file (or, in a test, a handle of the test's own on the file). */
export interface Prepares { prepare(sql: string): Statement }
/** Where a part that only reads asks its queries. */
export interface Reads { query(sql: string): Query }

/** Values by position, or named ones first (then node:sqlite reads the first argument as the names). */
type Parameters = SQLInputValue[] | [named: Record<string, SQLInputValue>, ...SQLInputValue[]];

/** A prepared statement whose every run is added to its tally. */
class TimedStatement implements Statement {
  private readonly statement: StatementSync;
  private readonly timing: Timing;
  private readonly trace: StatementTrace;

  constructor(statement: StatementSync, timing: Timing, trace: StatementTrace) {
    this.statement = statement;
    this.timing = timing;
    this.trace = trace;
  }

  get(...parameters: Parameters): ReturnType<StatementSync['get']> {
    return this.timed(this.statement.get, parameters);
  }

  all(...parameters: Parameters): ReturnType<StatementSync['all']> {
    return this.timed(this.statement.all, parameters);
  }

  run(...parameters: Parameters): ReturnType<StatementSync['run']> {
    return this.timed(this.statement.run, parameters);
  }

  /** One of the statement's own methods, run with `parameters` and timed (no closure: this runs for every record of a page). */
  private timed<R>(method: (...parameters: SQLInputValue[]) => R, parameters: Parameters): R {
    const started = this.trace.clock();
    try {
      return method.apply(this.statement, parameters as SQLInputValue[]);
    } finally {
      this.trace.took(this.timing, started);
    }
  }
}

/** A reader's statement begins so; anything else (a write, a pragma that sets) is refused where it is asked. */
const READS = /^\s*(SELECT|WITH)\b/i;

export class MirrorFile implements Prepares, Reads {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, TimedStatement>();
  /** Statements run once each time, not prepared (a pragma, a transaction's edges, an index built): tallied all the same. */
  readonly #executed = new Map<string, Timing>();
  readonly trace: StatementTrace;
  readonly vocabulary: StoredVocabulary;
  /** Content ids to the integer keys the tables use, and back. */
  readonly keys: ContentKeys;
  /**
   * Moves with every committed write of titles or entitlements: an index of the Collection built
   * at one generation is stale at the next (the owner is this file's only writer, so nothing
   * else can move it).
   */
  #writes = 0;
  /** The transaction under way, and whether anything in it wrote titles or entitlements. */
  #open: { changes: boolean } | undefined;

  /** `clock`: milliseconds, for the statements' tallies (a test's own makes a call slow without waiting). */
  constructor(path: string, clock: () => number = () => performance.now()) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.trace = new StatementTrace(clock);
    this.#db = new DatabaseSync(path);
    this.exec('PRAGMA journal_mode = WAL');
    this.exec('PRAGMA synchronous = NORMAL'); // WAL + NORMAL: a power cut may lose the last page, never corrupt
    this.exec('PRAGMA foreign_keys = ON');
    // A new file returns the pages a sweep frees in steps (page-store.ts, finishTitles), instead of keeping them for ever.
    if (Number(this.query('SELECT user_version FROM pragma_user_version()').get()?.user_version) === 0) this.exec('PRAGMA auto_vacuum = INCREMENTAL');
    migrate(this.#db);
    this.vocabulary = new StoredVocabulary(this);
    this.keys = new ContentKeys(this);
  }

  /** A statement, prepared once per SQL text: for the parts that write. */
  prepare(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = new TimedStatement(this.#db.prepare(sql), this.trace.timing(sql), this.trace);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** A statement that only reads, for the parts that only read. */
  query(sql: string): Query {
    if (!READS.test(sql)) throw new Error(`A query of the mirror reads: "${sql.slice(0, 40)}…" does not begin so.`);
    return this.prepare(sql);
  }

  /** SQL run once, not prepared: pragmas, a transaction's edges, an index dropped or built. */
  exec(sql: string): void {
    let timing = this.#executed.get(sql);
    if (!timing) this.#executed.set(sql, (timing = this.trace.timing(sql)));
    const started = this.trace.clock();
    try {
      this.#db.exec(sql);
    } finally {
      this.trace.took(timing, started);
    }
  }

  /**
   * Runs `work` in one transaction; `changes` when it writes titles or entitlements. Called inside
   * another's work (a library fill's batch: several pages' writes and its change sequence), it is
   * part of that one.
   */
  transaction<T>(work: () => T, changes = false): T {
    if (this.#open) {
      this.#open.changes ||= changes;
      return work();
    }
    this.exec('BEGIN IMMEDIATE');
    const open = { changes };
    this.#open = open;
    try {
      const result = work();
      this.exec('COMMIT');
      this.#open = undefined;
      this.vocabulary.committed();
      if (open.changes) this.#writes++;
      return result;
    } catch (error) {
      this.#open = undefined;
      this.exec('ROLLBACK');
      this.vocabulary.rolledBack(); // words it added are gone from the file: forgotten in memory too
      // Availability patched into the Collection's index inside it was rolled back: the next read rebuilds.
      if (open.changes) this.#writes++;
      throw error;
    }
  }

  /** The generation of the titles and entitlements (see `#writes`). */
  get generation(): number {
    return this.#writes;
  }

  /** A change made outside `transaction(…, true)` is complete (mirror-upgrade.ts, a model relabelled): the Collection's indexes are stale. */
  touch(): void {
    this.#writes++;
  }

  close(): void {
    this.#db.close();
  }
}
