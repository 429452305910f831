// The library mirror's page store, in PostgreSQL: the sync engine's PageStore
// (electron/node/sync/page-store.ts), kept on the leader's session, as the desk's mirror keeps it
// on its file. The same engine (electron/node/sync/engine.ts) fills both, with the same rules:
// runs opened or resumed per source, pages stored strictly in order with their run's cursor,
// a full run's end removing what it did not see, a failure recorded with what staff read.
//
// A page is read once, by the same reader the desk's owner uses (page-reading.ts), and made into
// the rows the mirror keeps (library-rows.ts), on the page reader's thread (page-reader.ts), so
// the event loop that answers desks never waits behind a page. Every write runs on the leader's session, one
// transaction at a time, and first checks that this session still holds the leader lock
// (leader-writes.ts): a session that lost it writes nothing. A page's rows go in by COPY into a
// staging table, then merge; only rows whose content changed take a new change sequence. The
// page's next token is written in the same transaction, so a run killed at any moment resumes
// from the first page it did not store.
import type pg from 'pg';
import { isErrorCode, type ErrorParams } from '../electron/shared/errors.ts';
import { isReason } from '../electron/shared/reasons.ts';
import type { SourceState } from '../electron/shared/collection.ts';
import type { Availability, CatalogRecord, ContentId } from '../electron/shared/model.ts';
import { contentIdOf } from '../electron/shared/content-id.ts';
import { DeskError } from '../electron/shared/desk-error.ts';
import type { Bytes } from '../electron/node/partner/bytes.ts';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';
import { mergeEpisodes } from '../electron/node/sync/page-reading.ts';
import {
  type AvailabilityStored, sourceName, type PageStore, type PageStored, type Run, type RunEnd, type RunFailure, type RunOpening, type RunRequest, type StoringPage, type SyncSource, type TitleRecords, type UnreadAvailability,
} from '../electron/node/sync/page-store.ts';
import { copyBytes, copyRows } from './copy.ts';
import type { LeaderWrites } from './leader-writes.ts';
import { titleCopyValues, type LibraryTitleRow } from './library-rows.ts';
import { pageReader, type ReadPage } from './page-reader.ts';

const T = {
  titles: `${SCHEMA}.titles`, entitlements: `${SCHEMA}.entitlements`, availability: `${SCHEMA}.availability`,
  cursors: `${SCHEMA}.sync_cursors`, seq: `${SCHEMA}.change_seq`,
};

const STAGING = [
  `CREATE TEMP TABLE IF NOT EXISTS stage_titles (id text, title_id bigint, countries text[], record text, wire boolean) ON COMMIT DELETE ROWS`,
  `CREATE TEMP TABLE IF NOT EXISTS stage_entitlements (content_id text, model text, active boolean) ON COMMIT DELETE ROWS`,
];

// Only a row whose content differs takes a new change sequence; every row seen takes the run.
const MERGE_TITLES = `INSERT INTO ${T.titles} AS t (id, title_id, countries, record, wire, removed, change_seq, seen_run)
  SELECT id, title_id, countries, record, wire, false, nextval('${T.seq}'), $1 FROM stage_titles
  ON CONFLICT (id) DO UPDATE SET title_id = excluded.title_id, countries = excluded.countries, record = excluded.record,
    wire = excluded.wire, removed = false, seen_run = excluded.seen_run,
    change_seq = CASE WHEN (t.title_id, t.countries, t.record, t.wire, t.removed)
      IS NOT DISTINCT FROM (excluded.title_id, excluded.countries, excluded.record, excluded.wire, false) THEN t.change_seq ELSE excluded.change_seq END`;

const MERGE_ENTITLEMENTS = `INSERT INTO ${T.entitlements} AS e (library_id, content_id, model, active, removed, change_seq, seen_run)
  SELECT $1, content_id, model, active, false, nextval('${T.seq}'), $2 FROM stage_entitlements
  ON CONFLICT (library_id, content_id) DO UPDATE SET model = excluded.model, active = excluded.active, removed = false,
    seen_run = excluded.seen_run,
    change_seq = CASE WHEN (e.model, e.active, e.removed) IS NOT DISTINCT FROM (excluded.model, excluded.active, false)
      THEN e.change_seq ELSE excluded.change_seq END`;

