// Trust nothing the spec leaves open (issue #34, goal 5), against the sandbox over HTTP. The
// entitlement filters (`purchaseModel`, `status`) are not named by the spec: a service that ignores
// them lists every entitlement in both pulls, and a desk that labels each title with the filter it
// asked is wrong for half of them. Where a record carries its own model — the entitlement's, the
// catalog's only licence, content info's for the library — the record wins, and the disagreement is
// reported (the log and the Sync view). Content info answers about ids not asked are reported too.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceMismatch } from '../../../../electron/shared/collection.ts';
import { Connection } from '../../../../electron/main/connection/connection.ts';
import type { DeskMirror } from '../../../../electron/main/mirror/desk-mirror.ts';
import type { SyncRequest } from '../../../../electron/node/sync/engine.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import type { ContentId, PurchaseModel } from '../../../../electron/shared/model.ts';
import { countriesOf, openFile, tempDir } from '../../mirror-owner/helpers.ts';

const LIBRARY = 101;
let sandbox: SandboxHandle;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 600, entitlementFilters: 'ignored' });
  dir = tempDir();
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  sandbox.control.setShapes({ entitlementModel: false });
  sandbox.control.clearFaults();
});

/** A connection's mirror, as main builds it; the mismatches it logs are read as the app log gets them. */
function mirrorOf(name: string): { mirror: DeskMirror; logged: ServiceMismatch[] } {
  const logged: ServiceMismatch[] = [];
  const connection = new Connection({
    profile: { id: 'trust', name: 'Trust', kind: 'partner', baseUrl: sandbox.url, libraries: [{ libraryId: LIBRARY }], wsApi: '2.1', country: 'US' },
    baseUrl: sandbox.url, fetch: (input, init) => fetch(input, init), credentials: async () => ({ username: sandbox.username, password: sandbox.password }),
    libraries: [{ libraryId: LIBRARY, country: 'US' }], ratePerMinute: 1_000_000, mirror: { databasePath: join(dir, name) }, now: Date.now,
    onMismatch: (m) => logged.push(m),
  });
  return { mirror: connection.mirror, logged };
}

const syncRequest = (): SyncRequest => ({ countries: countriesOf(sandbox), libraries: [LIBRARY], source: 'global+entitlements', pageSize: 100 });

/** The library's model of each title as the service holds it, and as the mirror's file labels it. */
function labels(path: string): { truth: Map<ContentId, PurchaseModel>; held: Map<ContentId, PurchaseModel> } {
  const truth = new Map<ContentId, PurchaseModel>();
  for (const model of ['INSTANT', 'FLEX'] as const) {
    for (const id of sandbox.control.sampleContent(LIBRARY, { purchaseModel: model, count: 10_000 })) truth.set(id, model);
  }
  const db = openFile(path);
  try {
    const rows = db.prepare('SELECT content_id AS id, model FROM entitlements WHERE library_id = ?').all(LIBRARY) as { id: number; model: PurchaseModel }[];
    return { truth, held: new Map(rows.map((r) => [r.id, r.model])) };
  } finally {
    db.close();
  }
}

const wrong = ({ truth, held }: ReturnType<typeof labels>): ContentId[] => [...truth].filter(([id, model]) => held.get(id) !== model).map(([id]) => id);

describe('entitlement filters the service ignores', () => {
  it('labels every title with the library\'s own model, not the filter it asked (147 of 273 were wrong)', async () => {
    const { mirror, logged } = mirrorOf('ignored.db');
    try {
      await mirror.syncNow(syncRequest());
      const seen = labels(join(dir, 'ignored.db'));
      expect(seen.truth.size).toBeGreaterThan(200);
      expect(seen.held.size).toBe(seen.truth.size); // each title once, none extra
      expect(wrong(seen)).toEqual([]);
      // Reported: the catalog's only licence spoke for some; both pulls listed the rest, and content info told their model.
      const status = await mirror.status();
      const kinds = status.mismatches.map((m) => m.mismatch.kind);
      expect(kinds).toContain('filter-ignored');
      expect(logged).toContainEqual(expect.objectContaining({ kind: 'model', libraryId: LIBRARY, by: 'catalog' }));
      expect(logged).toContainEqual(expect.objectContaining({ kind: 'filter-ignored', libraryId: LIBRARY, count: expect.any(Number) }));
      expect(logged).toContainEqual(expect.objectContaining({ kind: 'model', by: 'content-info' }));
      // A second sync (deltas) keeps them right.
      await mirror.syncNow(syncRequest());
      expect(wrong(labels(join(dir, 'ignored.db')))).toEqual([]);
    } finally {
      await mirror.close();
    }
  }, 120_000);

  it('where each entitlement says its own model, the record wins over the filter at once, and the full pass removes nothing it still lists', async () => {
    sandbox.control.setShapes({ entitlementModel: true });
    const { mirror, logged } = mirrorOf('own-model.db');
    try {
      await mirror.syncNow(syncRequest());
      const seen = labels(join(dir, 'own-model.db'));
      expect(wrong(seen)).toEqual([]);
      expect(logged).toContainEqual(expect.objectContaining({ kind: 'model', asked: 'INSTANT', found: 'FLEX', by: 'record' }));
      expect(logged.some((m) => m.kind === 'filter-ignored')).toBe(false); // the records said: nothing to ask content info
      await mirror.syncNow({ ...syncRequest(), full: true, entitlementsOnly: true });
      const after = labels(join(dir, 'own-model.db'));
      expect(after.held.size).toBe(seen.truth.size);
      expect(wrong(after)).toEqual([]);
    } finally {
      await mirror.close();
    }
  }, 120_000);
});

describe('content info answers about ids not asked', () => {
  it('are logged and shown on the Sync view, and the ids asked come back unknown', async () => {
    const { mirror, logged } = mirrorOf('content-info.db');
    try {
      await mirror.syncNow(syncRequest());
      // Four titles none of which is the next id of another: the fault answers about each id's next one.
      const ids = (sandbox.control.sampleContent(LIBRARY, { purchaseModel: 'FLEX', count: 40 }) as number[])
        .filter((id, i, all) => !all.includes(id - 1) && !all.includes(id + 1)).slice(0, 4);
      expect(ids).toHaveLength(4);
      sandbox.control.addFault({ route: 'contentInfo', kind: 'other-content' });
      await mirror.refreshAvailability(LIBRARY, ids);
      const reported = logged.find((m) => m.kind === 'content-info');
      expect(reported).toMatchObject({ kind: 'content-info', libraryId: LIBRARY, unasked: 8, unanswered: 4 }); // asked twice
      expect(reported?.kind === 'content-info' ? reported.ids : []).toEqual(expect.arrayContaining(ids.map(String)));
      expect((await mirror.status()).mismatches).toContainEqual(expect.objectContaining({ mismatch: reported }));
    } finally {
      await mirror.close();
    }
  }, 120_000);
});
