// Deltas: after applyCatalogChanges each feed returns exactly what changed since a time,
// with removals and deactivations in the sandbox's documented forms.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardFor, pageAll, startApi } from './helpers.ts';
import type { Api } from './helpers.ts';

const SIZE = 1500;
const LIB = 101;
let api: Api;
let since: number;
let added: number[];
let expectedUsAdded: number[];
let ids: { modify: number[]; remove: number; removeUnentitled: number; deactivate: number; reactivateLater: number; entitle: number; unentitle: number };

const globalItems = (body: any): any[] => body.data?.contents ?? body.contents;
const metadataNext = (body: any): string | undefined => body.metadata.nextStartToken;
const sorted = (list: number[]): number[] => [...list].sort((a, b) => a - b);

beforeAll(async () => {
  api = await startApi({ catalogSize: SIZE, tokenLifetimeSeconds: 100_000_000 });
  const entitled = (await api.get(`/api/v1/libraries/${LIB}/entitlements?limit=500&status=active`)).body.entitlements.map((e: any) => e.contentId) as number[];
  const entitledSet = new Set(entitled);
  const notEntitled = Array.from({ length: 200 }, (_, i) => i + 1).filter((id) => !entitledSet.has(id));
  ids = {
    modify: [entitled[10]!, notEntitled[0]!],
    remove: entitled[11]!,
    removeUnentitled: notEntitled[1]!,
    deactivate: entitled[12]!,
    reactivateLater: entitled[13]!,
    entitle: notEntitled[2]!,
    unentitle: entitled[14]!,
  };
  api.clock.advance(3_600_000);
  since = Math.floor(api.clock.now() / 1000);
  api.clock.advance(5_000);
  ({ added } = api.sandbox.control.applyCatalogChanges({
    add: 4,
    modify: ids.modify,
    remove: [ids.remove, ids.removeUnentitled],
    deactivate: { libraryId: LIB, contentIds: [ids.deactivate, ids.reactivateLater] },
    entitle: { libraryId: LIB, contentIds: [ids.entitle], purchaseModel: 'INSTANT' },
    unentitle: { libraryId: LIB, contentIds: [ids.unentitle] },
  }));
  const addedRecords = globalItems((await api.get(`/api/v1/global-contents?startToken=${SIZE + 1}`)).body);
  expectedUsAdded = addedRecords.filter((r) => r.countryCodes.includes('US')).map((r) => r.id);
});
afterAll(() => api.close());

describe('applyCatalogChanges', () => {
  it('adds ids after the current maximum and revises titles deterministically', async () => {
    expect(added).toEqual([SIZE + 1, SIZE + 2, SIZE + 3, SIZE + 4]);
    expect(api.sandbox.control.maxContentId()).toBe(SIZE + 4);
    const page = globalItems((await api.get(`/api/v1/global-contents?startToken=${ids.modify[0]}&limit=1`)).body)[0];
    expect(page.title).toMatch(/ \(revised 1\)$/);
    expect((await api.get(`/api/v1/global-contents?limit=1`)).body.metadata.totalCount).toBe(SIZE + 4 - 2);
  });

  it('rejects a bad change whole, changing nothing', async () => {
    expect(() => api.sandbox.control.applyCatalogChanges({ add: 1, modify: [ids.remove] })).toThrow(/not in the catalog/);
    expect(() => api.sandbox.control.applyCatalogChanges({ deactivate: { libraryId: 999, contentIds: [1] } })).toThrow(/no library/);
    expect(api.sandbox.control.maxContentId()).toBe(SIZE + 4);
  });
});

describe('global contents delta', () => {
  it('returns exactly the added, modified and removed ids, paged, removals flagged', async () => {
    const { pages, all } = await pageAll(api, `/api/v1/global-contents?limit=2&startTime=${since}`, globalItems, metadataNext);
    expect(pages.every((page) => page.length <= 2)).toBe(true);
    expect(all.map((r) => r.id)).toEqual(sorted([...added, ...ids.modify, ids.remove, ids.removeUnentitled]));
    expect(all.filter((r) => r.removed)).toEqual([
      { id: Math.min(ids.remove, ids.removeUnentitled), titleId: Math.min(ids.remove, ids.removeUnentitled), removed: true },
      { id: Math.max(ids.remove, ids.removeUnentitled), titleId: Math.max(ids.remove, ids.removeUnentitled), removed: true },
    ]);
    expect((await api.get(`/api/v1/global-contents?limit=2&startTime=${since}`)).body.metadata.totalCount).toBe(all.length);
  });

  it('takes ISO-8601 as well as epoch seconds, and finds nothing after the change', async () => {
    const iso = new Date(since * 1000).toISOString().replace('.000', '');
    const byIso = globalItems((await api.get(`/api/v1/global-contents?limit=100&startTime=${iso}`)).body).map((r) => r.id);
    const bySeconds = globalItems((await api.get(`/api/v1/global-contents?limit=100&startTime=${since}`)).body).map((r) => r.id);
    expect(byIso).toEqual(bySeconds);
    const later = await api.get(`/api/v1/global-contents?startTime=${since + 3600}`);
    expect(later.body.metadata).toEqual({ totalCount: 0, warnings: [] });
  });
});

