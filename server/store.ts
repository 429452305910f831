// The library mirror's side of a sync, in PostgreSQL: what the sync engine asks of wherever
// pages are stored (a source's state, begin a run, store a numbered page, finish or fail a run,
// store availability). The same questions the desk's own mirror answers in SQLite, so the engine
// can drive either.
//
// Every write runs on the leader's session (leadership.ts), one transaction at a time, and first
// checks that this session still holds the leader lock: a session that lost it (ended, or a
// process that no longer leads) writes nothing. A page's rows go in by COPY into a staging table,
// then merge into the mirror; only rows whose content changed take a new change sequence. The
// page's next token is written in the same transaction, so a run killed at any moment resumes
// from the first page it did not store.
import type pg from 'pg';
import type { ErrorCode } from '../electron/shared/errors.ts';
import type { SourceState } from '../electron/shared/collection.ts';
import type { Availability, CatalogRecord, ContentId } from '../electron/shared/model.ts';
import { contentIdOf } from '../electron/shared/content-id.ts';
import { copyRows, type CopyValue } from './copy.ts';
import { readPageRows, type PageKind, type PageRows, type TitleRow } from './page-rows.ts';
import { LOCK, LOCK_CLASS, SCHEMA } from '../electron/node/library-mirror/schema.ts';

export type { PageKind } from './page-rows.ts';

/** A source's state, and how many pages of its run under way are stored (the next is `pages + 1`). */
export interface LibrarySourceState extends SourceState { pages: number }

export interface StoredPage {
  next?: string;
  /** Records the page held (removals included). */
  count: number;
  totalCount?: number;
  warnings?: string[];
  /** An entitlements page's entitled content ids (not the removed): what the availability refresh asks content info about. */
  contentIds?: ContentId[];
  /** The page was stored before (a retry after a lost answer): nothing was written, `next` is the stored cursor. */
  alreadyStored?: true;
}

/** What a full run's sweep marked removed. */
export interface Removed { titles: number; entitlements: number }

/** This session does not hold the leader lock: it may not write. */
export class NotLeaderError extends Error {
  constructor() {
    super('This session does not hold the library mirror\'s leader lock, so it writes nothing.');
    this.name = 'NotLeaderError';
  }
}

const T = {
  titles: `${SCHEMA}.titles`, entitlements: `${SCHEMA}.entitlements`, availability: `${SCHEMA}.availability`,
  cursors: `${SCHEMA}.sync_cursors`, state: `${SCHEMA}.service_state`, seq: `${SCHEMA}.change_seq`,
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

const HOLDS_LEADER_LOCK = `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = $1 AND objid::bigint = $2
  AND objsubid = 2 AND granted AND pid = pg_backend_pid()) AS leading`;

interface CursorRow {
  source: string; in_progress: boolean; next_token: string | null; pages: number; run_since: Date | null; run_started_at: Date | null;
  last_success_at: Date | null; last_attempt_at: Date | null; last_error: string | null; last_error_code: string | null; items: string;
  page_kind: PageKind | null;
}

const ms = (d: Date | null): number | undefined => (d === null ? undefined : d.getTime());

function stateOf(source: string, row: CursorRow | undefined): LibrarySourceState {
  if (!row) return { source, inProgress: false, items: 0, pages: 0 };
  const optional = {
    nextToken: row.next_token ?? undefined, runSince: ms(row.run_since), runStartedAt: ms(row.run_started_at),
    lastSuccessAt: ms(row.last_success_at), lastAttemptAt: ms(row.last_attempt_at), lastError: row.last_error ?? undefined,
    lastErrorCode: (row.last_error_code ?? undefined) as ErrorCode | undefined,
  };
  const defined = Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined));
  return { source, inProgress: row.in_progress, items: Number(row.items), pages: row.pages, ...defined };
}

const titleRowValues = (r: TitleRow): CopyValue[] => [String(r.id), r.titleId, r.countries, r.record, r.wire];

/** Library content sends one record per TV episode under the series' id: kept as episodes of one title, as the desk keeps them. */
function mergeEpisodes(first: CatalogRecord, next: CatalogRecord): CatalogRecord {
  const episodes = [...first.episodes, ...next.episodes.filter((e) => !first.episodes.some((f) => f.titleId === e.titleId))];
  return { ...first, episodes };
}

export class LibraryMirrorStore {
  private readonly session: pg.ClientBase;
  /** Writes one after another: a transaction is the session's alone. */
  private queue: Promise<unknown> = Promise.resolve();
  private staged = false;

