// `node bench/library-fill.ts [titles]` (npm run bench:library-fill): a desk in a library
// filling its Collection from the library mirror for the first time (issue #25: "the first fill
// of a 1M-title library in ≤ 60 s on this machine"), while 10 other desks read the same rows from
// the same database at the same moment (desks are separate PCs: their own inserts do not share
// this machine, so the other 10 are modelled as readers of the database, and one real desk's
// whole fill is measured amid them). The library mirror is filled first by the service's own
// sync (server/schedule.ts: the desk's own engine) from the sandbox in a process of its own: the global catalog and library
// 101's entitlements, into a PostgreSQL cluster of its own (fsync on), then vacuumed as autovacuum
// does after a bulk load. Printed: the desk's fill
// (its owner thread reading PostgreSQL and writing SQLite, the search index built at the end) to
// its Collection's first page, and what PostgreSQL spent on it — the CPU seconds of the desk's
// backend process (/proc) and the bytes the desk read from it, so IT can size a server for 100 desks. Nothing asserted;
// a shared 2-core machine: read the figures as an order of size (docs/benchmarks.md has runs
// before and after the fill's speed-ups, and their load).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { openSession } from '../electron/node/library-mirror/database.ts';
import { syncCatalog } from '../server/schedule.ts';
import { LeaderWrites } from '../server/leader-writes.ts';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';
import { LibraryPageStore } from '../server/page-store.ts';
import { DeskMirror } from '../electron/main/mirror/desk-mirror.ts';
import { PartnerClient } from '../electron/node/partner/client.ts';
import { COUNTRIES } from '../electron/shared/model.ts';
import { createLibraryMirrorDatabase, leadingSession } from '../tests/support/library-mirror-database.ts';
import { startPostgresCluster } from '../tests/support/postgres-cluster.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const TITLES = Number(process.argv[2] ?? 1_000_000);
const READERS = 10;
const LIBRARY = 101;
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
/** What a first fill reads (changes.ts): every title, and the library's entitlements and availability, in change order. */
const READ_EVERY_CHANGE = [
  `SELECT change_seq, id, title_id, countries, record, wire, removed FROM ${SCHEMA}.titles ORDER BY change_seq`,
  `SELECT change_seq, library_id, content_id, model, active, removed FROM ${SCHEMA}.entitlements WHERE library_id = ${LIBRARY} ORDER BY change_seq`,
  `SELECT change_seq, library_id, content_id, status, available_copies, total_copies, holds_queue_size, read_at FROM ${SCHEMA}.availability WHERE library_id = ${LIBRARY} ORDER BY change_seq`,
];
const seconds = (from: number): number => (performance.now() - from) / 1000;

/** CPU seconds (user + system) of a PostgreSQL backend, from /proc (what it sends is counted at the desk's socket). */
function backendCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime (fields 14 and 15 of stat), in clock ticks
}

async function backendPid(admin: pg.Client, applicationName: string): Promise<number[]> {
  const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
  return rows.map((r) => Number(r.pid));
}

