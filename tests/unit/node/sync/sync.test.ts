// The mirror against the sandbox over HTTP, as the desk runs it (pages fetched here, read and
// stored by the owner thread): a full sync equals the service, a delta equals the changes, a
// sync killed 20 times and resumed equals an uninterrupted one, a garbled page and a dropped
// connection are asked for again, the entitlement filter returns exactly a library's titles,
// and availability goes 50 ids a call.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskMirror } from '../../../../electron/main/mirror/desk-mirror.ts';
import type { SyncProgress, SyncRequest } from '../../../../electron/node/sync/engine.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import type { ContentId } from '../../../../electron/shared/model.ts';
import {
  clientOf, connectionOf, countriesOf, integrityOf, mirrorFingerprint, mirrorTitleKeys, openFile, searchIndexMatchesWords, serviceFingerprint, serviceOf,
  sourcesOf, tempDir,
} from '../../mirror-owner/helpers.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';

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

describe('catalog mirror', () => {
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

  it('a sync killed 20 times at random points and resumed ends identical to an uninterrupted one', async () => {
    const reference = service('reference');
    await reference.syncNow(request({ pageSize: 50 }));
    await reference.close();
    const target = join(dir, 'killed.db');
    // The reliability run's child: it prints a line per stored page and "done" at the end.
    const child = join(REPO_ROOT, 'tests', 'reliability', 'children', 'sync-child.ts');
    // Every run is a full one, so each kill lands in a run (a finished run would leave only a short delta to kill).
    const args = [child, target, JSON.stringify(connectionOf(sandbox)), JSON.stringify(request({ pageSize: 50, full: true }))];
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

    const killed = openFile(target);
    const uninterrupted = openFile(join(dir, 'reference.db'));
    expect(integrityOf(killed)).toBe('ok');
    expect(searchIndexMatchesWords(killed)).toBe(true);
    expect(mirrorFingerprint(killed)).toEqual(mirrorFingerprint(uninterrupted));
    expect(sourcesOf(killed).every((s) => s.in_progress === 0)).toBe(true);
    killed.close();
    uninterrupted.close();
  }, 120_000);

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

  it('asks again for a garbled page and for one whose connection dropped, and still equals the service', async () => {
    const full = request({ full: true });
    const clean = service('clean');
    let before = sandbox.control.requestCounts().globalContents;
    await clean.syncNow(full);
    await clean.close();
    const pages = sandbox.control.requestCounts().globalContents - before;
    before = sandbox.control.requestCounts().globalContents;
    sandbox.control.addFault({ route: 'globalContents', kind: 'malformed-json', times: 1 });
    sandbox.control.addFault({ route: 'globalContents', kind: 'reset', phase: 'before', times: 1 });
    sandbox.control.addFault({ route: 'entitlements', kind: 'malformed-json', times: 1 });
    const catalog = service('faults');
    let status;
    try {
      status = await catalog.syncNow(full);
    } finally {
      sandbox.control.clearFaults();
      await catalog.close();
    }
    const sent = sandbox.control.requestCounts().globalContents - before;
    expect(status.sources.filter((s) => s.lastError !== undefined)).toEqual([]);
    const expected = await serviceFingerprint(sandbox);
    const db = openFile(join(dir, 'faults.db'));
    expect(mirrorTitleKeys(db)).toBe(expected.titleKeys);
    const fingerprint = mirrorFingerprint(db);
    expect(fingerprint.titles).toBe(expected.titles);
    expect(fingerprint.entitlementSum).toBe(expected.entitlementSum);
    db.close();
    // Every page a clean run asks for, and the two that failed once more; a wrong guess of the
    // next token (none here: the metadata leads every page) would show as more.
    expect(sent).toBe(pages + 2);
  });

  it('a page past the 32 MiB the desk reads stops its run once it streams past the cap, asked for once, in the desk\'s words; the other sources go on', async () => {
    const catalog = service('oversized');
    await catalog.syncNow(request());
    const before = (await catalog.status()).counts;
    const asked = sandbox.control.requestCounts().globalContents;
    sandbox.control.addFault({ route: 'globalContents', kind: 'oversized', bytes: 120 * 1024 * 1024, times: 1 });
    try {
      await expect(catalog.syncNow(request({ full: true }))).rejects.toMatchObject({ code: 'bad-response', detail: { reason: 'service.response-too-large' } });
    } finally {
      sandbox.control.clearFaults();
    }
    expect(sandbox.control.requestCounts().globalContents - asked).toBe(1); // it would come back as large: not asked for again
    const status = await catalog.status();
    expect(status.counts.titles).toBe(before.titles);
    expect(status.sources.find((s) => s.source === 'global')).toMatchObject({ lastErrorCode: 'bad-response', lastErrorReason: 'service.response-too-large', lastErrorParams: { limit: 32 } });
    expect(status.sources.filter((s) => s.source.startsWith('entitlements:')).every((s) => s.lastError === undefined && !s.inProgress)).toBe(true);
    await catalog.close();
  });

  it('keeps the last good data when a sync fails, and says what failed and when', async () => {
    const catalog = service('failing');
    await catalog.syncNow(request());
    const before = (await catalog.status()).counts;
    sandbox.control.addFault({ route: 'globalContents', kind: 'server-error', status: 503 });
    try {
      await expect(catalog.syncNow(request({ full: true }))).rejects.toMatchObject({ code: 'server' });
    } finally {
      sandbox.control.clearFaults();
    }
    const status = await catalog.status();
    expect(status.counts.titles).toBe(before.titles);
    const global = status.sources.find((s) => s.source === 'global')!;
    expect(global.lastError).toMatch(/503|unavailable/i); // English, for the log
    expect(global.lastErrorCode).toBe('server'); // what staff read, in their language
    expect(global.lastSuccessAt).toBeLessThanOrEqual(global.lastAttemptAt!);
    await catalog.close();
  });
});
