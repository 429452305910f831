// Each sync source's runs on the mirror's file (`sync_state`): a run begun, its cursor moved with
// every page (inside the page's own transaction: page-writes.ts), its end or its failure, and
// what the Sync view and the engine read back. A desk in a library also keeps here the change
// sequence its fills from the library mirror have reached (library-fill.ts).
import type { SourceState } from '../shared/collection.ts';
import { isErrorCode, type ErrorParams } from '../shared/errors.ts';
import { isReason } from '../shared/reasons.ts';
import type { RunEnd, RunFailure } from '../node/sync/page-store.ts';
import type { MirrorFile } from './mirror-file.ts';

interface StateRow {
  source: string; in_progress: number; next_token: string | null; run_since: number | null; run_started_at: number | null;
  last_success_at: number | null; last_attempt_at: number | null; last_error: string | null; last_error_code: string | null;
  last_error_reason: string | null; last_error_params: string | null; items: number;
  full_success_at: number | null; full_removed: number | null;
}

/** The sources that write titles, by name (a library's content: this prefix and its id). */
const TITLE_SOURCES = { global: 'global', libraryContent: 'library-content:' } as const;

const orUndefined = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/** A failure's stored parameters: only words and numbers come back. */
function paramsOf(json: string | null): ErrorParams {
  try {
    const parsed: unknown = JSON.parse(json ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number'));
  } catch {
    return {};
  }
}

export class SyncState {
  private readonly file: MirrorFile;

  constructor(file: MirrorFile) {
    this.file = file;
  }

  state(source: string): SourceState {
    const row = this.file.query('SELECT * FROM sync_state WHERE source = ?').get(source) as StateRow | undefined;
    if (!row) return { source, inProgress: false, items: 0 };
    return {
      source, inProgress: row.in_progress === 1, nextToken: orUndefined(row.next_token), runSince: orUndefined(row.run_since),
      runStartedAt: orUndefined(row.run_started_at), lastSuccessAt: orUndefined(row.last_success_at),
      lastAttemptAt: orUndefined(row.last_attempt_at), lastError: orUndefined(row.last_error),
      ...(row.last_error_code !== null && isErrorCode(row.last_error_code) ? { lastErrorCode: row.last_error_code } : {}),
      ...(row.last_error_reason !== null && isReason(row.last_error_reason) ? { lastErrorReason: row.last_error_reason, lastErrorParams: paramsOf(row.last_error_params) } : {}),
      items: row.items,
      ...(row.full_success_at === null ? {} : { lastFullAt: row.full_success_at }),
      ...(row.full_removed === null ? {} : { lastFullRemoved: row.full_removed }),
    };
  }

  allStates(): SourceState[] {
    const rows = this.file.query('SELECT source FROM sync_state ORDER BY source').all() as { source: string }[];
    return rows.map((r) => this.state(r.source));
  }

  /** Some source's run is under way (a sync writing page after page: the Collection's index is not rebuilt at every one). */
  anyUnderWay(): boolean {
    return this.file.query('SELECT 1 FROM sync_state WHERE in_progress = 1').get() !== undefined;
  }

  /** Some run of titles is under way (a bulk run's end waits for the last of them: collection-tables.ts). */
  titlesUnderWay(): boolean {
    return this.file.query(`SELECT 1 FROM sync_state WHERE in_progress = 1 AND (source = '${TITLE_SOURCES.global}' OR source LIKE '${TITLE_SOURCES.libraryContent}%')`).get() !== undefined;
  }

  /** A run begins (`since`: a delta's base; none, a full run). A full run of titles that writes in bulk says so in the same transaction (collection-tables.ts, beginBulk). */
  beginRun(source: string, since: number | undefined, startedAt: number): void {
    this.file.transaction(() => {
      this.file.prepare(`INSERT INTO sync_state (source, in_progress, next_token, run_since, run_started_at, last_attempt_at, items)
        VALUES (?, 1, NULL, ?, ?, ?, 0)
        ON CONFLICT (source) DO UPDATE SET in_progress = 1, next_token = NULL, run_since = excluded.run_since,
          run_started_at = excluded.run_started_at, last_attempt_at = excluded.last_attempt_at, items = 0`)
        .run(source, since ?? null, startedAt, startedAt);
    });
  }

  /** Inside the page's transaction: where to continue, and how much has been done. */
  advance(source: string, nextToken: string | undefined, items: number): void {
    this.file.prepare('UPDATE sync_state SET next_token = ?, items = items + ? WHERE source = ?').run(nextToken ?? null, items, source);
  }

  /**
   * A run's end, in one transaction: what a full run did not see removed (`sweep`: how many
   * were), the run marked done. A full run's time and count are kept beside the source (the Sync
   * view and the full entitlement pass's schedule read them).
   */
  finishRun(source: string, sweep: () => RunEnd['removed']): RunEnd['removed'] {
    return this.file.transaction(() => {
      const removed = sweep();
      this.file.prepare(`UPDATE sync_state SET in_progress = 0, next_token = NULL, last_success_at = run_started_at,
        last_error = NULL, last_error_code = NULL, last_error_reason = NULL, last_error_params = NULL,
        full_success_at = CASE WHEN run_since IS NULL THEN run_started_at ELSE full_success_at END,
        full_removed = CASE WHEN run_since IS NULL THEN ? ELSE full_removed END WHERE source = ?`).run(removed.titles + removed.entitlements, source);
      return removed;
    }, true);
  }

  /** `message` is English, for the log; the code, and the reason when there is one, are what staff read, in their language. */
  failRun(source: string, failure: RunFailure, at: number): void {
    this.file.prepare(`UPDATE sync_state SET last_error = ?, last_error_code = ?, last_error_reason = ?, last_error_params = ?, last_attempt_at = ?
      WHERE source = ?`).run(failure.message, failure.code, failure.reason ?? null, failure.reason ? JSON.stringify(failure.params ?? {}) : null, at, source);
  }

  /** A fill that failed is not under way (it has no cursor to resume from: the change sequence is one). */
  endRun(source: string): void {
    this.file.prepare('UPDATE sync_state SET in_progress = 0 WHERE source = ?').run(source);
  }

  /** The change sequence of the library mirror stored so far (0: never filled from it). */
  librarySeq(): number {
    const row = this.file.query("SELECT value FROM mirror_state WHERE key = 'library_seq'").get() as { value: number } | undefined;
    return row ? Number(row.value) : 0;
  }

  /** Inside a batch's transaction: the change sequence its writes reach. */
  setLibrarySeq(seq: number): void {
    this.file.prepare("INSERT OR REPLACE INTO mirror_state (key, value) VALUES ('library_seq', ?)").run(seq);
  }
}