const TOMBSTONE_TITLES = (where: string) => `UPDATE ${T.titles} SET removed = true, record = NULL, change_seq = nextval('${T.seq}') WHERE NOT removed AND ${where}`;
const TOMBSTONE_ENTITLEMENTS = (where: string) => `UPDATE ${T.entitlements} SET removed = true, change_seq = nextval('${T.seq}') WHERE NOT removed AND ${where}`;

interface CursorRow {
  source: string; in_progress: boolean; next_token: string | null; pages: number; run_since: Date | null; run_started_at: Date | null;
  last_success_at: Date | null; last_attempt_at: Date | null; last_error: string | null; last_error_code: string | null;
  last_error_reason: string | null; last_error_params: ErrorParams | null; items: string;
  full_success_at: Date | null; full_removed: string | null;
}

const ms = (d: Date | null): number | undefined => (d === null ? undefined : d.getTime());

/** A source's state as the engine and IT read it (the same fields the desk's mirror keeps). */
function stateOf(row: CursorRow): SourceState {
  const optional = {
    nextToken: row.next_token ?? undefined, runSince: ms(row.run_since), runStartedAt: ms(row.run_started_at),
    lastSuccessAt: ms(row.last_success_at), lastAttemptAt: ms(row.last_attempt_at), lastError: row.last_error ?? undefined,
    lastFullAt: ms(row.full_success_at), lastFullRemoved: row.full_removed === null ? undefined : Number(row.full_removed),
  };
  const defined = Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined));
  return {
    source: row.source, inProgress: row.in_progress, items: Number(row.items), ...defined,
    ...(row.last_error_code !== null && isErrorCode(row.last_error_code) ? { lastErrorCode: row.last_error_code } : {}),
    ...(row.last_error_reason !== null && isReason(row.last_error_reason) ? { lastErrorReason: row.last_error_reason, lastErrorParams: row.last_error_params ?? {} } : {}),
  };
}


export class LibraryPageStore implements PageStore, UnreadAvailability, TitleRecords {
  private readonly writes: LeaderWrites;
  private readonly openings = new Map<number, RunOpening>();
  private lastRun = 0;
  private staged = false;

  /** Writes and reads go through the leader's session, one at a time (writes check it holds the leader lock). */
  constructor(writes: LeaderWrites) {
    this.writes = writes;
    writes.onRollback(() => { this.staged = false; });
  }

  async states(): Promise<SourceState[]> {
    const { rows } = await this.writes.alone((db) => db.query<CursorRow>(`SELECT * FROM ${T.cursors} ORDER BY source`));
    return rows.map(stateOf);
  }

  async openRun(request: RunRequest): Promise<Run> {
    const name = sourceName(request.source);
    const cursor = await this.writes.run(async (db) => {
      const found = (await db.query<CursorRow>(`SELECT * FROM ${T.cursors} WHERE source = $1 FOR UPDATE`, [name])).rows[0];
      if (found?.in_progress) return found;
      const since = request.since === undefined ? null : new Date(request.since);
      const { rows } = await db.query<CursorRow>(`INSERT INTO ${T.cursors} (source, page_kind, in_progress, next_token, pages, run_since, run_started_at, last_attempt_at, items)
        VALUES ($1, $2, true, NULL, 0, $3, $4, $4, 0)
        ON CONFLICT (source) DO UPDATE SET page_kind = excluded.page_kind, in_progress = true, next_token = NULL, pages = 0,
          run_since = excluded.run_since, run_started_at = excluded.run_started_at, last_attempt_at = excluded.last_attempt_at, items = 0
        RETURNING *`, [name, JSON.stringify(request.source), since, new Date(request.startedAt)]);
      return rows[0] as CursorRow;
    });
    for (const [run, opening] of this.openings) if (opening.name === name) this.openings.delete(run);
    const run = ++this.lastRun;
    const runSince = ms(cursor.run_since);
    this.openings.set(run, {
      source: request.source, name, runStartedAt: (cursor.run_started_at as Date).getTime(), full: runSince === undefined, nextPage: 1, broken: false,
    });
    return {
      run, source: name, itemsBefore: Number(cursor.items), buildsAtEnd: false,
      ...(cursor.next_token === null ? {} : { startToken: cursor.next_token }), ...(runSince === undefined ? {} : { since: runSince }),
    };
  }

