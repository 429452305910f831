// Bulk pages (the global catalog's, entitlements') read off the wire on a thread of their own:
// the same head and records as the reading in this thread, a garbled page refused as bad-response (so the
// transport asks for it again), and over HTTP a product-shaped sync that meets a garbled page
// and a dropped connection still ends equal to the service.
import { rmSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogMirror } from '../../../electron/mirror/mirror.ts';
import { inThreadPageReader, workerPageReader, type PageReader } from '../../../electron/mirror/page-reader.ts';
import { unpackTitleChanges, type PackedTitles } from '../../../electron/mirror/title-row.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/sandbox/server.ts';
import { countriesOf, mirrorFingerprint, mirrorTitleKeys, serviceFingerprint, serviceOf, tempDir } from './helpers.ts';

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

const bytesOf = (value: unknown): ArrayBuffer => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value)).buffer as ArrayBuffer;

const PAGE = {
  metadata: { nextStartToken: 'after-2', totalCount: 40 },
  contents: [
    { id: 7, title: "L'Été", format: 'EBOOK', countries: ['US'], artists: [{ name: 'A. Author' }], purchaseModels: ['INSTANT'] },
    { id: 8, removed: true },
    { title: 'no id: dropped as the client drops it' },
  ],
};

async function readBoth(use: (reader: PageReader) => Promise<unknown>): Promise<unknown[]> {
  const readers = [inThreadPageReader(), workerPageReader()];
  try {
    return await Promise.all(readers.map((reader) => use(reader).catch((error: unknown) => error)));
  } finally {
    await Promise.all(readers.map((reader) => reader.close()));
  }
}

describe('the page reader', () => {
  it('gives the token and total first, then the titles packed, the same on its thread as here', async () => {
    const [here, there] = await readBoth(async (reader) => {
      const page = await reader.read('global', bytesOf(PAGE));
      const items = await page.items;
      return { next: page.next, totalCount: page.totalCount, count: items.count, changes: unpackTitleChanges(items.items as PackedTitles) };
    });
    expect(there).toEqual(here);
    expect(here).toMatchObject({ next: 'after-2', totalCount: 40, count: 2 });
    expect((here as { changes: unknown[] }).changes).toMatchObject([{ kind: 'upsert', row: { id: 7, title: "L'Été", artist: 'A. Author' } }, { kind: 'removed', id: 8 }]);
  });

  it('beside a writer thread, sends the titles down its channel to the writer and tells main only the page\'s number', async () => {
    const { port1, port2 } = new MessageChannel();
    const reader = workerPageReader(undefined, port1);
    try {
      const arrived = new Promise<{ page: number; items: PackedTitles }>((resolve) => port2.once('message', resolve));
      const page = await reader.read('global', bytesOf(PAGE));
      const items = await page.items;
      expect(page.next).toBe('after-2');
      expect(items).toEqual({ items: { handedOver: expect.any(Number) }, count: 2 });
      const handed = await arrived;
      expect(handed.page).toBe((items.items as { handedOver: number }).handedOver);
      const here = await inThreadPageReader().read('global', bytesOf(PAGE)).then((p) => p.items);
      expect(unpackTitleChanges(handed.items)).toEqual(unpackTitleChanges(here.items as PackedTitles));
    } finally {
      await reader.close();
      port2.close();
    }
  });

  it('reads a page of entitlements the same on its thread as here', async () => {
    const entitlements = { metadata: { nextStartToken: '9', totalCount: 3 }, entitlements: [{ contentId: 7, active: true }, { contentId: 8, removed: true }, { active: true }] };
    const [here, there] = await readBoth(async (reader) => {
      const page = await reader.read('entitlements', bytesOf(entitlements));
      return { next: page.next, totalCount: page.totalCount, ...(await page.items) };
    });
    expect(there).toEqual(here);
    expect(here).toEqual({ next: '9', totalCount: 3, count: 2, items: [{ contentId: 7, active: true, removed: false }, { contentId: 8, active: false, removed: true }] });
  });

  it('refuses a garbled page or one that is not an object as bad-response, and goes on reading', async () => {
    for (const garbled of ['{"metadata": {"nextStartToken": "x"', '[1, 2, 3]', '']) {
      const answers = await readBoth((reader) => reader.read('global', bytesOf(garbled)));
      for (const answer of answers) expect(answer).toMatchObject({ code: 'bad-response' });
    }
    const reader = workerPageReader();
    await expect(reader.read('global', bytesOf('not json'))).rejects.toMatchObject({ code: 'bad-response' });
    await expect(reader.read('global', bytesOf(PAGE)).then((page) => page.items)).resolves.toMatchObject({ count: 2 });
    await reader.close();
  });

  it('in a sync as the product runs it (pages fetched here, read and stored on threads): a garbled page and a dropped connection are asked for again, and the mirror equals the service', async () => {
    const request = { countries: countriesOf(sandbox), libraries: sandbox.libraries.map((l) => l.libraryId), source: 'global+entitlements' as const, pageSize: 100, full: true };
    const clean = serviceOf(sandbox, join(dir, 'clean.db'), 'worker');
    let before = sandbox.control.requestCounts().globalContents;
    await clean.syncNow(request);
    await clean.close();
    const pages = sandbox.control.requestCounts().globalContents - before;
    before = sandbox.control.requestCounts().globalContents;
    sandbox.control.addFault({ route: 'globalContents', kind: 'malformed-json', times: 1 });
    sandbox.control.addFault({ route: 'globalContents', kind: 'reset', phase: 'before', times: 1 });
    sandbox.control.addFault({ route: 'entitlements', kind: 'malformed-json', times: 1 });
    const catalog = serviceOf(sandbox, join(dir, 'faults.db'), 'worker');
    const status = await catalog.syncNow(request);
    await catalog.close();
    const sent = sandbox.control.requestCounts().globalContents - before;
    const expected = await serviceFingerprint(sandbox);
    const global = status.sources.find((s) => s.source === 'global')!;
    expect(global.lastError).toBeUndefined();
    expect(status.sources.filter((s) => s.lastError !== undefined)).toEqual([]);
    expect(status.counts.titles).toBe(expected.titles);
    const mirror = new CatalogMirror(join(dir, 'faults.db'));
    expect(mirrorTitleKeys(mirror.db)).toBe(expected.titleKeys);
    const fingerprint = mirrorFingerprint(mirror.db);
    expect(fingerprint.titles).toBe(expected.titles);
    // The entitlements too were read on the reader's thread and handed to the writer.
    expect(fingerprint.entitlements).toBe(expected.entitlements);
    expect(fingerprint.entitlementSum).toBe(expected.entitlementSum);
    mirror.close();
    // Every page a clean run asks for, and the two that failed once more.
    expect(sent).toBe(pages + 2);
  });
});
