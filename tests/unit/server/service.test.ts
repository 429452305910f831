// The service as a process (npm run library-mirror) against the sandbox over HTTP and a real
// PostgreSQL: it fills the mirror within its share of the credential's budget, resumes a run
// from its cursor after a SIGKILL, and two instances hand the lead over when the leader dies or
// its session is terminated. Every wait is on a log event or the database's own state.
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCK, LOCK_CLASS, SCHEMA } from '../../../electron/node/library-mirror/schema.ts';
import { BATCH_LIMIT, PartnerClient } from '../../../electron/node/partner/client.ts';
import type { Country, PurchaseModel } from '../../../electron/shared/model.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import { createLibraryMirrorDatabase, type LibraryMirrorDatabase } from '../../support/library-mirror-database.ts';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.ts';
import { event, removeServiceConfigs, startServiceProcess, stopService, writeServiceConfig, type LogLine, type ServiceProcess } from './service-process.ts';

let cluster: PostgresCluster;
let databases = 0;
const running: ServiceProcess[] = [];
const sandboxes: SandboxHandle[] = [];
const sessions: pg.Client[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 60_000);
afterEach(async () => {
  await Promise.all(running.splice(0).map(stopService));
  await Promise.all(sessions.splice(0).map((s) => s.end().catch(() => {})));
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
  removeServiceConfigs();
});
afterAll(async () => {
  await cluster?.stop();
});

async function fresh(options: Parameters<typeof startSandbox>[0]): Promise<{ db: LibraryMirrorDatabase; sandbox: SandboxHandle; admin: pg.Client }> {
  const db = await createLibraryMirrorDatabase(cluster, `mirror_${++databases}`);
  const sandbox = await startSandbox(options);
  sandboxes.push(sandbox);
  const admin = await db.admin();
  sessions.push(admin);
  return { db, sandbox, admin };
}

function start(config: string, name: string): ServiceProcess {
  const service = startServiceProcess(config, name);
  running.push(service);
  return service;
}

const count = async (admin: pg.Client, sql: string, params: unknown[] = []): Promise<number> => Number((await admin.query(sql, params)).rows[0].n);

/** The application name of the session holding the leader lock (the instance's name is in it), or undefined. */
async function leaderHolder(admin: pg.Client): Promise<string | undefined> {
  const { rows } = await admin.query(`SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
    WHERE l.locktype = 'advisory' AND l.classid::bigint = $1 AND l.objid::bigint = $2 AND l.granted
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`, [LOCK_CLASS, LOCK.leader]);
  return rows[0]?.application_name;
}

/** Everything the sandbox holds for the libraries the service serves, as a client reads it. */
async function sandboxTruth(sandbox: SandboxHandle): Promise<{ titles: number; entitlements: Map<string, number> }> {
  const client = new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password } });
  let titles = 0;
  for await (const page of client.globalContentPages({ countries: ['US', 'CA'] as Country[], limit: BATCH_LIMIT })) titles += page.items.length;
  const entitlements = new Map<string, number>();
  for (const libraryId of [101, 202]) {
    for (const model of ['INSTANT', 'FLEX'] as PurchaseModel[]) {
      let n = 0;
      for await (const page of client.entitlementPages(libraryId, { purchaseModel: model, limit: BATCH_LIMIT })) n += page.items.length;
      entitlements.set(`${libraryId}:${model}`, n);
    }
  }
  return { titles, entitlements };
}

async function mirrorHolds(admin: pg.Client): Promise<{ titles: number; entitlements: Map<string, number> }> {
  const titles = await count(admin, `SELECT count(*) AS n FROM ${SCHEMA}.titles WHERE NOT removed`);
  const { rows } = await admin.query(`SELECT library_id, model, count(*) AS n FROM ${SCHEMA}.entitlements WHERE NOT removed GROUP BY 1, 2`);
  return { titles, entitlements: new Map(rows.map((r) => [`${r.library_id}:${r.model}`, Number(r.n)])) };
}

const isGlobalPage = (atLeast: number) => (line: LogLine): boolean => line.event === 'page-stored' && line.source === 'global' && (line.page as number) >= atLeast;

