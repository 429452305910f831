// A cancelled sync is never recorded as a failure, wherever it was: a page request on the wire,
// a page handed to the store and not yet read, read and not yet stored, the run about to end, a
// request that has just failed for good, or the wait before a retry. Each point is reached
// deterministically (the test holds the exchange or the store call there and cancels), the
// sync rejects with the cancellation, the mirror keeps its run under way with no error, and the
// next sync goes on from there to a mirror equal to the service. Also: a mirror that may not
// grow (the disk keeps too little free) stops the sync without damage, and a later one goes on.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MirrorClient } from '../../../../electron/main/mirror/mirror-client.ts';
import type { PageStore } from '../../../../electron/node/mirror-interface.ts';
import { runSync, type SyncRequest } from '../../../../electron/node/sync/engine.ts';
import { PartnerClient } from '../../../../electron/node/partner/client.ts';
import type { FetchFn } from '../../../../electron/node/partner/transport.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import { countriesOf, integrityOf, mirrorFingerprint, mirrorTitleKeys, openFile, serviceFingerprint, serviceOf, tempDir } from '../../mirror-owner/helpers.ts';

let sandbox: SandboxHandle;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 1500 });
  dir = tempDir();
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const request = (): SyncRequest => ({ countries: countriesOf(sandbox), libraries: sandbox.libraries.map((l) => l.libraryId), source: 'global+entitlements', pageSize: 100 });

/** Where the sync is when the test cancels it. */
type Point = 'on the wire' | 'handed to the store' | 'read, not stored' | 'about to end the run' | 'just failed for good' | 'waiting to retry';

interface Rig {
  fetch: FetchFn;
  sleep?: (ms: number) => Promise<void>;
  attempts: number;
  store: (mirror: MirrorClient) => PageStore;
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
  const tap = (mirror: MirrorClient): PageStore => ({
    states: () => mirror.states(),
    openRun: (...args) => mirror.openRun(...args),
    failRun: (...args) => mirror.failRun(...args),
    storeAvailability: (...args) => mirror.storeAvailability(...args),
    storePage(run, page, bytes) {
      const storing = mirror.storePage(run, page, bytes);
      const second = page === 2 && catalogPages >= 2;
      if (second && point === 'handed to the store') cancel();
      if (second && point === 'read, not stored') void storing.head.then(cancel, () => {});
      return storing;
    },
    finishRun(...args) {
      if (point === 'about to end the run') cancel();
      return mirror.finishRun(...args);
    },
  });
  const waitsForever = () => new Promise<void>(() => {});
  return {
    fetch, attempts: point === 'just failed for good' ? 1 : 4, store: tap,
    ...(point === 'waiting to retry' ? { sleep: () => { cancel(); return waitsForever(); } } : {}),
  };
}

function clientOf(rig: Partial<Rig> = {}): PartnerClient {
  return new PartnerClient({
    baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password },
    ...(rig.fetch ? { fetch: rig.fetch } : {}), ...(rig.sleep ? { sleep: rig.sleep } : {}), retry: { attempts: rig.attempts ?? 4, baseDelayMs: 1 },
  }).withPriority('background');
}

const POINTS: Point[] = ['on the wire', 'handed to the store', 'read, not stored', 'about to end the run', 'just failed for good', 'waiting to retry'];

