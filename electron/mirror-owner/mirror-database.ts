// The mirror's file (node:sqlite, WAL), opened only by its owner thread (mirror-owner.ts).
// Writes come a page at a time: each page and the token of the next one commit in one
// transaction, so an interrupted sync resumes where it stopped and a page is never half applied.
// Besides the records, a write keeps what search and the Collection read: a title's words in
// the full-text index, and the copies each library's entitlement rows hold of the columns the
// Collection filters and sorts on (collection-columns.ts). During a full run of titles ("bulk",
// remembered in mirror_state so a resumed run stays one) neither is kept page by page: the
// run's end builds the index once and refreshes the copies.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Availability, CatalogChange, CatalogRecord, ContentId, Entitlement, LibraryContentChange, PurchaseModel } from '../shared/model.ts';
import { ContentKeys } from './content-keys.ts';
import { COLLECTION_ORDER_INDEXES, migrate } from './schema.ts';
import { decodeRecord } from './title-record.ts';
import { MODEL_BITS, recordOf, titleRow, type TitleRow } from './title-row.ts';
import { AVAILABILITY_RANK, COPY_FROM_TITLE, FLAGS_FROM_TITLE, COLLECTION_COLUMNS } from './collection-columns.ts';
import { StoredVocabulary } from './vocabulary.ts';
import { mergeEpisodes } from '../node/sync/page-reading.ts';

export type { SourceState } from '../shared/collection.ts';
import type { SourceState } from '../shared/collection.ts';
import { isErrorCode, type ErrorParams } from '../shared/errors.ts';
import { isReason } from '../shared/reasons.ts';
import type { AvailabilityStored, PageStored, RunEnd, RunFailure } from '../node/sync/page-store.ts';


interface StateRow {
  source: string; in_progress: number; next_token: string | null; run_since: number | null; run_started_at: number | null;
  last_success_at: number | null; last_attempt_at: number | null; last_error: string | null; last_error_code: string | null;
  last_error_reason: string | null; last_error_params: string | null; items: number;
  full_success_at: number | null; full_removed: number | null;
}

// FTS5's configuration for building the whole index at once, and its defaults (fts5.html#fts5_configuration_options).
const BUILD_HASH_SIZE = 4 * 1024 * 1024;
const BUILD_AUTOMERGE = 8;
const DEFAULT_HASH_SIZE = 1024 * 1024;
const DEFAULT_AUTOMERGE = 4;

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

/** The sources that write titles, by name (a library's content: this prefix and its id): a bulk run ends when none is under way. */
const TITLE_SOURCES = { global: 'global', libraryContent: 'library-content:' } as const;

/** What a title contributes to search and to its libraries' rows (words NULL: stored by schema 1, not computed yet). */
interface TitleColumns { title: string | null; artist: string | null; format: string | null; year: number | null; kids: number; flags: number; words: string | null }

/** Availability just stored (the titles' keys: content-keys.ts), for the Collection's index to patch in place. */
export type AvailabilityListener = (libraryId: number, keys: number[]) => void;