describe('the service', () => {
  it('fills the mirror with the catalog, each library\'s entitlements and Flex availability, within the credential\'s budget', async () => {
    const { db, sandbox, admin } = await fresh({ catalogSize: 3000, rateLimitPerMinute: 100 });
    const service = start(writeServiceConfig(db, sandbox, { availabilityEveryMinutes: 0.05 }), 'only');
    await service.waitFor(event('availability-refreshed', { libraryId: 202 }), 'the first availability refresh');
    expect(await mirrorHolds(admin)).toEqual(await sandboxTruth(sandbox));
    expect(sandbox.control.rateLimit().refused).toBe(0);
    // Its requests of that first minute: no more than the credential's limit (100), which it spends for every desk.
    const log = sandbox.control.requestLog(0);
    const first = log[0]?.at ?? 0;
    expect(log.filter((r) => r.at < first + 60_000 && r.route !== undefined).length).toBeLessThanOrEqual(100);
    expect(await leaderHolder(admin)).toBe('lending-desk-library-server only');

    // A Flex copy borrowed at the service: the next refresh asks content info about it and stores what it says.
    const [title] = sandbox.control.sampleContent(101, { purchaseModel: 'FLEX', active: true, status: 'BORROW', count: 1 });
    const card = sandbox.libraries.find((l) => l.libraryId === 101)?.cards[0] as string;
    const token = await (await fetch(`${sandbox.url}/api/v1/get-token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${sandbox.username}:${sandbox.password}`).toString('base64')}` } })).json() as { access_token: string };
    const borrowed = await fetch(`${sandbox.url}/api/v1/libraries/101/patrons/${encodeURIComponent(card)}/${title}`, { method: 'POST', headers: { authorization: `Bearer ${token.access_token}` } });
    expect(borrowed.status).toBe(200);
    await service.waitFor((l) => l.event === 'availability-refreshed' && l.libraryId === 101 && (l.contentIds as number) >= 1, 'a refresh that saw the borrow');
    const truth = await (await fetch(`${sandbox.url}/api/v1/libraries/101/content/info?contentIds=${title}`, { headers: { authorization: `Bearer ${token.access_token}` } })).json() as { availability: { availableCopies: number; totalCopies: number } }[];
    const row = (await admin.query(`SELECT available_copies, total_copies FROM ${SCHEMA}.availability WHERE library_id = 101 AND content_id = $1`, [title])).rows[0];
    expect(row).toEqual({ available_copies: truth[0]?.availability.availableCopies, total_copies: truth[0]?.availability.totalCopies });
    expect(await stopService(service)).toBe(0);
    expect(service.lines.map((l) => l.event)).toContain('lead-ended');
  });

  it('killed mid-run (SIGKILL), leaves a cursor that agrees with its rows, and the next start resumes there', async () => {
    const { db, sandbox, admin } = await fresh({ catalogSize: 10_000 });
    sandbox.control.addFault({ route: 'globalContents', kind: 'latency', ms: 100 });
    const config = writeServiceConfig(db, sandbox, { requestsPerMinute: 6000 });
    const first = start(config, 'first');
    await first.waitFor(isGlobalPage(4), 'the fourth global page');
    first.child.kill('SIGKILL');
    await first.exited;

    const cursor = (await admin.query(`SELECT * FROM ${SCHEMA}.sync_cursors WHERE source = 'global'`)).rows[0];
    expect(cursor).toMatchObject({ in_progress: true, next_token: expect.any(String) });
    const run = (cursor.run_started_at as Date).getTime();
    // The rows are exactly the pages the cursor says were stored: as many as it counted, all before its token.
    expect(await count(admin, `SELECT count(*) AS n FROM ${SCHEMA}.titles WHERE seen_run = $1`, [run])).toBe(Number(cursor.items));
    expect(Number(cursor.items)).toBe(cursor.pages * 500);
    expect(await count(admin, `SELECT count(*) AS n FROM ${SCHEMA}.titles WHERE id::bigint >= $1`, [Number(cursor.next_token)])).toBe(0);

    const fetchedBefore = sandbox.control.requestLogNext();
    const second = start(config, 'second');
    await second.waitFor(event('run-resumed', { source: 'global', itemsBefore: Number(cursor.items) }), 'the run resumed after the last stored page');
    await second.waitFor(event('run-finished', { source: 'global' }), 'the global run finished');
    await second.waitFor(event('availability-refreshed', { libraryId: 202 }), 'the whole first sync');
    const fetchedAfter = sandbox.control.requestLogNext();
    const truth = await sandboxTruth(sandbox);
    expect(await mirrorHolds(admin)).toEqual(truth);
    // It never fetched a page it had stored: the pages it asked for are exactly those after the cursor.
    const resumedPages = sandbox.control.requestLog(fetchedBefore).filter((r) => r.route === 'globalContents' && r.seq < fetchedAfter).length;
    expect(resumedPages).toBe(Math.ceil(truth.titles / 500) - cursor.pages);
    // The killed process had asked for at most the page it was storing and the one its read-ahead asked for.
    const killedPages = sandbox.control.requestLog(0).filter((r) => r.route === 'globalContents' && r.seq < fetchedBefore).length;
    expect(killedPages - cursor.pages).toBeLessThanOrEqual(2);
  });
});

describe('two instances', () => {
  /** A sandbox whose catalog pages come slowly (so a run is under way), instance a leading, b following. */
  async function twoInstances(): Promise<{ sandbox: SandboxHandle; admin: pg.Client; a: ServiceProcess; b: ServiceProcess }> {
    const { db, sandbox, admin } = await fresh({ catalogSize: 10_000 });
    sandbox.control.addFault({ route: 'globalContents', kind: 'latency', ms: 100 });
    const config = writeServiceConfig(db, sandbox, { requestsPerMinute: 6000 });
    const a = start(config, 'a');
    await a.waitFor(event('leader'), 'a leading');
    const b = start(config, 'b');
    await b.waitFor(event('following'), 'b following');
    return { sandbox, admin, a, b };
  }

  it('one leads, the other follows; when the leader is killed the other takes over and finishes its run', async () => {
    const { sandbox, admin, a, b } = await twoInstances();
    expect(await leaderHolder(admin)).toBe('lending-desk-library-server a');
    await a.waitFor(isGlobalPage(3), 'a storing pages');
    a.child.kill('SIGKILL');
    await a.exited;
    await b.waitFor(event('leader'), 'b taking over');
    expect(await leaderHolder(admin)).toBe('lending-desk-library-server b');
    await b.waitFor(event('run-resumed', { source: 'global' }), 'b resuming a\'s run');
    await b.waitFor(event('availability-refreshed', { libraryId: 202 }), 'b finishing the first sync');
    expect(await mirrorHolds(admin)).toEqual(await sandboxTruth(sandbox));
  });

  it('a leader whose session is terminated notices, stops writing, and follows; the other leads', async () => {
    const { admin, a, b } = await twoInstances();
    await a.waitFor(isGlobalPage(2), 'a storing pages');

    const terminated = await admin.query(`SELECT pg_terminate_backend(pid) AS done FROM pg_locks WHERE locktype = 'advisory'
      AND classid::bigint = $1 AND objid::bigint = $2 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [LOCK_CLASS, LOCK.leader]);
    expect(terminated.rows).toEqual([{ done: true }]);
    // b waits in line for the lock, so it may lead before a notices; a's writes were refused from the moment its session ended.
    const lost = await a.waitFor(event('leadership-lost'), 'a noticing');
    await b.waitFor(event('leader'), 'b leading');
    await b.waitFor(event('run-resumed', { source: 'global' }), 'b resuming the run');
    await a.waitFor((l) => l.event === 'following' && Date.parse(l.time) >= Date.parse(lost.time), 'a following again');
    await b.waitFor(event('run-finished', { source: 'global' }), 'b finishing the run');
    expect(await leaderHolder(admin)).toBe('lending-desk-library-server b');
    // After it lost the lead, a stored nothing.
    const after = a.lines.slice(a.lines.indexOf(lost));
    expect(after.filter((l) => l.event === 'page-stored' || l.event === 'run-finished')).toEqual([]);
  });
});
