// The desk's mirror against the sandbox over HTTP, as main holds it (DeskMirror: the sync engine
// here, pages read and stored by the owner thread), for what only the desk keeps: after a full
// sync and a delta the search index and each library's copied columns are as a fresh sync builds
// them, the Collection filters to exactly a library's entitled titles and searches them, the
// availability refresh and live availability land in its rows, a title's availability the service
// leaves out is kept, a library's content shows a series as one title. What the engine does with
// any store (deltas, kills, faults, failures, cancellation) is tests/unit/node/sync/engine.test.ts,
// run against this store and the library mirror's. Closing the desk's mirror mid-sync, and a disk
// too full to grow it, are here too.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskMirror } from '../../../../electron/main/mirror/desk-mirror.ts';
import type { SyncProgress, SyncRequest } from '../../../../electron/node/sync/engine.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import type { ContentId } from '../../../../electron/shared/model.ts';
import {
  clientOf, countriesOf, integrityOf, mirrorFingerprint, mirrorTitleKeys, openFile, searchIndexMatchesWords, serviceFingerprint, serviceOf, tempDir,
} from '../../mirror-owner/helpers.ts';

let sandbox: SandboxHandle;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 2000 });
  dir = tempDir();
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const request = (extra: Partial<SyncRequest> = {}): SyncRequest => ({
  countries: countriesOf(sandbox), libraries: sandbox.libraries.map((l) => l.libraryId), source: 'global+entitlements', pageSize: 100, ...extra,
});

const service = (name: string): DeskMirror => serviceOf(sandbox, join(dir, `${name}.db`));

