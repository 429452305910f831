// The sandbox's strict modes (issue #24), over HTTP: where the published guidance reads the
// service more strictly than the spec, the sandbox can too, so a desk that leans on the kinder
// reading fails here first.
// - ids 'published': a search result's titleId is not its content id (it is another title's),
//   and a series' episodes are contents of their own with string ids, sharing the titleId.
// - removals 'absent': deltas never mark a removal; only a full pull shows it, by absence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardFor, pageAll, raw, startApi, type Api } from './helpers.ts';

const LIB = 101;
const globalItems = (body: any): any[] => body.data?.contents ?? body.contents;
const metadataNext = (body: any): string | undefined => body.metadata.nextStartToken;
const entitlementItems = (body: any): any[] => body.entitlements ?? body.data?.entitlements;

describe("ids 'published'", () => {
  let api: Api;
  let spec: Api;
  beforeAll(async () => {
    api = await startApi({ catalogSize: 1500, ids: 'published' });
    spec = await startApi({ catalogSize: 1500 });
  });
  afterAll(async () => {
    await api.close();
    await spec.close();
  });

  it("gives a search result a titleId that is another title's content id, never its own", async () => {
    const { titles } = (await api.get(`/api/v1/libraries/${LIB}/search?q=&limit=200&kind=EBOOK`)).body;
    const catalog = new Map((await pageAll(api, '/api/v1/global-contents?limit=500', globalItems, metadataNext)).all.map((r: any) => [r.id, r]));
    expect(titles.length).toBeGreaterThan(50);
    let another = 0;
    for (const hit of titles) {
      // Found by its titleId in the global catalog: one record, whose content id is not the titleId.
      const records = [...catalog.values()].filter((r: any) => r.titleId === hit.titleId);
      expect(records).toHaveLength(1);
      expect(records[0].id).not.toBe(hit.titleId);
      expect(records[0].title).toBe(hit.title);
      if (catalog.get(hit.titleId)) another += 1; // the titleId is the content id of another title
    }
    expect(another).toBeGreaterThan(titles.length / 2);
  });

  it('keys a series on its episodes: one global record, entitlement and search episode per episode, each a string id', async () => {
    const { titles } = (await api.get(`/api/v1/libraries/${LIB}/search?q=&limit=50&kind=TELEVISION`)).body;
    const series = titles[0];
    expect(series.episodes.length).toBeGreaterThanOrEqual(2);
    for (const episode of series.episodes) expect(episode.id).toMatch(/^ep\/\d+\/\d+$/);
    const records = (await pageAll(api, '/api/v1/global-contents?limit=500', globalItems, metadataNext)).all.filter((r: any) => r.titleId === series.titleId);
    expect(records.map((r: any) => r.id)).toEqual(series.episodes.map((e: any) => e.id));
    expect(records.map((r: any) => r.episodeNumber)).toEqual(series.episodes.map((e: any) => e.episode));
    const entitled = (await pageAll(api, `/api/v1/libraries/${LIB}/entitlements?limit=500`, entitlementItems, metadataNext)).all.map((e: any) => e.contentId);
    for (const episode of series.episodes) expect(entitled).toContain(episode.id);
    const library = (await pageAll(api, `/api/v1/libraries/${LIB}/content?limit=500`, (b) => b.titles, (b) => b.nextStartToken)).all
      .filter((r: any) => r.titleId === series.titleId);
    expect(library.map((r: any) => r.id)).toEqual(series.episodes.map((e: any) => e.id));
  });

  it('lends an episode by its string id (percent-encoded in the path), and refuses the series number and a spec-mode client alike', async () => {
    const { titles } = (await api.get(`/api/v1/libraries/${LIB}/search?q=&limit=50&kind=TELEVISION&purchaseModel=INSTANT`)).body;
    const [first, second] = titles[0].episodes.map((e: any) => e.id as string);
    const info = (await api.get(`/api/v1/libraries/${LIB}/content/info?contentIds=${encodeURIComponent(`${first},${second}`)}`)).body;
    expect(info.map((a: any) => a.contentId)).toEqual([first, second]);
    expect(info[0].availability.status).toBe('BORROW');
    const card = cardFor(api, LIB, 'fresh');
    const borrowed = await api.call('POST', api.patronPath(LIB, card, `/${encodeURIComponent(second)}`));
    expect(borrowed.status).toBe(200);
    expect(borrowed.body.contentId).toBe(second);
    expect(borrowed.body.title).toContain(titles[0].episodes[1].title);
    expect((await api.get(api.patronPath(LIB, card, '/checkouts/current'))).body.map((l: any) => l.contentId)).toEqual([second]);
    expect(api.sandbox.control.patronState(LIB, card).loans).toEqual([second]);
    // Unencoded, the id's slashes are path steps: no route.
    expect((await api.call('POST', api.patronPath(LIB, card, `/${first}`))).status).toBe(404);
    // The series' own number is no content here.
    const seriesNumber = Number(second.split('/')[1]);
    expect((await api.call('POST', api.patronPath(LIB, card, `/${seriesNumber}`))).status).toBe(400);
    // The spec reading has no string ids.
    const specReply = await spec.call('POST', spec.patronPath(LIB, cardFor(spec, LIB, 'fresh'), `/${encodeURIComponent(first)}`));
    expect(specReply.status).toBe(400);
    expect(specReply.body.message).toBe('contentId must be an integer');
  });

  it('lends what a borrow by the titleId names: another title than the one searched for', async () => {
    const { titles } = (await api.get(`/api/v1/libraries/${LIB}/search?q=&limit=100&kind=EBOOK&purchaseModel=INSTANT`)).body;
    const card = cardFor(api, LIB, 'near-limit');
    for (const hit of titles) {
      const reply = await api.call('POST', api.patronPath(LIB, card, `/${hit.titleId}`));
      if (reply.status !== 200) continue;
      expect(reply.body.title).not.toBe(hit.title); // the hazard the desk must not fall into
      return;
    }
    throw new Error('no titleId named another lendable title');
  });
});