describe('entitlements delta', () => {
  it('returns the library changes: additions, deactivations, entitlements, and removals as removed', async () => {
    const reply = await api.get(`/api/v1/libraries/${LIB}/entitlements?startTime=${since}&limit=500`);
    const byId = new Map<number, unknown>(reply.body.entitlements.map((e: any) => [e.contentId, e]));
    const expected = new Map<number, unknown>([
      ...expectedUsAdded.map((id) => [id, { contentId: id, active: true }] as const),
      [ids.remove, { contentId: ids.remove, active: false, removed: true }],
      [ids.deactivate, { contentId: ids.deactivate, active: false }],
      [ids.reactivateLater, { contentId: ids.reactivateLater, active: false }],
      [ids.entitle, { contentId: ids.entitle, active: true }],
      [ids.unentitle, { contentId: ids.unentitle, active: false, removed: true }],
    ]);
    expect(byId).toEqual(expected);
    expect(reply.body.metadata.totalCount).toBe(expected.size);
    const activeOnly = await api.get(`/api/v1/libraries/${LIB}/entitlements?startTime=${since}&status=active`);
    expect(sorted(activeOnly.body.entitlements.map((e: any) => e.contentId))).toEqual(sorted([...expectedUsAdded, ids.entitle]));
  });

  it('also lists titles whose Flex availability moved, and only those', async () => {
    api.clock.advance(60_000);
    const mark = Math.floor(api.clock.now() / 1000);
    const [flex] = api.sandbox.control.sampleContent(LIB, { purchaseModel: 'FLEX', status: 'BORROW', count: 1 });
    const card = cardFor(api, LIB, 'fresh');
    expect((await api.call('POST', api.patronPath(LIB, card, `/${flex}`))).status).toBe(200);
    const reply = await api.get(`/api/v1/libraries/${LIB}/entitlements?startTime=${mark}`);
    expect(reply.body.entitlements).toEqual([{ contentId: flex, active: true }]);
  });

  it('reports a reactivation as active again', async () => {
    api.clock.advance(60_000);
    const mark = Math.floor(api.clock.now() / 1000);
    api.sandbox.control.applyCatalogChanges({ reactivate: { libraryId: LIB, contentIds: [ids.reactivateLater] } });
    const reply = await api.get(`/api/v1/libraries/${LIB}/entitlements?startTime=${mark}`);
    expect(reply.body.entitlements).toEqual([{ contentId: ids.reactivateLater, active: true }]);
  });
});

describe('library content delta', () => {
  it('returns changed records, inactive ones as active:false and removed ones as stubs', async () => {
    const { all } = await pageAll(api, `/api/v1/libraries/${LIB}/content?limit=3&startTime=${since}`, (body) => body.titles, (body) => body.nextStartToken);
    const changedIds = [...new Set(all.map((t: any) => t.id as number))];
    expect(changedIds).toEqual(sorted([...expectedUsAdded, ids.modify[0]!, ids.remove, ids.deactivate, ids.reactivateLater, ids.entitle, ids.unentitle]));
    const one = (id: number): any[] => all.filter((t: any) => t.id === id);
    expect(one(ids.remove)).toEqual([{ id: ids.remove, titleId: ids.remove, removed: true, active: false }]);
    expect(one(ids.unentitle)).toEqual([{ id: ids.unentitle, titleId: ids.unentitle, removed: true, active: false }]);
    expect(one(ids.deactivate).every((t) => t.active === false && t.title !== undefined)).toBe(true);
    expect(one(ids.modify[0]!)[0].title).toMatch(/revised 1/);
    expect(one(ids.entitle)[0]).toMatchObject({ active: true, purchaseModel: 'INSTANT' });
  });

  it('reads a startToken of 1e9 or more as a unix time in the earlier schema, in one batch', async () => {
    api.sandbox.control.setShapes({ libraryContentSchema: { [LIB]: 'earlier' } });
    try {
      const byToken = await api.get(`/api/v1/libraries/${LIB}/content?limit=2&startToken=${since}`);
      const byTime = await pageAll(api, `/api/v1/libraries/${LIB}/content?limit=2&startTime=${since}`, (body) => body.titles, (body) => body.nextStartToken);
      expect(byToken.body).not.toHaveProperty('nextStartToken');
      expect(byToken.body.titles).toEqual(byTime.all);
    } finally {
      api.sandbox.control.setShapes({ libraryContentSchema: { [LIB]: 'later' } });
    }
  });
});
