// A page, as the page reader read it (electron/node/sync/page-reading.ts), made into the rows the
// library mirror keeps: a global catalog record as the service sent it (a desk parses it as it
// would a partner page, so both give the same answers), library content's records normalised and
// a series' episodes merged as the desk's own writer merges them, and entitlements by library.
// Within a page the last word on each id wins, as the desk applies a page's records in order.
import { recordCountries } from '../electron/node/partner/normalize.ts';
import type { PageRead } from '../electron/node/sync/page-reading.ts';
import type { SyncSource } from '../electron/node/sync/page-store.ts';
import type { CatalogRecord, ContentId, PurchaseModel } from '../electron/shared/model.ts';
import type { CopyValue } from './copy.ts';

/** A title as the library mirror stores it: its record as sent (`wire`) or normalised, and the keys a desk may filter by. */
export interface LibraryTitleRow { id: ContentId; titleId: number | null; countries: readonly string[]; record: string; wire: boolean }

export interface EntitlementRow { contentId: ContentId; model: PurchaseModel; active: boolean }

export interface LibraryRows {
  /** Global catalog titles, one per id (the page's last word on each). */
  titles: LibraryTitleRow[];
  /** Library content's records in page order, a series' episodes each under the series' id (the store merges them). */
  libraryTitles: CatalogRecord[];
  removedTitles: ContentId[];
  entitlements: EntitlementRow[];
  removedEntitlements: ContentId[];
}

/** A title row's fields in the staging table's order (id, title_id, countries, record, wire). */
export const titleCopyValues = (r: LibraryTitleRow): CopyValue[] => [String(r.id), r.titleId, r.countries, r.record, r.wire];
/** An entitlement row's fields in the staging table's order (content_id, model, active). */
export const entitlementCopyValues = (e: EntitlementRow): CopyValue[] => [String(e.contentId), e.model, e.active];

/** A titleId as the client's normalising reads a whole number (a number, or a string of digits). */
function wholeNumber(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}

/** Keeps each id's last change. */
function lastOfEach<T>(items: readonly T[], idOf: (item: T) => ContentId): T[] {
  const last = new Map<ContentId, T>();
  for (const item of items) last.set(idOf(item), item);
  return [...last.values()];
}

export function libraryRowsOf(read: PageRead, source: SyncSource): LibraryRows {
  const rows: LibraryRows = { titles: [], libraryTitles: [], removedTitles: [], entitlements: [], removedEntitlements: [] };
  switch (read.kind) {
    case 'titles':
      for (const change of lastOfEach(read.changes, (c) => c.id)) {
        if (change.kind === 'removed') rows.removedTitles.push(change.id);
        // The record as the service sent it (its own JSON, written out again: the same text for a service that sends it compact).
        else rows.titles.push({ id: change.id, titleId: wholeNumber(change.wire.titleId), countries: recordCountries(change.wire), record: JSON.stringify(change.wire), wire: true });
      }
      return rows;
    case 'entitlements': {
      const model: PurchaseModel = source.kind === 'entitlements' ? source.model : 'FLEX'; // the availability refresh reads Flex entitlements
      for (const e of lastOfEach(read.items, (e) => e.contentId)) {
        if (e.removed) rows.removedEntitlements.push(e.contentId);
        else rows.entitlements.push({ contentId: e.contentId, model, active: e.active });
      }
      return rows;
    }
    case 'library-content': {
      // As the desk's writer applies them, in order: an episode after its series' removal brings it back.
      const lastRemoval = new Map<ContentId, number>();
      const lastChange = new Map<ContentId, number>();
      read.changes.forEach((change, index) => {
        const id = change.kind === 'removed' ? change.id : change.title.id;
        lastChange.set(id, index);
        if (change.kind === 'removed') lastRemoval.set(id, index);
      });
      read.changes.forEach((change, index) => {
        if (change.kind === 'removed') {
          if (lastChange.get(change.id) === index) rows.removedEntitlements.push(change.id);
          return;
        }
        const { active, purchaseModel, ...record } = change.title;
        if ((lastRemoval.get(record.id) ?? -1) > index) return;
        rows.libraryTitles.push(record);
        if (purchaseModel) rows.entitlements.push({ contentId: record.id, model: purchaseModel, active: active !== false });
      });
      rows.entitlements = lastOfEach(rows.entitlements, (e) => e.contentId);
      return rows;
    }
  }
}
