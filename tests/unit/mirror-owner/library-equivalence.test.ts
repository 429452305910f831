// Same answers from both sources (issue #25): a desk filled from the library mirror — itself filled
// by the service's own sync from the sandbox into a real PostgreSQL — and a desk filled from the
// partner (the sandbox over HTTP) give the same Collection: every filter × sort × direction ×
// search on the 20,000-title fixture gives the same rows in the same order and the same counts,
// after a first fill and after a delta that adds, revises, removes and deactivates titles, with
// availability read for some titles (some with every copy out on loan). Title details and what a
// search hit's title id stands for are the same too.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskMirror } from '../../../electron/main/mirror/desk-mirror.ts';
import type { BrowseQuery } from '../../../electron/node/mirror-interface.ts';
import type { SyncRequest } from '../../../electron/node/sync/engine.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import type { TitleDetail } from '../../../electron/shared/collection.ts';
import type { ContentId } from '../../../electron/shared/model.ts';
import { deskTarget, startLibraryServer, type LibraryServer } from '../../support/library-server.ts';
import { useLibraryMirrorDatabase } from '../../support/library-mirror-database.ts';
import { applyTheDelta, DELTA_TEXTS, DIRECTIONS, FILTERS, lendEveryCopy, matrixSize, SORTS, TEXTS } from './browse-matrix.ts';
import { clientOf, countriesOf, serviceOf, tempDir } from './helpers.ts';

const db = useLibraryMirrorDatabase();
let sandbox: SandboxHandle;
let dir: string;
let service: LibraryServer;
/** Filled from the partner, as every desk is today. */
let partnerDesk: DeskMirror;
/** Filled from the library mirror. */
let libraryDesk: DeskMirror;
let request: SyncRequest;


beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 20_000 });
  dir = tempDir();
  const libraries = sandbox.libraries.map((l) => l.libraryId);
  request = { countries: countriesOf(sandbox), libraries, source: 'global+entitlements', pageSize: 500 };
  service = await startLibraryServer(db(), sandbox);
  partnerDesk = serviceOf(sandbox, join(dir, 'partner.db'));
  const { target, password } = deskTarget(db(), dir);
  const client = clientOf(sandbox);
  // The library desk asks the partner nothing: its clients are a service it cannot reach.
  libraryDesk = new DeskMirror({
    databasePath: join(dir, 'library.db'), staff: client, background: client,
    library: { target, password: async () => password, libraries, countries: countriesOf(sandbox), batchSize: 3000 },
  });

  await Promise.all([partnerDesk.syncNow(request), service.sync()]);
  const first = await libraryDesk.fillFromLibrary();
  expect(first.sources.find((s) => s.source === 'library-mirror')?.lastError).toBeUndefined();

  // Availability read for some Flex titles of each library, by both: every copy of a few out on loan first.
  for (const { libraryId } of sandbox.libraries) {
    const ids = (await partnerDesk.browse({ libraryId, model: 'FLEX', active: true, offset: 0, limit: 300 })).rows.map((r) => r.contentId);
    await lendEveryCopy(sandbox, client, libraryId, ids.slice(-8), '98');
    const read: ContentId[] = [...ids.slice(0, 150), ...ids.slice(-8)];
    await partnerDesk.refreshAvailability(libraryId, read);
    await service.storeAvailability(libraryId, read);
  }

  // A delta: titles added, revised, removed; entitlements deactivated.
  const some = (await partnerDesk.browse({ libraryId: 101, active: true, offset: 0, limit: 200 })).rows.map((r) => r.contentId as number);
  applyTheDelta(sandbox, some);
  await Promise.all([partnerDesk.syncNow(request), service.sync()]);
  const delta = await libraryDesk.fillFromLibrary();
  expect(delta.sources.find((s) => s.source === 'library-mirror')?.lastError).toBeUndefined();
}, 300_000);

