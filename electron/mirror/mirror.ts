// The catalog mirror on disk (node:sqlite, WAL). Writes come a page at a time: each page and
// the token of the next one commit in one transaction, so an interrupted sync resumes where it
// stopped and a page is never half applied. Besides the records, a write keeps what search and
// the browser read: a title's words in the full-text index, and the copies each library's
// entitlement rows hold of the columns the browser filters and sorts on (shelf-columns.ts).
// During a full run of titles ("bulk", remembered in mirror_state so a resumed run stays one)
// neither is kept page by page: the run's end builds the index once and refreshes the copies.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Availability, CatalogRecord, Entitlement, LibraryContentChange, PurchaseModel } from '../shared/model.ts';
import { ContentKeys } from './content-keys.ts';
import { migrate } from './schema.ts';
import { recordOf, titleRow, unpackTitleChanges, type PackedTitles, type TitleRow } from './title-row.ts';
import { AVAILABILITY_RANK, COPY_FROM_TITLE, SHELF_COLUMNS } from './shelf-columns.ts';

export type { SourceState } from '../shared/collection.ts';
import type { SourceState } from '../shared/collection.ts';
import { isErrorCode, type ErrorCode } from '../shared/errors.ts';


interface StateRow {
  source: string; in_progress: number; next_token: string | null; run_since: number | null; run_started_at: number | null;
  last_success_at: number | null; last_attempt_at: number | null; last_error: string | null; last_error_code: string | null; items: number;
  full_success_at: number | null; full_removed: number | null;
}

// FTS5's configuration for building the whole index at once, and its defaults (fts5.html#fts5_configuration_options).
const BUILD_HASH_SIZE = 4 * 1024 * 1024;
const BUILD_AUTOMERGE = 8;
const DEFAULT_HASH_SIZE = 1024 * 1024;
const DEFAULT_AUTOMERGE = 4;

const orUndefined = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/** What a title contributes to search and to its libraries' rows (words NULL: stored by schema 1, not computed yet). */
interface TitleColumns { title: string | null; artist: string | null; format: string | null; year: number | null; kids: number; words: string | null }

/** Availability this connection stored (the titles' keys: content-keys.ts), for a reader of the same connection (its own writes do not move `data_version`). */
export type AvailabilityListener = (libraryId: number, keys: number[]) => void;

