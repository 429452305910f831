// A page's records written into the mirror's file: titles and entitlements, each page with its
// run's cursor in one transaction, so an interrupted sync resumes where it stopped and a page is
// never half applied; and what a full run did not see swept away at its end. A title's write
// also keeps what the Collection reads beside it (collection-tables.ts), page by page outside a
// bulk run. A library fill's batches take the very same writes (library-fill.ts).
import type { CatalogChange, ContentId, Entitlement, LibraryContentChange, PurchaseModel } from '../shared/model.ts';
import { mergeEpisodes } from '../node/sync/page-reading.ts';
import type { PageStored } from '../node/sync/page-store.ts';
import { AVAILABILITY_RANK } from './collection-columns.ts';
import type { CollectionTables, TitleColumns } from './collection-tables.ts';
import type { MirrorFile } from './mirror-file.ts';
import type { StoredRecords } from './stored-records.ts';
import type { SyncState } from './sync-state.ts';
import { MODEL_BITS, titleRow, type TitleRow } from './title-row.ts';

export class PageWrites {
  private readonly file: MirrorFile;
  private readonly runs: SyncState;
  private readonly records: StoredRecords;
  private readonly collection: CollectionTables;

  constructor(file: MirrorFile, runs: SyncState, records: StoredRecords, collection: CollectionTables) {
    this.file = file;
    this.runs = runs;
    this.records = records;
    this.collection = collection;
  }

