// A page as the service sent it (its bytes), read once with the partner client's own parsers
// (electron/node/partner/normalize.ts) into the rows the library mirror stores: the same checks of
// every record the desk's sync makes, so both mirrors hold the same records.
import { TextDecoder } from 'node:util';
import { parseBulkPage, parseEntitlementPage, parseLibraryContentPage, readGlobalContentPage, recordCountries } from '../electron/node/partner/normalize.ts';
import type { CatalogRecord, ContentId, PurchaseModel } from '../electron/shared/model.ts';

/** What a source's pages hold. */
export type PageKind =
  | { kind: 'global' }
  | { kind: 'entitlements'; libraryId: number; model: PurchaseModel }
  | { kind: 'library-content'; libraryId: number };

/** A title as stored: its record as sent (`wire`) or normalised, and the keys a desk may filter by. */
export interface TitleRow { id: ContentId; titleId: number | null; countries: readonly string[]; record: string; wire: boolean }

export interface EntitlementRow { contentId: ContentId; model: PurchaseModel; active: boolean }

export interface PageRows {
  next?: string;
  totalCount?: number;
  /** Records the page held (removals included), as the desk's sync counts them. */
  count: number;
  /** Global catalog titles, one per id (the page's last word on each). */
  titles: TitleRow[];
  /** Library content's records in page order, a series' episodes each under the series' id (the store merges them). */
  libraryTitles: CatalogRecord[];
  removedTitles: ContentId[];
  entitlements: EntitlementRow[];
  removedEntitlements: ContentId[];
  warnings: string[];
}

const decoder = new TextDecoder();


/** A titleId as the client's normalising reads a whole number (a number, or a string of digits). */
function wholeNumber(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}

/** Keeps each id's last change; says how many repeats there were. */
function lastOfEach<T>(items: readonly T[], idOf: (item: T) => ContentId, warnings: string[], what: string): T[] {
  const last = new Map<ContentId, T>();
  for (const item of items) last.set(idOf(item), item);
  if (last.size < items.length) warnings.push(`The page named ${items.length - last.size} ${what} more than once; the last of each was kept.`);
  return [...last.values()];
}

export function readPageRows(kind: PageKind, bytes: ArrayBuffer | Uint8Array): PageRows {
  // A garbled page is the client's bad-response (a GET worth sending again), thrown before anything is stored.
  const body = parseBulkPage(decoder.decode(bytes));
  const warnings: string[] = [];
  const rows: PageRows = { count: 0, titles: [], libraryTitles: [], removedTitles: [], entitlements: [], removedEntitlements: [], warnings };
  const withHead = (page: { next?: string; totalCount?: number }, count: number): PageRows => ({
    ...rows, count, ...(page.next === undefined ? {} : { next: page.next }), ...(page.totalCount === undefined ? {} : { totalCount: page.totalCount }),
  });
  switch (kind.kind) {
    case 'global': {
      const page = readGlobalContentPage(body);
      for (const change of lastOfEach(page.items, (c) => c.id, warnings, 'a title')) {
        if (change.kind === 'removed') {
          rows.removedTitles.push(change.id);
          continue;
        }
        rows.titles.push({
          // The record as the service sent it (its own JSON, written out again: the same text for a service that sends it compact).
          id: change.id, titleId: wholeNumber(change.wire.titleId), countries: recordCountries(change.wire), record: JSON.stringify(change.wire), wire: true,
        });
      }
      return withHead(page, page.items.length);
    }
    case 'entitlements': {
      const page = parseEntitlementPage(body);
      for (const e of lastOfEach(page.items, (e) => e.contentId, warnings, 'an entitlement')) {
        if (e.removed) rows.removedEntitlements.push(e.contentId);
        else rows.entitlements.push({ contentId: e.contentId, model: kind.model, active: e.active });
      }
      return withHead(page, page.items.length);
    }
    case 'library-content': {
      // As the desk's writer applies them, in order: an episode after its series' removal brings it back.
      const page = parseLibraryContentPage(body);
      const lastRemoval = new Map<ContentId, number>();
      const lastChange = new Map<ContentId, number>();
      page.items.forEach((change, index) => {
        const id = change.kind === 'removed' ? change.id : change.title.id;
        lastChange.set(id, index);
        if (change.kind === 'removed') lastRemoval.set(id, index);
      });
      page.items.forEach((change, index) => {
        if (change.kind === 'removed') {
          if (lastChange.get(change.id) === index) rows.removedEntitlements.push(change.id);
          return;
        }
        const { active, purchaseModel, ...record } = change.title;
        if ((lastRemoval.get(record.id) ?? -1) > index) return;
        rows.libraryTitles.push(record);
        if (purchaseModel) rows.entitlements.push({ contentId: record.id, model: purchaseModel, active: active !== false });
      });
      rows.entitlements = lastOfEach(rows.entitlements, (e) => e.contentId, [], '');
      return withHead(page, page.items.length);
    }
  }
}
