// Search and content info over HTTP: matching, filters, kids mode, paging, TV series with
// episodes; availability per id in request order, and the 50-id limit.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './helpers.ts';
import type { Api } from './helpers.ts';

const LIB = 101;
let api: Api;

beforeAll(async () => {
  api = await startApi({ catalogSize: 3000 });
});
afterAll(() => api.close());

const search = async (query: string, headers: Record<string, string> = {}) => {
  const reply = await api.get(`/api/v1/libraries/${LIB}/search?${query}`, headers);
  expect(reply.status, query).toBe(200);
  return reply.body as { found: number; titles: any[] };
};
const text = (t: any): string => [t.title, t.subtitle, t.series, t.artist, t.publisher, ...(t.artists ?? []).map((a: any) => a.name)].join(' ').toLowerCase();

describe('search', () => {
  it('matches every word of q, in any case, over title, series, artist and publisher', async () => {
    const result = await search('q=GARDEN&limit=500');
    expect(result.found).toBeGreaterThan(0);
    expect(result.titles).toHaveLength(result.found);
    expect(result.titles.every((t) => text(t).includes('garden'))).toBe(true);
    const narrower = await search('q=garden%20the&limit=500');
    expect(narrower.found).toBeLessThan(result.found);
    expect(narrower.titles.every((t) => text(t).includes('garden') && text(t).includes('the'))).toBe(true);
    const byPublisher = await search(`q=${encodeURIComponent('northwind books')}&limit=5`);
    expect(byPublisher.titles.every((t) => t.publisher === 'Northwind Books')).toBe(true);
    expect((await search('q=zzzyyyxxx')).found).toBe(0);
  });

  it('only finds active titles the library is entitled to', async () => {
    const entitled = (await api.get(`/api/v1/libraries/${LIB}/entitlements?limit=500&status=active`)).body.entitlements.map((e: any) => e.contentId);
    const everything = await search('limit=500');
    const all = new Set(entitled);
    expect(everything.titles.every((t) => all.has(t.titleId))).toBe(true);
    expect(everything.found).toBeGreaterThan(entitled.length * 0.3);
  });

  it('filters by kind and purchase model, and kids mode keeps only children\'s titles', async () => {
    const kinds = await search('kind=ebook,COMIC&limit=200');
    expect(kinds.titles.length).toBeGreaterThan(0);
    expect(kinds.titles.every((t) => t.kind === 'EBOOK' || t.kind === 'COMIC')).toBe(true);
    const flex = await search('purchaseModel=FLEX&limit=200');
    expect(flex.titles.every((t) => t.purchaseModel === 'FLEX')).toBe(true);
    const all = await search('purchaseModel=ALL&limit=1');
    expect(flex.found).toBeLessThan(all.found);
    const kids = await search('limit=200', { 'kids-mode': 'true' });
    expect(kids.found).toBeGreaterThan(0);
    expect(kids.found).toBeLessThan(all.found);
    expect(kids.titles.every((t) => t.children === true)).toBe(true);
    expect((await search('limit=1', { 'kids-mode': 'false' })).found).toBe(all.found);
    const bad = await api.get(`/api/v1/libraries/${LIB}/search?kind=PAMPHLET`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('kind');
  });

  it('pages with offset and limit over the same ordering', async () => {
    const first = await search('q=the&limit=10');
    const second = await search('q=the&limit=5&offset=5');
    expect(second.found).toBe(first.found);
    expect(second.titles.map((t) => t.titleId)).toEqual(first.titles.slice(5).map((t) => t.titleId));
    expect((await api.get(`/api/v1/libraries/${LIB}/search?offset=-1`)).status).toBe(400);
  });

  it('returns a TV series once, with its episodes', async () => {
    const tv = await search('kind=TELEVISION&limit=500');
    expect(tv.titles.length).toBeGreaterThan(0);
    expect(new Set(tv.titles.map((t) => t.titleId)).size).toBe(tv.titles.length);
    for (const series of tv.titles) {
      expect(series.episodes.length).toBeGreaterThanOrEqual(2);
      expect(series.episodes[0]).toMatchObject({ id: String(series.titleId), episode: 1, title: expect.any(String), duration: expect.any(Number) });
    }
    const book = (await search('kind=EBOOK&limit=1')).titles[0];
    expect(book.episodes).toEqual([]);
    expect(book.genres[0]).toEqual({ name: expect.any(String) });
  });
});

describe('content info', () => {
  it('answers one element per id in the order asked, duplicates included', async () => {
    const ids = [7, 3, 3, 1, 2999, 12];
    const reply = await api.get(`/api/v1/libraries/${LIB}/content/info?contentIds=${ids.join(',')}`);
    expect(reply.status).toBe(200);
    expect(reply.body.map((element: any) => element.contentId)).toEqual(ids);
  });

  it('gives each purchase model its availability', async () => {
    const control = api.sandbox.control;
    const [instant] = control.sampleContent(LIB, { purchaseModel: 'INSTANT', active: true, count: 1 });
    const [inactive] = control.sampleContent(LIB, { active: false, count: 1 });
    const [free] = control.sampleContent(LIB, { purchaseModel: 'FLEX', status: 'BORROW', count: 1 });
    const [full] = control.sampleContent(LIB, { purchaseModel: 'FLEX', status: 'HOLD', count: 1 });
    const notHere = 99_999_999;
    const reply = await api.get(`/api/v1/libraries/${LIB}/content/info?contentIds=${[instant, inactive, free, full, notHere].join(',')}`);
    const [a, b, c, d, e] = reply.body.map((element: any) => element.availability);
    expect(a).toEqual({ status: 'BORROW', available: true, purchaseModel: 'INSTANT' });
    expect(b).toMatchObject({ status: 'UNAVAILABLE', available: false });
    expect(c).toMatchObject({ status: 'BORROW', available: true, purchaseModel: 'FLEX', holdsQueueSize: 0 });
    expect(c.availableCopies).toBeGreaterThan(0);
    expect(c.availableCopies).toBeLessThanOrEqual(c.totalCopies);
    expect(d).toMatchObject({ status: 'HOLD', available: false, purchaseModel: 'FLEX', availableCopies: 0 });
    expect(d.holdsQueueSize).toBeGreaterThan(0);
    expect(e).toEqual({ status: 'UNAVAILABLE', available: false });
  });

  it('takes 50 ids and refuses 51 with 400 naming the limit', async () => {
    const ids = (n: number): string => Array.from({ length: n }, (_, i) => i + 1).join(',');
    const fifty = await api.get(`/api/v1/libraries/${LIB}/content/info?contentIds=${ids(50)}`);
    expect(fifty.status).toBe(200);
    expect(fifty.body).toHaveLength(50);
    const fiftyOne = await api.get(`/api/v1/libraries/${LIB}/content/info?contentIds=${ids(51)}`);
    expect(fiftyOne.status).toBe(400);
    expect(fiftyOne.body.message).toMatch(/contentIds.*50/);
  });

  it('refuses missing or non-integer ids with 400', async () => {
    for (const query of ['', '?contentIds=', '?contentIds=1,x', '?contentIds=1;2', '?contentIds=-3']) {
      const reply = await api.get(`/api/v1/libraries/${LIB}/content/info${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.message).toContain('contentIds');
    }
  });
});
