// What a desk reads from the library mirror, with the desks' read-only role: every row that
// changed since the change sequence it last saw, oldest change first, in batches. Tombstones
// come too (a removed title or entitlement), so a desk removes what the service removed. One
// snapshot per batch (REPEATABLE READ), so a batch and its high-water mark agree.
import type pg from 'pg';
import { contentIdOf } from '../../shared/content-id.ts';
import type { AvailabilityStatus, ContentId, PurchaseModel } from '../../shared/model.ts';
import { SCHEMA } from './schema-name.ts';

export interface TitleChange {
  table: 'titles'; seq: number; id: ContentId; titleId?: number; countries: string[]; removed: boolean;
  /** The record as the service sent it (`wire`) or normalised (library content); absent once removed. */
  record?: string; wire: boolean;
}
export interface EntitlementChange { table: 'entitlements'; seq: number; libraryId: number; contentId: ContentId; model: PurchaseModel; active: boolean; removed: boolean }
export interface AvailabilityChange {
  table: 'availability'; seq: number; libraryId: number; contentId: ContentId; status?: AvailabilityStatus;
  availableCopies?: number; totalCopies?: number; holdsQueueSize?: number; readAt: number;
}
export type MirrorChange = TitleChange | EntitlementChange | AvailabilityChange;

export interface ChangeBatch {
  changes: MirrorChange[];
  /** Ask from here next time: everything up to it has been answered. */
  through: number;
  /** The highest change sequence in the mirror when this batch was read. */
  highWater: number;
  /** More changes wait beyond `through`. */
  more: boolean;
}

export interface ChangesOptions {
  /** Entitlements and availability of these libraries only (titles are every library's). All when absent. */
  libraries?: readonly number[];
  /** At most this many changes (default 5000). */
  limit?: number;
}

export const DEFAULT_CHANGES_LIMIT = 5000;

const num = (v: string | number): number => Number(v);
/** Stored as text (String of the id): read back to its one form. */
const contentId = (v: string): ContentId => contentIdOf(v) as ContentId;
const optional = <K extends string, V>(key: K, value: V | null): Partial<Record<K, V>> => (value === null ? {} : ({ [key]: value } as Record<K, V>));

/** The largest change sequence (bigint): no bound. */
const NO_BOUND = '9223372036854775807';

export async function changesSince(session: pg.ClientBase, since: number, options: ChangesOptions = {}): Promise<ChangeBatch> {
  const limit = options.limit ?? DEFAULT_CHANGES_LIMIT;
  if (!Number.isSafeInteger(since) || since < 0) throw new Error('The change sequence to read from must be a whole number, 0 or more.');
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error('The batch size must be a whole number, 1 or more.');
  if (options.libraries && !options.libraries.every(Number.isSafeInteger)) throw new Error('A library id must be a whole number.');
  // One message, one round trip (the simple query protocol: whole numbers checked above are the
  // only values written into it), so a desk can ask for its next batch before it writes this one
  // and PostgreSQL reads and sends it meanwhile (library-fill.ts). A table's changes past the
  // limit-th change of a table read before it cannot be in the batch (only the first `limit` of
  // all are kept): they are not read, so a first fill is not sent 5000 entitlements with every
  // batch of titles only to drop them.
  const libraryFilter = options.libraries ? `AND library_id = ANY('{${options.libraries.join(',')}}'::bigint[])` : '';
  const limitTh = (table: string, filter: string): string =>
    `(SELECT max(change_seq) FROM (SELECT change_seq FROM ${SCHEMA}.${table} WHERE change_seq > ${since} ${filter} ORDER BY change_seq LIMIT ${limit}) AS first
      HAVING count(*) = ${limit})`;
  const bound = (tables: [string, string][]): string => `coalesce(least(${tables.map(([table, filter]) => limitTh(table, filter)).join(', ')}), ${NO_BOUND})`;
  const results = await session.query(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
    SELECT change_seq, id, title_id, countries, record, wire, removed FROM ${SCHEMA}.titles
      WHERE change_seq > ${since} ORDER BY change_seq LIMIT ${limit};
    SELECT change_seq, library_id, content_id, model, active, removed FROM ${SCHEMA}.entitlements
      WHERE change_seq > ${since} AND change_seq <= ${bound([['titles', '']])} ${libraryFilter} ORDER BY change_seq LIMIT ${limit};
    SELECT change_seq, library_id, content_id, status, available_copies, total_copies, holds_queue_size, read_at FROM ${SCHEMA}.availability
      WHERE change_seq > ${since} AND change_seq <= ${bound([['titles', ''], ['entitlements', libraryFilter]])} ${libraryFilter} ORDER BY change_seq LIMIT ${limit};
    SELECT greatest((SELECT max(change_seq) FROM ${SCHEMA}.titles), (SELECT max(change_seq) FROM ${SCHEMA}.entitlements),
      (SELECT max(change_seq) FROM ${SCHEMA}.availability)) AS high;
    COMMIT`).catch(async (error: unknown) => {
    await session.query('ROLLBACK').catch(() => {});
    throw error;
  });
  // Several statements answer with one result each: BEGIN, the three tables, the high-water mark, COMMIT.
  const [, titles, entitlements, availability, top] = results as unknown as pg.QueryResult[] as [unknown, pg.QueryResult, pg.QueryResult, pg.QueryResult, pg.QueryResult];
  const all: MirrorChange[] = [
    ...titles.rows.map((r): TitleChange => ({
      table: 'titles', seq: num(r.change_seq), id: contentId(r.id), ...optional('titleId', r.title_id === null ? null : num(r.title_id)),
      countries: r.countries, removed: r.removed, ...optional('record', r.record), wire: r.wire,
    })),
    ...entitlements.rows.map((r): EntitlementChange => ({
      table: 'entitlements', seq: num(r.change_seq), libraryId: num(r.library_id), contentId: contentId(r.content_id), model: r.model, active: r.active, removed: r.removed,
    })),
    ...availability.rows.map((r): AvailabilityChange => ({
      table: 'availability', seq: num(r.change_seq), libraryId: num(r.library_id), contentId: contentId(r.content_id), ...optional('status', r.status),
      ...optional('availableCopies', r.available_copies), ...optional('totalCopies', r.total_copies),
      ...optional('holdsQueueSize', r.holds_queue_size), readAt: (r.read_at as Date).getTime(),
    })),
  ].sort((a, b) => a.seq - b.seq);
  const highWater = Math.max(since, num(top.rows[0]?.high ?? 0));
  // Each table gave at most `limit`: past the limit-th change, one of them may have more.
  const changes = all.slice(0, limit);
  const more = all.length >= limit && (changes.at(-1)?.seq ?? since) < highWater;
  const through = more ? (changes.at(-1)?.seq ?? since) : highWater;
  return { changes, through, highWater, more };
}