  /**
   * A page of the global catalog, its records as the client normalises them. Each record is
   * made a row and written before the next is taken (a library fill's are parsed only then:
   * library-fill.ts), so a page's records and rows never all live at once: held for the
   * whole page, they outlived the young generation and the collector copied and then swept
   * them, a fifth of a first fill's time.
   */
  applyGlobalPage(source: string, run: number, records: Iterable<CatalogChange>, nextToken: string | undefined): void {
    this.file.transaction(() => {
      const bulk = this.collection.inBulk();
      let count = 0;
      for (const change of records) {
        count++;
        if (change.kind === 'removed') {
          const key = this.file.keys.keyOf(change.id);
          if (key !== undefined) this.removeTitle(key, bulk);
        } else {
          const row = titleRow(change.record, this.file.vocabulary);
          this.upsertTitle(this.file.keys.keyOf(row.id, true), row, run, bulk);
        }
      }
      this.runs.advance(source, nextToken, count);
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
    return this.file.transaction(() => {
      const disagreements = new Map<string, { found: PurchaseModel; by: 'record' | 'catalog'; count: number }>();
      const unsettled: ContentId[] = [];
      for (const e of items) {
        if (e.removed) {
          this.removeEntitlement(libraryId, e.contentId);
          continue;
        }
        const key = this.file.keys.keyOf(e.contentId, true);
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
          const held = this.file.query('SELECT model, coalesce(listed_as, model) AS listed, seen_run FROM entitlements WHERE library_id = ? AND content_id = ?')
            .get(libraryId, key) as { model: PurchaseModel; listed: PurchaseModel; seen_run: number } | undefined;
          if (held && held.listed !== listedAs && held.seen_run === otherRun) {
            unsettled.push(e.contentId);
            model = held.model; // no word either way: kept until content info says
          }
        }
        this.upsertEntitlement(libraryId, key, model, e.active, run, listedAs);
      }
      this.runs.advance(source, nextToken, items.length);
      return { ...(disagreements.size ? { disagreements: [...disagreements.values()] } : {}), ...(unsettled.length ? { unsettled } : {}) };
    }, true);
  }

  /**
   * The library content endpoint carries both the record and the entitlement; TV comes as one record per episode.
   * `source` undefined: a page read on demand, outside any run (no cursor moves; `run` is when it was read).
   */
  applyLibraryContentPage(source: string | undefined, run: number, libraryId: number, changes: readonly LibraryContentChange[], nextToken: string | undefined): void {
    this.file.transaction(() => {
      const bulk = this.collection.inBulk();
      for (const change of changes) {
        if (change.kind === 'removed') {
          this.removeEntitlement(libraryId, change.id);
          continue;
        }
        const { active, purchaseModel, ...record } = change.title;
        const key = this.file.keys.keyOf(record.id, true);
        const seen = this.file.query('SELECT 1 FROM titles WHERE id = ? AND seen_run = ?').get(key, run) !== undefined;
        const existing = seen ? this.records.record(key) : undefined;
        const merged = existing ? mergeEpisodes(existing, record) : record;
        this.upsertTitle(key, titleRow(merged, this.file.vocabulary), run, bulk);
        if (purchaseModel) this.upsertEntitlement(libraryId, key, purchaseModel, active !== false, run);
      }
      if (source !== undefined) this.runs.advance(source, nextToken, changes.length);
    }, true);
  }

  /** After a complete full run: what the run did not see is gone from the service (inside finishRun's transaction). */
  sweepTitles(run: number): number {
    if (!this.collection.inBulk()) this.collection.titlesSwept(run);
    return Number(this.file.prepare('DELETE FROM titles WHERE seen_run < ?').run(run).changes);
  }

  sweepEntitlements(libraryId: number, model: PurchaseModel | undefined, run: number): number {
    // By the pull that listed each row (its filter), not the model the record gave it: the other pull's run does not list it.
    const sql = model
      ? 'DELETE FROM entitlements WHERE library_id = ? AND coalesce(listed_as, model) = ? AND seen_run < ?'
      : 'DELETE FROM entitlements WHERE library_id = ? AND seen_run < ?';
    const result = model ? this.file.prepare(sql).run(libraryId, model, run) : this.file.prepare(sql).run(libraryId, run);
    return Number(result.changes);
  }

  /** The one purchase model the title filed under `key` is sold under, by its catalog record (undefined: both, or not known). */
  private soldOnlyAs(key: number): PurchaseModel | undefined {
    const row = this.file.query('SELECT models FROM titles WHERE id = ?').get(key) as { models: number } | undefined;
    if (row?.models === MODEL_BITS.INSTANT) return 'INSTANT';
    if (row?.models === MODEL_BITS.FLEX) return 'FLEX';
    return undefined;
  }

  /** The title `row` under its `key` (content-keys.ts). */
  private upsertTitle(key: number, row: TitleRow, run: number, bulk: boolean): void {
    const now: TitleColumns = { title: row.title, artist: row.artist, format: row.format, year: row.year, kids: row.kids, flags: row.flags, words: row.words };
    const before = bulk ? undefined : this.collection.columnsOf(key);
    // The columns of schema 1 the record now holds are left empty: `countries` (NOT NULL) as ''.
    this.file.prepare(`INSERT INTO titles (id, title, artist, format, year, for_children, flags, models, seen_run, words, record, title_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET title = excluded.title, artist = excluded.artist, format = excluded.format, year = excluded.year,
        for_children = excluded.for_children, flags = excluded.flags, models = excluded.models, seen_run = excluded.seen_run, words = excluded.words,
        record = excluded.record, title_id = excluded.title_id, series = NULL, isbn = NULL, upc = NULL, cover = NULL, countries = ''`)
      .run(key, row.title, row.artist, row.format, row.year, row.kids, row.flags, row.models, run, row.words, row.record, row.titleId);
    this.records.written(key);
    if (!bulk) this.collection.titleWritten(key, before, now);
  }

  private removeTitle(key: number, bulk: boolean): void {
    if (!bulk) this.collection.titleRemoved(key);
    this.file.prepare('DELETE FROM titles WHERE id = ?').run(key);
  }

  /** A title the mirror never filed has no key, so no entitlement to remove. */
  private removeEntitlement(libraryId: number, contentId: ContentId): void {
    const key = this.file.keys.keyOf(contentId);
    if (key !== undefined) this.file.prepare('DELETE FROM entitlements WHERE library_id = ? AND content_id = ?').run(libraryId, key);
  }

  /** A new row copies its title's columns; an existing one keeps them (a title's own writes refresh them). `listedAs`: the pull's filter (none for library content). */
  private upsertEntitlement(libraryId: number, contentId: number, model: PurchaseModel, active: boolean, run: number, listedAs?: PurchaseModel): void {
    this.file.prepare(`INSERT INTO entitlements (library_id, content_id, model, listed_as, active, seen_run, avail, title, artist, format, year, kids, flags, words)
      SELECT e.library_id, e.content_id, e.model, e.listed_as, e.active, e.seen_run, ${AVAILABILITY_RANK('e')}, t.title, t.artist, t.format, t.year, coalesce(t.for_children, 0), coalesce(t.flags, 0), t.words
      FROM (SELECT ? AS library_id, ? AS content_id, ? AS model, ? AS listed_as, ? AS active, ? AS seen_run) AS e LEFT JOIN titles t ON t.id = e.content_id
      WHERE true
      ON CONFLICT (library_id, content_id) DO UPDATE SET model = excluded.model, listed_as = excluded.listed_as, active = excluded.active, seen_run = excluded.seen_run,
        avail = excluded.avail`)
      .run(libraryId, contentId, model, listedAs ?? null, active ? 1 : 0, run);
  }
}