  /**
   * Read first (a garbled page is refused at its head, and the run still waits for that number:
   * the engine hands the next page only once this head is known); stored in one transaction with
   * the cursor that follows it. Pages are read in the order they come, so their writes keep it.
   */
  storePage(run: number, page: number, bytes: Bytes): StoringPage {
    let opening: RunOpening;
    try {
      opening = this.opening(run);
      if (opening.broken) throw new DeskError('server', 'An earlier page of this run was not stored, so this one was not either.');
      if (page !== opening.nextPage) throw new DeskError('server', `Page ${page} of the run came where page ${opening.nextPage} was expected.`);
    } catch (error) {
      const refused = Promise.reject(error);
      refused.catch(() => {});
      return { head: refused, stored: refused };
    }
    const read = pageReader.read(opening.source, bytes).then((pageRead) => {
      opening.nextPage++; // read: the next page may come while this one is written (the writes keep their order)
      return pageRead;
    });
    const stored = read.then((pageRead) => this.writes.run(async (db): Promise<PageStored> => {
      if (opening.broken) throw new DeskError('server', 'An earlier page of this run was not stored, so this one was not either.');
      await this.stage(db);
      await this.storeTitles(db, opening.runStartedAt, pageRead);
      await this.storeEntitlements(db, opening.source, opening.runStartedAt, pageRead);
      await db.query(`UPDATE ${T.cursors} SET next_token = $2, pages = $3, items = items + $4 WHERE source = $1`,
        [opening.name, pageRead.head.next ?? null, page, pageRead.head.items]);
      return { items: pageRead.head.items };
    }).catch((error: unknown) => {
      opening.broken = true;
      throw error;
    }));
    const head = read.then((pageRead) => pageRead.head);
    head.catch(() => {});
    stored.catch(() => {});
    return { head, stored };
  }

  /** The end of a run: a full run marks removed what it did not see (tombstones), and answers how many. */
  async finishRun(run: number): Promise<RunEnd> {
    const opening = this.opening(run);
    if (opening.broken) throw new DeskError('server', 'A page of this run was not stored, so the run cannot end.');
    const { source, name, runStartedAt, full } = opening;
    const removed = await this.writes.run(async (db) => {
      const swept = { titles: 0, entitlements: 0 };
      if (full) {
        if (source.kind === 'global') {
          swept.titles = (await db.query(TOMBSTONE_TITLES('seen_run < $1'), [runStartedAt])).rowCount ?? 0;
        } else if (source.kind === 'entitlements') {
          swept.entitlements = (await db.query(TOMBSTONE_ENTITLEMENTS('library_id = $1 AND model = $2 AND seen_run < $3'), [source.libraryId, source.model, runStartedAt])).rowCount ?? 0;
        } else if (source.kind === 'library-content') {
          swept.entitlements = (await db.query(TOMBSTONE_ENTITLEMENTS('library_id = $1 AND seen_run < $2'), [source.libraryId, runStartedAt])).rowCount ?? 0;
        }
      }
      await db.query(`UPDATE ${T.cursors} SET in_progress = false, next_token = NULL, pages = 0, last_success_at = run_started_at,
        last_error = NULL, last_error_code = NULL, last_error_reason = NULL, last_error_params = NULL,
        full_success_at = CASE WHEN run_since IS NULL THEN run_started_at ELSE full_success_at END,
        full_removed = CASE WHEN run_since IS NULL THEN $2 ELSE full_removed END
        WHERE source = $1`, [name, swept.titles + swept.entitlements]);
      return swept;
    });
    this.openings.delete(run);
    return { removed };
  }

