// The library mirror's store against a real PostgreSQL (a test cluster of its own) and the
// sandbox over HTTP: pages stored as the service sent them, change sequences only where something
// changed, tombstones for removals, the cursor in step with the rows, and a desk's reading of it
// all with the read-only role.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesSince } from '../../../electron/node/library-mirror/changes.ts';
import { tryLead } from '../../../server/leadership.ts';
import { grantDeskRole, migrate, SCHEMA, SCHEMA_VERSION } from '../../../electron/node/library-mirror/schema.ts';
import { LibraryPageStore } from '../../../server/page-store.ts';
import { LeaderWrites, NotLeaderError } from '../../../server/leader-writes.ts';
import { decoded } from '../../../electron/node/partner/bytes.ts';
import type { PartnerClient } from '../../../electron/node/partner/client.ts';
import { readGlobalContentPage } from '../../../electron/node/partner/normalize.ts';
import type { CatalogRecord } from '../../../electron/shared/model.ts';
import { useLibraryMirrorDatabase } from '../../support/library-mirror-database.ts';
import { startHarness, type Harness } from '../node/partner/helpers.ts';
import { entitlementsPull, globalPull, libraryContentPull, ofTable, readAllChanges, stateOf, storeRun } from './helpers.ts';
import type { ContentId } from '../../../electron/shared/model.ts';

/** Content ids in id order (whole numbers by value, as the default sandbox gives them). */
const byId = (a: ContentId, b: ContentId): number => String(a).localeCompare(String(b), 'en', { numeric: true });

const SIZE = 1200;
const db = useLibraryMirrorDatabase();
let h: Harness;
let client: PartnerClient;
let lead: pg.Client;
let desk: pg.Client;
let store: LibraryPageStore;

beforeAll(async () => {
  h = await startHarness({ catalogSize: SIZE });
  client = h.client();
  lead = await db().session(db().service, 'store-test leader');
  await migrate(lead);
  await grantDeskRole(lead, db().deskRole);
  expect(await tryLead(lead)).toBe(true);
  store = new LibraryPageStore(new LeaderWrites(lead));
  desk = await db().session(db().desk, 'store-test desk');
});
afterAll(async () => {
  await Promise.all([lead?.end(), desk?.end()]);
  await h?.sandbox.close();
});

const highWater = async (): Promise<number> => (await changesSince(desk, 0, { limit: 1 })).highWater;
const titleIds = (changes: Awaited<ReturnType<typeof readAllChanges>>['changes']): ContentId[] => ofTable(changes, 'titles').map((t) => t.id);

describe('migrations', () => {
  it('records each version applied; a second start applies nothing; a newer database is refused', async () => {
    const versions = await lead.query(`SELECT version, description FROM ${SCHEMA}.schema_versions ORDER BY version`);
    expect(versions.rows.map((r) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    expect(await migrate(lead)).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION });
    await lead.query(`INSERT INTO ${SCHEMA}.schema_versions (version, description) VALUES ($1, 'from the future')`, [SCHEMA_VERSION + 1]);
    try {
      await expect(migrate(lead)).rejects.toThrow(/newer service/);
    } finally {
      await lead.query(`DELETE FROM ${SCHEMA}.schema_versions WHERE version = $1`, [SCHEMA_VERSION + 1]);
    }
  });
});

