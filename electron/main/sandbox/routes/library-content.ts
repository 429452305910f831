// GET /api/v1/libraries/{libraryId}/content: the library's collection with its own
// purchase model and active flag, full or delta, paged by content id.

import type { WireLibraryContentRecord } from '../../../node/partner/wire.ts';
import type { PurchaseModel } from '../libraries.ts';
import { listPage, scanPage } from '../paging.ts';
import type { IdPage } from '../paging.ts';
import { parseLimit, parseNonNegative, parsePurchaseModel, parseStartTime } from '../query.ts';
import { libraryRecords, removedRecords } from '../records.ts';
import { filterInSlices, flatMapInSlices } from '../slices.ts';
import { libraryOf, ok } from './context.ts';
import type { Handler } from './context.ts';

/** In the earlier schema a startToken this large is a unix time, not a content id. */
export const UNIX_TIME_TOKEN = 1_000_000_000;

export const libraryContent: Handler = async (context) => {
  const { state, query } = context;
  const library = libraryOf(context);
  const schema = state.shapes.libraryContentSchema[library.libraryId] ?? library.schema;
  const limit = parseLimit(query, 100);
  const model = parsePurchaseModel(query);
  let startToken = parseNonNegative(query, 'startToken', 0);
  let since = parseStartTime(query);
  let paged = true;
  if (schema === 'earlier' && since === undefined && startToken >= UNIX_TIME_TOKEN) {
    // The next call of such a delta could only pass an id, which would read as a full pull,
    // so this form of delta answers in one batch.
    since = startToken;
    startToken = 0;
    paged = false;
  }
  const { catalog, entitlements } = state;
  const modelMatches = (purchaseModel: PurchaseModel): boolean => model === 'ALL' || model === purchaseModel;

  let page: IdPage;
  if (since === undefined) {
    page = scanPage(startToken, catalog.maxId, limit, (id) => {
      const entitlement = entitlements.get(library.libraryId, id);
      return entitlement !== undefined && modelMatches(entitlement.purchaseModel);
    });
  } else {
    // With removals `absent`, a removal or un-entitlement is left out of the delta.
    const changed = await filterInSlices(state.changes.librarySince('libraryContent', library.libraryId, since), (id) => {
      const entitlement = entitlements.get(library.libraryId, id);
      return entitlement === undefined ? state.options.removals === 'marked' : modelMatches(entitlement.purchaseModel);
    });
    page = paged ? listPage(changed, startToken, limit) : { ids: changed, next: undefined };
  }
  const titles: WireLibraryContentRecord[] = await flatMapInSlices(page.ids, (id) => {
    const entitlement = entitlements.get(library.libraryId, id);
    const title = catalog.title(id);
    if (entitlement === undefined || title === undefined) return removedRecords(id, state.contents).map((record) => ({ ...record, active: false }));
    return libraryRecords(title, entitlement, library, schema, state.contents, state.options.covers);
  });
  return ok({ nextStartToken: page.next, titles });
};
