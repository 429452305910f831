// A page as the mirror's owner reads it, once: its bytes decoded and parsed as JSON, every
// record normalised as the partner client normalises it — the global catalog's changes,
// entitlement changes, or a library's content — beside what the page says of the pull (its
// next token, total and warnings). The
// store then keeps each record in its compact form (title-record.ts), never reading it again.
import { pageMetadata, parseBulkPage, parseEntitlementPage, parseGlobalContentPage, parseLibraryContentPage } from '../partner/normalize.ts';
import type { CatalogChange, ContentId, Entitlement, LibraryContentChange } from '../../shared/model.ts';
import type { PageHead, SyncSource } from '../mirror-interface.ts';

export type PageRead =
  | { kind: 'titles'; head: PageHead; changes: CatalogChange[] }
  | { kind: 'entitlements'; head: PageHead; items: Entitlement[] }
  | { kind: 'library-content'; head: PageHead; changes: LibraryContentChange[] };

const decoder = new TextDecoder();

/** Throws DeskError('bad-response') for bytes that are not a page of a bulk list. */
export function readPage(source: SyncSource, bytes: ArrayBuffer): PageRead {
  const body = parseBulkPage(decoder.decode(bytes));
  const meta = pageMetadata(body);
  const head = (items: number, changedContentIds?: ContentId[]): PageHead => ({ ...meta, items, ...(changedContentIds ? { changedContentIds } : {}) });
  switch (source.kind) {
    case 'global': {
      const { items } = parseGlobalContentPage(body);
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
