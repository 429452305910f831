// The contents a title id stands for, read from the mirror's records by its owner. A search
// result names a title (`titleId`), not a content: in the global catalog records are keyed on
// `id`, and a series' episodes share one titleId, each its own content. So a search hit is
// resolved here, through the records the sync stored, to the content ids it may borrow — never
// by taking the titleId for a content id. Read by the title id each title files (schema 6): the
// primary key where a title's id is its content id, the partial index where it is not.
import type { SourceState, TitleContent, TitleContents } from '../shared/collection.ts';
import { durationSeconds } from '../shared/duration.ts';
import type { PurchaseModel } from '../shared/model.ts';
import type { MirrorDatabase } from './mirror-database.ts';
import { sourceName } from '../node/sync/page-store.ts';

interface Row { key: number; model: PurchaseModel | null; active: number | null }

/** The parts of the mirror read: the file's queries, the records, and whether titles were ever synced. */
type ContentsParts = Pick<MirrorDatabase, 'file' | 'records' | 'runs'>;

// Each half is what its index answers: the partial index's own WHERE (schema.ts), and the primary key.
const COLUMNS = `SELECT t.id AS key, e.model, e.active FROM titles t
  LEFT JOIN entitlements e ON e.library_id = :library AND e.content_id = t.id`;
const CONTENTS = `${COLUMNS} WHERE t.title_id = :title AND t.title_id != t.id
  UNION ALL ${COLUMNS} WHERE t.id = :title AND t.title_id = t.id`;

/** Every content the mirror files under `titleId`, episodes in order, with the library's entitlement where it has one. */
function contentsOf(mirror: ContentsParts, libraryId: number, titleId: number): TitleContent[] {
  const rows = mirror.file.query(CONTENTS).all({ library: libraryId, title: titleId }) as unknown as Row[];
  return rows.flatMap((row) => {
    const record = mirror.records.record(row.key);
    if (!record) return [];
    const seconds = durationSeconds(record.duration);
    const content: TitleContent = { contentId: record.id };
    if (record.title !== undefined) content.title = record.title;
    if (record.season !== undefined) content.season = record.season;
    if (record.episode !== undefined) content.episode = record.episode;
    if (seconds !== undefined) content.seconds = seconds;
    if (row.model !== null) content.purchaseModel = row.model;
    if (row.active !== null) content.active = row.active === 1;
    return [content];
  }).sort((a, b) => (a.season ?? 0) - (b.season ?? 0) || (a.episode ?? 0) - (b.episode ?? 0) || String(a.contentId).localeCompare(String(b.contentId)));
}

/** A source that files titles has succeeded once: a title id the mirror does not hold is not in it, rather than not synced yet. */
const titlesSynced = (states: readonly SourceState[]): boolean =>
  states.some((s) => (s.source === sourceName({ kind: 'global' }) || s.source.startsWith('library-content:')) && s.lastSuccessAt !== undefined);

/**
 * What each search hit's titleId stands for in the mirror: its contents, or
 * `no-mirror` until a run of titles (the global catalog or a library's content) has succeeded
 * once, `not-in-mirror` after.
 */
export function titleContents(mirror: ContentsParts, libraryId: number, titleIds: readonly number[]): TitleContents[] {
  const synced = titlesSynced(mirror.runs.allStates());
  return titleIds.map((titleId): TitleContents => {
    const contents = contentsOf(mirror, libraryId, titleId);
    if (contents.length > 0) return { titleId, contents };
    return { titleId, unresolved: synced ? 'not-in-mirror' : 'no-mirror' };
  });
}