  /** A run that stopped on an error: it stays under way (it resumes from its cursor); the message is for IT, the code and reason for desks. */
  async failRun(run: number, failure: RunFailure, at: number): Promise<void> {
    const opening = this.opening(run);
    this.openings.delete(run);
    await this.writes.run(async (db) => {
      await db.query(`UPDATE ${T.cursors} SET last_error = $2, last_error_code = $3, last_error_reason = $4, last_error_params = $5, last_attempt_at = $6
        WHERE source = $1`,
      [opening.name, failure.message, failure.code, failure.reason ?? null, failure.reason ? JSON.stringify(failure.params ?? {}) : null, new Date(at)]);
    });
  }

  /**
   * Content info's answers for a library, read at `readAt`: a reading that differs from the stored one takes a new change
   * sequence. An id the service left out of its answer (`unknown`: the client asked twice) says nothing, so nothing is stored.
   * The library mirror keeps each entitlement's model as its pull listed it, so it relabels none (the desk's SQLite store
   * takes content info's word over the pull's: a desk filled from here reads the model the library mirror lists).
   */
  async storeAvailability(libraryId: number, items: readonly Availability[], readAt: number): Promise<AvailabilityStored> {
    const latest = [...new Map(items.filter((a) => !a.unknown).map((a) => [a.contentId, a])).values()];
    await this.writes.run(async (db) => {
      await db.query(`INSERT INTO ${T.availability} AS a (library_id, content_id, status, available_copies, total_copies, holds_queue_size, read_at, change_seq)
        SELECT $1, i.content_id, i.status, i.available_copies, i.total_copies, i.holds_queue_size, $7, nextval('${T.seq}')
        FROM unnest($2::text[], $3::text[], $4::integer[], $5::integer[], $6::integer[])
          AS i (content_id, status, available_copies, total_copies, holds_queue_size)
        ON CONFLICT (library_id, content_id) DO UPDATE SET status = excluded.status, available_copies = excluded.available_copies,
          total_copies = excluded.total_copies, holds_queue_size = excluded.holds_queue_size, read_at = excluded.read_at,
          change_seq = CASE WHEN (a.status, a.available_copies, a.total_copies, a.holds_queue_size, a.read_at)
            IS NOT DISTINCT FROM (excluded.status, excluded.available_copies, excluded.total_copies, excluded.holds_queue_size, excluded.read_at)
            THEN a.change_seq ELSE excluded.change_seq END`,
      [libraryId, latest.map((a) => String(a.contentId)), latest.map((a) => a.status ?? null), latest.map((a) => a.availableCopies ?? null),
        latest.map((a) => a.totalCopies ?? null), latest.map((a) => a.holdsQueueSize ?? null), new Date(readAt)]);
    });
    return { relabelled: [] };
  }

  async unreadAvailability(libraryId: number, after: string | undefined, limit: number): Promise<ContentId[]> {
    const { rows } = await this.writes.alone((db) => db.query<{ content_id: string }>(`SELECT e.content_id FROM ${T.entitlements} e
      WHERE e.library_id = $1 AND e.model = 'FLEX' AND e.active AND NOT e.removed AND e.content_id > $2
        AND NOT EXISTS (SELECT 1 FROM ${T.availability} a WHERE a.library_id = e.library_id AND a.content_id = e.content_id)
      ORDER BY e.content_id LIMIT $3`, [libraryId, after ?? '', limit]));
    return rows.map((r) => contentIdOf(r.content_id) as ContentId);
  }

