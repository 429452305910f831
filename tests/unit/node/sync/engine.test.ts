// The one sync engine against both of its stores — the desk's mirror (SQLite, on its owner
// thread) and the library mirror (PostgreSQL, as the library server keeps it) — and the sandbox
// over HTTP, each store run as its user runs it (the desk fetches ahead of its store; the server
// one page at a time): a full sync equals the service, a delta applies exactly the changes, a
// sync killed 20 times and resumed equals the service, a garbled page and a dropped connection
// are asked for again, a failing source is recorded while every other source is still tried, the
// availability refresh reads 50 ids a call, a library's content endpoint fills it instead, and a
// cancelled sync records nothing and resumes.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import { PartnerClient } from '../../../../electron/node/partner/client.ts';
import type { FetchFn } from '../../../../electron/node/partner/transport.ts';
import { refreshChangedAvailability, runSync, type SyncContext, type SyncProgress, type SyncRequest } from '../../../../electron/node/sync/engine.ts';
import type { PageStore } from '../../../../electron/node/sync/page-store.ts';
import type { ContentId } from '../../../../electron/shared/model.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';
import { createClock } from '../../../support/clock.ts';
import { connectionOf, countriesOf } from '../../mirror-owner/helpers.ts';
import { serviceHoldings, useBothStores, type OpenStore, type StoreKind } from './stores.ts';

// One clock for the sandbox and the engine, moved ten minutes at each test and before each change:
// a delta reaches back two minutes past the last run, so no test's delta sees another test's changes.
const clock = createClock();
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 1500, now: clock.now });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => clock.advance(600_000));

const clientOf = (): PartnerClient =>
  new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password }, now: clock.now });

const STORES = useBothStores();

const request = (extra: Partial<SyncRequest> = {}): SyncRequest => ({
  countries: countriesOf(sandbox), libraries: sandbox.libraries.map((l) => l.libraryId), source: 'global+entitlements', pageSize: 100, ...extra,
});

/** The engine as the store's user runs it: the library server one page at a time, the desk ahead of its store. */
const contextFor = (kind: StoreKind, open: OpenStore, extra: Partial<SyncContext> = {}): SyncContext => ({
  client: clientOf().withPriority('background'), store: open.store, now: clock.now, signal: new AbortController().signal,
  ...kind.engine, ...extra,
});