describe('the global catalog', () => {
  it('a full run stores every title as the service sent it, each with a change sequence, read by a desk in order', async () => {
    const firstPage: string[] = [];
    const { heads, removed } = await storeRun(store, { kind: 'global' }, (async function* () {
      for await (const page of globalPull(client)) {
        if (firstPage.length === 0) firstPage.push(decoded(page));
        yield page;
      }
    })(), h.clock.now());
    expect(heads.map((a) => a.items)).toEqual([500, 500, 200]);
    expect(heads[0]?.totalCount).toBe(SIZE);
    expect(heads.at(-1)?.next).toBeUndefined();
    expect(removed).toEqual({ titles: 0, entitlements: 0 });

    const { changes, through, batches } = await readAllChanges(desk, 0, { limit: 500 });
    const titles = ofTable(changes, 'titles');
    expect(batches).toBe(3);
    expect(titles.map((t) => t.id).sort(byId)).toEqual(Array.from({ length: SIZE }, (_, i) => i + 1));
    expect(changes.map((c) => c.seq)).toEqual([...changes.map((c) => c.seq)].sort(byId));
    expect(new Set(changes.map((c) => c.seq)).size).toBe(changes.length);
    expect(through).toBe(changes.at(-1)?.seq);
    // The record is the service's own text, byte for byte as the page carried it, with its keys beside it.
    const text = firstPage[0] as string;
    const sent = readGlobalContentPage(JSON.parse(text)).items[0];
    const stored = titles.find((t) => t.id === sent?.id);
    if (sent?.kind !== 'upsert' || stored?.record === undefined) throw new Error('the first title sent was not stored');
    expect(JSON.parse(stored.record)).toEqual(sent.wire);
    expect(text).toContain(stored.record);
    expect(stored).toMatchObject({ wire: true, removed: false, titleId: expect.any(Number), countries: expect.arrayContaining([expect.stringMatching(/^(US|CA|AU|NZ)$/)]) });
  });

  it('a second full run that finds nothing new gives desks nothing new', async () => {
    const before = await highWater();
    const { removed } = await storeRun(store, { kind: 'global' }, globalPull(client), h.clock.now() + 1);
    expect(removed).toEqual({ titles: 0, entitlements: 0 });
    expect((await readAllChanges(desk, before)).changes).toEqual([]);
  });

  it('a delta: a revision takes a new sequence, a removal becomes a tombstone, an addition is new; nothing else moves', async () => {
    const before = await highWater();
    const since = h.clock.now();
    h.clock.advance(60_000);
    const { added } = h.sandbox.control.applyCatalogChanges({ modify: [5], remove: [7], add: 1 });
    const { heads } = await storeRun(store, { kind: 'global' }, globalPull(client, since), h.clock.now(), since);
    expect(heads.reduce((n, a) => n + a.items, 0)).toBe(3);
    const { changes } = await readAllChanges(desk, before);
    const titles = ofTable(changes, 'titles');
    expect(titles.map((t) => t.id).sort(byId)).toEqual([5, 7, ...added]);
    expect(titles.find((t) => t.id === 5)?.record).toMatch(/\(revised 1\)/);
    expect(titles.find((t) => t.id === 7)).toMatchObject({ removed: true });
    expect(titles.find((t) => t.id === 7)?.record).toBeUndefined();
    expect(titles.find((t) => t.id === added[0])).toMatchObject({ removed: false, wire: true });
  });

  it('a full run marks removed (a tombstone, with a new sequence) what it did not see', async () => {
    h.sandbox.control.applyCatalogChanges({ remove: [9] });
    const before = await highWater();
    const { removed } = await storeRun(store, { kind: 'global' }, globalPull(client), h.clock.now() + 2);
    expect(removed).toEqual({ titles: 1, entitlements: 0 });
    const { changes } = await readAllChanges(desk, before);
    expect(changes).toEqual([expect.objectContaining({ table: 'titles', id: 9, removed: true })]);
  });
});