afterAll(async () => {
  await partnerDesk?.close();
  await libraryDesk?.close();
  await service?.stop();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Desk = DeskMirror;

/** Every row of a query, page by page, with the exact count. */
async function allRows(desk: Desk, query: Omit<BrowseQuery, 'offset' | 'limit'>): Promise<{ ids: ContentId[]; total: number; available: unknown[] }> {
  const ids: ContentId[] = [];
  const available: unknown[] = [];
  let total = 0;
  for (let offset = 0; ; offset += 500) {
    const page = await desk.browse({ ...query, exactCount: true, offset, limit: 500 });
    total = page.total;
    for (const row of page.rows) {
      ids.push(row.contentId);
      available.push([row.title, row.artist, row.format, row.year, row.active, row.purchaseModel, row.availability?.status, row.availability?.availableCopies, row.availability?.totalCopies]);
    }
    if (offset + 500 >= total) break;
  }
  return { ids, total, available };
}

async function compare(libraryId: number, texts: readonly string[]): Promise<number> {
  let compared = 0;
  for (const text of texts) {
    for (const filters of FILTERS) {
      for (const sort of SORTS) {
        for (const direction of DIRECTIONS) {
          const query = { libraryId, ...filters, sort, direction, ...(text ? { text } : {}) };
          const label = JSON.stringify(query);
          if (text) {
            // While typing: the first page and its (capped) count.
            const [fromPartner, fromLibrary] = [await partnerDesk.browse({ ...query, offset: 0, limit: 100 }), await libraryDesk.browse({ ...query, offset: 0, limit: 100 })];
            expect(fromLibrary.rows.map((r) => r.contentId), label).toEqual(fromPartner.rows.map((r) => r.contentId));
            expect([fromLibrary.total, fromLibrary.atLeast], label).toEqual([fromPartner.total, fromPartner.atLeast]);
          }
          const [expected, got] = [await allRows(partnerDesk, query), await allRows(libraryDesk, query)];
          expect(got.total, label).toBe(expected.total);
          expect(got.ids, label).toEqual(expected.ids);
          expect(got.available, label).toEqual(expected.available);
          compared++;
        }
      }
    }
  }
  return compared;
}

describe('a desk filled from the library mirror and one filled from the partner (20,000 titles)', () => {
  it('hold the same collection: as many titles, the same entitlements per library, none of it asked of the partner by the library desk', async () => {
    const [a, b] = [await partnerDesk.status(), await libraryDesk.status()];
    expect(b.counts).toEqual(a.counts);
    expect(a.counts.titles).toBeGreaterThan(19_000);
    expect(b.libraryMirror?.server).toBe(`${db().cluster.host}:${db().cluster.port}/${db().name}`);
    // Its one source is the library mirror; the partner desk's are the service's.
    expect(b.sources.map((s) => s.source)).toEqual(['library-mirror']);
    const rows101 = await allRows(libraryDesk, { libraryId: 101, model: 'FLEX', sort: 'availability' });
    expect(new Set(rows101.available.map((a) => (a as unknown[])[6])).size).toBeGreaterThan(1); // availability was read for some, not for others
  });

  it('library 303: every filter × sort × direction × search gives the same rows, order and counts', async () => {
    expect(await compare(303, TEXTS)).toBe(matrixSize(TEXTS));
  }, 300_000);

  it('library 101 (changed by the delta): the same, for browsing and a few searches', async () => {
    expect(await compare(101, DELTA_TEXTS)).toBe(matrixSize(DELTA_TEXTS));
  }, 300_000);

  it('title details and what search hits stand for are the same', async () => {
    for (const { libraryId } of sandbox.libraries) {
      const rows = (await partnerDesk.browse({ libraryId, sort: 'title', offset: 0, limit: 500 })).rows;
      const ids = rows.filter((_, i) => i % 5 === 0).map((r) => r.contentId);
      // Availability was read at two moments (the desk's, the service's): what it said, not when.
      const withoutReadAt = (detail: TitleDetail | null) => (detail?.availability ? { ...detail, availability: { ...detail.availability, readAt: 0 } } : detail);
      for (const id of ids) expect(withoutReadAt(await libraryDesk.detail(libraryId, id)), `${libraryId}/${id}`).toEqual(withoutReadAt(await partnerDesk.detail(libraryId, id)));
      const titleIds = [...new Set((await Promise.all(ids.slice(0, 40).map((id) => partnerDesk.detail(libraryId, id)))).flatMap((d) => (d?.record?.titleId ? [d.record.titleId] : [])))];
      expect(titleIds.length).toBeGreaterThan(10);
      expect(await libraryDesk.titleContents(libraryId, titleIds)).toEqual(await partnerDesk.titleContents(libraryId, titleIds));
    }
  }, 120_000);
});
