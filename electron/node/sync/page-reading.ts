// A page as a page store reads it, once: its bytes decoded and parsed as JSON, beside what the
// page says of the pull (its next token, total and warnings). Both stores read pages here, so
// both keep the same records: the desk's mirror (electron/mirror-owner/page-store.ts) and the
// library mirror (server/page-store.ts).
//
// A global catalog record comes as the service sent it, once it has passed the checks every
// record passes (WireCatalogChange): the library mirror keeps it so, for each desk to read as it
// would a partner page; the desk's mirror normalises each one as it writes it (catalogChanges),
// so a page's records and rows never all live at once. Entitlements and library content are
// normalised here, as the partner client normalises them.
import {
  pageMetadata, parseBulkPage, parseCatalogRecord, parseEntitlementPage, parseLibraryContentPage, readGlobalContentPage, type WireCatalogChange,
} from '../partner/normalize.ts';
import type { CatalogChange, CatalogRecord, ContentId, Entitlement, LibraryContentChange } from '../../shared/model.ts';
import { decoded, type Bytes } from '../partner/bytes.ts';
import type { PageHead, SyncSource } from './page-store.ts';

export type { WireCatalogChange };

export type PageRead =
  | { kind: 'titles'; head: PageHead; changes: WireCatalogChange[] }
  | { kind: 'entitlements'; head: PageHead; items: Entitlement[] }
  | { kind: 'library-content'; head: PageHead; changes: LibraryContentChange[] };

/** Throws DeskError('bad-response') for bytes that are not a page of a bulk list. */
export function readPage(source: SyncSource, bytes: Bytes | Uint8Array): PageRead {
  const body = parseBulkPage(decoded(bytes));
  const meta = pageMetadata(body);
  const head = (items: number, changedContentIds?: ContentId[]): PageHead => ({ ...meta, items, ...(changedContentIds ? { changedContentIds } : {}) });
  switch (source.kind) {
    case 'global': {
      const { items } = readGlobalContentPage(body);
      return { kind: 'titles', head: head(items.length), changes: items };
    }
    case 'entitlements': {
      const { items } = parseEntitlementPage(body);
      return { kind: 'entitlements', head: head(items.length), items };
    }
    case 'availability-refresh': {
      const { items } = parseEntitlementPage(body);
      return { kind: 'entitlements', head: head(items.length, items.filter((e) => !e.removed).map((e) => e.contentId)), items };
    }
    case 'library-content': {
      const { items } = parseLibraryContentPage(body);
      return { kind: 'library-content', head: head(items.length), changes: items };
    }
  }
}

/** A page's global catalog changes, each record normalised as the client does only when it is taken. */
export function* catalogChanges(changes: Iterable<WireCatalogChange>): Generator<CatalogChange> {
  for (const change of changes) {
    yield change.kind === 'removed' ? change : { kind: 'upsert', record: parseCatalogRecord(change.wire, change.id) };
  }
}

/** Library content sends one record per TV episode under the series' id: both stores keep them as episodes of one title. */
export function mergeEpisodes(first: CatalogRecord, next: CatalogRecord): CatalogRecord {
  const episodes = [...first.episodes, ...next.episodes.filter((e) => !first.episodes.some((f) => f.titleId === e.titleId))];
  return { ...first, episodes };
}