describe.each(STORES.map((kind) => [kind.name, kind] as const))('the sync engine into %s', (_name, kind) => {
  it('a full sync (with progress) equals the service: counts and checksums; every source ends done', async () => {
    const open = await kind.open('full');
    const progress: SyncProgress[] = [];
    await runSync(contextFor(kind, open, { onProgress: (p) => progress.push(p) }), request());
    const expected = await serviceHoldings(sandbox);
    expect(await open.holdings()).toEqual(expected);
    expect(await open.intact()).toBe(true);
    expect((await open.states()).every((s) => s.lastSuccessAt !== undefined && !s.inProgress && s.lastError === undefined)).toBe(true);
    expect(progress.some((p) => p.source === 'global' && p.total === expected.titles)).toBe(true);
    await open.close();
  });

  it('a delta after changes applies exactly the changes: additions, metadata, removals, deactivations', async () => {
    const open = await kind.open('delta');
    await runSync(contextFor(kind, open), request());
    const { libraryId } = sandbox.libraries[0]!;
    const [deactivate, remove] = sandbox.control.sampleContent(libraryId, { active: true, count: 2 }) as number[];
    clock.advance(600_000);
    sandbox.control.applyCatalogChanges({ add: 4, modify: [11, 12], remove: [remove!], deactivate: { libraryId, contentIds: [deactivate!] } });
    await runSync(contextFor(kind, open), request());
    const global = (await open.states()).find((s) => s.source === 'global')!;
    expect(global.items).toBe(4 + 2 + 1); // the delta carried exactly the changed records
    expect(await open.holdings()).toEqual(await serviceHoldings(sandbox));
    await open.close();
  });

  it('a sync killed 20 times at random points and resumed ends equal to the service, every source done', async () => {
    const open = await kind.open('killed');
    const { spec } = open;
    await open.close(); // the child processes open it, one at a time
    const child = join(REPO_ROOT, 'tests', 'reliability', 'children', 'sync-child.ts');
    // Every run is a full one, so each kill lands in a run (a finished run would leave only a short delta to kill).
    const args = [child, JSON.stringify(spec), JSON.stringify(connectionOf(sandbox)), JSON.stringify(request({ pageSize: 50, full: true }))];
    let killedMidway = 0;
    for (let i = 0; i < 20; i++) {
      const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      const finished = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
      // Once the first page is stored (however slowly a loaded machine starts the process), a random moment later.
      await new Promise<void>((resolve) => {
        proc.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('page ')) resolve();
        });
        void finished.then(() => resolve());
      });
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 60)));
      if (proc.kill('SIGKILL') && !output.includes('done')) killedMidway++;
      await finished;
    }
    const last = spawn(process.execPath, args, { stdio: 'inherit' });
    expect(await new Promise((resolve) => last.on('exit', resolve))).toBe(0);
    expect(killedMidway).toBeGreaterThanOrEqual(15);
    const reopened = await kind.open('killed');
    expect(await reopened.intact()).toBe(true);
    expect(await reopened.holdings()).toEqual(await serviceHoldings(sandbox));
    expect((await reopened.states()).every((s) => !s.inProgress && s.lastError === undefined)).toBe(true);
    await reopened.close();
  }, 180_000);

  it('asks again for a garbled page and for one whose connection dropped, and still equals the service', async () => {
    const full = request({ full: true });
    const clean = await kind.open('clean');
    let before = sandbox.control.requestCounts().globalContents;
    await runSync(contextFor(kind, clean), full);
    await clean.close();
    const pages = sandbox.control.requestCounts().globalContents - before;
    before = sandbox.control.requestCounts().globalContents;
    sandbox.control.addFault({ route: 'globalContents', kind: 'malformed-json', times: 1 });
    sandbox.control.addFault({ route: 'globalContents', kind: 'reset', phase: 'before', times: 1 });
    sandbox.control.addFault({ route: 'entitlements', kind: 'malformed-json', times: 1 });
    const open = await kind.open('faults');
    try {
      await runSync(contextFor(kind, open), full);
    } finally {
      sandbox.control.clearFaults();
    }
    const sent = sandbox.control.requestCounts().globalContents - before;
    expect((await open.states()).filter((s) => s.lastError !== undefined)).toEqual([]);
    expect(await open.holdings()).toEqual(await serviceHoldings(sandbox));
    await open.close();
    // Every page a clean run asks for, and the two that failed once more.
    expect(sent).toBe(pages + 2);
  });

  it('a failing source keeps its last good data and says what failed and when; every other source is still tried and done', async () => {
    const open = await kind.open('failing');
    await runSync(contextFor(kind, open), request());
    const before = await open.holdings();
    const done = new Map((await open.states()).map((s) => [s.source, s.lastSuccessAt]));
    clock.advance(600_000);
    sandbox.control.addFault({ route: 'globalContents', kind: 'server-error', status: 503 });
    try {
      await expect(runSync(contextFor(kind, open), request({ full: true }))).rejects.toMatchObject({ code: 'server' });
    } finally {
      sandbox.control.clearFaults();
    }
    expect((await open.holdings()).titles).toBe(before.titles);
    const states = await open.states();
    const global = states.find((s) => s.source === 'global')!;
    expect(global.lastError).toMatch(/503|unavailable/i); // English, for the log
    expect(global.lastErrorCode).toBe('server'); // what staff read, in their language
    expect(global.lastSuccessAt).toBe(done.get('global'));
    // The entitlements were still synced, each after the global catalog had failed.
    const entitlements = states.filter((s) => s.source.startsWith('entitlements:'));
    expect(entitlements).toHaveLength(sandbox.libraries.length * 2);
    for (const s of entitlements) {
      expect(s.lastError, s.source).toBeUndefined();
      expect(s.lastSuccessAt!, s.source).toBeGreaterThan(done.get(s.source)!);
    }
    await open.close();
  });

  it('a page past the 32 MiB a store reads stops its run once, asked for once; the other sources go on', async () => {
    const open = await kind.open('oversized');
    await runSync(contextFor(kind, open), request());
    const asked = sandbox.control.requestCounts().globalContents;
    sandbox.control.addFault({ route: 'globalContents', kind: 'oversized', bytes: 120 * 1024 * 1024, times: 1 });
    try {
      await expect(runSync(contextFor(kind, open), request({ full: true }))).rejects.toMatchObject({ code: 'bad-response', detail: { reason: 'service.response-too-large' } });
    } finally {
      sandbox.control.clearFaults();
    }
    expect(sandbox.control.requestCounts().globalContents - asked).toBe(1); // it would come back as large: not asked for again
    const states = await open.states();
    expect(states.find((s) => s.source === 'global')).toMatchObject({ lastErrorCode: 'bad-response', lastErrorReason: 'service.response-too-large', lastErrorParams: { limit: 32 } });
    expect(states.filter((s) => s.source.startsWith('entitlements:')).every((s) => s.lastError === undefined && !s.inProgress)).toBe(true);
    await open.close();
  });

  it('the availability refresh: the Flex entitlements changed since the last one, their availability 50 ids a call', async () => {
    const open = await kind.open('refresh');
    await runSync(contextFor(kind, open), request());
    const { libraryId } = sandbox.libraries[0]!;
    const flex = sandbox.control.sampleContent(libraryId, { purchaseModel: 'FLEX', active: true, count: 120 });
    expect(flex).toHaveLength(120);
    clock.advance(600_000);
    sandbox.control.applyCatalogChanges({ deactivate: { libraryId, contentIds: flex as number[] } });
    sandbox.control.resetRequestCounts();
    const asked = await refreshChangedAvailability(contextFor(kind, open), libraryId);
    expect(asked).toBe(120);
    expect(sandbox.control.requestCounts().contentInfo).toBe(3);
    const refresh = (await open.states()).find((s) => s.source === `availability:${libraryId}`);
    expect(refresh).toMatchObject({ inProgress: false, lastSuccessAt: expect.any(Number) });
    expect(refresh?.lastError).toBeUndefined();
    await open.close();
  });

  it('a title newly entitled comes to the refresh with its record, one page of library content each, never as a bare row', async () => {
    const open = await kind.open('new-titles');
    await runSync(contextFor(kind, open), request());
    const { libraryId } = sandbox.libraries[0]!;
    const before = await open.holdings();
    clock.advance(600_000);
    const { added } = sandbox.control.applyCatalogChanges({ add: 2 });
    sandbox.control.applyCatalogChanges({ entitle: { libraryId, contentIds: added, purchaseModel: 'FLEX' } });
    sandbox.control.resetRequestCounts();
    expect(await refreshChangedAvailability(contextFor(kind, open), libraryId)).toBe(2);
    expect(sandbox.control.requestCounts().libraryContent).toBe(2);
    const after = await open.holdings();
    expect(after.titles).toBe(before.titles + 2);
    expect(after.entitlements).toBe(before.entitlements + 2);
    // A second refresh finds nothing bare: nothing is read again.
    clock.advance(600_000);
    sandbox.control.resetRequestCounts();
    await refreshChangedAvailability(contextFor(kind, open), libraryId);
    expect(sandbox.control.requestCounts().libraryContent ?? 0).toBe(0);
    await open.close();
  });

  it("fills from a library's content endpoint instead, in both schema generations: each library's titles, models and activity", async () => {
    const open = await kind.open('library-content');
    const libraries = [101, 303]; // 101 answers in the later schema, 303 in the earlier one
    await runSync(contextFor(kind, open), request({ source: 'library-content', libraries }));
    const client = clientOf();
    const states = await open.states();
    for (const libraryId of libraries) {
      let records = 0;
      const ids = new Set<ContentId>();
      for await (const page of client.libraryContentPages(libraryId, { limit: 500 })) {
        for (const c of page.items) if (c.kind === 'upsert') { records++; ids.add(c.title.id); }
      }
      expect(states.find((s) => s.source === `library-content:${libraryId}`)).toMatchObject({ inProgress: false, items: records });
      expect(ids.size).toBeLessThan(records); // a series' episodes come as records of their own, and are kept as one title
    }
    expect((await open.holdings()).entitlements).toBeGreaterThan(0);
    await open.close();
  });
});

