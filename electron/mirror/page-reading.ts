// A page as the mirror's owner reads it, once: its bytes decoded and parsed as JSON, every
// record checked as the partner client checks it, and made into what the mirror stores — title
// rows, entitlement changes, or a library's content — beside what the page says of the pull.
import { pageMetadata, parseBulkPage, parseEntitlementPage, parseLibraryContentPage, readGlobalContentPage } from '../partner/normalize.ts';
import type { Entitlement, LibraryContentChange } from '../shared/model.ts';
import type { PageHead, SyncSource } from './mirror-interface.ts';
import { wireTitleChanges, type TitleChange } from './title-row.ts';

export type PageRead =
  | { kind: 'titles'; head: PageHead; changes: TitleChange[] }
  | { kind: 'entitlements'; head: PageHead; items: Entitlement[] }
  | { kind: 'library-content'; head: PageHead; changes: LibraryContentChange[] };

const decoder = new TextDecoder();

/** Throws PartnerError('bad-response') for bytes that are not a page of a bulk list. */
export function readPage(source: SyncSource, bytes: ArrayBuffer): PageRead {
  const text = decoder.decode(bytes);
  const body = parseBulkPage(text);
  const meta = pageMetadata(body);
  const head = (items: number, changedContentIds?: number[]): PageHead => ({ ...meta, items, ...(changedContentIds ? { changedContentIds } : {}) });
  switch (source.kind) {
    case 'global': {
      const changes = wireTitleChanges(readGlobalContentPage(body, text).items);
      return { kind: 'titles', head: head(changes.length), changes };
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