const cluster = await startPostgresCluster({ durable: true });
const sandbox = await startSandboxProcess(['--catalog-size', String(TITLES)]);
const dir = mkdtempSync(join(tmpdir(), 'library-fill-'));
try {
  const db = await createLibraryMirrorDatabase(cluster);
  const lead = await leadingSession(db);
  const client = new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password } });
  const loadStarted = performance.now();
  await syncCatalog({ client, store: new LibraryPageStore(new LeaderWrites(lead)), now: Date.now, signal: new AbortController().signal, log: quiet, pageSize: 500 },
    [{ libraryId: LIBRARY, countries: [...COUNTRIES] }]);
  const loadSeconds = seconds(loadStarted);
  await lead.end();
  console.log(`the library mirror filled by the service's sync in ${loadSeconds.toFixed(0)} s`);
  // What autovacuum does within a minute of a bulk load (PostgreSQL 13+ vacuums tables that are
  // only inserted into): without it, the first desk to read each row sets its hint bits, 9-15 CPU s
  // of its backend on a million titles instead of 2.5, a cost paid once per load, not per desk.
  const vacuumStarted = performance.now();
  const superuser = await db.admin();
  await superuser.query(`VACUUM (ANALYZE) ${SCHEMA}.titles, ${SCHEMA}.entitlements, ${SCHEMA}.availability`);
  await superuser.end();
  console.log(`vacuumed (as autovacuum would after the load) in ${seconds(vacuumStarted).toFixed(0)} s`);

  const url = new URL(db.desk.url);
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, cluster.ca.cert);
  const admin = await db.admin();

  /**
   * One real desk's first fill, into a file of its own, while `readers` other desks read every
   * change at the same moment. They read as PostgreSQL serves a first fill (the same rows, in
   * change order) through COPY, the bytes counted and dropped: their desks' own parsing and
   * inserts are on their own PCs, not on this machine's 2 cores.
   */
  async function fillOnce(name: string, readers: number): Promise<Record<string, number | null>> {
    const readerSeconds: number[] = [];
    const readerBytes: number[] = [];
    const sessions: pg.Client[] = [];
    for (let i = 0; i < readers; i++) sessions.push(await openSession(db.desk, { applicationName: `bench reader ${i}` }));
    const desk = new DeskMirror({
      databasePath: join(dir, `${name}.db`), staff: client, background: client,
      library: {
        target: { host: cluster.host, port: cluster.port, database: db.name, user: decodeURIComponent(url.username), caFile },
        password: async () => decodeURIComponent(url.password), libraries: [LIBRARY], countries: [...COUNTRIES],
      },
    });
    const started = performance.now();
    const reading = sessions.map(async (session) => {
      const t = performance.now();
      let bytes = 0;
      for (const sql of READ_EVERY_CHANGE) {
        const out = session.query(copyTo(`COPY (${sql}) TO STDOUT`));
        for await (const chunk of out) bytes += (chunk as Buffer).length;
      }
      readerSeconds.push(seconds(t));
      readerBytes.push(bytes);
    });
    const status = await desk.fillFromLibrary();
    const filledSeconds = seconds(started);
    const page = await desk.browse({ libraryId: LIBRARY, offset: 0, limit: 100 });
    const readySeconds = seconds(started);
    const stillReading = readers - readerSeconds.length;
    const [deskPid] = await backendPid(admin, 'lending-desk desk');
    const deskCpu = deskPid === undefined ? null : backendCpuSeconds(deskPid);
    const deskMiB = (desk.lastLibraryFill?.bytesRead ?? NaN) / 2 ** 20;
    await Promise.all(reading);
    const readerPids: number[] = [];
    for (let i = 0; i < readers; i++) readerPids.push(...(await backendPid(admin, `bench reader ${i}`))); // one query at a time on the admin session
    const readerCpu = readerPids.map(backendCpuSeconds);
    await Promise.all(sessions.map((s) => s.end()));
    await desk.close();

    const source = status.sources.find((s) => s.source === 'library-mirror');
    const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    console.log(`\nA desk's first fill from the library mirror${readers ? `, amid ${readers} other desks reading every change at the same moment` : ', alone'} — ${status.counts.titles} titles, ${status.counts.entitlements.reduce((n, e) => n + e.total, 0)} entitlements of library ${LIBRARY}`);
    console.log(`  the fill (read by change sequence, written to SQLite, search index built): ${filledSeconds.toFixed(1)} s${source?.lastError ? ` — FAILED: ${source.lastError}` : ''}`);
    console.log(`  its Collection's first page (${page.total} titles) ready after start:       ${readySeconds.toFixed(1)} s`);
    console.log(`  PostgreSQL for this desk's fill: ${deskCpu?.toFixed(1) ?? '?'} CPU s of its backend, ${deskMiB.toFixed(0)} MiB sent to the desk (read at its socket, TLS included)`);
    if (readers) console.log(`  each other desk's read: ${mean(readerSeconds).toFixed(1)} s, ${(mean(readerBytes) / 2 ** 20).toFixed(0)} MiB, ${mean(readerCpu).toFixed(1)} CPU s of its backend (${stillReading} still reading when the desk was ready)`);
    return { readySeconds: Number(readySeconds.toFixed(1)), pgCpuSecondsPerFill: deskCpu, pgMiBPerFill: Number(deskMiB.toFixed(0)) };
  }

  const alone = await fillOnce('alone', 0);
  const amid = await fillOnce('amid', READERS);
  await admin.end();
  console.log('(a shared 2-core machine under load: read the figures as an order of size)');
  console.log(`LIBRARY-DESK-JSON ${JSON.stringify({ titles: TITLES, firstFillAloneSeconds: alone.readySeconds, deskReadyWith10Seconds: amid.readySeconds, pgCpuSecondsPerFill: alone.pgCpuSecondsPerFill, pgMiBPerFill: alone.pgMiBPerFill })}`);
} finally {
  sandbox.stop();
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
