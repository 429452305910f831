// The Collection browser's latencies on one library of the mirrored million, through the code
// the mirror's owner runs when the desk asks its Collection (queries.ts browse over the
// in-memory index, the page's rows read from SQLite included), here in this thread on a
// connection of its own (the round trip to the owner's thread is in the window's figure). Each figure asks what staff ask:
// - filter: a new model + format + active combination, sorted by title, count and first page;
//   the filtered view is forgotten before each, so every one is computed afresh;
// - search while typing: 1–3 words from real titles, typed as prefixes, half of them with
//   filters, sorted by title: the first 100 and the count (exact up to 1,000, "1,000+" beyond),
//   each search new (nothing kept from an earlier one); and the exact count asked afterwards
//   off the typing path;
// - scroll: pages of 100 at random positions of a filtered set, the last page included;
// - sort: the first page for every sort column in both directions, the view computed afresh.
import type { BrowseQuery } from '../electron/node/mirror-interface.ts';
import { MirrorDatabase } from '../electron/mirror-owner/mirror-database.ts';
import { browse, detail } from '../electron/mirror-owner/queries.ts';
import type { CollectionPage, TitleDetail } from '../electron/shared/collection.ts';
import { CollectionCache, type LibraryCollection } from '../electron/mirror-owner/collection-cache.ts';
import { queryWords } from '../electron/mirror-owner/search-text.ts';
import { Rng } from '../electron/main/sandbox/random.ts';
import { FORMATS, type Format, type PurchaseModel } from '../electron/shared/model.ts';
import { timed } from './figures.ts';

const SAMPLES = 200;
const SORTS = ['title', 'artist', 'format', 'year', 'availability'] as const;

export interface QueryFigures {
  firstBrowseMs: number;
  firstSearchMs: number;
  orderBuildMs: Record<string, number>;
  filterMs: number[];
  searchMs: number[];
  exactCountMs: number[];
  scrollMs: number[];
  sortMs: number[];
  searches: string[];
}

/** The owner's Collection over a mirror: what its `browse` and `title` answers run. */
export class MirrorReader {
  private readonly mirror: MirrorDatabase;
  private readonly collections: CollectionCache;

  constructor(path: string) {
    this.mirror = new MirrorDatabase(path);
    this.collections = new CollectionCache(this.mirror);
  }

  browse(query: BrowseQuery): CollectionPage {
    return browse(this.mirror, this.collections, query);
  }

  detail(libraryId: number, contentId: number): TitleDetail | undefined {
    return detail(this.mirror, libraryId, contentId);
  }

  forLibrary(libraryId: number): LibraryCollection {
    return this.collections.forLibrary(libraryId);
  }

  close(): void {
    this.mirror.close();
  }
}

type Filters = Pick<BrowseQuery, 'model' | 'formats' | 'active' | 'availableNow' | 'kids'>;

function randomFilters(rng: Rng): Filters {
  const filters: Filters = {};
  if (rng.chance(0.6)) filters.model = rng.pick<PurchaseModel>(['INSTANT', 'FLEX']);
  if (rng.chance(0.6)) filters.formats = [rng.pick<Format>(FORMATS)];
  if (rng.chance(0.5)) filters.active = rng.chance(0.9);
  if (rng.chance(0.1)) filters.kids = true;
  return filters;
}

/**
 * What staff type: 1–3 neighbouring words of a real title, author, series or ISBN, the last one
 * cut short as if still typing (`whole`: as typed to the end).
 */
