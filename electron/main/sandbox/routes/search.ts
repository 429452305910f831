// GET /api/v1/libraries/{libraryId}/search: a patron-style search over the library's active
// titles. A linear scan: fine for the default catalog, and the sandbox is not a search engine.

import type { WireSearchTitle } from '../../../node/partner/wire.ts';
import { FORMATS } from '../catalog.ts';
import type { Format, Title } from '../catalog.ts';
import { HttpError } from '../http-error.ts';
import { commaList, parseLimit, parseNonNegative, parsePurchaseModel } from '../query.ts';
import { searchTitle } from '../records.ts';
import { libraryOf, ok } from './context.ts';
import type { Handler } from './context.ts';

function parseKinds(raw: string | null): Format[] | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  return commaList(raw).map((kind) => {
    const format = FORMATS.find((known) => known === kind.toUpperCase());
    if (format === undefined) throw new HttpError(400, `kind must be a comma list of ${FORMATS.join(', ')}`, `got "${kind}"`);
    return format;
  });
}

function searchableText(title: Title): string {
  return [title.title, title.subtitle, title.seriesName, ...title.artists.map((artist) => artist.name), title.publisher]
    .filter((part) => part !== undefined)
    .join(' ')
    .toLowerCase();
}

export const search: Handler = (context) => {
  const { state, query, headers } = context;
  const library = libraryOf(context);
  const words = (query.get('q') ?? '').toLowerCase().split(/\s+/).filter((word) => word !== '');
  const offset = parseNonNegative(query, 'offset', 0);
  const limit = parseLimit(query, 20);
  const kinds = parseKinds(query.get('kind'));
  const model = parsePurchaseModel(query);
  const kidsMode = String(headers['kids-mode'] ?? '').toLowerCase() === 'true';

  let found = 0;
  const titles: WireSearchTitle[] = [];
  for (let id = 1; id <= state.catalog.maxId; id += 1) {
    const entitlement = state.entitlements.get(library.libraryId, id);
    if (entitlement === undefined || !entitlement.active) continue;
    if (model !== 'ALL' && model !== entitlement.purchaseModel) continue;
    if (kinds !== undefined && !kinds.includes(state.catalog.core(id).format)) continue;
    const title = state.catalog.title(id);
    if (title === undefined || (kidsMode && !title.isForChildren)) continue;
    const text = searchableText(title);
    if (!words.every((word) => text.includes(word))) continue;
    if (found >= offset && titles.length < limit) titles.push(searchTitle(title, entitlement, library, state.contents, state.options.covers));
    found += 1;
  }
  return ok({ found, titles });
};
