// The two page stores the one sync engine fills, as the engine's tests open them: the desk's
// mirror (SQLite, held by its owner thread, reached through main's mirror client) and the library
// mirror (PostgreSQL on a test cluster of its own, the leader's session). Each says what it holds
// in the same words, so a test compares either with the service: titles by id, title and format,
// entitlements by library, id, model and active.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { MirrorClient } from '../../../../electron/main/mirror/mirror-client.ts';
import type { SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import { SCHEMA } from '../../../../electron/node/library-mirror/schema.ts';
import { parseCatalogRecord, type Json } from '../../../../electron/node/partner/normalize.ts';
import type { PageStore } from '../../../../electron/node/sync/page-store.ts';
import type { SourceState } from '../../../../electron/shared/collection.ts';
import { contentIdOf } from '../../../../electron/shared/content-id.ts';
import { LeaderWrites } from '../../../../server/leader-writes.ts';
import { LibraryPageStore } from '../../../../server/page-store.ts';
import { createLibraryMirrorDatabase, leadingSession, type LibraryMirrorDatabase } from '../../../support/library-mirror-database.ts';
import { startPostgresCluster, type PostgresCluster } from '../../../support/postgres-cluster.ts';
import { integrityOf, mirrorFingerprint, mirrorTitleKeys, openFile, searchIndexMatchesWords, serviceFingerprint, tempDir } from '../../mirror-owner/helpers.ts';

/** What a store holds, in the words serviceFingerprint reads the service in. */
export interface Holdings { titles: number; titleKeys: string; entitlements: number; entitlementSum: string }

/** How a process of its own (tests/reliability/children/sync-child.ts) opens the same store. */
export type StoreSpec = { kind: 'desk'; databasePath: string } | { kind: 'library'; target: { url: string; ca?: string } };

export interface OpenStore {
  store: PageStore;
  holdings(): Promise<Holdings>;
  /** Every source's state, as the store keeps it. */
  states(): Promise<SourceState[]>;
  /** The store's own checks of what it keeps (the desk's file: SQLite's integrity check and its search index against its words). */
  intact(): Promise<boolean>;
  /** For the sync child: this store, opened again in another process (close this one first). */
  spec: StoreSpec;
  close(): Promise<void>;
}

export interface StoreKind {
  name: string;
  /** How its user runs the engine into it (the library server: one page at a time). */
  engine: { onePageAtATime?: boolean };
  /** A fresh, empty store named `name` (two calls with one name open the same store again). */
  open(name: string): Promise<OpenStore>;
}

const sha = (lines: string[]): string => createHash('sha256').update(lines.sort().join('\n')).digest('hex');

/** The service's own holdings, as the engine's pulls of `sandbox` would give them. */
export const serviceHoldings = (sandbox: SandboxHandle): Promise<Holdings> => serviceFingerprint(sandbox);

/** The desk's mirror: a file in a folder of this test file's, its owner thread started by main's client. */
function deskStores(): StoreKind {
  let dir = '';
  beforeAll(() => { dir = tempDir(); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    name: "the desk's mirror (SQLite, on its owner thread)",
    engine: {},
    async open(name) {
      const databasePath = join(dir, `${name}.db`);
      const mirror = new MirrorClient({ databasePath });
      const read = <T>(look: (db: ReturnType<typeof openFile>) => T): T => {
        const db = openFile(databasePath);
        try {
          return look(db);
        } finally {
          db.close();
        }
      };
      return {
        store: mirror,
        spec: { kind: 'desk', databasePath },
        states: () => mirror.states(),
        intact: async () => read((db) => integrityOf(db) === 'ok' && searchIndexMatchesWords(db)),
        holdings: async () => read((db) => {
          const { titles, entitlements, entitlementSum } = mirrorFingerprint(db);
          return { titles, titleKeys: mirrorTitleKeys(db), entitlements, entitlementSum };
        }),
        close: () => mirror.close(),
      };
    },
  };
}

/** The library mirror: a database per name on one cluster for the test file, the store on a leading session of the server's role. */
function libraryStores(): StoreKind {
  let cluster: PostgresCluster | undefined;
  const databases = new Map<string, LibraryMirrorDatabase>();
  beforeAll(async () => { cluster = await startPostgresCluster(); }, 60_000);
  afterAll(async () => { await cluster?.stop(); });
  return {
    name: 'the library mirror (PostgreSQL, on the library server)',
    engine: { onePageAtATime: true },
    async open(name) {
      if (!cluster) throw new Error('The test cluster is not running (beforeAll failed).');
      const dbName = `store_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
      let db = databases.get(dbName);
      if (!db) databases.set(dbName, db = await createLibraryMirrorDatabase(cluster, dbName));
      const session: pg.Client = await leadingSession(db, `engine test ${name}`);
      const store = new LibraryPageStore(new LeaderWrites(session));
      return {
        store,
        spec: { kind: 'library', target: db.service },
        states: () => store.states(),
        // Every title not removed keeps its record (a tombstone alone has none).
        intact: async () => (await session.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.titles WHERE NOT removed AND (record IS NULL OR record = '')`)).rows[0].n === 0,
        holdings: async () => {
          const titles = (await session.query<{ id: string; record: string }>(`SELECT id, record FROM ${SCHEMA}.titles WHERE NOT removed`)).rows;
          const lines = titles.map((t) => {
            const record = parseCatalogRecord(JSON.parse(t.record) as Json, contentIdOf(t.id)!);
            return `${String(record.id)}|${record.title ?? ''}|${record.format ?? ''}`;
          });
          const ents = (await session.query<{ library_id: string; content_id: string; model: string; active: boolean }>(
            `SELECT library_id, content_id, model, active FROM ${SCHEMA}.entitlements WHERE NOT removed`)).rows;
          return {
            titles: titles.length, titleKeys: sha(lines),
            entitlements: ents.length, entitlementSum: sha(ents.map((e) => `${e.library_id}|${e.content_id}|${e.model}|${e.active ? 1 : 0}`)),
          };
        },
        close: () => session.end(),
      };
    },
  };
}

/** Both stores, each set up for this test file (call at the file's top level). */
export function useBothStores(): StoreKind[] {
  return [deskStores(), libraryStores()];
}
