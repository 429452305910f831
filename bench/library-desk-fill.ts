// `node bench/library-desk-fill.ts [titles]` (npm run bench:library-desk): a desk in a library
// filling its Collection from the library mirror for the first time (issue #25: "the first fill
// of a 1M-title library in ≤ 60 s on this machine"), while 10 other desks read the same rows from
// the same database at the same moment (desks are separate PCs: their own inserts do not share
// this machine, so the other 10 are modelled as readers of the database, and one real desk's
// whole fill is measured amid them). The library mirror is filled first by the service's own
// sync (partner-sync.ts) from the sandbox in a process of its own: the global catalog and library
// 101's entitlements, into a PostgreSQL cluster of its own (fsync on). Printed: the desk's fill
// (its owner thread reading PostgreSQL and writing SQLite, the search index built at the end) to
// its Collection's first page, and what PostgreSQL spent on it — the CPU seconds and bytes written
// by the desk's backend process (/proc), so IT can size a server for 100 desks. Nothing asserted;
// a shared 2-core machine: read the figures as an order of size.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { changesSince } from '../electron/library-mirror/changes.ts';
import { openSession } from '../electron/library-mirror/database.ts';
import { tryLead } from '../electron/library-mirror/leadership.ts';
import { syncCatalog } from '../electron/library-mirror/partner-sync.ts';
import { grantDeskRole, migrate } from '../electron/library-mirror/schema.ts';
import { LibraryMirrorStore } from '../electron/library-mirror/store.ts';
import { DeskMirror } from '../electron/mirror/desk-mirror.ts';
import { PartnerClient } from '../electron/partner/client.ts';
import { COUNTRIES } from '../electron/shared/model.ts';
import { createMirrorDatabase } from '../tests/support/library-mirror-db.ts';
import { startPostgresCluster } from '../tests/support/postgres-cluster.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const TITLES = Number(process.argv[2] ?? 1_000_000);
const READERS = 10;
const LIBRARY = 101;
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const seconds = (from: number): number => (performance.now() - from) / 1000;

/** CPU seconds (user + system) and bytes written of a PostgreSQL backend, from /proc. */
function backendCost(pid: number): { cpuSeconds: number; bytesWritten: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return { cpuSeconds: ticks / 100, bytesWritten: Number(/wchar: (\d+)/.exec(io)?.[1] ?? NaN) };
}

async function backendPid(admin: pg.Client, applicationName: string): Promise<number[]> {
  const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
  return rows.map((r) => Number(r.pid));
}

const cluster = await startPostgresCluster({ durable: true });
const sandbox = await startSandboxProcess(['--catalog-size', String(TITLES)]);
const dir = mkdtempSync(join(tmpdir(), 'library-desk-fill-'));
try {
  const db = await createMirrorDatabase(cluster);
  const lead = await openSession(db.service);
  await migrate(lead);
  await grantDeskRole(lead, db.deskRole);
  if (!(await tryLead(lead))) throw new Error('no lead');
  const client = new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password } });
  const loadStarted = performance.now();
  await syncCatalog({ client, store: new LibraryMirrorStore(lead), now: Date.now, signal: new AbortController().signal, log: quiet, pageSize: 500 },
    [{ libraryId: LIBRARY, countries: [...COUNTRIES] }]);
  const loadSeconds = seconds(loadStarted);
  await lead.end();
  console.log(`the library mirror filled by the service's sync in ${loadSeconds.toFixed(0)} s`);

  const url = new URL(db.desk.url);
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, cluster.ca.cert);
  const admin = await db.admin();

  // The 10 other desks: each reads every change from 0, as a first fill does, at the same moment.
  let readersDone = 0;
  const readerSeconds: number[] = [];
  const readers = Array.from({ length: READERS }, async (_, i) => {
    const session = await openSession(db.desk, { applicationName: `bench reader ${i}` });
    const started = performance.now();
    let through = 0;
    for (;;) {
      const batch = await changesSince(session, through, { libraries: [LIBRARY] });
      through = batch.through;
      if (!batch.more) break;
    }
    readerSeconds.push(seconds(started));
    readersDone++;
    return session;
  });

  const desk = new DeskMirror({
    databasePath: join(dir, 'desk.db'), desk: client, background: client,
    library: {
      target: { host: cluster.host, port: cluster.port, database: db.name, user: decodeURIComponent(url.username), caFile },
      password: async () => decodeURIComponent(url.password), libraries: [LIBRARY], countries: [...COUNTRIES],
    },
  });
  const started = performance.now();
  const status = await desk.fillFromLibrary();
  const filledSeconds = seconds(started);
  const page = await desk.browse({ libraryId: LIBRARY, offset: 0, limit: 100 });
  const readySeconds = seconds(started);
  const readersStillReading = READERS - readersDone;
  const [deskPid] = await backendPid(admin, 'lending-desk desk');
  const deskCost = deskPid === undefined ? undefined : backendCost(deskPid);
  const sessions = await Promise.all(readers);
  const readerCosts = (await Promise.all(Array.from({ length: READERS }, (_, i) => backendPid(admin, `bench reader ${i}`)))).flat().map(backendCost);
  await Promise.all(sessions.map((s) => s.end()));
  await admin.end();
  await desk.close();

  const source = status.sources.find((s) => s.source === 'library-mirror');
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  console.log(`\nA desk's first fill from the library mirror — ${status.counts.titles} titles, ${status.counts.entitlements.reduce((n, e) => n + e.total, 0)} entitlements of library ${LIBRARY} (a shared 2-core machine: noisy)`);
  console.log(`  the fill (read by change sequence, written to SQLite, search index built): ${filledSeconds.toFixed(1)} s${source?.lastError ? ` — FAILED: ${source.lastError}` : ''}`);
  console.log(`  its Collection's first page (${page.total} titles) ready after start:       ${readySeconds.toFixed(1)} s`);
  console.log(`  amid ${READERS} other desks reading every change at the same moment (each ${mean(readerSeconds).toFixed(1)} s on average; ${readersStillReading} still reading when the desk was ready)`);
  if (deskCost) console.log(`  PostgreSQL for this desk's fill: ${deskCost.cpuSeconds.toFixed(1)} CPU s, ${(deskCost.bytesWritten / 2 ** 20).toFixed(0)} MiB written by its backend (the bytes sent, within TLS framing)`);
  if (readerCosts.length > 0) console.log(`  PostgreSQL per other desk's read: ${mean(readerCosts.map((c) => c.cpuSeconds)).toFixed(1)} CPU s, ${(mean(readerCosts.map((c) => c.bytesWritten)) / 2 ** 20).toFixed(0)} MiB`);
  console.log(`LIBRARY-DESK-JSON ${JSON.stringify({ titles: status.counts.titles, fillSeconds: Number(filledSeconds.toFixed(1)), readySeconds: Number(readySeconds.toFixed(1)), pgCpuSecondsPerFill: deskCost?.cpuSeconds ?? null, pgMiBPerFill: deskCost ? Number((deskCost.bytesWritten / 2 ** 20).toFixed(0)) : null, concurrentReaders: READERS })}`);
} finally {
  sandbox.stop();
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
