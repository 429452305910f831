// What the desk asks of its Collection, answered by the mirror's owner: one library's titles with their
// availability, filtered, searched, sorted and paged for a virtual-scrolled table. The order
// and the page come from the library's in-memory index (collection-index.ts, collection-search.ts); the
// rows of the page are read from SQLite by key (content-keys.ts: a title's integer key, its
// content id where that is a whole number). The meaning is the reference query's, unchanged:
// entitlements left-joined to titles and availability, filtered, ordered by the sort column
// (NOCASE for text, NULL first ascending) and then by key ascending in both
// directions; a search word must begin a word of the title, series, first artist, ISBN or UPC.
import type { AvailabilityStatus, ContentId, Format, PurchaseModel } from '../shared/model.ts';
import { CONTENT_FLAGS, type BrowseRow, type CollectionPage, type RowAvailability, type TitleDetail } from '../shared/collection.ts';
import type { MirrorDatabase } from './mirror-database.ts';
import type { MirrorFile, Reads } from './mirror-file.ts';
import type { BrowseQuery, MirrorCounts } from '../node/mirror-interface.ts';
import { queryWords } from './search-text.ts';
import type { CollectionCache } from './collection-cache.ts';
import type { IndexFilters } from './collection-index.ts';
import { COUNT_CAP } from './collection-search.ts';
import { coverOf } from './title-record.ts';

interface Row {
  content_id: number; title: string | null; artist: string | null; format: string | null; year: number | null; flags: number;
  /** The record (whose cover the row shows), or for a title an earlier mirror kept and not yet converted, its cover column. */
  record: Uint8Array | null; cover: string | null;
  model: PurchaseModel; active: number; status: string | null; available_copies: number | null; total_copies: number | null;
  holds_queue_size: number | null; holds_queue_position: number | null; read_at: number | null;
}

const FROM = `FROM entitlements e
  LEFT JOIN titles t ON t.id = e.content_id
  LEFT JOIN availability a ON a.library_id = e.library_id AND a.content_id = e.content_id`;

/** A page's rows by key (the keys as one JSON list: one statement, prepared once, for any page). */
const ROWS_BY_KEY = `SELECT e.content_id, t.title, t.artist, t.format, t.year, e.flags, t.record, t.cover, e.model, e.active,
    a.status, a.available_copies, a.total_copies, a.holds_queue_size, a.holds_queue_position, a.read_at
  ${FROM} WHERE e.library_id = ? AND e.content_id IN (SELECT value FROM json_each(?))`;

/** The parts of the mirror the Collection's answers read: the file's queries (its keys and vocabulary among them), and the records. */
export type ReadParts = Pick<MirrorDatabase, 'file' | 'records'>;

/** The rows of these content ids, in this order (those the mirror never filed left out). */
export function rowsOf(mirror: ReadParts, libraryId: number, contentIds: readonly ContentId[]): BrowseRow[] {
  return rowsByKey(mirror, libraryId, contentIds.flatMap((id) => mirror.file.keys.keyOf(id) ?? []));
}

/** The rows of the titles filed under these keys, in this order. */
function rowsByKey(mirror: ReadParts, libraryId: number, keys: readonly number[]): BrowseRow[] {
  if (keys.length === 0) return [];
  const { file } = mirror;
  const statement = file.query(ROWS_BY_KEY);
  const byKey = new Map((statement.all(libraryId, JSON.stringify(keys)) as unknown as Row[]).map((row) => [row.content_id, row]));
  return keys.flatMap((key) => {
    const row = byKey.get(key);
    // Gone: the owner wrote since the index was read.
    return row ? [toBrowseRow(row, file.keys.contentIdOf(key), row.record ? coverOf(row.record, file.vocabulary) : row.cover ?? undefined)] : [];
  });
}