  /** Of these titles of the library, those entitled with no record (a title newly entitled: page-store.ts, TitleRecords). */
  async withoutRecord(libraryId: number, contentIds: ContentId[]): Promise<ContentId[]> {
    if (contentIds.length === 0) return [];
    const { rows } = await this.writes.alone((db) => db.query<{ content_id: string }>(`SELECT e.content_id FROM ${T.entitlements} e
      WHERE e.library_id = $1 AND e.content_id = ANY($2) AND NOT e.removed
        AND NOT EXISTS (SELECT 1 FROM ${T.titles} t WHERE t.id = e.content_id AND NOT t.removed)`, [libraryId, contentIds.map(String)]));
    return rows.map((r) => contentIdOf(r.content_id) as ContentId);
  }

  /** A page of the library's content read on demand, written as a run's page is, outside any run: no cursor moves. */
  async fileLibraryContent(libraryId: number, bytes: Bytes, readAt: number): Promise<number> {
    const source: SyncSource = { kind: 'library-content', libraryId };
    const rows = await pageReader.read(source, bytes);
    await this.writes.run(async (db) => {
      await this.stage(db);
      await this.storeTitles(db, readAt, rows);
      await this.storeEntitlements(db, source, readAt, rows);
    });
    return rows.head.items;
  }

  private opening(run: number): RunOpening {
    const opening = this.openings.get(run);
    if (!opening) throw new DeskError('server', 'This run is not open here: another opening of its source took it over, or it ended.');
    return opening;
  }

  private async stage(db: pg.ClientBase): Promise<void> {
    if (this.staged) return;
    for (const statement of STAGING) await db.query(statement);
    this.staged = true;
  }

  private async storeTitles(db: pg.ClientBase, run: number, rows: ReadPage): Promise<void> {
    const columns = ['id', 'title_id', 'countries', 'record', 'wire'];
    if (rows.libraryTitles.length > 0) {
      await copyRows(db, 'stage_titles', columns, (await this.mergedLibraryTitles(db, run, rows.libraryTitles)).map(titleCopyValues));
      await db.query(MERGE_TITLES, [run]);
    } else if (rows.titlesCopy) {
      await copyBytes(db, 'stage_titles', columns, rows.titlesCopy);
      await db.query(MERGE_TITLES, [run]);
    }
    if (rows.removedTitles.length > 0) await db.query(TOMBSTONE_TITLES('id = ANY($1)'), [rows.removedTitles.map(String)]);
  }

  /** Library content's records, each series' episodes merged with the ones this run stored before (as the desk's writer does). */
  private async mergedLibraryTitles(db: pg.ClientBase, run: number, records: CatalogRecord[]): Promise<LibraryTitleRow[]> {
    const ids = [...new Set(records.map((r) => String(r.id)))];
    const { rows } = await db.query<{ id: string; record: string }>(
      `SELECT id, record FROM ${T.titles} WHERE id = ANY($1) AND seen_run = $2 AND NOT wire AND NOT removed`, [ids, run]);
    const merged = new Map<ContentId, CatalogRecord>(rows.map((r) => [contentIdOf(r.id) as ContentId, JSON.parse(r.record) as CatalogRecord]));
    for (const record of records) {
      const before = merged.get(record.id);
      merged.set(record.id, before ? mergeEpisodes(before, record) : record);
    }
    return [...merged.values()].map((r) => ({ id: r.id, titleId: r.titleId ?? null, countries: r.countries, record: JSON.stringify(r), wire: false }));
  }

  private async storeEntitlements(db: pg.ClientBase, source: SyncSource, run: number, rows: ReadPage): Promise<void> {
    if (source.kind === 'global') return;
    if (rows.entitlementsCopy) {
      await copyBytes(db, 'stage_entitlements', ['content_id', 'model', 'active'], rows.entitlementsCopy);
      await db.query(MERGE_ENTITLEMENTS, [source.libraryId, run]);
    }
    if (rows.removedEntitlements.length > 0) {
      await db.query(TOMBSTONE_ENTITLEMENTS('library_id = $1 AND content_id = ANY($2)'), [source.libraryId, rows.removedEntitlements.map(String)]);
    }
  }
}
