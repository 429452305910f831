// The contents a title id stands for, read from the mirror's records. A search result names a
// title (`titleId`), not a content: in the global catalog records are keyed on `id`, and a
// series' episodes share one titleId, each its own content. So a search hit is resolved here,
// through the records the sync stored, to the content ids it may borrow — never by taking the
// titleId for a content id. Read by the title id each title files (schema 6): the primary key
// where a title's id is its content id, the partial index where it is not.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TitleContent } from '../shared/collection.ts';
import { durationSeconds } from '../shared/duration.ts';
import type { PurchaseModel } from '../shared/model.ts';
import type { ContentKeys } from './content-keys.ts';
import { recordOf } from './title-row.ts';

interface Row { key: number; record: string; wire: number; model: PurchaseModel | null; active: number | null }

const statements = new WeakMap<DatabaseSync, StatementSync>();

/** Every content the mirror files under `titleId`, episodes in order, with the library's entitlement where it has one. */
export function titleContents(db: DatabaseSync, keys: ContentKeys, libraryId: number, titleId: number): TitleContent[] {
  let statement = statements.get(db);
  if (!statement) {
    // Each half is what its index answers: the partial index's own WHERE (schema.ts), and the primary key.
    const columns = `SELECT t.id AS key, r.record, r.wire, e.model, e.active FROM titles t JOIN title_records r ON r.id = t.id
      LEFT JOIN entitlements e ON e.library_id = :library AND e.content_id = t.id`;
    statement = db.prepare(`${columns} WHERE t.title_id = :title AND t.title_id != t.id
      UNION ALL ${columns} WHERE t.id = :title AND t.title_id = t.id`);
    statements.set(db, statement);
  }
  const rows = statement.all({ library: libraryId, title: titleId }) as unknown as Row[];
  return rows.map((row) => {
    const record = recordOf(row.record, row.wire, keys.contentIdOf(row.key));
    const seconds = durationSeconds(record.duration);
    const content: TitleContent = { contentId: record.id };
    if (record.title !== undefined) content.title = record.title;
    if (record.season !== undefined) content.season = record.season;
    if (record.episode !== undefined) content.episode = record.episode;
    if (seconds !== undefined) content.seconds = seconds;
    if (row.model !== null) content.purchaseModel = row.model;
    if (row.active !== null) content.active = row.active === 1;
    return content;
  }).sort((a, b) => (a.season ?? 0) - (b.season ?? 0) || (a.episode ?? 0) - (b.episode ?? 0) || String(a.contentId).localeCompare(String(b.contentId)));
}