export class MirrorDatabase {
  readonly db: DatabaseSync;
  readonly vocabulary: StoredVocabulary;
  /** Content ids to the integer keys the tables use, and back. */
  readonly keys: ContentKeys;
  private readonly statements: Record<string, StatementSync> = {};
  /** Records of a mirror before schema 6 are still there, not all converted yet (mirror-upgrade.ts). */
  private earlierRecords: boolean;
  private readonly availabilityListeners = new Set<AvailabilityListener>();
  /**
   * Moves with every committed write of titles or entitlements: an index of the Collection built
   * at one generation is stale at the next (the owner is this file's only writer, so nothing
   * else can move it).
   */
  private writes = 0;
  /** The transaction under way, and whether anything in it wrote titles or entitlements. */
  private open: { changes: boolean } | undefined;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new DatabaseSync(path);
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL'); // WAL + NORMAL: a power cut may lose the last page, never corrupt
    this.db.exec('PRAGMA foreign_keys = ON');
    // A new file returns the pages a sweep frees in steps (finishTitles), instead of keeping them for ever.
    if (this.userVersion() === 0) this.db.exec('PRAGMA auto_vacuum = INCREMENTAL');
    migrate(this.db);
    this.vocabulary = new StoredVocabulary(this.db);
    this.keys = new ContentKeys(this.db);
    this.earlierRecords = this.db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'title_records'").get() !== undefined;
    if (this.earlierRecords && this.db.prepare("SELECT 1 FROM mirror_state WHERE key = 'records_after'").get() === undefined) this.dropEarlierRecords();
  }

  private userVersion(): number {
    return Number((this.db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  }

  /** Every record of an earlier mirror is converted: its table goes (mirror-upgrade.ts, and a new file's empty one at once). */
  dropEarlierRecords(): void {
    this.db.exec('DROP TABLE IF EXISTS title_records');
    this.earlierRecords = false;
  }

  /** The generation of the titles and entitlements (see `writes`). */
  get generation(): number {
    return this.writes;
  }

  /**
   * Gives the disk back what an upgrade freed (most of an earlier mirror's file): the file
   * rewritten once, and from then on in the mode that returns freed pages in steps (reclaim).
   * Only when the disk can spare a copy of the file beside it; the owner answers nothing while
   * it runs (once, at an upgrade's end).
   */
  compact(spare: number): boolean {
    const { pages, free, size } = this.pageCounts();
    if (free < pages / 4 || size > spare) return false;
    this.db.exec('PRAGMA auto_vacuum = INCREMENTAL');
    this.db.exec('VACUUM');
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return true;
  }

  /** After a full run removed titles: the pages they held go back to the disk, when they are many (a file made by this version). */
  reclaim(): void {
    const { pages, free } = this.pageCounts();
    if (free > pages / 8) this.db.exec('PRAGMA incremental_vacuum');
  }

  private pageCounts(): { pages: number; free: number; size: number } {
    const pages = Number((this.db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count);
    const free = Number((this.db.prepare('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count);
    const size = pages * Number((this.db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
    return { pages, free, size };
  }

  /** A change made chunk by chunk (mirror-upgrade.ts) is complete: the Collection's indexes are stale. */
  touch(): void {
    this.writes++;
  }

  close(): void {
    this.db.close();
  }

  private statement(sql: string): StatementSync {
    return (this.statements[sql] ??= this.db.prepare(sql));
  }

  /**
   * Runs `work` in one transaction; `changes` when it writes titles or entitlements. Called inside
   * another's work (a library fill's batch: several pages' writes and its change sequence), it is
   * part of that one.
   */
  transaction<T>(work: () => T, changes = false): T {
    if (this.open) {
      this.open.changes ||= changes;
      return work();
    }
    this.db.exec('BEGIN IMMEDIATE');
    const open = { changes };
    this.open = open;
    try {
      const result = work();
      this.db.exec('COMMIT');
      this.open = undefined;
      this.vocabulary.committed();
      if (open.changes) this.writes++;
      return result;
    } catch (error) {
      this.open = undefined;
      this.db.exec('ROLLBACK');
      this.vocabulary.rolledBack(); // words it added are gone from the file: forgotten in memory too
      // Availability patched into the Collection's index inside it was rolled back: the next read rebuilds.
      if (open.changes) this.writes++;
      throw error;
    }
  }

  // ---- a desk in a library (library-fill.ts) ----

  /** The change sequence of the library mirror stored so far (0: never filled from it). */
  librarySeq(): number {
    const row = this.statement("SELECT value FROM mirror_state WHERE key = 'library_seq'").get() as { value: number } | undefined;
    return row ? Number(row.value) : 0;
  }

  /** Inside a batch's transaction: the change sequence its writes reach. */
  setLibrarySeq(seq: number): void {
    this.statement("INSERT OR REPLACE INTO mirror_state (key, value) VALUES ('library_seq', ?)").run(seq);
  }

  /** A fill that failed is not under way (it has no cursor to resume from: the change sequence is one). */
  endRun(source: string): void {
    this.statement('UPDATE sync_state SET in_progress = 0 WHERE source = ?').run(source);
  }

  // ---- sync state ----

  state(source: string): SourceState {
    const row = this.statement('SELECT * FROM sync_state WHERE source = ?').get(source) as StateRow | undefined;
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

  /**
   * Inside a bulk run's first transaction: the Collection's title and artist orders are dropped,
   * and the run's end (finishBulk) builds them again from every row at once. Row by row, each
   * entitlement went to a random place in both, and each batch's commit rewrote most of their
   * pages: on a million titles, a third of a first fill from the library mirror. In between, the
   * Collection reads the same rows in the same order without them (SQLite sorts), and a fill cut
   * short leaves bulk on, so the next one's end builds them.
   */
  deferCollectionOrders(): void {
    if (!this.inBulk()) throw new Error('Only a bulk run builds the Collection\'s orders at its end.');
    for (const index of COLLECTION_ORDER_INDEXES) this.db.exec(`DROP INDEX IF EXISTS ${index.split(' ')[0]}`);
  }

  inBulk(): boolean {
    return this.statement("SELECT 1 FROM mirror_state WHERE key = 'bulk'").get() !== undefined;
  }

  /**
   * The end of bulk writing, once no run of titles is left under way: the search index built
   * from every title's words, and each library's copies refreshed where a title changed. One
   * transaction, so a crash in it leaves bulk on and the next end does it again.
   */
  finishBulk(): boolean {
    if (!this.inBulk()) return false;
    const running = this.statement(`SELECT 1 FROM sync_state WHERE in_progress = 1 AND (source = '${TITLE_SOURCES.global}' OR source LIKE '${TITLE_SOURCES.libraryContent}%')`).get();
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
      this.db.exec(`UPDATE entitlements SET ${COLLECTION_COLUMNS} = ${COPY_FROM_TITLE('entitlements')}
        WHERE ${COLLECTION_COLUMNS} IS NOT ${COPY_FROM_TITLE('entitlements')}`);
      this.db.exec(`UPDATE entitlements SET flags = ${FLAGS_FROM_TITLE('entitlements')} WHERE flags IS NOT ${FLAGS_FROM_TITLE('entitlements')}`);
      for (const index of COLLECTION_ORDER_INDEXES) this.db.exec(`CREATE INDEX IF NOT EXISTS ${index}`); // after the copies: built once from them
      this.db.exec("DELETE FROM mirror_state WHERE key = 'bulk'");
    }, true);
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

  /**
   * A run's end, in one transaction: what a full run did not see removed (`sweep`: how many
   * were), the run marked done. A full run's time and count are kept beside the source (the Sync
   * view and the full entitlement pass's schedule read them).
   */
  finishRun(source: string, sweep: () => RunEnd['removed']): RunEnd['removed'] {
    return this.transaction(() => {
      const removed = sweep();
      this.statement(`UPDATE sync_state SET in_progress = 0, next_token = NULL, last_success_at = run_started_at,
        last_error = NULL, last_error_code = NULL, last_error_reason = NULL, last_error_params = NULL,
        full_success_at = CASE WHEN run_since IS NULL THEN run_started_at ELSE full_success_at END,
        full_removed = CASE WHEN run_since IS NULL THEN ? ELSE full_removed END WHERE source = ?`).run(removed.titles + removed.entitlements, source);
      return removed;
    }, true);
  }

  /** `message` is English, for the log; the code, and the reason when there is one, are what staff read, in their language. */
  failRun(source: string, failure: RunFailure, at: number): void {
    this.statement(`UPDATE sync_state SET last_error = ?, last_error_code = ?, last_error_reason = ?, last_error_params = ?, last_attempt_at = ?
      WHERE source = ?`).run(failure.message, failure.code, failure.reason ?? null, failure.reason ? JSON.stringify(failure.params ?? {}) : null, at, source);
  }

  // ---- pages ----

  /**
   * A page of the global catalog, its records as the client normalises them. Each record is
   * made a row and written before the next is taken (a library fill's are parsed only then:
   * library-fill.ts), so a page's records and rows never all live at once: held for the
   * whole page, they outlived the young generation and the collector copied and then swept
   * them, a fifth of a first fill's time.
   */
  applyGlobalPage(source: string, run: number, records: Iterable<CatalogChange>, nextToken: string | undefined): void {
    this.transaction(() => {
      const bulk = this.inBulk();
      let count = 0;
      for (const change of records) {
        count++;
        if (change.kind === 'removed') {
          const key = this.keys.keyOf(change.id);
          if (key !== undefined) this.removeTitle(key, bulk);
        } else {
          const row = titleRow(change.record, this.vocabulary);
          this.upsertTitle(this.keys.keyOf(row.id, true), row, run, bulk);
        }
      }
      this.advance(source, nextToken, count);
    }, true);
  }

  /**
   * A page of a library's entitlements, listed by the pull of one purchase model (`listedAs`, the
   * filter asked: the spec does not name it, so it is not trusted, issue #34). A title is held
   * under the model its own record gives — the entitlement's, or else the catalog record's when
   * the title is sold one way only — and under the filter's only when no record says. A title the
   * other pull listed in its latest run (`otherRun`), with no record to tell, is `unsettled`: the
   * service ignores the filter, and content info is to say. Answers what the records said against
   * the filter and what is unsettled.
   */
  applyEntitlementPage(
    source: string, run: number, libraryId: number, listedAs: PurchaseModel, items: readonly Entitlement[], nextToken: string | undefined, otherRun?: number,
  ): Pick<PageStored, 'disagreements' | 'unsettled'> {
    return this.transaction(() => {
      const disagreements = new Map<string, { found: PurchaseModel; by: 'record' | 'catalog'; count: number }>();
      const unsettled: ContentId[] = [];
      for (const e of items) {
        if (e.removed) {
          this.removeEntitlement(libraryId, e.contentId);
          continue;
        }
        const key = this.keys.keyOf(e.contentId, true);
        const sold = e.model === undefined ? this.soldOnlyAs(key) : undefined;
        const said = e.model ?? sold;
        let model = said ?? listedAs;
        if (said !== undefined && said !== listedAs) {
          const by = e.model === undefined ? 'catalog' : 'record';
          const tally = disagreements.get(`${said} ${by}`) ?? { found: said, by, count: 0 };
          tally.count++;
          disagreements.set(`${said} ${by}`, tally);
        }
        if (said === undefined && otherRun !== undefined) {
          const held = this.statement('SELECT model, coalesce(listed_as, model) AS listed, seen_run FROM entitlements WHERE library_id = ? AND content_id = ?')
            .get(libraryId, key) as { model: PurchaseModel; listed: PurchaseModel; seen_run: number } | undefined;
          if (held && held.listed !== listedAs && held.seen_run === otherRun) {
            unsettled.push(e.contentId);
            model = held.model; // no word either way: kept until content info says
          }
        }
        this.upsertEntitlement(libraryId, key, model, e.active, run, listedAs);
      }
      this.advance(source, nextToken, items.length);
      return { ...(disagreements.size ? { disagreements: [...disagreements.values()] } : {}), ...(unsettled.length ? { unsettled } : {}) };
    }, true);
  }

  /** The one purchase model the title filed under `key` is sold under, by its catalog record (undefined: both, or not known). */
  private soldOnlyAs(key: number): PurchaseModel | undefined {
    const row = this.statement('SELECT models FROM titles WHERE id = ?').get(key) as { models: number } | undefined;
    if (row?.models === MODEL_BITS.INSTANT) return 'INSTANT';
    if (row?.models === MODEL_BITS.FLEX) return 'FLEX';
    return undefined;
  }

  /** The library content endpoint carries both the record and the entitlement; TV comes as one record per episode. */
  /** `source` undefined: a page read on demand, outside any run (no cursor moves; `run` is when it was read). */
  applyLibraryContentPage(source: string | undefined, run: number, libraryId: number, changes: readonly LibraryContentChange[], nextToken: string | undefined): void {
    this.transaction(() => {
      const bulk = this.inBulk();
      for (const change of changes) {
        if (change.kind === 'removed') {
          this.removeEntitlement(libraryId, change.id);
          continue;
        }
        const { active, purchaseModel, ...record } = change.title;
        const key = this.keys.keyOf(record.id, true);
        const seen = this.statement('SELECT 1 FROM titles WHERE id = ? AND seen_run = ?').get(key, run) !== undefined;
        const existing = seen ? this.record(key) : undefined;
        const merged = existing ? mergeEpisodes(existing, record) : record;
        this.upsertTitle(key, titleRow(merged, this.vocabulary), run, bulk);
        if (purchaseModel) this.upsertEntitlement(libraryId, key, purchaseModel, active !== false, run);
      }
      if (source !== undefined) this.advance(source, nextToken, changes.length);
    }, true);
  }

  /** After a complete full run: what the run did not see is gone from the service (inside finishRun's transaction). */
  sweepTitles(run: number): number {
    if (!this.inBulk()) {
      this.statement(`INSERT INTO title_words (title_words, rowid, words) SELECT 'delete', id, words FROM titles WHERE seen_run < ? AND words IS NOT NULL`).run(run);
      this.statement(`UPDATE entitlements SET ${COLLECTION_COLUMNS} = (NULL, NULL, NULL, NULL, 0, NULL), flags = 0
        WHERE content_id IN (SELECT id FROM titles WHERE seen_run < ?)`).run(run);
    }
    return Number(this.statement('DELETE FROM titles WHERE seen_run < ?').run(run).changes);
  }

  sweepEntitlements(libraryId: number, model: PurchaseModel | undefined, run: number): number {
    // By the pull that listed each row (its filter), not the model the record gave it: the other pull's run does not list it.
    const sql = model
      ? 'DELETE FROM entitlements WHERE library_id = ? AND coalesce(listed_as, model) = ? AND seen_run < ?'
      : 'DELETE FROM entitlements WHERE library_id = ? AND seen_run < ?';
    const result = model ? this.statement(sql).run(libraryId, model, run) : this.statement(sql).run(libraryId, run);
    return Number(result.changes);
  }

  /**
   * Availability as read at `readAt`. An id the service left out of its answer (`unknown`: the
   * client asked twice) says nothing, so nothing is stored for it; nor for a title the mirror has
   * never filed (it has no key, so no row of the Collection can show it).
   */
  storeAvailability(libraryId: number, items: readonly Availability[], readAt: number): AvailabilityStored {
    const relabelled = new Map<string, { from: PurchaseModel; to: PurchaseModel; count: number }>();
    const keys = this.transaction(() => items.flatMap((a) => {
      const key = a.unknown ? undefined : this.keys.keyOf(a.contentId);
      if (key === undefined) return [];
      // Content info's model is the library's own word on the title (issue #34): it wins over the label a pull's filter gave.
      const held = a.purchaseModel === undefined ? undefined
        : this.statement('SELECT model FROM entitlements WHERE library_id = ? AND content_id = ?').get(libraryId, key) as { model: PurchaseModel } | undefined;
      if (held && a.purchaseModel !== undefined && held.model !== a.purchaseModel) {
        this.statement('UPDATE entitlements SET model = ? WHERE library_id = ? AND content_id = ?').run(a.purchaseModel, libraryId, key);
        const tally = relabelled.get(`${held.model} ${a.purchaseModel}`) ?? { from: held.model, to: a.purchaseModel, count: 0 };
        tally.count++;
        relabelled.set(`${held.model} ${a.purchaseModel}`, tally);
      }
      this.statement(`INSERT INTO availability (library_id, content_id, status, available_copies, total_copies, holds_queue_size, holds_queue_position, read_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (library_id, content_id) DO UPDATE SET status = excluded.status, available_copies = excluded.available_copies,
          total_copies = excluded.total_copies, holds_queue_size = excluded.holds_queue_size, holds_queue_position = excluded.holds_queue_position,
          read_at = excluded.read_at`)
        .run(libraryId, key, a.status ?? null, a.availableCopies ?? null, a.totalCopies ?? null, a.holdsQueueSize ?? null, a.holdsQueuePosition ?? null, readAt);
      this.statement(`UPDATE entitlements SET avail = ${AVAILABILITY_RANK('entitlements')} WHERE library_id = ? AND content_id = ?`)
        .run(libraryId, key);
      return [key];
    }));
    if (relabelled.size > 0) this.touch(); // a model changed: the Collection's indexes are built again
    for (const listener of this.availabilityListeners) listener(libraryId, keys);
    return { relabelled: [...relabelled.values()] };
  }

  onAvailabilityStored(listener: AvailabilityListener): () => void {
    this.availabilityListeners.add(listener);
    return () => this.availabilityListeners.delete(listener);
  }

  /** The record of the title filed under `key`, as its details show it (converted, or still as an earlier mirror kept it), its id the content id. */
  /** Of these titles of the library, those with an entitlement and no record (no title row under their key). */
  withoutRecord(libraryId: number, contentIds: readonly ContentId[]): ContentId[] {
    const bare = this.statement(`SELECT 1 FROM entitlements e WHERE e.library_id = ? AND e.content_id = ?
      AND NOT EXISTS (SELECT 1 FROM titles t WHERE t.id = e.content_id)`);
    return contentIds.filter((id) => {
      const key = this.keys.keyOf(id);
      return key !== undefined && bare.get(libraryId, key) !== undefined;
    });
  }

  record(key: number): CatalogRecord | undefined {
    const row = this.statement('SELECT record FROM titles WHERE id = ?').get(key) as { record: Uint8Array | null } | undefined;
    if (!row) return undefined;
    if (row.record) return decodeRecord(row.record, this.keys.contentIdOf(key), this.vocabulary);
    if (!this.earlierRecords) return undefined;
    // An earlier mirror filed only whole-number ids, each its own key.
    const earlier = this.statement('SELECT record, wire FROM title_records WHERE id = ?').get(key) as { record: string; wire: number } | undefined;
    return earlier ? recordOf(earlier.record, earlier.wire, key) : undefined;
  }

  /** The title `row` under its `key` (content-keys.ts). */
  private upsertTitle(key: number, row: TitleRow, run: number, bulk: boolean): void {
    const now: TitleColumns = { title: row.title, artist: row.artist, format: row.format, year: row.year, kids: row.kids, flags: row.flags, words: row.words };
    const before = bulk ? undefined
      : this.statement('SELECT title, artist, format, year, for_children AS kids, flags, words FROM titles WHERE id = ?').get(key) as TitleColumns | undefined;
    // The columns of schema 1 the record now holds are left empty: `countries` (NOT NULL) as ''.
    this.statement(`INSERT INTO titles (id, title, artist, format, year, for_children, flags, models, seen_run, words, record, title_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET title = excluded.title, artist = excluded.artist, format = excluded.format, year = excluded.year,
        for_children = excluded.for_children, flags = excluded.flags, models = excluded.models, seen_run = excluded.seen_run, words = excluded.words,
        record = excluded.record, title_id = excluded.title_id, series = NULL, isbn = NULL, upc = NULL, cover = NULL, countries = ''`)
      .run(key, row.title, row.artist, row.format, row.year, row.kids, row.flags, row.models, run, row.words, row.record, row.titleId);
    if (this.earlierRecords) this.statement('DELETE FROM title_records WHERE id = ?').run(key);
    if (bulk) return;
    if (before?.words !== now.words) {
      // The index holds no copy of the words: removing the old entry takes the words it was made of.
      if (before?.words != null) this.statement("INSERT INTO title_words (title_words, rowid, words) VALUES ('delete', ?, ?)").run(key, before.words);
      this.statement('INSERT INTO title_words (rowid, words) VALUES (?, ?)').run(key, now.words);
    }
    // Only the copied columns that changed: an indexed column rewritten with its own value still costs its index entries.
    const changed = (['title', 'artist', 'format', 'year', 'kids', 'flags', 'words'] as const).filter((column) => !before || before[column] !== now[column]);
    if (changed.length > 0) {
      this.statement(`UPDATE entitlements SET ${changed.map((column) => `${column} = ?`).join(', ')} WHERE content_id = ?`)
        .run(...changed.map((column) => now[column]), key);
    }
  }

  private removeTitle(id: number, bulk: boolean): void {
    if (!bulk) {
      this.statement(`INSERT INTO title_words (title_words, rowid, words) SELECT 'delete', id, words FROM titles WHERE id = ? AND words IS NOT NULL`).run(id);
      this.statement(`UPDATE entitlements SET ${COLLECTION_COLUMNS} = (NULL, NULL, NULL, NULL, 0, NULL), flags = 0 WHERE content_id = ?`).run(id);
    }
    this.statement('DELETE FROM titles WHERE id = ?').run(id);
  }

  /** A title the mirror never filed has no key, so no entitlement to remove. */
  private removeEntitlement(libraryId: number, contentId: ContentId): void {
    const key = this.keys.keyOf(contentId);
    if (key !== undefined) this.statement('DELETE FROM entitlements WHERE library_id = ? AND content_id = ?').run(libraryId, key);
  }

  /** A new row copies its title's columns; an existing one keeps them (a title's own writes refresh them). `listedAs`: the pull's filter (none for library content). */
  private upsertEntitlement(libraryId: number, contentId: number, model: PurchaseModel, active: boolean, run: number, listedAs?: PurchaseModel): void {
    this.statement(`INSERT INTO entitlements (library_id, content_id, model, listed_as, active, seen_run, avail, title, artist, format, year, kids, flags, words)
      SELECT e.library_id, e.content_id, e.model, e.listed_as, e.active, e.seen_run, ${AVAILABILITY_RANK('e')}, t.title, t.artist, t.format, t.year, coalesce(t.for_children, 0), coalesce(t.flags, 0), t.words
      FROM (SELECT ? AS library_id, ? AS content_id, ? AS model, ? AS listed_as, ? AS active, ? AS seen_run) AS e LEFT JOIN titles t ON t.id = e.content_id
      WHERE true
      ON CONFLICT (library_id, content_id) DO UPDATE SET model = excluded.model, listed_as = excluded.listed_as, active = excluded.active, seen_run = excluded.seen_run,
        avail = excluded.avail`)
      .run(libraryId, contentId, model, listedAs ?? null, active ? 1 : 0, run);
  }
}