describe("the desk's mirror", () => {
  it('a full sync (stored by the owner thread, with progress) equals the service: counts and checksums', async () => {
    const catalog = service('full');
    const progress: SyncProgress[] = [];
    const status = await catalog.syncNow(request(), (p) => progress.push(p));
    const expected = await serviceFingerprint(sandbox);
    const db = openFile(join(dir, 'full.db'));
    const actual = mirrorFingerprint(db);
    expect(actual.titles).toBe(expected.titles);
    expect(mirrorTitleKeys(db)).toBe(expected.titleKeys);
    expect(actual.entitlements).toBe(expected.entitlements);
    expect(actual.entitlementSum).toBe(expected.entitlementSum);
    expect(integrityOf(db)).toBe('ok');
    expect(searchIndexMatchesWords(db)).toBe(true);
    db.close();
    expect(status.sources.every((s) => s.lastSuccessAt !== undefined && !s.inProgress && s.lastError === undefined)).toBe(true);
    expect(status.counts.titles).toBe(expected.titles);
    expect(progress.some((p) => p.source === 'global' && p.total === expected.titles)).toBe(true);
    expect(progress.at(-1)?.done).toBeGreaterThan(0);
    await catalog.close();
  });

  it('a delta after changes applies exactly the changes: additions, metadata, removals, deactivations', async () => {
    const catalog = service('delta');
    await catalog.syncNow(request());
    const { libraryId } = sandbox.libraries[0]!;
    const active = (await catalog.browse({ libraryId, active: true, offset: 0, limit: 5000 })).rows.map((r) => r.contentId as number);
    const [deactivate, remove] = [active[3]!, active[7]!];
    const { added } = sandbox.control.applyCatalogChanges({ add: 4, modify: [11, 12], remove: [remove], deactivate: { libraryId, contentIds: [deactivate] } });

    const status = await catalog.syncNow(request());
    const global = status.sources.find((s) => s.source === 'global')!;
    expect(global.items).toBe(4 + 2 + 1); // the delta carried exactly the changed records
    const db = openFile(join(dir, 'delta.db'));
    const expected = await serviceFingerprint(sandbox);
    expect(mirrorFingerprint(db).titles).toBe(expected.titles);
    expect(mirrorTitleKeys(db)).toBe(expected.titleKeys);
    expect(mirrorFingerprint(db).entitlementSum).toBe(expected.entitlementSum);
    const title = (id: number) => (db.prepare('SELECT title FROM titles WHERE id = ?').get(id) as { title: string } | undefined)?.title;
    expect(title(11)).toMatch(/revised/);
    expect(title(12)).toMatch(/revised/);
    expect(title(remove)).toBeUndefined();
    for (const id of added) expect(title(id), `added ${id}`).toBeDefined();
    // Kept page by page, the search index and each library's copied columns end as a full sync builds them.
    const fresh = service('delta-fresh');
    await fresh.syncNow(request());
    await fresh.close();
    const rebuilt = openFile(join(dir, 'delta-fresh.db'));
    const [kept, built] = [mirrorFingerprint(db), mirrorFingerprint(rebuilt)];
    expect({ search: kept.searchSum, collections: kept.collectionSum }).toEqual({ search: built.searchSum, collections: built.collectionSum });
    expect(searchIndexMatchesWords(db)).toBe(true);
    rebuilt.close();
    db.close();
    expect(await catalog.detail(libraryId, deactivate)).toMatchObject({ active: false });
    expect(await catalog.detail(libraryId, remove)).toBeNull();
    await catalog.close();
  });

  it("filters the mirror to exactly a library's entitled titles, searches them, and reads availability 50 ids a call", async () => {
    const catalog = service('browse');
    await catalog.syncNow(request());
    const client = clientOf(sandbox);
    for (const { libraryId } of sandbox.libraries) {
      const ids: number[] = [];
      for await (const page of client.entitlementPages(libraryId, { limit: 500 })) ids.push(...page.items.map((e) => e.contentId as number));
      const rows = (await catalog.browse({ libraryId, offset: 0, limit: 10_000 })).rows.map((r) => r.contentId as number);
      expect(rows.sort((a, b) => a - b)).toEqual(ids.sort((a, b) => a - b));
    }
    const { libraryId } = sandbox.libraries[0]!;
    const some = (await catalog.browse({ libraryId, offset: 0, limit: 1 })).rows[0]!;
    const word = (some.title ?? '').split(/\s+/).find((w) => w.length > 3)!;
    const found = await catalog.browse({ libraryId, text: word.toLowerCase().slice(0, 4), offset: 0, limit: 500 });
    expect(found.rows.some((r) => r.contentId === some.contentId)).toBe(true);
    const details = await Promise.all(found.rows.map((r) => catalog.detail(libraryId, r.contentId)));
    expect(details.every((d) => JSON.stringify(d?.record ?? {}).toLowerCase().includes(word.toLowerCase().slice(0, 4)))).toBe(true);
    const flexOnly = await catalog.browse({ libraryId, model: 'FLEX', formats: ['EBOOK'], offset: 0, limit: 50, sort: 'title' });
    expect(flexOnly.rows.every((r) => r.purchaseModel === 'FLEX' && r.format === 'EBOOK')).toBe(true);
    const titles = flexOnly.rows.map((r) => (r.title ?? '').toLowerCase());
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || 0));

    const flex = (await catalog.browse({ libraryId, model: 'FLEX', active: true, offset: 0, limit: 120 })).rows.map((r) => r.contentId as number);
    expect(flex).toHaveLength(120);
    sandbox.control.applyCatalogChanges({ deactivate: { libraryId, contentIds: flex } });
    sandbox.control.resetRequestCounts();
    await catalog.refreshChanged([libraryId]);
    expect(sandbox.control.requestCounts().contentInfo).toBe(3);
    const refreshed = (await catalog.browse({ libraryId, model: 'FLEX', active: false, offset: 0, limit: 500 })).rows;
    expect(flex.every((id) => refreshed.find((r) => r.contentId === id)?.availability?.status === 'UNAVAILABLE')).toBe(true);

    const now = await catalog.refreshAvailability(libraryId, [some.contentId]);
    expect(now[0]?.availability?.readAt).toBeGreaterThan(0);
    await catalog.close();
  });

  it('keeps what it read of a title\'s availability when the service leaves the title out of its answer, asked twice', async () => {
    const catalog = service('unknown-availability');
    await catalog.syncNow(request());
    const { libraryId } = sandbox.libraries[0]!;
    const ids = (await catalog.browse({ libraryId, model: 'FLEX', active: true, offset: 0, limit: 4 })).rows.map((r) => r.contentId);
    const before = await catalog.refreshAvailability(libraryId, ids);
    expect(before.every((r) => r.availability?.status !== undefined)).toBe(true);
    // Each answer leaves out every second id: the second and fourth, then of those the fourth again, which the client calls unknown.
    sandbox.control.addFault({ route: 'contentInfo', kind: 'drop-ids', times: 2 });
    try {
      const after = await catalog.refreshAvailability(libraryId, ids);
      expect(after.map((r) => r.contentId)).toEqual(ids);
      expect(after.slice(0, 3).every((r, i) => r.availability!.readAt >= before[i]!.availability!.readAt && r.availability!.status !== undefined)).toBe(true);
      expect(after[3]?.availability).toEqual(before[3]?.availability); // kept as read before, not overwritten with nothing
    } finally {
      sandbox.control.clearFaults();
    }
    await catalog.close();
  });

  it('mirrors from the library content endpoint instead, in both schema generations, TV folded into one title', async () => {
    const catalog = service('library-content');
    const libraries = [101, 303]; // 101 answers in the later schema, 303 in the earlier one
    await catalog.syncNow(request({ source: 'library-content', libraries }));
    const client = clientOf(sandbox);
    for (const libraryId of libraries) {
      const expected = new Map<number, { model: string; active: boolean }>();
      for await (const page of client.libraryContentPages(libraryId, { limit: 500 })) {
        for (const c of page.items) if (c.kind === 'upsert') expected.set(c.title.id as number, { model: c.title.purchaseModel!, active: c.title.active !== false });
      }
      const rows = (await catalog.browse({ libraryId, offset: 0, limit: 10_000 })).rows;
      expect(rows.map((r) => r.contentId as number).sort((a, b) => a - b)).toEqual([...expected.keys()].sort((a, b) => a - b));
      for (const r of rows) expect({ model: r.purchaseModel, active: r.active }).toEqual(expected.get(r.contentId as number));
    }
    const tv = (await catalog.browse({ libraryId: 101, formats: ['TELEVISION'], offset: 0, limit: 1 })).rows[0]!;
    expect((await catalog.detail(101, tv.contentId))?.record?.episodes.length).toBeGreaterThan(1);
    const records = async (libraryId: number, rows: { contentId: ContentId }[]) => Promise.all(rows.map(async (r) => (await catalog.detail(libraryId, r.contentId))?.record));
    const later = await records(101, (await catalog.browse({ libraryId: 101, formats: ['EBOOK'], offset: 0, limit: 100 })).rows);
    expect(later.some((r) => r?.audience !== undefined)).toBe(true);
    const earlier = await records(303, (await catalog.browse({ libraryId: 303, formats: ['EBOOK'], offset: 0, limit: 20 })).rows);
    expect(earlier.every((r) => r?.audience === undefined)).toBe(true);
    await catalog.close();
  });

});

describe("closing the desk's mirror", () => {
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
