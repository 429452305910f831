// `node bench/library-mirror-load.ts [titles]`: the library mirror's bulk load of a 1,000,000-title
// global catalog into PostgreSQL (a cluster of its own, fsync on), page by page as the service
// stores it (COPY into a staging table, merged with change sequences, the cursor in the same
// transaction), the sandbox in a process of its own over HTTP. Then a desk's first read of every
// change with the read-only role, in batches. Figures printed, nothing asserted.
import { changesSince } from '../electron/node/library-mirror/changes.ts';
import { openSession } from '../electron/node/library-mirror/database.ts';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';
import { LeaderWrites } from '../server/leader-writes.ts';
import { LibraryPageStore } from '../server/page-store.ts';
import type { Bytes } from '../electron/node/partner/bytes.ts';
import { PartnerClient } from '../electron/node/partner/client.ts';
import { createLibraryMirrorDatabase, leadingSession } from '../tests/support/library-mirror-database.ts';
import { startPostgresCluster } from '../tests/support/postgres-cluster.ts';
import { quantile } from './figures.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const TITLES = Number(process.argv[2] ?? 1_000_000);
const PAGE = 500;

const cluster = await startPostgresCluster({ durable: true });
const sandbox = await startSandboxProcess(['--catalog-size', String(TITLES)]);
try {
  const db = await createLibraryMirrorDatabase(cluster);
  const lead = await leadingSession(db);
  const store = new LibraryPageStore(new LeaderWrites(lead));
  const client = new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password } });

  const started = performance.now();
  const { run } = await store.openRun({ source: { kind: 'global' }, startedAt: Date.now() });
  const storeMs: number[] = [];
  let page = 0;
  let records = 0;
  // As the server's sync pulls (the engine, one page at a time): each page's bytes to the store, whose head names the next page.
  const take = async (bytes: Bytes) => {
    const t = performance.now();
    const storing = store.storePage(run, ++page, bytes);
    const head = await storing.head;
    records += (await storing.stored).items;
    storeMs.push(performance.now() - t);
    if (page % 200 === 0) process.stdout.write(`  ${records} titles stored (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
    return head;
  };
  for await (const _stored of client.bulkPages({ kind: 'global', limit: PAGE }, take, undefined, { ahead: false })) { /* stored in `take` */ }
  const finish = performance.now();
  await store.finishRun(run);
  const finishMs = performance.now() - finish;
  const wallSeconds = (performance.now() - started) / 1000;
  const storeSeconds = storeMs.reduce((a, b) => a + b, 0) / 1000;
  const sizes = (await lead.query(`SELECT pg_total_relation_size('${SCHEMA}.titles') AS titles, pg_database_size(current_database()) AS db`)).rows[0];
  await lead.end();

  const desk = await openSession(db.desk);
  const readStarted = performance.now();
  let through = 0;
  let read = 0;
  let bytes = 0;
  for (;;) {
    const batch = await changesSince(desk, through, { limit: 5000 });
    read += batch.changes.length;
    for (const change of batch.changes) if (change.table === 'titles') bytes += change.record?.length ?? 0;
    through = batch.through;
    if (!batch.more) break;
  }
  const readSeconds = (performance.now() - readStarted) / 1000;
  await desk.end();

  console.log(`\nLibrary mirror bulk load — ${records} titles in ${page} pages of ${PAGE} (PostgreSQL ${cluster.port}, fsync on; a shared 2-core machine: noisy)`);
  console.log(`  whole run (sandbox over HTTP + store):  ${wallSeconds.toFixed(1)} s, ${(records / wallSeconds).toFixed(0)} titles/s`);
  console.log(`  store only (COPY + merge + cursor):     ${storeSeconds.toFixed(1)} s, ${(records / storeSeconds).toFixed(0)} titles/s; per page p50 ${quantile(storeMs, 0.5).toFixed(1)} ms, p95 ${quantile(storeMs, 0.95).toFixed(1)} ms`);
  console.log(`  the run's end (sweep of a full run):    ${(finishMs / 1000).toFixed(1)} s`);
  console.log(`  on disk: titles ${(Number(sizes.titles) / 2 ** 20).toFixed(0)} MiB (with indexes and TOAST), database ${(Number(sizes.db) / 2 ** 20).toFixed(0)} MiB`);
  console.log(`  a desk's read of every change (read-only role, TLS, batches of 5000): ${read} rows in ${readSeconds.toFixed(1)} s, ${(bytes / 2 ** 20).toFixed(0)} MiB of records`);
} finally {
  sandbox.stop();
  await cluster.stop();
}