describe("removals 'absent'", () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi({ catalogSize: 1500, removals: 'absent' });
  });
  afterAll(() => api.close());

  it('leaves removals and un-entitlements out of every delta; only a full pull shows them, by absence', async () => {
    const entitled = (await pageAll(api, `/api/v1/libraries/${LIB}/entitlements?limit=500&status=active`, entitlementItems, metadataNext)).all.map((e: any) => e.contentId as number);
    const since = Math.floor(api.clock.now() / 1000);
    api.clock.advance(5_000);
    const [unentitled, removed, deactivated] = [entitled[3]!, entitled[5]!, entitled[8]!];
    api.sandbox.control.applyCatalogChanges({ unentitle: { libraryId: LIB, contentIds: [unentitled] }, remove: [removed], deactivate: { libraryId: LIB, contentIds: [deactivated] } });

    const delta = entitlementItems((await api.get(`/api/v1/libraries/${LIB}/entitlements?startTime=${since}&limit=500`)).body);
    expect(delta).toEqual([{ contentId: deactivated, active: false }]);
    expect(delta.some((e: any) => 'removed' in e)).toBe(false);
    const globalDelta = globalItems((await api.get(`/api/v1/global-contents?startTime=${since}&limit=500`)).body);
    expect(globalDelta).toEqual([]);
    const contentDelta = (await api.get(`/api/v1/libraries/${LIB}/content?startTime=${since}&limit=500`)).body.titles;
    expect(contentDelta.map((r: any) => [r.id, r.active])).toEqual([[deactivated, false]]);

    const full = (await pageAll(api, `/api/v1/libraries/${LIB}/entitlements?limit=500`, entitlementItems, metadataNext)).all.map((e: any) => e.contentId);
    expect(full).not.toContain(unentitled);
    expect(full).not.toContain(removed);
    expect(full).toContain(deactivated);
  });
});

// Issue #34: what the spec leaves open, read the unkind way.
describe("entitlementFilters 'ignored' and covers 'partner'", () => {
  let api: Api;
  beforeAll(async () => { api = await startApi({ catalogSize: 600 }); });
  afterAll(async () => { await api.close(); });
  const admin = (path: string, body: unknown) => raw(`${api.sandbox.url}/__sandbox/${path}`, {
    method: 'POST', headers: { 'x-sandbox-admin': api.sandbox.adminToken, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const ids = async (query: string): Promise<number[]> => (await pageAll(api, `/api/v1/libraries/${LIB}/entitlements?limit=500${query}`, entitlementItems, metadataNext))
    .all.map((e: any) => e.contentId);

  it('lists every entitlement whatever purchaseModel and status ask, once switched on over the admin route', async () => {
    const all = await ids('');
    const instant = await ids('&purchaseModel=Instant');
    const active = await ids('&status=active');
    expect(instant.length).toBeLessThan(all.length);
    expect(active.length).toBeLessThan(all.length);
    expect((await admin('modes', { entitlementFilters: 'ignored' })).status).toBe(204);
    try {
      expect(await ids('&purchaseModel=Instant')).toEqual(all);
      expect(await ids('&purchaseModel=Flex&status=inactive')).toEqual(all);
    } finally {
      await admin('modes', { entitlementFilters: 'honoured' });
    }
    expect(await ids('&purchaseModel=Instant')).toEqual(instant);
    expect((await admin('modes', { entitlementFilters: 'sometimes' })).status).toBe(400);
    expect((await admin('modes', { weather: 'fine' })).status).toBe(400);
  });

  it("serves real-looking covers on the partner's host, and keeps title pages on its own", async () => {
    expect((await admin('modes', { covers: 'partner' })).status).toBe(204);
    try {
      const page = (await api.get('/api/v1/global-contents?limit=20')).body;
      for (const record of globalItems(page)) {
        expect(record.coverImageUrl).toMatch(/^https:\/\/cover\.hoopladigital\.com\/[a-z]{3}_\d{13}_270\.jpeg$/);
        expect(record.url).toMatch(/^https:\/\/sandbox\.lending-desk\.invalid\/titles\//);
        for (const cover of record.coverImageUrls) expect(cover.coverImageUrl).toMatch(/^https:\/\/cover\.hoopladigital\.com\/[a-z]{3}_\d{13}_[a-z]{2}_270\.jpeg$/);
      }
    } finally {
      await admin('modes', { covers: 'sandbox' });
    }
    const again = globalItems((await api.get('/api/v1/global-contents?limit=1')).body)[0];
    expect(again.coverImageUrl).toMatch(/^https:\/\/sandbox\.lending-desk\.invalid\/covers\//);
  });
});
