// Bulk feeds over HTTP: every id exactly once through paging, filters, shape variants,
// both library content schema generations, the TV id/titleId rule and parameter errors.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageAll, startApi } from './helpers.ts';
import type { Api } from './helpers.ts';

const SIZE = 2000;
let api: Api;

beforeAll(async () => {
  api = await startApi({ catalogSize: SIZE });
});
afterAll(() => api.close());

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const globalItems = (body: any): any[] => body.data?.contents ?? body.contents;
const globalNext = (body: any): string | undefined => body.metadata.nextStartToken;
const entitlementItems = (body: any): any[] => body.entitlements ?? body.data?.entitlements;
const distinct = (ids: number[]): number[] => [...new Set(ids)];

describe('global contents', () => {
  it('pages through every id exactly once, no page over the limit, the token a string', async () => {
    const first = await api.get('/api/v1/global-contents?limit=137');
    expect(first.body.metadata).toEqual({ totalCount: SIZE, nextStartToken: '138', warnings: [] });
    const { pages, all } = await pageAll(api, '/api/v1/global-contents?limit=137', globalItems, globalNext);
    expect(all.map((record) => record.id)).toEqual(range(1, SIZE));
    expect(pages).toHaveLength(Math.ceil(SIZE / 137));
    expect(Math.max(...pages.map((page) => page.length))).toBeLessThanOrEqual(137);
    const last = await api.get(`/api/v1/global-contents?limit=137&startToken=${SIZE - 5}`);
    expect(last.body.metadata).not.toHaveProperty('nextStartToken');
    expect(globalItems(last.body)).toHaveLength(6);
  });

  it('produces records with the spec fields, all six formats and the gaps publishers leave', async () => {
    const { all } = await pageAll(api, '/api/v1/global-contents?limit=500', globalItems, globalNext);
    for (const record of all) {
      expect(record).toMatchObject({ id: expect.any(Number), titleId: record.id, format: expect.any(String) });
      expect(record.countryCodes.length).toBeGreaterThan(0);
      expect(record.products.length).toBeGreaterThan(0);
    }
    const share = (test: (record: any) => boolean): number => all.filter(test).length / all.length;
    expect(share((r) => r.format === 'EBOOK')).toBeCloseTo(0.4, 1);
    expect(new Set(all.map((r) => r.format))).toEqual(new Set(['EBOOK', 'AUDIOBOOK', 'MOVIE', 'TELEVISION', 'MUSIC', 'COMIC']));
    expect(share((r) => r.synopsis === undefined)).toBeGreaterThan(0.05);
    expect(share((r) => r.artist === undefined)).toBeGreaterThan(0.01);
    expect(all.some((r) => r.isbn === '')).toBe(true);
    expect(share((r) => r.countryCodes.includes('US'))).toBeGreaterThan(0.7);
    expect(all.some((r) => !r.countryCodes.includes('US'))).toBe(true);
    expect(all.some((r) => r.language === 'FRENCH')).toBe(true);
    const artist = all.find((r) => r.artists?.length > 0).artists[0];
    expect(artist.artistFormal).toBe(`${artist.name.split(' ').slice(1).join(' ')}, ${artist.name.split(' ')[0]}`);
    const tv = all.filter((r) => r.format === 'TELEVISION');
    expect(tv.every((r) => r.seasonNumber === 1 && r.seriesName !== undefined)).toBe(true);
    const juvenile = all.filter((r) => r.audience === 'Juvenile');
    expect(juvenile.length).toBeGreaterThan(0);
    expect(juvenile.every((r) => r.isForChildren === true)).toBe(true);
    expect(all.some((r) => r.format === 'MUSIC' && r.segments.length > 0 && /^\d+m \d+s$/.test(r.duration))).toBe(true);
  });

  it('filters by country, with a totalCount matching what the pages hold', async () => {
    const { all } = await pageAll(api, '/api/v1/global-contents?limit=500&countryCodes=nz', globalItems, globalNext);
    expect(all.length).toBeGreaterThan(0);
    expect(all.length).toBeLessThan(SIZE);
    expect(all.every((r) => r.countryCodes.includes('NZ'))).toBe(true);
    expect((await api.get('/api/v1/global-contents?countryCodes=NZ')).body.metadata.totalCount).toBe(all.length);
    const both = (await api.get('/api/v1/global-contents?countryCodes=NZ,AU')).body.metadata.totalCount;
    expect(both).toBeGreaterThan(all.length);
  });

  it("puts the records at the top level under globalContents: 'contents'", async () => {
    api.sandbox.control.setShapes({ globalContents: 'contents' });
    const reply = await api.get('/api/v1/global-contents?limit=3');
    api.sandbox.control.setShapes({ globalContents: 'data' });
    expect(reply.body).not.toHaveProperty('data');
    expect(reply.body.contents.map((r: any) => r.id)).toEqual([1, 2, 3]);
  });
});

