// GET /api/v1/libraries/{libraryId}/entitlements: which titles the library holds and whether
// each is active. Its delta also lists titles whose Flex availability moved, which is how
// the spec's availability refresh learns what to ask content info about.

import type { WireEntitlement } from '../../../node/partner/wire.ts';
import { HttpError } from '../http-error.ts';
import type { Entitlement } from '../libraries.ts';
import { countMatching, listPage, scanPage } from '../paging.ts';
import type { IdPage } from '../paging.ts';
import { parseLimit, parseNonNegative, parsePurchaseModel, parseStartTime } from '../query.ts';
import { filterInSlices, flatMapInSlices } from '../slices.ts';
import { libraryOf, ok } from './context.ts';
import type { Handler } from './context.ts';

type StatusFilter = 'active' | 'inactive' | 'all';

function parseStatus(raw: string | null): StatusFilter {
  if (raw === null || raw === '') return 'all';
  const value = raw.toLowerCase();
  if (value === 'active' || value === 'inactive' || value === 'all') return value;
  throw new HttpError(400, 'status must be one of active, inactive, all', `got "${raw}"`);
}

export const entitlements: Handler = async (context) => {
  const { state, query } = context;
  const library = libraryOf(context);
  const limit = parseLimit(query, 100);
  const startToken = parseNonNegative(query, 'startToken', 0);
  const since = parseStartTime(query);
  // The spec names no filters here: a service that ignores them lists every entitlement, whatever was asked (issue #34).
  const ignored = state.options.entitlementFilters === 'ignored';
  const status = ignored ? 'all' : parseStatus(query.get('status'));
  const model = ignored ? 'ALL' : parsePurchaseModel(query);
  const store = state.entitlements;
  const statusMatches = (active: boolean): boolean => status === 'all' || (status === 'active') === active;
  const matches = (entitlement: Entitlement | undefined): boolean =>
    entitlement !== undefined && statusMatches(entitlement.active) && (model === 'ALL' || model === entitlement.purchaseModel);

  let page: IdPage;
  let totalCount: number;
  if (since === undefined) {
    const inPull = (id: number): boolean => matches(store.get(library.libraryId, id));
    page = scanPage(startToken, state.catalog.maxId, limit, inPull);
    totalCount = await state.total(`entitlements:${library.libraryId}:${status}:${model}`, () => countMatching(state.catalog.maxId, inPull));
  } else {
    // A title that left the collection counts as inactive, whatever its model was.
    // With removals `absent` (the published schemas show no marker), a removed entitlement is left out: only a full pull shows it gone.
    const changed = await filterInSlices(state.changes.librarySince('entitlements', library.libraryId, since), (id) => {
      const entitlement = store.get(library.libraryId, id);
      return entitlement === undefined ? statusMatches(false) && state.options.removals === 'marked' : matches(entitlement);
    });
    page = listPage(changed, startToken, limit);
    totalCount = changed.length;
  }
  // One entry per content: a series' episodes each (content-ids.ts).
  const list: WireEntitlement[] = await flatMapInSlices(page.ids, (id) => {
    const entitlement = store.get(library.libraryId, id);
    return state.contents.contentsOf(id).map((key): WireEntitlement => {
      const contentId = state.contents.wire(key);
      if (entitlement === undefined) return { contentId, active: false, removed: true };
      return { contentId, active: entitlement.active, ...(state.shapes.entitlementModel ? { purchaseModel: entitlement.purchaseModel } : {}) };
    });
  });
  const metadata = { totalCount, nextStartToken: page.next === undefined ? undefined : String(page.next), warnings: state.shapes.entitlementWarnings };
  return ok(state.shapes.entitlements === 'data' ? { metadata, data: { entitlements: list } } : { metadata, entitlements: list });
};