export class CatalogMirror {
  readonly db: DatabaseSync;
  /** Content ids to the integer keys the tables use, and back. */
  readonly keys: ContentKeys;
  private readonly statements: Record<string, StatementSync> = {};
  private readonly availabilityListeners = new Set<AvailabilityListener>();

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new DatabaseSync(path);
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL'); // WAL + NORMAL: a power cut may lose the last page, never corrupt
    this.db.exec('PRAGMA foreign_keys = ON');
    this.db.exec('PRAGMA busy_timeout = 5000'); // the worker writes while main reads
    migrate(this.db);
    this.keys = new ContentKeys(this.db);
  }

  close(): void {
    this.db.close();
  }

  private statement(sql: string): StatementSync {
    return (this.statements[sql] ??= this.db.prepare(sql));
  }

  /** Runs `work` in one transaction. */
  transaction<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  // ---- sync state ----

  state(source: string): SourceState {
    const row = this.statement('SELECT * FROM sync_state WHERE source = ?').get(source) as StateRow | undefined;
    if (!row) return { source, inProgress: false, items: 0 };
    return {
      source, inProgress: row.in_progress === 1, nextToken: orUndefined(row.next_token), runSince: orUndefined(row.run_since),
      runStartedAt: orUndefined(row.run_started_at), lastSuccessAt: orUndefined(row.last_success_at),
      lastAttemptAt: orUndefined(row.last_attempt_at), lastError: orUndefined(row.last_error),
      ...(row.last_error_code !== null && isErrorCode(row.last_error_code) ? { lastErrorCode: row.last_error_code } : {}), items: row.items,
      ...(row.full_success_at === null ? {} : { lastFullAt: row.full_success_at }),
      ...(row.full_removed === null ? {} : { lastFullRemoved: row.full_removed }),
    };
  }

  allStates(): SourceState[] {
    const rows = this.statement('SELECT source FROM sync_state ORDER BY source').all() as { source: string }[];
    return rows.map((r) => this.state(r.source));
  }

  /** `bulk`: a full run of titles, whose end builds the search index once (finishBulk). */
  beginRun(source: string, since: number | undefined, startedAt: number, bulk = false): void {
    this.transaction(() => {
      this.statement(`INSERT INTO sync_state (source, in_progress, next_token, run_since, run_started_at, last_attempt_at, items)
        VALUES (?, 1, NULL, ?, ?, ?, 0)
        ON CONFLICT (source) DO UPDATE SET in_progress = 1, next_token = NULL, run_since = excluded.run_since,
          run_started_at = excluded.run_started_at, last_attempt_at = excluded.last_attempt_at, items = 0`)
        .run(source, since ?? null, startedAt, startedAt);
      if (bulk && since === undefined) this.statement("INSERT OR REPLACE INTO mirror_state (key, value) VALUES ('bulk', 1)").run();
    });
  }

  inBulk(): boolean {
    return this.statement("SELECT 1 FROM mirror_state WHERE key = 'bulk'").get() !== undefined;
  }

  /**
   * The end of bulk writing, once no run of titles is left under way: the search index built
   * from every title's words, and each library's copies refreshed where a title changed. One
   * transaction, so a crash in it leaves bulk on and the next end does it again.
   */
  finishBulk(titleSources: readonly string[]): boolean {
    if (!this.inBulk()) return false;
    const placeholders = titleSources.map(() => '?').join(', ');
    const running = titleSources.length > 0 && this.statement(`SELECT 1 FROM sync_state WHERE in_progress = 1 AND source IN (${placeholders})`).get(...titleSources);
    if (running) return false;
    this.transaction(() => {
      this.db.exec("INSERT INTO title_words (title_words) VALUES ('delete-all')");
      // Built with a 4 MiB term buffer and fewer merges, then back to FTS5's defaults for the
      // page-by-page writes: on a million titles 2.1 s instead of 5-6 s with schema 4's index
      // (1.4-1.5 s with schema 5's). A 16 MiB buffer took the same time (1.9-2.1 s) for 24 MiB
      // more peak RSS; 8 MiB, 2.2 s.
      this.ftsConfig(BUILD_HASH_SIZE, BUILD_AUTOMERGE);
      this.db.exec('INSERT INTO title_words (rowid, words) SELECT id, words FROM titles WHERE words IS NOT NULL');
      this.ftsConfig(DEFAULT_HASH_SIZE, DEFAULT_AUTOMERGE);
      this.db.exec(`UPDATE entitlements SET ${SHELF_COLUMNS} = ${COPY_FROM_TITLE('entitlements')}
        WHERE ${SHELF_COLUMNS} IS NOT ${COPY_FROM_TITLE('entitlements')}`);
      this.db.exec("DELETE FROM mirror_state WHERE key = 'bulk'");
    });
    return true;
  }

  private ftsConfig(hashSize: number, automerge: number): void {
    // Literal values: with a bound value this statement failed ("SQL logic error") under node:sqlite.
    this.db.exec(`INSERT INTO title_words (title_words, rank) VALUES ('hashsize', ${Math.trunc(hashSize)})`);
    this.db.exec(`INSERT INTO title_words (title_words, rank) VALUES ('automerge', ${Math.trunc(automerge)})`);
  }

  /** Inside the page's transaction: where to continue, and how much has been done. */
  private advance(source: string, nextToken: string | undefined, items: number): void {
    this.statement('UPDATE sync_state SET next_token = ?, items = items + ? WHERE source = ?').run(nextToken ?? null, items, source);
  }

  /** `removed`: what a full run's sweep dropped (kept, with the time, for the Sync view and the full pass's schedule). */
  finishRun(source: string, removed?: number): void {
    this.statement(`UPDATE sync_state SET in_progress = 0, next_token = NULL, last_success_at = run_started_at,
      last_error = NULL, last_error_code = NULL,
      full_success_at = CASE WHEN run_since IS NULL THEN run_started_at ELSE full_success_at END,
      full_removed = CASE WHEN run_since IS NULL THEN ? ELSE full_removed END WHERE source = ?`).run(removed ?? null, source);
  }

  /** `message` is English, for the log; `code` is what staff read, in their language. */
  failRun(source: string, message: string, at: number, code: ErrorCode = 'server'): void {
    this.statement('UPDATE sync_state SET last_error = ?, last_error_code = ?, last_attempt_at = ? WHERE source = ?').run(message, code, at, source);
  }

  // ---- pages ----

  /** A page of the global catalog, its titles prepared as rows and packed (title-row.ts). */
  applyGlobalPage(source: string, run: number, packed: PackedTitles, nextToken: string | undefined): void {
    const changes = unpackTitleChanges(packed);
    this.transaction(() => {
      const bulk = this.inBulk();
      for (const change of changes) {
        if (change.kind === 'removed') {
          const key = this.keys.keyOf(change.id);
          if (key !== undefined) this.removeTitle(key, bulk);
        } else this.upsertTitle({ ...change.row, id: this.keys.keyOf(change.row.id, true) }, run, bulk);
      }
      this.advance(source, nextToken, changes.length);
    });
  }

  applyEntitlementPage(source: string, run: number, libraryId: number, model: PurchaseModel, items: Entitlement[], nextToken: string | undefined): void {
    this.transaction(() => {
      for (const e of items) {
        const key = this.keys.keyOf(e.contentId, true);
        if (e.removed) this.statement('DELETE FROM entitlements WHERE library_id = ? AND content_id = ?').run(libraryId, key);
        else this.upsertEntitlement(libraryId, key, model, e.active, run);
      }
      this.advance(source, nextToken, items.length);
    });
  }

  /** The library content endpoint carries both the record and the entitlement; TV comes as one record per episode. */
  applyLibraryContentPage(source: string, run: number, libraryId: number, changes: LibraryContentChange[], nextToken: string | undefined): void {
    this.transaction(() => {
      const bulk = this.inBulk();
      for (const change of changes) {
        if (change.kind === 'removed') {
          this.statement('DELETE FROM entitlements WHERE library_id = ? AND content_id = ?').run(libraryId, this.keys.keyOf(change.id) ?? null);
          continue;
        }
        const { active, purchaseModel, price: _price, ...record } = change.title;
        const key = this.keys.keyOf(record.id, true);
        const existing = this.statement('SELECT r.record, r.wire FROM titles t JOIN title_records r ON r.id = t.id WHERE t.id = ? AND t.seen_run = ?')
          .get(key, run) as { record: string; wire: number } | undefined;
        const merged = existing ? mergeEpisodes(recordOf(existing.record, existing.wire, record.id), record) : record;
        this.upsertTitle({ ...titleRow(merged), id: key }, run, bulk);
        if (purchaseModel) this.upsertEntitlement(libraryId, key, purchaseModel, active !== false, run);
      }
      this.advance(source, nextToken, changes.length);
    });
  }

  /** After a complete full run: what the run did not see is gone from the service. */
  sweepTitles(run: number): number {
    if (!this.inBulk()) {
      this.statement(`INSERT INTO title_words (title_words, rowid, words) SELECT 'delete', id, words FROM titles WHERE seen_run < ? AND words IS NOT NULL`).run(run);
      this.statement(`UPDATE entitlements SET ${SHELF_COLUMNS} = (NULL, NULL, NULL, NULL, 0, NULL)
        WHERE content_id IN (SELECT id FROM titles WHERE seen_run < ?)`).run(run);
    }
    return Number(this.statement('DELETE FROM titles WHERE seen_run < ?').run(run).changes);
  }

  sweepEntitlements(libraryId: number, model: PurchaseModel | undefined, run: number): number {
    const sql = model
      ? 'DELETE FROM entitlements WHERE library_id = ? AND model = ? AND seen_run < ?'
      : 'DELETE FROM entitlements WHERE library_id = ? AND seen_run < ?';
    const result = model ? this.statement(sql).run(libraryId, model, run) : this.statement(sql).run(libraryId, run);
    return Number(result.changes);
  }

  storeAvailability(libraryId: number, items: Availability[], readAt: number): void {
    // An id the service left out of its answer (client.ts: asked twice) says nothing to store.
    const keys = this.transaction(() => items.filter((a) => !a.unknown).map((a) => {
      const key = this.keys.keyOf(a.contentId, true);
      this.statement(`INSERT INTO availability (library_id, content_id, status, available_copies, total_copies, holds_queue_size, read_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (library_id, content_id) DO UPDATE SET status = excluded.status, available_copies = excluded.available_copies,
          total_copies = excluded.total_copies, holds_queue_size = excluded.holds_queue_size, read_at = excluded.read_at`)
        .run(libraryId, key, a.status ?? null, a.availableCopies ?? null, a.totalCopies ?? null, a.holdsQueueSize ?? null, readAt);
      this.statement(`UPDATE entitlements SET avail = ${AVAILABILITY_RANK('entitlements')} WHERE library_id = ? AND content_id = ?`)
        .run(libraryId, key);
      return key;
    }));
    for (const listener of this.availabilityListeners) listener(libraryId, keys);
  }

  onAvailabilityStored(listener: AvailabilityListener): () => void {
    this.availabilityListeners.add(listener);
    return () => this.availabilityListeners.delete(listener);
  }

  integrityCheck(): string {
    return (this.db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
  }

  /** `row.id` is the title's key (content-keys.ts). */
  private upsertTitle(row: TitleRow & { id: number }, run: number, bulk: boolean): void {
    const now: TitleColumns = { title: row.title, artist: row.artist, format: row.format, year: row.year, kids: row.kids, words: row.words };
    const before = bulk ? undefined
      : this.statement('SELECT title, artist, format, year, for_children AS kids, words FROM titles WHERE id = ?').get(row.id) as TitleColumns | undefined;
    this.statement(`INSERT INTO titles (id, title, series, artist, format, year, isbn, upc, for_children, cover, countries, seen_run, words, title_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET title = excluded.title, series = excluded.series, artist = excluded.artist,
        format = excluded.format, year = excluded.year, isbn = excluded.isbn, upc = excluded.upc,
        for_children = excluded.for_children, cover = excluded.cover, countries = excluded.countries,
        seen_run = excluded.seen_run, words = excluded.words, title_id = excluded.title_id`)
      .run(row.id, row.title, row.series, row.artist, row.format, row.year, row.isbn, row.upc, row.kids, row.cover, row.countries, run, row.words, row.titleId);
    this.statement('INSERT INTO title_records (id, record, wire) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record, wire = excluded.wire')
      .run(row.id, row.record, row.wire);
    if (bulk) return;
    if (before?.words !== now.words) {
      // The index holds no copy of the words: removing the old entry takes the words it was made of.
      if (before?.words != null) this.statement("INSERT INTO title_words (title_words, rowid, words) VALUES ('delete', ?, ?)").run(row.id, before.words);
      this.statement('INSERT INTO title_words (rowid, words) VALUES (?, ?)').run(row.id, now.words);
    }
    // Only the copied columns that changed: an indexed column rewritten with its own value still costs its index entries.
    const changed = (['title', 'artist', 'format', 'year', 'kids', 'words'] as const).filter((column) => !before || before[column] !== now[column]);
    if (changed.length > 0) {
      this.statement(`UPDATE entitlements SET ${changed.map((column) => `${column} = ?`).join(', ')} WHERE content_id = ?`)
        .run(...changed.map((column) => now[column]), row.id);
    }
  }

  private removeTitle(id: number, bulk: boolean): void {
    if (!bulk) {
      this.statement(`INSERT INTO title_words (title_words, rowid, words) SELECT 'delete', id, words FROM titles WHERE id = ? AND words IS NOT NULL`).run(id);
      this.statement(`UPDATE entitlements SET ${SHELF_COLUMNS} = (NULL, NULL, NULL, NULL, 0, NULL) WHERE content_id = ?`).run(id);
    }
    this.statement('DELETE FROM titles WHERE id = ?').run(id);
  }

  /** A new row copies its title's columns; an existing one keeps them (a title's own writes refresh them). */
  private upsertEntitlement(libraryId: number, contentId: number, model: PurchaseModel, active: boolean, run: number): void {
    this.statement(`INSERT INTO entitlements (library_id, content_id, model, active, seen_run, avail, title, artist, format, year, kids, words)
      SELECT e.library_id, e.content_id, e.model, e.active, e.seen_run, ${AVAILABILITY_RANK('e')}, t.title, t.artist, t.format, t.year, coalesce(t.for_children, 0), t.words
      FROM (SELECT ? AS library_id, ? AS content_id, ? AS model, ? AS active, ? AS seen_run) AS e LEFT JOIN titles t ON t.id = e.content_id
      WHERE true
      ON CONFLICT (library_id, content_id) DO UPDATE SET model = excluded.model, active = excluded.active, seen_run = excluded.seen_run,
        avail = excluded.avail`)
      .run(libraryId, contentId, model, active ? 1 : 0, run);
  }
}

/** Library content sends one record per TV episode under the series' id: keep them as episodes of one title. */
function mergeEpisodes(first: CatalogRecord, next: CatalogRecord): CatalogRecord {
  const episodes = [...first.episodes, ...next.episodes.filter((e) => !first.episodes.some((f) => f.titleId === e.titleId))];
  return { ...first, episodes };
}