describe('entitlements', () => {
  it('pages through the entitled ids once each, and the filters partition them', async () => {
    const { pages, all } = await pageAll(api, '/api/v1/libraries/101/entitlements?limit=250', entitlementItems, globalNext);
    const ids = all.map((e) => e.contentId);
    expect(distinct(ids)).toEqual(ids);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(Math.max(...pages.map((page) => page.length))).toBeLessThanOrEqual(250);
    expect((await api.get('/api/v1/libraries/101/entitlements?limit=1')).body.metadata.totalCount).toBe(ids.length);
    expect(ids.length / SIZE).toBeGreaterThan(0.35);
    expect(ids.length / SIZE).toBeLessThan(0.65);

    const fetchIds = async (query: string): Promise<number[]> =>
      (await pageAll(api, `/api/v1/libraries/101/entitlements?limit=500&${query}`, entitlementItems, globalNext)).all.map((e) => e.contentId);
    const instant = await fetchIds('purchaseModel=Instant');
    const flex = await fetchIds('purchaseModel=FLEX');
    expect([...instant, ...flex].sort((a, b) => a - b)).toEqual(ids);
    expect(instant.length / ids.length).toBeGreaterThan(0.3);
    expect(flex.length / ids.length).toBeGreaterThan(0.3);
    const active = await fetchIds('status=active');
    const inactive = await fetchIds('status=Inactive');
    expect(active.length + inactive.length).toBe(ids.length);
    expect(inactive.length).toBeGreaterThan(0);
    expect(inactive.length / ids.length).toBeLessThan(0.1);
  });

  it('differ between libraries', async () => {
    const first = (await api.get('/api/v1/libraries/101/entitlements?limit=50')).body.entitlements;
    const second = (await api.get('/api/v1/libraries/202/entitlements?limit=50')).body.entitlements;
    expect(first).not.toEqual(second);
  });

  it("sit under data.entitlements with entitlements: 'data'", async () => {
    api.sandbox.control.setShapes({ entitlements: 'data' });
    const reply = await api.get('/api/v1/libraries/101/entitlements?limit=2');
    api.sandbox.control.setShapes({ entitlements: 'entitlements' });
    expect(reply.body.data.entitlements).toHaveLength(2);
    expect(reply.body).not.toHaveProperty('entitlements');
  });
});