  /** `session`: the leader's (writes check it holds the leader lock); any session for reads. */
  constructor(session: pg.ClientBase) {
    this.session = session;
  }

  async state(source: string): Promise<LibrarySourceState> {
    const { rows } = await this.session.query<CursorRow>(`SELECT * FROM ${T.cursors} WHERE source = $1`, [source]);
    return stateOf(source, rows[0]);
  }

  async allStates(): Promise<LibrarySourceState[]> {
    const { rows } = await this.session.query<CursorRow>(`SELECT * FROM ${T.cursors} ORDER BY source`);
    return rows.map((row) => stateOf(row.source, row));
  }

  /** Starts a run (a delta from `since`, or full), forgetting any run under way; answers the run (its start, epoch ms). */
  beginRun(source: string, since: number | undefined, startedAt: number): Promise<number> {
    return this.write(async (db) => {
      await db.query(`INSERT INTO ${T.cursors} (source, in_progress, next_token, pages, run_since, run_started_at, last_attempt_at, items)
        VALUES ($1, true, NULL, 0, $2, $3, $3, 0)
        ON CONFLICT (source) DO UPDATE SET in_progress = true, next_token = NULL, pages = 0, run_since = excluded.run_since,
          run_started_at = excluded.run_started_at, last_attempt_at = excluded.last_attempt_at, items = 0`,
      [source, since === undefined ? null : new Date(since), new Date(startedAt)]);
      return startedAt;
    });
  }

  /**
   * Page `pageNumber` (from 1) of run `run`, as the service sent it. One transaction: its rows and
   * the cursor that follows it. A page already stored is answered from the cursor, untouched; a
   * page out of order, or of a run that is not the source's run under way, is refused.
   */
  async storePage(source: string, run: number, kind: PageKind, bytes: ArrayBuffer | Uint8Array, pageNumber: number): Promise<StoredPage> {
    const rows = readPageRows(kind, bytes);
    return this.write(async (db) => {
      const cursor = await this.runUnderWay(db, source, run);
      if (pageNumber <= cursor.pages) {
        return { count: 0, alreadyStored: true, ...(cursor.next_token === null ? {} : { next: cursor.next_token }) };
      }
      if (pageNumber !== cursor.pages + 1) {
        throw new Error(`Page ${pageNumber} of ${source} came before page ${cursor.pages + 1}; nothing was stored.`);
      }
      await this.stage(db);
      await this.storeTitles(db, run, rows);
      await this.storeEntitlements(db, run, kind, rows);
      await db.query(`UPDATE ${T.cursors} SET next_token = $2, pages = $3, items = items + $4, page_kind = $5 WHERE source = $1`,
        [source, rows.next ?? null, pageNumber, rows.count, JSON.stringify(kind)]);
      return {
        count: rows.count,
        ...(rows.next === undefined ? {} : { next: rows.next }),
        ...(rows.totalCount === undefined ? {} : { totalCount: rows.totalCount }),
        ...(rows.warnings.length > 0 ? { warnings: rows.warnings } : {}),
        ...(kind.kind === 'entitlements' ? { contentIds: rows.entitlements.map((e) => e.contentId) } : {}),
      };
    });
  }

  /** The end of a run: a full run marks removed what it did not see (tombstones), and answers how many. */
  finishRun(source: string, run: number, { full }: { full: boolean }): Promise<Removed> {
    return this.write(async (db) => {
      const cursor = await this.runUnderWay(db, source, run);
      const removed: Removed = { titles: 0, entitlements: 0 };
      const kind = cursor.page_kind;
      if (full && kind) {
        if (kind.kind === 'global') {
          removed.titles = (await db.query(TOMBSTONE_TITLES('seen_run < $1'), [run])).rowCount ?? 0;
        } else if (kind.kind === 'entitlements') {
          removed.entitlements = (await db.query(TOMBSTONE_ENTITLEMENTS('library_id = $1 AND model = $2 AND seen_run < $3'), [kind.libraryId, kind.model, run])).rowCount ?? 0;
        } else {
          removed.entitlements = (await db.query(TOMBSTONE_ENTITLEMENTS('library_id = $1 AND seen_run < $2'), [kind.libraryId, run])).rowCount ?? 0;
        }
      }
      await db.query(`UPDATE ${T.cursors} SET in_progress = false, next_token = NULL, pages = 0, last_success_at = run_started_at,
        last_error = NULL, last_error_code = NULL WHERE source = $1`, [source]);
      return removed;
    });
  }

