// The plain reference query the Collection browser must agree with: entitlements left-joined to
// titles and availability, the filters as WHERE clauses, the search as "every word begins one
// of the title's words" over the stored words, ordered by the sort column and then the content
// id ascending. No index, no cache, no full-text table: if the browser's answer differs from
// this one, the browser is wrong.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { BrowseQuery } from '../../../electron/node/mirror-interface.ts';
import { queryWords } from '../../../electron/mirror-owner/search-text.ts';
import { CONTENT_FLAGS, type ContentFlag } from '../../../electron/shared/collection.ts';

const bits = (flags: readonly ContentFlag[] | undefined): number => (flags ?? []).reduce((n, flag) => n | (1 << CONTENT_FLAGS.indexOf(flag)), 0);

const SORTS: Record<NonNullable<BrowseQuery['sort']>, string> = {
  title: 't.title COLLATE NOCASE',
  artist: 't.artist COLLATE NOCASE',
  format: 't.format',
  year: 't.year',
  availability: "CASE WHEN e.active = 0 THEN 3 WHEN e.model = 'INSTANT' OR a.available_copies > 0 THEN 0 WHEN a.status IS NULL THEN 2 ELSE 1 END",
};

/** Every matching content id, in order. */
export function referenceIds(db: DatabaseSync, query: Omit<BrowseQuery, 'offset' | 'limit'>): number[] {
  const clauses = ['e.library_id = ?'];
  const params: SQLInputValue[] = [query.libraryId];
  if (query.formats?.length) {
    clauses.push(`t.format IN (${query.formats.map(() => '?').join(', ')})`);
    params.push(...query.formats);
  }
  if (query.model) { clauses.push('e.model = ?'); params.push(query.model); }
  if (query.active !== undefined) { clauses.push('e.active = ?'); params.push(query.active ? 1 : 0); }
  if (query.availableNow) clauses.push("e.active = 1 AND (e.model = 'INSTANT' OR a.available_copies > 0)");
  if (query.noCopyFree) clauses.push("e.active = 1 AND e.model = 'FLEX' AND NOT coalesce(a.available_copies > 0, 0) AND a.status IS NOT NULL");
  if (query.kids) clauses.push('t.for_children = 1');
  if (query.flags?.length) { clauses.push('(coalesce(t.flags, 0) & ?) = ?'); params.push(bits(query.flags), bits(query.flags)); }
  if (query.withoutFlags?.length) { clauses.push('(coalesce(t.flags, 0) & ?) = 0'); params.push(bits(query.withoutFlags)); }
  for (const word of query.text ? queryWords(query.text) : []) {
    clauses.push("instr(' ' || t.words, ' ' || ?) > 0");
    params.push(word);
  }
  const order = `${SORTS[query.sort ?? 'title']} ${query.direction === 'desc' ? 'DESC' : 'ASC'}, e.content_id`;
  const rows = db.prepare(`SELECT e.content_id AS id FROM entitlements e
      LEFT JOIN titles t ON t.id = e.content_id
      LEFT JOIN availability a ON a.library_id = e.library_id AND a.content_id = e.content_id
    WHERE ${clauses.join(' AND ')} ORDER BY ${order}`).all(...params) as { id: number }[];
  return rows.map((r) => r.id);
}