describe('library content', () => {
  it('pages by content id: every entitled id once, TV episodes kept on one page', async () => {
    const { pages } = await pageAll(api, '/api/v1/libraries/101/content?limit=100', (body) => body.titles, (body) => body.nextStartToken);
    const pageIds = pages.map((page) => distinct(page.map((t: any) => t.id)));
    expect(Math.max(...pageIds.map((ids) => ids.length))).toBeLessThanOrEqual(100);
    const ids = pageIds.flat();
    expect(distinct(ids)).toEqual(ids);
    const entitled = (await pageAll(api, '/api/v1/libraries/101/entitlements?limit=500', entitlementItems, globalNext)).all;
    expect(ids).toEqual(entitled.map((e) => e.contentId));
    const titles = pages.flat();
    expect(titles.every((t: any) => t.purchaseModel === 'INSTANT' || t.purchaseModel === 'FLEX')).toBe(true);
    const activeById = new Map(entitled.map((e) => [e.contentId, e.active]));
    expect(titles.every((t: any) => t.active === activeById.get(t.id))).toBe(true);

    const tv = titles.filter((t: any) => t.kind === 'TELEVISION');
    const series = new Map<number, any[]>();
    for (const episode of tv as any[]) series.set(episode.id, [...(series.get(episode.id) ?? []), episode]);
    expect(series.size).toBeGreaterThan(0);
    for (const [id, episodes] of series) {
      expect(episodes.length).toBeGreaterThanOrEqual(2);
      expect(episodes.length).toBeLessThanOrEqual(8);
      expect(episodes.map((e: any) => e.episode)).toEqual(range(1, episodes.length));
      expect(episodes[0].titleId).toBe(id);
      expect(episodes.slice(1).every((e: any) => e.titleId >= 100_000_000)).toBe(true);
      expect(distinct(episodes.map((e: any) => e.titleId))).toHaveLength(episodes.length);
    }
    const first = await api.get('/api/v1/libraries/101/content');
    expect(distinct(first.body.titles.map((t: any) => t.id))).toHaveLength(100);
  });

  it('accepts the purchaseModel spellings real clients use', async () => {
    const ids = async (model: string): Promise<number[]> =>
      distinct((await api.get(`/api/v1/libraries/202/content?limit=200&purchaseModel=${model}`)).body.titles.map((t: any) => t.id));
    const instant = await ids('INSTANT');
    expect(await ids('ppu')).toEqual(instant);
    expect(await ids('Flex')).toEqual(await ids('EST'));
    expect((await api.get('/api/v1/libraries/202/content?limit=200&purchaseModel=FLEX')).body.titles.every((t: any) => t.purchaseModel === 'FLEX')).toBe(true);
    expect((await ids('all')).length).toBe(200);
  });

  it('answers in the earlier schema for one library and the later one for the others, switchably', async () => {
    const laterOnly = ['seriesNumber', 'audience', 'lexile', 'atosBookLevel', 'interestLevel'];
    const has = (titles: any[], field: string): boolean => titles.some((t) => t[field] !== undefined);
    const earlier = (await api.get('/api/v1/libraries/303/content?limit=500')).body.titles;
    for (const field of laterOnly) expect(has(earlier, field), field).toBe(false);
    const later = (await api.get('/api/v1/libraries/101/content?limit=500')).body.titles;
    for (const field of laterOnly) expect(has(later, field), field).toBe(true);

    api.sandbox.control.setShapes({ libraryContentSchema: { 101: 'earlier', 303: 'later' } });
    expect(has((await api.get('/api/v1/libraries/101/content?limit=500')).body.titles, 'audience')).toBe(false);
    expect(has((await api.get('/api/v1/libraries/303/content?limit=500')).body.titles, 'audience')).toBe(true);
    api.sandbox.control.setShapes({ libraryContentSchema: { 101: 'later', 303: 'earlier' } });
  });
});

describe('parameter errors', () => {
  it('answers 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['/api/v1/global-contents?limit=abc', 'limit'],
      ['/api/v1/global-contents?limit=0', 'limit'],
      ['/api/v1/global-contents?limit=1001', 'limit'],
      ['/api/v1/global-contents?limit=2.5', 'limit'],
      ['/api/v1/global-contents?startToken=-1', 'startToken'],
      ['/api/v1/global-contents?startTime=yesterday', 'startTime'],
      ['/api/v1/global-contents?countryCodes=US,FR', 'countryCodes'],
      ['/api/v1/libraries/101/entitlements?status=gone', 'status'],
      ['/api/v1/libraries/101/entitlements?purchaseModel=rent', 'purchaseModel'],
      ['/api/v1/libraries/101/content?purchaseModel=x', 'purchaseModel'],
      ['/api/v1/libraries/101/content?startToken=abc', 'startToken'],
      ['/api/v1/libraries/abc/content', 'libraryId'],
    ];
    for (const [query, parameter] of cases) {
      const reply = await api.get(query);
      expect(reply.status, query).toBe(400);
      expect(reply.body.message, query).toContain(parameter);
    }
  });

  it('refuses a limit above the published batch limit of 500 on every bulk route and search, as a strict service would', async () => {
    for (const route of ['/api/v1/global-contents', '/api/v1/libraries/101/entitlements', '/api/v1/libraries/101/content', '/api/v1/libraries/101/search']) {
      expect((await api.get(`${route}?limit=500`)).status, route).toBe(200);
      for (const limit of [501, 1000]) {
        const reply = await api.get(`${route}?limit=${limit}`);
        expect(reply.status, `${route} limit=${limit}`).toBe(400);
        expect(reply.body.message).toBe('limit must be an integer from 1 to 500');
      }
    }
  });

  it('answers 404 for an unknown library', async () => {
    for (const route of ['content', 'entitlements', 'search', 'content/info?contentIds=1']) {
      expect((await api.get(`/api/v1/libraries/999/${route}`)).status).toBe(404);
    }
  });
});