  /** A run that stopped on an error: it stays under way (it resumes from its cursor); `message` is for IT, `code` for desks. */
  failRun(source: string, message: string, code: ErrorCode, at: number): Promise<void> {
    return this.write(async (db) => {
      await db.query(`INSERT INTO ${T.cursors} (source, last_error, last_error_code, last_attempt_at) VALUES ($1, $2, $3, $4)
        ON CONFLICT (source) DO UPDATE SET last_error = excluded.last_error, last_error_code = excluded.last_error_code,
          last_attempt_at = excluded.last_attempt_at`, [source, message, code, new Date(at)]);
    });
  }

  /**
   * Content info's answers for a library, read at `readAt`: a reading that differs from the stored one takes a new change
   * sequence. An id the service left out of its answer (`unknown`: the client asked twice) says nothing, so nothing is stored.
   */
  storeAvailability(libraryId: number, items: readonly Availability[], readAt: number): Promise<void> {
    const latest = [...new Map(items.filter((a) => !a.unknown).map((a) => [a.contentId, a])).values()];
    return this.write(async (db) => {
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
  }

  /** The service's own notes (who leads, since when), for IT reading the database. */
  setServiceState(key: string, value: unknown): Promise<void> {
    return this.write(async (db) => {
      await db.query(`INSERT INTO ${T.state} (key, value, updated_at) VALUES ($1, $2, now())
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, [key, JSON.stringify(value)]);
    });
  }

  // ---- plumbing ----

  /** One transaction on the leader's session, after the ones before it; refused unless the session leads. */
  private write<T>(work: (db: pg.ClientBase) => Promise<T>): Promise<T> {
    const db = this.session;
    const result = this.queue.then(async () => {
      await db.query('BEGIN');
      try {
        const { rows } = await db.query<{ leading: boolean }>(HOLDS_LEADER_LOCK, [LOCK_CLASS, LOCK.leader]);
        if (!rows[0]?.leading) throw new NotLeaderError();
        const value = await work(db);
        await db.query('COMMIT');
        return value;
      } catch (error) {
        await db.query('ROLLBACK').catch(() => {});
        this.staged = false; // staging tables made in a transaction that rolled back are gone with it
        throw error;
      }
    });
    this.queue = result.catch(() => {});
    return result;
  }

  /** The source's cursor, locked for this transaction; refused unless `run` is its run under way. */
  private async runUnderWay(db: pg.ClientBase, source: string, run: number): Promise<CursorRow> {
    const { rows } = await db.query<CursorRow>(`SELECT * FROM ${T.cursors} WHERE source = $1 FOR UPDATE`, [source]);
    const cursor = rows[0];
    if (!cursor?.in_progress || cursor.run_started_at?.getTime() !== run) {
      throw new Error(`The run ${run} of ${source} is not under way (it was finished, or another run began); nothing was stored.`);
    }
    return cursor;
  }

  private async stage(db: pg.ClientBase): Promise<void> {
    if (this.staged) return;
    for (const statement of STAGING) await db.query(statement);
    this.staged = true;
  }

  private async storeTitles(db: pg.ClientBase, run: number, rows: PageRows): Promise<void> {
    const titles = rows.libraryTitles.length > 0 ? await this.mergedLibraryTitles(db, run, rows.libraryTitles) : rows.titles;
    if (titles.length > 0) {
      await copyRows(db, 'stage_titles', ['id', 'title_id', 'countries', 'record', 'wire'], titles.map(titleRowValues));
      await db.query(MERGE_TITLES, [run]);
    }
    if (rows.removedTitles.length > 0) await db.query(TOMBSTONE_TITLES('id = ANY($1)'), [rows.removedTitles.map(String)]);
  }

  /** Library content's records, each series' episodes merged with the ones this run stored before (as the desk's writer does). */
  private async mergedLibraryTitles(db: pg.ClientBase, run: number, records: CatalogRecord[]): Promise<TitleRow[]> {
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

  private async storeEntitlements(db: pg.ClientBase, run: number, kind: PageKind, rows: PageRows): Promise<void> {
    if (kind.kind === 'global') return;
    if (rows.entitlements.length > 0) {
      await copyRows(db, 'stage_entitlements', ['content_id', 'model', 'active'], rows.entitlements.map((e) => [String(e.contentId), e.model, e.active]));
      await db.query(MERGE_ENTITLEMENTS, [kind.libraryId, run]);
    }
    if (rows.removedEntitlements.length > 0) {
      await db.query(TOMBSTONE_ENTITLEMENTS('library_id = $1 AND content_id = ANY($2)'), [kind.libraryId, rows.removedEntitlements.map(String)]);
    }
  }
}