describe('pages, runs and the leader', () => {
  it('a page out of order, or of a run another opening took over, is refused and writes nothing; a reopened run resumes after its last stored page', async () => {
    const startedAt = h.clock.now() + 10;
    const { run } = await store.openRun({ source: { kind: 'global' }, startedAt });
    const pages = globalPull(client, undefined, 100);
    const first = (await pages.next()).value!;
    const second = (await pages.next()).value!;
    await pages.return(undefined);
    const storing = store.storePage(run, 1, first);
    const head = await storing.head;
    expect(await storing.stored).toEqual({ items: 100 });
    expect(head).toMatchObject({ items: 100, next: expect.any(String) });
    const mark = await highWater();
    await expect(store.storePage(run, 3, second).head).rejects.toThrow(/Page 3 of the run came where page 2 was expected/);
    const reopened = await store.openRun({ source: { kind: 'global' }, startedAt: startedAt + 5 });
    expect(reopened).toMatchObject({ startToken: head.next, itemsBefore: 100 }); // the same run, from the page after the last stored
    await expect(store.storePage(run, 2, second).head).rejects.toThrow(/not open here/);
    expect(await highWater()).toBe(mark);
    expect(await stateOf(store, 'global')).toMatchObject({ inProgress: true, items: 100, nextToken: head.next, runStartedAt: startedAt });
  });

  it('a failed run keeps its cursor (it resumes there) and says why, as staff read it', async () => {
    const before = await stateOf(store, 'global');
    const { run } = await store.openRun({ source: { kind: 'global' }, startedAt: h.clock.now() + 15 });
    await store.failRun(run, { code: 'bad-response', message: 'The service sent an answer larger than 32 MiB.', reason: 'service.response-too-large', params: { limit: 32 } }, h.clock.now() + 20);
    expect(await stateOf(store, 'global')).toEqual({
      ...before, lastError: 'The service sent an answer larger than 32 MiB.', lastErrorCode: 'bad-response', lastErrorReason: 'service.response-too-large',
      lastErrorParams: { limit: 32 }, lastAttemptAt: h.clock.now() + 20,
    });
    const desksView = await desk.query(`SELECT last_error_code, in_progress FROM ${SCHEMA}.sync_status WHERE source = 'global'`);
    expect(desksView.rows).toEqual([{ last_error_code: 'bad-response', in_progress: true }]);
  });

  it('a session that does not hold the leader lock writes nothing', async () => {
    const other = await db().session(db().service, 'store-test follower');
    try {
      const follower = new LibraryPageStore(new LeaderWrites(other));
      await expect(follower.openRun({ source: { kind: 'entitlements', libraryId: 303, model: 'FLEX' }, startedAt: 1 })).rejects.toBeInstanceOf(NotLeaderError);
      await expect(follower.storeAvailability(303, [{ contentId: 1, status: 'BORROW' }], 1)).rejects.toBeInstanceOf(NotLeaderError);
      expect((await stateOf(follower, 'entitlements:303:FLEX')).inProgress).toBe(false);
      expect((await other.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.availability WHERE library_id = 303`)).rows[0].n).toBe(0);
    } finally {
      await other.end();
    }
  });
});

describe('entitlements and availability', () => {
  it('each model of a library, full: every entitlement the service lists', async () => {
    for (const model of ['INSTANT', 'FLEX'] as const) {
      const expected = new Map<ContentId, boolean>();
      for await (const page of client.entitlementPages(101, { purchaseModel: model, limit: 500 })) for (const e of page.items) expected.set(e.contentId, e.active);
      await storeRun(store, { kind: 'entitlements', libraryId: 101, model }, entitlementsPull(client, 101, model), h.clock.now() + 30);
      const rows = await desk.query(`SELECT content_id, active FROM ${SCHEMA}.entitlements WHERE library_id = 101 AND model = $1 AND NOT removed`, [model]);
      expect(new Map(rows.rows.map((r) => [Number(r.content_id), r.active]))).toEqual(expected);
    }
    const other = await readAllChanges(desk, 0, { libraries: [202] });
    expect(ofTable(other.changes, 'entitlements')).toEqual([]);
  });

  it('a delta that takes a title from the library leaves a tombstone desks read', async () => {
    const [gone] = h.sandbox.control.sampleContent(101, { purchaseModel: 'FLEX', active: true, count: 1 });
    const before = await highWater();
    const since = h.clock.now();
    h.clock.advance(60_000);
    h.sandbox.control.applyCatalogChanges({ unentitle: { libraryId: 101, contentIds: [gone as number] } });
    await storeRun(store, { kind: 'entitlements', libraryId: 101, model: 'FLEX' }, entitlementsPull(client, 101, 'FLEX', since), h.clock.now(), since);
    const entitlements = ofTable((await readAllChanges(desk, before, { libraries: [101] })).changes, 'entitlements');
    expect(entitlements).toEqual([expect.objectContaining({ libraryId: 101, contentId: gone, removed: true })]);
  });

  it('availability: a new reading takes a new sequence, the same reading stored again does not', async () => {
    const ids = h.sandbox.control.sampleContent(101, { purchaseModel: 'FLEX', active: true, count: 5 });
    const readAt = h.clock.now();
    const before = await highWater();
    await store.storeAvailability(101, await client.contentInfo(101, ids), readAt);
    const first = ofTable((await readAllChanges(desk, before)).changes, 'availability');
    expect(first.map((a) => a.contentId).sort(byId)).toEqual([...ids].sort(byId));
    expect(first[0]).toMatchObject({ libraryId: 101, readAt, status: expect.stringMatching(/^(BORROW|HOLD)$/), totalCopies: expect.any(Number) });
    const mark = await highWater();
    await store.storeAvailability(101, await client.contentInfo(101, ids), readAt);
    expect((await readAllChanges(desk, mark)).changes).toEqual([]);
    // An id the service left out of its answer says nothing: the reading stored before stays.
    await store.storeAvailability(101, [{ contentId: ids[0]!, unknown: true }], readAt + 1);
    expect((await readAllChanges(desk, mark)).changes).toEqual([]);
    await store.storeAvailability(101, await client.contentInfo(101, ids.slice(0, 2)), readAt + 600_000);
    expect(ofTable((await readAllChanges(desk, mark)).changes, 'availability').map((a) => a.readAt)).toEqual([readAt + 600_000, readAt + 600_000]);
  });
});

describe('library content', () => {
  it('stores a library\'s records as the desk keeps them (a series\' episodes in one title) with its entitlements', async () => {
    const before = await highWater();
    const { heads } = await storeRun(store, { kind: 'library-content', libraryId: 202 }, libraryContentPull(client, 202, 100), h.clock.now() + 40);
    const sent = new Map<ContentId, number>(); // id -> records sent under it
    for await (const page of client.libraryContentPages(202, { limit: 100 })) {
      for (const c of page.items) if (c.kind === 'upsert') sent.set(c.title.id, (sent.get(c.title.id) ?? 0) + 1);
    }
    expect(heads.reduce((n, a) => n + a.items, 0)).toBe([...sent.values()].reduce((a, b) => a + b, 0));
    const { changes } = await readAllChanges(desk, before, { libraries: [202] });
    const titles = ofTable(changes, 'titles');
    expect(titleIds(changes).sort(byId)).toEqual([...sent.keys()].sort(byId));
    const series = [...sent].find(([, n]) => n > 2)?.[0];
    const record = JSON.parse(titles.find((t) => t.id === series)?.record ?? '{}') as CatalogRecord;
    expect(titles.find((t) => t.id === series)?.wire).toBe(false);
    expect(record.episodes.length).toBe(sent.get(series as number));
    expect(ofTable(changes, 'entitlements').map((e) => e.contentId).sort(byId)).toEqual([...sent.keys()].sort(byId));
  });
});
