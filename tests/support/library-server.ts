// A library of desks for tests (issue #25): the library mirror filled by the library server's sync
// (server/schedule.ts: the desk's own sync engine) from the sandbox over HTTP into a real PostgreSQL
// (tests/support/library-mirror-database.ts), and what a desk's policy names to read it (the cluster's
// address, the desks' read-only role, the test CA in a file) with the role's password.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { syncCatalog, type LibraryServed } from '../../server/schedule.ts';
import { LeaderWrites } from '../../server/leader-writes.ts';
import { LibraryPageStore } from '../../server/page-store.ts';
import type { Logger } from '../../electron/node/logging/index.ts';
import type { LibraryMirrorTarget } from '../../electron/node/mirror-interface.ts';
import { CONTENT_INFO_BATCH } from '../../electron/node/partner/limits.ts';
import { PartnerClient } from '../../electron/node/partner/client.ts';
import type { SandboxHandle } from '../../electron/main/sandbox/server.ts';
import type { ContentId, Country } from '../../electron/shared/model.ts';
import { leadingSession, type LibraryMirrorDatabase } from './library-mirror-database.ts';

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** The library mirror service's leader, as the service runs it, on a session of the test's. */
export interface LibraryServer {
  store: LibraryPageStore;
  /** The global catalog and every library's entitlements: full the first time, then deltas (the service's own sync). */
  sync(): Promise<void>;
  /** Content info for these titles, read now and stored, as the service's availability refresh stores it. */
  storeAvailability(libraryId: number, contentIds: ContentId[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startLibraryServer(db: LibraryMirrorDatabase, sandbox: SandboxHandle, now: () => number = Date.now): Promise<LibraryServer> {
  const session: pg.Client = await leadingSession(db, 'test library mirror service');
  const store = new LibraryPageStore(new LeaderWrites(session));
  const client = new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password }, now });
  const libraries: LibraryServed[] = sandbox.libraries.map((l) => ({ libraryId: l.libraryId, countries: [l.country as Country] }));
  const signal = new AbortController().signal;
  return {
    store,
    sync: () => syncCatalog({ client, store, now, signal, log: quiet, pageSize: 500 }, libraries),
    async storeAvailability(libraryId, contentIds) {
      for (let i = 0; i < contentIds.length; i += CONTENT_INFO_BATCH) {
        await store.storeAvailability(libraryId, await client.contentInfo(libraryId, contentIds.slice(i, i + CONTENT_INFO_BATCH)), now());
      }
    },
    stop: () => session.end(),
  };
}

/** What IT's policy names for desks: the cluster over TLS, the desks' role, the test CA written to a file in `dir`. */
export function deskTarget(db: LibraryMirrorDatabase, dir: string): { target: LibraryMirrorTarget; password: string } {
  const url = new URL(db.desk.url);
  const caFile = join(dir, 'library-ca.pem');
  writeFileSync(caFile, db.cluster.ca.cert);
  return {
    target: { host: db.cluster.host, port: db.cluster.port, database: db.name, user: decodeURIComponent(url.username), caFile },
    password: decodeURIComponent(url.password),
  };
}