describe('a cancelled sync', () => {
  for (const [i, point] of POINTS.entries()) {
    it(`cancelled ${point}: rejects with the cancellation, records no failure, and the next sync goes on to the end`, async () => {
      const path = join(dir, `cancelled-${i}.db`);
      const mirror = new MirrorClient({ databasePath: path });
      const stop = new AbortController();
      const why = new Error(`cancelled ${point}`);
      const rig = rigAt(point, () => stop.abort(why));
      try {
        await expect(runSync({ client: clientOf(rig), store: rig.store(mirror), now: Date.now, signal: stop.signal }, request())).rejects.toBe(why);
      } finally {
        sandbox.control.clearFaults();
      }
      const states = await mirror.states();
      expect(states.filter((s) => s.lastError !== undefined || s.lastErrorCode !== undefined)).toEqual([]);
      const global = states.find((s) => s.source === 'global');
      if (point === 'about to end the run') expect(global).toMatchObject({ inProgress: false }); // its end was sent before the cancellation
      else expect(global).toMatchObject({ inProgress: true });

      await runSync({ client: clientOf(), store: mirror, now: Date.now, signal: new AbortController().signal }, request());
      expect((await mirror.states()).every((s) => !s.inProgress && s.lastError === undefined)).toBe(true);
      await mirror.close();
      const expected = await serviceFingerprint(sandbox);
      const db = openFile(path);
      expect(integrityOf(db)).toBe('ok');
      expect(mirrorTitleKeys(db)).toBe(expected.titleKeys);
      expect(mirrorFingerprint(db).entitlementSum).toBe(expected.entitlementSum);
      db.close();
    });
  }

  it('closing the desk\'s mirror mid-sync cancels it: syncNow says so in the desk\'s words, and nothing is recorded as failed', async () => {
    const path = join(dir, 'closed.db');
    const catalog = serviceOf(sandbox, path);
    try {
      let firstStored!: () => void;
      const stored = new Promise<void>((resolve) => { firstStored = resolve; });
      const syncing = catalog.syncNow(request(), () => {
        // One page in: the pages after it are held on the wire.
        sandbox.control.addFault({ route: 'globalContents', kind: 'latency', ms: 5_000 });
        firstStored();
      });
      await stored;
      const closing = catalog.close();
      await expect(syncing).rejects.toMatchObject({ detail: { reason: 'sync.cancelled' } });
      await closing;
    } finally {
      sandbox.control.clearFaults();
    }
    const reopened = serviceOf(sandbox, path);
    const status = await reopened.status();
    expect(status.sources.find((s) => s.source === 'global')).toMatchObject({ inProgress: true, items: expect.any(Number) });
    expect(status.counts.titles).toBeGreaterThanOrEqual(100);
    expect(status.sources.filter((s) => s.lastError !== undefined)).toEqual([]);
    await reopened.close();
  });
});

describe('a mirror that may not grow', () => {
  it('stops the sync before the page that would take the disk below what it keeps free, says why in the desk\'s words, and loses nothing', async () => {
    const path = join(dir, 'full-disk.db');
    const first = serviceOf(sandbox, path);
    await first.syncNow(request());
    await first.close();
    const before = openFile(path);
    const kept = mirrorFingerprint(before);
    before.close();

    // The same disk, but the mirror asked to keep more free than it has: nothing may be added.
    const counts = () => sandbox.control.requestCounts();
    const asked = { catalog: counts().globalContents, entitlements: counts().entitlements };
    const cramped = serviceOf(sandbox, path, { diskSpaceKeptFree: Number.MAX_SAFE_INTEGER });
    await expect(cramped.syncNow({ ...request(), full: true })).rejects.toMatchObject({
      code: 'server', detail: { reason: 'mirror.disk-full', params: { keptMiB: expect.any(Number), freeMiB: expect.any(Number) } },
    });
    const status = await cramped.status();
    await cramped.close();
    // The sync stopped at its first page: no other source was asked for.
    expect(counts().globalContents - asked.catalog).toBeLessThanOrEqual(3); // that page, and those asked for ahead while it was read and refused
    expect(counts().entitlements - asked.entitlements).toBe(0);
    expect(status.sources.find((s) => s.source === 'global')).toMatchObject({ inProgress: true, lastErrorCode: 'server', lastErrorReason: 'mirror.disk-full' });
    const after = openFile(path);
    expect(integrityOf(after)).toBe('ok');
    expect(mirrorFingerprint(after)).toEqual(kept);
    after.close();

    // Room again: the full run goes on from where it stopped.
    const roomy = serviceOf(sandbox, path);
    await roomy.syncNow(request());
    const end = await roomy.status();
    await roomy.close();
    expect(end.sources.every((s) => !s.inProgress && s.lastError === undefined && s.lastErrorReason === undefined)).toBe(true);
  });
});