// ---- cancellation: never recorded as a failure, wherever it comes ----

/** Where the sync is when the test cancels it. */
type Point = 'on the wire' | 'handed to the store' | 'read, not stored' | 'about to end the run' | 'just failed for good' | 'waiting to retry';
const POINTS: Point[] = ['on the wire', 'handed to the store', 'read, not stored', 'about to end the run', 'just failed for good', 'waiting to retry'];

interface Rig {
  fetch: FetchFn;
  sleep?: (ms: number) => Promise<void>;
  attempts: number;
  store: (store: PageStore) => PageStore;
}

/** The client and store of a sync that cancels itself at `point` (by calling `cancel`), on its second page of the global catalog. */
function rigAt(point: Point, cancel: () => void): Rig {
  let catalogPages = 0;
  const fetch: FetchFn = async (input, init) => {
    const isCatalog = new URL(input).pathname.endsWith('/global-contents');
    if (isCatalog) catalogPages++;
    // The second page fails once: for good with no retry left, or it would be retried after a wait.
    if (isCatalog && catalogPages === 2 && (point === 'just failed for good' || point === 'waiting to retry')) {
      sandbox.control.addFault({ route: 'globalContents', kind: 'server-error', status: 503, times: 1 });
    }
    const answer = globalThis.fetch(input, init);
    if (isCatalog && catalogPages === 2 && point === 'on the wire') cancel(); // sent, not answered
    const response = await answer;
    if (isCatalog && response.status === 503 && point === 'just failed for good') cancel(); // the failure is in, not yet handled
    return response;
  };
  const tap = (store: PageStore): PageStore => ({
    states: () => store.states(),
    openRun: (...args) => store.openRun(...args),
    failRun: (...args) => store.failRun(...args),
    storeAvailability: (...args) => store.storeAvailability(...args),
    storePage(run, page, bytes) {
      const storing = store.storePage(run, page, bytes);
      const second = page === 2 && catalogPages >= 2;
      if (second && point === 'handed to the store') cancel();
      if (second && point === 'read, not stored') void storing.head.then(cancel, () => {});
      return storing;
    },
    finishRun(...args) {
      if (point === 'about to end the run') cancel();
      return store.finishRun(...args);
    },
  });
  const waitsForever = () => new Promise<void>(() => {});
  return {
    fetch, attempts: point === 'just failed for good' ? 1 : 4, store: tap,
    ...(point === 'waiting to retry' ? { sleep: () => { cancel(); return waitsForever(); } } : {}),
  };
}

