// What a desk reads from the library mirror, with the desks' read-only role: every row that
// changed since the change sequence it last saw, oldest change first, in batches. Tombstones
// come too (a removed title or entitlement), so a desk removes what the service removed. One
// snapshot per batch (REPEATABLE READ), so a batch and its high-water mark agree.
import type pg from 'pg';
import { contentIdOf } from '../shared/content-id.ts';
import type { AvailabilityStatus, ContentId, PurchaseModel } from '../shared/model.ts';
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

export async function changesSince(session: pg.ClientBase, since: number, options: ChangesOptions = {}): Promise<ChangeBatch> {
  const limit = options.limit ?? DEFAULT_CHANGES_LIMIT;
  if (!Number.isSafeInteger(since) || since < 0) throw new Error('The change sequence to read from must be a whole number, 0 or more.');
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error('The batch size must be a whole number, 1 or more.');
  const libraries = options.libraries ? [...options.libraries] : null;
  const libraryFilter = 'AND ($3::bigint[] IS NULL OR library_id = ANY($3))';
  await session.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const [titles, entitlements, availability, top] = [
      await session.query(`SELECT change_seq, id, title_id, countries, record, wire, removed FROM ${SCHEMA}.titles
        WHERE change_seq > $1 ORDER BY change_seq LIMIT $2`, [since, limit]),
      await session.query(`SELECT change_seq, library_id, content_id, model, active, removed FROM ${SCHEMA}.entitlements
        WHERE change_seq > $1 ${libraryFilter} ORDER BY change_seq LIMIT $2`, [since, limit, libraries]),
      await session.query(`SELECT change_seq, library_id, content_id, status, available_copies, total_copies, holds_queue_size, read_at
        FROM ${SCHEMA}.availability WHERE change_seq > $1 ${libraryFilter} ORDER BY change_seq LIMIT $2`, [since, limit, libraries]),
      await session.query(`SELECT greatest((SELECT max(change_seq) FROM ${SCHEMA}.titles), (SELECT max(change_seq) FROM ${SCHEMA}.entitlements),
        (SELECT max(change_seq) FROM ${SCHEMA}.availability)) AS high`),
    ];
    await session.query('COMMIT');
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
  } catch (error) {
    await session.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
