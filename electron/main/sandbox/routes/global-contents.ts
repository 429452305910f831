// GET /api/v1/global-contents: the whole catalog or a delta, optionally by country.

import type { WireGlobalContentRecord } from '../../../node/partner/wire.ts';
import { COUNTRIES } from '../catalog.ts';
import type { Country } from '../catalog.ts';
import { HttpError } from '../http-error.ts';
import { countMatching, listPage, scanPage } from '../paging.ts';
import { commaList, parseLimit, parseNonNegative, parseStartTime } from '../query.ts';
import { globalRecords, removedRecords } from '../records.ts';
import { filterInSlices, flatMapInSlices } from '../slices.ts';
import { ok } from './context.ts';
import type { Handler } from './context.ts';

function parseCountries(raw: string | null): Country[] | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  return commaList(raw).map((code) => {
    const country = COUNTRIES.find((known) => known === code.toUpperCase());
    if (country === undefined) throw new HttpError(400, `countryCodes must be a comma list of ${COUNTRIES.join(', ')}`, `got "${code}"`);
    return country;
  });
}

export const globalContents: Handler = async ({ state, query }) => {
  const countries = parseCountries(query.get('countryCodes'));
  const limit = parseLimit(query, 100);
  const startToken = parseNonNegative(query, 'startToken', 0);
  const since = parseStartTime(query);
  const { catalog } = state;
  // Removed ids keep their generated countries, so a country-filtered delta still reports them.
  const inCountries = (id: number): boolean =>
    countries === undefined || catalog.core(id).countryCodes.some((code) => countries.includes(code));

  let totalCount: number;
  let page;
  if (since === undefined) {
    const matches = (id: number): boolean => catalog.has(id) && inCountries(id);
    page = scanPage(startToken, catalog.maxId, limit, matches);
    totalCount = countries === undefined
      ? catalog.size
      : await state.total(`global:${countries.slice().sort().join(',')}`, () => countMatching(catalog.maxId, matches));
  } else {
    // With removals `absent` (the published schemas show no marker), a delta leaves a removed title out.
    const changed = await filterInSlices(state.changes.globalSince(since), (id) => inCountries(id) && (state.options.removals === 'marked' || catalog.has(id)));
    page = listPage(changed, startToken, limit);
    totalCount = changed.length;
  }
  const contents: WireGlobalContentRecord[] = await flatMapInSlices(page.ids, (id) => {
    const title = catalog.title(id);
    return title === undefined ? removedRecords(id, state.contents) : globalRecords(title, state.contents, state.options.covers);
  });
  const metadata = { totalCount, nextStartToken: page.next === undefined ? undefined : String(page.next), warnings: [] };
  return ok(state.shapes.globalContents === 'contents' ? { metadata, contents } : { metadata, data: { contents } });
};