/** `searchUpgrade`: how far titles of an earlier mirror are getting their search words (0–1), while they are. */
export function browse(mirror: ReadParts, collections: CollectionCache, query: BrowseQuery, searchUpgrade?: number): CollectionPage {
  const words = query.text ? queryWords(query.text) : [];
  const sort = query.sort ?? 'title';
  const direction = query.direction ?? 'asc';
  const filters: IndexFilters = {
    ...(query.formats?.length ? { formats: query.formats } : {}), ...(query.model ? { model: query.model } : {}),
    ...(query.active === undefined ? {} : { active: query.active }), ...(query.availableNow ? { availableNow: true } : {}),
    ...(query.noCopyFree ? { noCopyFree: true } : {}),
    ...(query.kids ? { kids: true } : {}),
    ...(query.flags?.length ? { flags: query.flags } : {}), ...(query.withoutFlags?.length ? { withoutFlags: query.withoutFlags } : {}),
  };
  const { offset, limit } = query;
  const page = collections.read(query.libraryId, ({ index, search }) => {
    if (words.length === 0) {
      const view = index.view(filters, sort, direction);
      return { total: view.length, atLeast: false, keys: Array.from(view.subarray(offset, offset + limit), (row) => index.contentIds[row] as number) };
    }
    const need = query.exactCount ? Infinity : Math.max(COUNT_CAP + 1, offset + limit);
    const found = search.find(words, filters, sort, direction, need);
    const keys = Array.from(found.rows.subarray(offset, offset + limit), (row) => index.contentIds[row] as number);
    return found.complete ? { total: found.rows.length, atLeast: false, keys } : { total: COUNT_CAP, atLeast: true, keys };
  });
  return {
    total: page.total, rows: rowsByKey(mirror, query.libraryId, page.keys),
    ...(page.atLeast ? { atLeast: true } : {}), ...(searchUpgrade === undefined ? {} : { searchUpgrade }),
  };
}

export function detail(mirror: ReadParts, libraryId: number, contentId: ContentId): TitleDetail | undefined {
  const key = mirror.file.keys.keyOf(contentId);
  if (key === undefined) return undefined;
  const row = mirror.file.query(`SELECT e.content_id, e.model, e.active, a.status, a.available_copies, a.total_copies, a.holds_queue_size, a.holds_queue_position, a.read_at
    FROM entitlements e LEFT JOIN availability a ON a.library_id = e.library_id AND a.content_id = e.content_id
    WHERE e.library_id = ? AND e.content_id = ?`).get(libraryId, key) as Pick<Row, 'content_id' | 'model' | 'active' | AvailabilityColumn> | undefined;
  if (!row) return undefined;
  const availability = availabilityOf(row);
  const record = mirror.records.record(key);
  return {
    contentId, purchaseModel: row.model, active: row.active === 1,
    ...(record ? { record } : {}), ...(availability ? { availability } : {}),
  };
}

type AvailabilityColumn = 'status' | 'available_copies' | 'total_copies' | 'holds_queue_size' | 'holds_queue_position' | 'read_at';

function availabilityOf(row: Pick<Row, AvailabilityColumn>): RowAvailability | undefined {
  if (row.read_at === null) return undefined;
  const a: RowAvailability = { readAt: row.read_at };
  if (row.status !== null) a.status = row.status as AvailabilityStatus;
  if (row.available_copies !== null) a.availableCopies = row.available_copies;
  if (row.total_copies !== null) a.totalCopies = row.total_copies;
  if (row.holds_queue_size !== null) a.holdsQueueSize = row.holds_queue_size;
  if (row.holds_queue_position !== null) a.holdsQueuePosition = row.holds_queue_position;
  return a;
}

function toBrowseRow(row: Row, contentId: ContentId, cover: string | undefined): BrowseRow {
  const out: BrowseRow = { contentId, purchaseModel: row.model, active: row.active === 1 };
  if (row.title !== null) out.title = row.title;
  if (row.artist !== null) out.artist = row.artist;
  if (row.format !== null) out.format = row.format as Format;
  if (row.year !== null) out.year = row.year;
  if (cover !== undefined) out.coverImageUrl = cover;
  const flags = CONTENT_FLAGS.filter((_, i) => (row.flags & (1 << i)) !== 0);
  if (flags.length > 0) out.flags = flags;
  const availability = availabilityOf(row);
  if (availability) out.availability = availability;
  return out;
}

/** Of these titles of the library, those with an entitlement and no record (no title row under their key). */
export function withoutRecord(file: MirrorFile, libraryId: number, contentIds: readonly ContentId[]): ContentId[] {
  const bare = file.query(`SELECT 1 FROM entitlements e WHERE e.library_id = ? AND e.content_id = ?
      AND NOT EXISTS (SELECT 1 FROM titles t WHERE t.id = e.content_id)`);
  return contentIds.filter((id) => {
    const key = file.keys.keyOf(id);
    return key !== undefined && bare.get(libraryId, key) !== undefined;
  });
}

/** Counts for the sync page. */
export function counts(db: Reads): MirrorCounts {
  const titles = Number((db.query('SELECT count(*) AS n FROM titles').get() as { n: number }).n);
  const entitlements = (db.query(`SELECT library_id AS libraryId, model, sum(active) AS active, count(*) AS total
    FROM entitlements GROUP BY library_id, model ORDER BY library_id, model`).all() as unknown as { libraryId: number; model: PurchaseModel; active: number; total: number }[])
    .map((r) => ({ libraryId: Number(r.libraryId), model: r.model, active: Number(r.active), total: Number(r.total) }));
  return { titles, entitlements };
}