export function typedSearches(catalog: MirrorReader, libraryId: number, rng: Rng, count: number, whole = false): string[] {
  const searches: string[] = [];
  const total = catalog.browse({ libraryId, offset: 0, limit: 1 }).total;
  while (searches.length < count) {
    const row = catalog.browse({ libraryId, offset: rng.int(0, total - 1), limit: 1 }).rows[0];
    const detail = row && catalog.detail(libraryId, row.contentId as number)?.record;
    if (!detail) continue;
    const sources = [detail.title, detail.title, detail.artist ?? detail.artists[0]?.name, detail.series, detail.isbn ?? detail.upc].filter((s): s is string => !!s);
    if (sources.length === 0) continue;
    const words = rng.pick(sources).split(/\s+/).filter((w) => queryWords(w).length > 0);
    if (words.length === 0) continue;
    const take = Math.min(words.length, rng.int(1, 3));
    const first = rng.int(0, words.length - take);
    const chosen = words.slice(first, first + take);
    const last = chosen[chosen.length - 1] as string;
    if (!whole) chosen[chosen.length - 1] = last.slice(0, rng.int(1, last.length));
    searches.push(chosen.join(' '));
  }
  return searches;
}

export function measureQueries(catalog: MirrorReader, libraryId: number, seed = 15): QueryFigures {
  const rng = new Rng(seed);
  const browse = (query: Omit<BrowseQuery, 'libraryId'>) => catalog.browse({ libraryId, ...query });
  const [firstBrowseMs] = timed(1, () => browse({ offset: 0, limit: 100 }));
  const [firstSearchMs] = timed(1, () => browse({ text: 'a', offset: 0, limit: 100 }));
  const orderBuildMs: Record<string, number> = {};
  for (const sort of SORTS) for (const direction of ['asc', 'desc'] as const) {
    orderBuildMs[`${sort} ${direction}`] = timed(1, () => browse({ sort, direction, offset: 0, limit: 100 }))[0] as number;
  }

  const forgetViews = () => catalog.forLibrary(libraryId).index.forgetViews();
  const forgetSearches = () => catalog.forLibrary(libraryId).search.forgetSearches();
  const models: PurchaseModel[] = ['INSTANT', 'FLEX'];
  const filterMs = timed(SAMPLES, (i) => {
    browse({ model: models[i % 2], formats: [FORMATS[Math.floor(i / 2) % 6] as Format], active: Math.floor(i / 12) % 2 === 0, sort: 'title', offset: 0, limit: 100 });
  }, forgetViews);

  const searches = typedSearches(catalog, libraryId, rng, SAMPLES);
  const searchFilters = searches.map((_, i) => (i % 2 === 0 ? {} : randomFilters(rng)));
  const searchMs = timed(SAMPLES, (i) => { browse({ text: searches[i], ...searchFilters[i], sort: 'title', offset: 0, limit: 100 }); }, forgetSearches);
  const exactCountMs = timed(SAMPLES, (i) => { browse({ text: searches[i], ...searchFilters[i], sort: 'title', offset: 0, limit: 1, exactCount: true }); }, forgetSearches);

  const scrolls: Omit<BrowseQuery, 'libraryId'>[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const filters = i % 4 === 0 ? {} : randomFilters(rng);
    const sort = i % 3 === 0 ? rng.pick(SORTS) : 'title';
    const total = browse({ ...filters, sort, offset: 0, limit: 1 }).total; // the view exists: scrolling follows a first page
    const offset = i % 10 === 0 ? Math.max(0, total - 100) : rng.int(0, Math.max(0, total - 100));
    scrolls.push({ ...filters, sort, offset, limit: 100 });
  }
  const scrollMs = timed(SAMPLES, (i) => { browse(scrolls[i] as Omit<BrowseQuery, 'libraryId'>); }, (i) => { browse({ ...scrolls[i], offset: 0, limit: 1 }); });

  const sortMs = timed(SAMPLES, (i) => {
    browse({ sort: SORTS[i % SORTS.length], direction: Math.floor(i / SORTS.length) % 2 === 0 ? 'asc' : 'desc', offset: 0, limit: 100 });
  }, forgetViews);

  return { firstBrowseMs: firstBrowseMs as number, firstSearchMs: firstSearchMs as number, orderBuildMs, filterMs, searchMs, exactCountMs, scrollMs, sortMs, searches };
}
