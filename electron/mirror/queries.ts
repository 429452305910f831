// What the entitlements browser asks of the mirror: one library's titles with their
// availability, filtered, searched (FTS5), sorted and paged for a virtual-scrolled table.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { AvailabilityStatus, CatalogRecord, Format, PurchaseModel } from '../shared/model.ts';
import type { BrowseRow, RowAvailability, TitleDetail } from '../shared/collection.ts';

export type { BrowseRow, RowAvailability, TitleDetail } from '../shared/collection.ts';

export interface BrowseQuery {
  libraryId: number;
  text?: string;
  formats?: Format[];
  model?: PurchaseModel;
  active?: boolean;
  availableNow?: boolean;
  kids?: boolean;
  sort?: 'title' | 'artist' | 'format' | 'availability' | 'year';
  direction?: 'asc' | 'desc';
  offset: number;
  limit: number;
}




interface Row {
  content_id: number; title: string | null; artist: string | null; format: string | null; year: number | null; cover: string | null;
  model: PurchaseModel; active: number; status: string | null; available_copies: number | null; total_copies: number | null;
  holds_queue_size: number | null; read_at: number | null;
}

const SORTS: Record<NonNullable<BrowseQuery['sort']>, string> = {
  title: 't.title COLLATE NOCASE',
  artist: 't.artist COLLATE NOCASE',
  format: 't.format',
  year: 't.year',
  availability: "CASE WHEN e.active = 0 THEN 3 WHEN e.model = 'INSTANT' OR a.available_copies > 0 THEN 0 WHEN a.status IS NULL THEN 2 ELSE 1 END",
};

/** Words to an FTS5 query: each a quoted prefix, all required; nothing the user types is syntax. */
export function ftsQuery(text: string): string | undefined {
  const words = text.normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0).slice(0, 12);
  return words.length === 0 ? undefined : words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' AND ');
}

function where(query: BrowseQuery): { sql: string; params: SQLInputValue[] } {
  const clauses = ['e.library_id = ?'];
  const params: SQLInputValue[] = [query.libraryId];
  if (query.formats?.length) {
    clauses.push(`t.format IN (${query.formats.map(() => '?').join(', ')})`);
    params.push(...query.formats);
  }
  if (query.model) { clauses.push('e.model = ?'); params.push(query.model); }
  if (query.active !== undefined) { clauses.push('e.active = ?'); params.push(query.active ? 1 : 0); }
  if (query.availableNow) clauses.push("e.active = 1 AND (e.model = 'INSTANT' OR a.available_copies > 0)");
  if (query.kids) clauses.push('t.for_children = 1');
  const fts = query.text ? ftsQuery(query.text) : undefined;
  if (fts) { clauses.push('e.content_id IN (SELECT rowid FROM titles_fts WHERE titles_fts MATCH ?)'); params.push(fts); }
  return { sql: clauses.join(' AND '), params };
}

const FROM = `FROM entitlements e
  LEFT JOIN titles t ON t.id = e.content_id
  LEFT JOIN availability a ON a.library_id = e.library_id AND a.content_id = e.content_id`;

/** `knownTotal`: the count for these filters from an earlier page, so scrolling does not recount. */
export function browse(db: DatabaseSync, query: BrowseQuery, knownTotal?: number): { total: number; rows: BrowseRow[] } {
  const { sql, params } = where(query);
  const total = knownTotal ?? Number((db.prepare(`SELECT count(*) AS n ${FROM} WHERE ${sql}`).get(...params) as { n: number }).n);
  const order = `${SORTS[query.sort ?? 'title']} ${query.direction === 'desc' ? 'DESC' : 'ASC'}, e.content_id`;
  const rows = db.prepare(`SELECT e.content_id, t.title, t.artist, t.format, t.year, t.cover, e.model, e.active,
      a.status, a.available_copies, a.total_copies, a.holds_queue_size, a.read_at
    ${FROM} WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...params, query.limit, query.offset) as unknown as Row[];
  return { total, rows: rows.map(toBrowseRow) };
}

export function detail(db: DatabaseSync, libraryId: number, contentId: number): TitleDetail | undefined {
  const row = db.prepare(`SELECT e.content_id, e.model, e.active, r.record, a.status, a.available_copies, a.total_copies,
      a.holds_queue_size, a.read_at ${FROM} LEFT JOIN title_records r ON r.id = e.content_id
    WHERE e.library_id = ? AND e.content_id = ?`).get(libraryId, contentId) as
    (Row & { record: string | null }) | undefined;
  if (!row) return undefined;
  const availability = availabilityOf(row);
  return {
    contentId: row.content_id, purchaseModel: row.model, active: row.active === 1,
    ...(row.record ? { record: JSON.parse(row.record) as CatalogRecord } : {}),
    ...(availability ? { availability } : {}),
  };
}

function availabilityOf(row: Pick<Row, 'status' | 'available_copies' | 'total_copies' | 'holds_queue_size' | 'read_at'>): RowAvailability | undefined {
  if (row.read_at === null) return undefined;
  const a: RowAvailability = { readAt: row.read_at };
  if (row.status !== null) a.status = row.status as AvailabilityStatus;
  if (row.available_copies !== null) a.availableCopies = row.available_copies;
  if (row.total_copies !== null) a.totalCopies = row.total_copies;
  if (row.holds_queue_size !== null) a.holdsQueueSize = row.holds_queue_size;
  return a;
}

function toBrowseRow(row: Row): BrowseRow {
  const out: BrowseRow = { contentId: row.content_id, purchaseModel: row.model, active: row.active === 1 };
  if (row.title !== null) out.title = row.title;
  if (row.artist !== null) out.artist = row.artist;
  if (row.format !== null) out.format = row.format as Format;
  if (row.year !== null) out.year = row.year;
  if (row.cover !== null) out.coverImageUrl = row.cover;
  const availability = availabilityOf(row);
  if (availability) out.availability = availability;
  return out;
}

/** Counts for the sync page. */
export function counts(db: DatabaseSync): { titles: number; entitlements: { libraryId: number; model: PurchaseModel; active: number; total: number }[] } {
  const titles = Number((db.prepare('SELECT count(*) AS n FROM titles').get() as { n: number }).n);
  const entitlements = (db.prepare(`SELECT library_id AS libraryId, model, sum(active) AS active, count(*) AS total
    FROM entitlements GROUP BY library_id, model ORDER BY library_id, model`).all() as unknown as { libraryId: number; model: PurchaseModel; active: number; total: number }[])
    .map((r) => ({ libraryId: Number(r.libraryId), model: r.model, active: Number(r.active), total: Number(r.total) }));
  return { titles, entitlements };
}