function riggedClient(rig: Rig): PartnerClient {
  return new PartnerClient({
    baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password }, now: clock.now,
    fetch: rig.fetch, ...(rig.sleep ? { sleep: rig.sleep } : {}), retry: { attempts: rig.attempts, baseDelayMs: 1 },
  }).withPriority('background');
}

describe.each(STORES.map((kind) => [kind.name, kind] as const))('a cancelled sync into %s', (_name, kind) => {
  for (const [i, point] of POINTS.entries()) {
    it(`cancelled ${point}: rejects with the cancellation, records no failure, and the next sync goes on to the end`, async () => {
      const open = await kind.open(`cancelled-${i}`);
      const stop = new AbortController();
      const why = new Error(`cancelled ${point}`);
      const rig = rigAt(point, () => stop.abort(why));
      try {
        await expect(runSync(contextFor(kind, open, { client: riggedClient(rig), store: rig.store(open.store), signal: stop.signal }), request())).rejects.toBe(why);
      } finally {
        sandbox.control.clearFaults();
      }
      const states = await open.states();
      expect(states.filter((s) => s.lastError !== undefined || s.lastErrorCode !== undefined)).toEqual([]);
      const global = states.find((s) => s.source === 'global');
      if (point === 'about to end the run') expect(global).toMatchObject({ inProgress: false }); // its end was sent before the cancellation
      else expect(global).toMatchObject({ inProgress: true });

      await runSync(contextFor(kind, open), request());
      expect((await open.states()).every((s) => !s.inProgress && s.lastError === undefined)).toBe(true);
      expect(await open.holdings()).toEqual(await serviceHoldings(sandbox));
      await open.close();
    });
  }
});
