// The contents a title id stands for, read from the mirror's records. A search result names a
// title (`titleId`), not a content: in the global catalog records are keyed on `id`, and a
// series' episodes share one titleId, each its own content. So a search hit is resolved here,
// through the records the sync stored, to the content ids it may borrow — never by taking the
// titleId for a content id. Read through the index over each record's `titleId` (schema 6).
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
    // The expression is the index's own (schema.ts), so the index answers it.
    statement = db.prepare(`SELECT r.id AS key, r.record, r.wire, e.model, e.active FROM title_records r
      LEFT JOIN entitlements e ON e.library_id = ? AND e.content_id = r.id
      WHERE json_extract(r.record, '$.titleId') = ?`);
    statements.set(db, statement);
  }
  const rows = statement.all(libraryId, titleId) as unknown as Row[];
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
