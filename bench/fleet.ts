// `npm run bench:fleet [titles]` (issue #25): a library of many desks on one partner credential.
// One sandbox of `titles` (1,000,000 by default) enforcing the credential's limit of 100 requests
// a minute (429 with Retry-After), one PostgreSQL cluster, the library mirror service syncing the
// whole catalog into it, and N desks at the modelled peak (each desk a patron lookup and one
// action every 2 minutes), for N = 1 and N = 50 (DeskService instances over 5 processes, each with
// its own data folder, policy and keychain, main's background tasks running). In the 50-desk run
// two service instances run and the leader is killed mid-sync. Printed beside the goals; nothing
// asserted; the last line is FLEET-JSON.
//
// Time is compressed, as the issue allows where real time would be too long: the credential's
// "minute" lasts 60 / FLEET_TIME_SCALE seconds (20 by default: 3 s) at the sandbox and in the
// service's budget, and the peak's 2 minutes, the availability refresh's 10 and the desks'
// refresh and full-pass intervals shrink with it. What staff wait for (a lookup's milliseconds,
// a Retry-After's seconds) is real time. Only one desk per run fills its Collection (fifty first
// fills of 1M titles would measure this 2-core machine's CPU, not the library); a desk's first fill
// amid 10 readers is bench:library-fill's, run here in a process of its own.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';
import { createLibraryMirrorDatabase } from '../tests/support/library-mirror-database.ts';
import { startPostgresCluster } from '../tests/support/postgres-cluster.ts';
import { atMostGoal, quantile } from './figures.ts';
import { benchShiftChange, SIGN_IN_GOAL_MS } from './sign-in-shift-change.ts';
import type { FleetDesksJob, FleetDesksResult } from './fleet-desks-process.ts';
import { sandboxAdmin, startSandboxProcess } from './sandbox-process.ts';

const TITLES = Number(process.argv[2] ?? 1_000_000);
const SCALE = Number(process.env.FLEET_TIME_SCALE ?? 20);
const MODELLED_MINUTE_MS = 60_000 / SCALE;
const LIBRARY = 101;
const FLEET = 50;
const DESK_PROCESSES = 5;
const PER_MINUTE = 100;
/** How long the desks work the peak, in modelled minutes, while the service syncs; the sync then finishes without them. */
const PEAK_MINUTES = Number(process.env.FLEET_PEAK_MINUTES ?? 40);
/** The partner routes of the catalog, the entitlements and availability (not patron work, not tokens). */
const CATALOG_ROUTES = ['globalContents', 'entitlements', 'contentInfo', 'libraryContent', 'search'];
const GOALS = { catalogRequests50vs1: 1.05, deskReadyWith10Seconds: 120, lookupP95Ratio50vs1: 1.2, staff429: 0, failoverSeconds: 60 };

/** A child process whose standard output is JSON lines, each handed to `onLine` with the time it came. */
function jsonChild(args: string[], onLine: (line: Record<string, unknown>, at: number) => void, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], env });
  createInterface({ input: child.stdout! }).on('line', (text) => {
    try {
      onLine(JSON.parse(text) as Record<string, unknown>, performance.now());
    } catch {
      process.stdout.write(`${text}\n`);
    }
  });
  return child;
}

interface RunFigures {
  catalogRequests: number;
  refusedByLimit: number;
  /** The service's own requests the limit refused (each sent again after Retry-After). */
  serviceRefused: number;
  lookupMs: number[];
  actionMs: number[];
  staffErrors: Record<string, number>;
  syncSeconds: number;
  /** Whether the leader was killed in this run. */
  killed: boolean;
  failoverSeconds: number | null;
  nextPageSeconds: number | null;
  pagesFetchedTwice: number;
  filledTitles: number | null;
  mirrorEntitled: number;
  fillProblem: string | undefined;
  /** Whether the service's sync was over before the peak ended (then the desks did not work beside all of it). */
  syncedDuringPeak: boolean;
  /** Requests the sandbox saw, by route (everyone's). */
  counts: Record<string, number>;
  shareAtEnd: unknown;
}

const cluster = await startPostgresCluster({ durable: true });
const sandbox = await startSandboxProcess(['--catalog-size', String(TITLES), '--rate-window-ms', String(Math.round(MODELLED_MINUTE_MS))], { rateLimitPerMinute: PER_MINUTE });
const dir = mkdtempSync(join(tmpdir(), 'fleet-'));
try {
  const { contentIds } = await sandboxAdmin(sandbox, 'GET', `sample-content?libraryId=${LIBRARY}&purchaseModel=INSTANT&active=true&count=${FLEET}`) as { contentIds: number[] };

  /** `everyMs`: each desk's lookup and action this often (the peak's 2 minutes unless said). */
  async function run(desks: number, failover: boolean, everyMs = 2 * MODELLED_MINUTE_MS): Promise<RunFigures> {
    // Patrons of this run's own, so no loan is left over from an earlier run.
    for (let i = 0; i < desks; i++) await sandboxAdmin(sandbox, 'POST', 'patrons', { libraryId: LIBRARY, card: `FLEET-${desks}-${i}`, borrowsAllowedPerMonth: 100_000 });
    const db = await createLibraryMirrorDatabase(cluster, `fleet_${desks}`);
    const caFile = join(dir, `ca-${desks}.pem`);
    writeFileSync(caFile, cluster.ca.cert);
    const serviceUrl = new URL(db.service.url);
    const credentialsFile = join(dir, `credentials-${desks}.json`);
    writeFileSync(credentialsFile, JSON.stringify({ username: sandbox.username, password: sandbox.password, databasePassword: decodeURIComponent(serviceUrl.password) }));
    chmodSync(credentialsFile, 0o600);
    serviceUrl.password = '';
    const configFile = join(dir, `config-${desks}.json`);
    writeFileSync(configFile, JSON.stringify({
      partner: { baseUrl: sandbox.url }, libraries: [{ libraryId: LIBRARY, countries: ['US'] }],
      database: { url: serviceUrl.href, caFile, deskRole: db.deskRole }, credentialsFile,
      availabilityEveryMinutes: 10 / SCALE, retryAfterFailureMinutes: 5 / SCALE,
    }));

    // The service (one instance, or two when the leader is to be killed), heard through its log.
    const events: { instance: string; event: string; at: number; line: Record<string, unknown> }[] = [];
    const fetched = new Map<string, number>();
    let syncDone: () => void = () => {};
    const synced = new Promise<void>((resolve) => { syncDone = resolve; });
    const sources = new Set<string>();
    // Killed mid-sync: when the leader has stored a quarter of the catalog's pages (at most 200),
    // it gets SIGKILL, whether the desks are still at the peak or not.
    const part = Math.max(1, Math.min(200, Math.ceil(TITLES / 500 / 4)));
    let leader: string | undefined;
    let leaderPages = 0;
    let killedAt: number | null = null;
    let killed: () => void = () => {};
    const killing = new Promise<void>((resolve) => { killed = resolve; });
    if (!failover) killed();
    const onServiceLine = (instance: string) => (line: Record<string, unknown>, at: number): void => {
      events.push({ instance, event: String(line.event), at, line });
      if (line.event === 'run-finished') sources.add(String(line.source));
      if (line.event === 'fetched' && line.status === 200) fetched.set(String(line.url), (fetched.get(String(line.url)) ?? 0) + 1);
      if (line.event === 'availability-refreshed' && sources.size >= 3) syncDone();
      if (line.event === 'leader') leader ??= instance;
      const leadersGlobalPage = line.event === 'page-stored' && instance === leader && String(line.source).startsWith('global');
      if (failover && killedAt === null && leadersGlobalPage && ++leaderPages >= part) {
        services[instance === 'first' ? 0 : 1]!.kill('SIGKILL');
        killedAt = performance.now();
        killed();
      }
    };

    // The desks, each process with its share; desk 0 fills its Collection for real.
    const [host, port] = [cluster.host, cluster.port];
    const deskUrl = new URL(db.desk.url);
    const perProcess = Math.ceil(desks / DESK_PROCESSES);
    const results: FleetDesksResult[] = [];
    const deskProcesses: { child: ChildProcess; ready: Promise<void>; done: Promise<void> }[] = [];
    for (let first = 0; first < desks; first += perProcess) {
      const job: FleetDesksJob = {
        partner: { url: sandbox.url, username: sandbox.username, password: sandbox.password }, libraryId: LIBRARY,
        libraryMirror: { host, port, database: db.name, user: decodeURIComponent(deskUrl.username), password: decodeURIComponent(deskUrl.password), caPem: cluster.ca.cert },
        desks: Array.from({ length: Math.min(perProcess, desks - first) }, (_, j) => ({ card: `FLEET-${desks}-${first + j}`, contentId: contentIds[first + j] as number, fills: first + j === 0 })),
        everyMs, fillEveryMs: MODELLED_MINUTE_MS, refreshEveryMs: 10 * MODELLED_MINUTE_MS, fullPassEveryMs: 60 * MODELLED_MINUTE_MS,
      };
      let ready: () => void = () => {};
      let done: () => void = () => {};
      const readyP = new Promise<void>((resolve) => { ready = resolve; });
      const doneP = new Promise<void>((resolve) => { done = resolve; });
      const child = jsonChild([join(import.meta.dirname, 'fleet-desks-process.ts'), JSON.stringify(job)], (line) => {
        if (line.ready) ready();
        else if (Array.isArray(line.lookupMs)) { results.push(line as unknown as FleetDesksResult); done(); }
      });
      deskProcesses.push({ child, ready: readyP, done: doneP });
    }
    await Promise.all(deskProcesses.map((p) => p.ready));

    await sandboxAdmin(sandbox, 'DELETE', 'request-counts');
    const refusedBefore = (await sandboxAdmin(sandbox, 'GET', 'rate-limit')).refused as number;
    const started = performance.now();
    // The service starts with the desks already up: every partner request it sends is counted.
    const services = (failover ? ['first', 'second'] : ['only']).map((name) => jsonChild(
      [join(import.meta.dirname, 'fleet-service-process.ts'), configFile, String(Math.round(MODELLED_MINUTE_MS))],
      onServiceLine(name), { ...process.env, LIBRARY_MIRROR_INSTANCE: name }));
    for (const p of deskProcesses) p.child.stdin!.write('go\n');

    await new Promise<void>((resolve) => setTimeout(resolve, PEAK_MINUTES * MODELLED_MINUTE_MS));
    const syncedDuringPeak = sources.size >= 3;
    for (const p of deskProcesses) p.child.stdin!.write('stop\n');
    await killing;
    await synced;
    const syncSeconds = (performance.now() - started) / 1000;
    // The sync over: the filling desk fills once more and counts its Collection (no gap: all of it).
    for (const p of deskProcesses) p.child.stdin!.write('fill\n');
    await Promise.all(deskProcesses.map((p) => p.done));
    const counts = await sandboxAdmin(sandbox, 'GET', 'request-counts') as Record<string, number>;
    const refused = ((await sandboxAdmin(sandbox, 'GET', 'rate-limit')).refused as number) - refusedBefore;
    for (const child of services) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(services.map((child) => (child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => child.once('exit', resolve)))));

    // Pages answered more than once, across both instances (each says every page it is given).
    const pagesFetchedTwice = [...fetched.values()].filter((n) => n > 1).length;
    const serviceRefused = events.filter((e) => e.event === 'fetched' && e.line.status === 429).length;
    let failoverSeconds: number | null = null;
    let nextPageSeconds: number | null = null;
    if (killedAt !== null) {
      const killTime = killedAt;
      // From the kill to the second instance holding the lead (it then resumes from the stored
      // cursor; its next page waits for the share's turn, which the busy desks decide).
      const took = events.find((e) => e.at > killTime && e.event === 'leader');
      const resumed = events.find((e) => e.at > killTime && e.event === 'page-stored');
      failoverSeconds = took ? (took.at - killTime) / 1000 : null;
      nextPageSeconds = resumed ? (resumed.at - killTime) / 1000 : null;
    }
    const adminDb = await db.admin();
    const mirrorEntitled = Number((await adminDb.query(`SELECT count(*) AS n FROM ${SCHEMA}.entitlements WHERE NOT removed AND library_id = $1`, [LIBRARY])).rows[0].n);
    await adminDb.end();
    const all = (pick: (r: FleetDesksResult) => number[]): number[] => results.flatMap(pick);
    const staffErrors: Record<string, number> = {};
    for (const r of results) for (const [code, n] of Object.entries(r.errors)) staffErrors[code] = (staffErrors[code] ?? 0) + n;
    return {
      catalogRequests: CATALOG_ROUTES.reduce((n, route) => n + (counts[route] ?? 0), 0),
      refusedByLimit: refused, serviceRefused,
      lookupMs: all((r) => r.lookupMs), actionMs: all((r) => r.actionMs), staffErrors, syncSeconds, killed: killedAt !== null, failoverSeconds, nextPageSeconds, pagesFetchedTwice,
      filledTitles: results.find((r) => r.filledTitles !== null)?.filledTitles ?? null, mirrorEntitled,
      fillProblem: results.find((r) => r.fillProblem)?.fillProblem, syncedDuringPeak, counts,
      shareAtEnd: events.filter((e) => e.event === 'request-share').map((e) => e.line.perMinute),
    };
  }

  const report = (label: string, r: RunFigures): void => {
    console.log(`\n${label}`);
    console.log(`  the desks at the peak for ${PEAK_MINUTES} modelled minutes (${(PEAK_MINUTES * MODELLED_MINUTE_MS / 1000).toFixed(0)} s) while the service syncs${r.syncedDuringPeak ? ' — the sync was over before the peak ended' : ''}`);
    console.log(`  the service's whole sync (catalog, entitlements of library ${LIBRARY}, one availability round): ${r.syncSeconds.toFixed(0)} s real (${(r.syncSeconds * SCALE / 60).toFixed(0)} modelled minutes)`);
    console.log(`  partner requests for the catalog, entitlements and availability: ${r.catalogRequests}, of which the limit refused ${r.serviceRefused} (sent again after Retry-After); requests the limit refused in all (desks' included): ${r.refusedByLimit}`);
    console.log(`  every request the sandbox saw, by route: ${JSON.stringify(r.counts)}`);
    console.log(`  the service's share changes (requests a modelled minute): ${JSON.stringify(r.shareAtEnd)}`);
    console.log(`  patron lookups: ${r.lookupMs.length}, p50 ${quantile(r.lookupMs, 0.5).toFixed(0)} ms, p95 ${quantile(r.lookupMs, 0.95).toFixed(0)} ms, max ${Math.max(...r.lookupMs).toFixed(0)} ms; actions: ${r.actionMs.length}, p95 ${quantile(r.actionMs, 0.95).toFixed(0)} ms`);
    console.log(`  what staff saw instead of an answer: ${JSON.stringify(r.staffErrors)}`);
    console.log(`  the filling desk's Collection after its last fill: ${r.filledTitles ?? '?'} titles; the library mirror's entitlements of library ${LIBRARY}: ${r.mirrorEntitled}${r.fillProblem ? ` — its fill said: ${r.fillProblem}` : ''}`);
    if (r.killed) console.log(`  the leader killed mid-sync: the second instance led ${r.failoverSeconds?.toFixed(1) ?? 'never'} s later and stored its first page ${r.nextPageSeconds?.toFixed(1) ?? 'never'} s after the kill; pages fetched twice: ${r.pagesFetchedTwice}`);
  };

  console.log(`Fleet bench: ${TITLES.toLocaleString('en')} titles, the credential's limit ${PER_MINUTE} a minute, time compressed ${SCALE}x (a minute is ${(MODELLED_MINUTE_MS / 1000).toFixed(1)} s)`);
  console.log(`Modelled peak: a lookup (3 requests) and one action (1) per desk every 2 minutes: ${FLEET} desks ask ${FLEET * 4 / 2} requests a minute of the credential's ${PER_MINUTE}.`);
  // One desk's lookup and action every modelled minute rather than every 2: the same lone desk
  // beside the sync, with twice the lookups for its p95 (as often as its own budget of 100 real
  // requests a minute lets it).
  const one = await run(1, false, MODELLED_MINUTE_MS);
  report('1 desk (a lookup and an action every modelled minute, for a p95 of more lookups), one service instance', one);
  const many = await run(FLEET, true);
  report(`${FLEET} desks, two service instances, the leader killed mid-sync`, many);
  // What the credential carries beside the service: half the fleet asks 50 a minute, the half
  // the service's default share leaves.
  const half = await run(FLEET / 2, false);
  report(`${FLEET / 2} desks at the same peak (${FLEET / 2 * 2} requests a minute), one service instance`, half);

  // A desk's first fill amid 10 readers: bench:library-fill, in a process of its own.
  const fill = spawnSync(process.execPath, [join(import.meta.dirname, 'library-desk-fill.ts'), String(TITLES)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(fill.stdout);
  const fillJson = /LIBRARY-DESK-JSON (.*)/.exec(fill.stdout)?.[1];
  const deskReady = fillJson ? (JSON.parse(fillJson) as { deskReadyWith10Seconds: number }).deskReadyWith10Seconds : Number.NaN;

  // A shift change (issue #32): 50 members of staff signing in at the library server within one minute. A real
  // minute, not the compressed one: a sign-in costs the server CPU (its PIN hash), which compressing time would
  // multiply twentyfold, where the compression stands only for the credential's rate window.
  const shiftChange = await benchShiftChange(FLEET, 60_000);

  const figures = {
    signInP95Ms: shiftChange.signInP95Ms,
    catalogRequests50vs1: Number((many.catalogRequests / one.catalogRequests).toFixed(3)),
    deskReadyWith10Seconds: deskReady,
    lookupP95Ratio50vs1: Number((quantile(many.lookupMs, 0.95) / quantile(one.lookupMs, 0.95)).toFixed(2)),
    staff429: (one.staffErrors['rate-limited'] ?? 0) + (many.staffErrors['rate-limited'] ?? 0),
    failoverSeconds: many.failoverSeconds === null ? null : Number(many.failoverSeconds.toFixed(1)),
  };
  console.log('\nAgainst the goals');
  console.log(`  catalog requests, 50 desks / 1: ${atMostGoal(figures.catalogRequests50vs1, GOALS.catalogRequests50vs1, 'x')}`);
  console.log(`  a desk's Collection ready amid 10 readers: ${atMostGoal(figures.deskReadyWith10Seconds, GOALS.deskReadyWith10Seconds, ' s')}`);
  console.log(`  lookup p95, 50 desks / 1: ${atMostGoal(figures.lookupP95Ratio50vs1, GOALS.lookupP95Ratio50vs1, 'x')}`);
  console.log(`  429s reaching staff: ${figures.staff429}   goal ${GOALS.staff429}`);
  console.log(`  sign-in p95 at a 50-desk shift change: ${atMostGoal(figures.signInP95Ms, SIGN_IN_GOAL_MS, 'ms')}`);
  console.log(`  failover (the leader killed, the second instance leading): ${figures.failoverSeconds ?? 'never'} s   goal: within a minute; pages fetched twice ${many.pagesFetchedTwice}, goal ≤ 1`);
  console.log(`  (${FLEET / 2} desks at the same peak: lookup p95 / 1 desk ${(quantile(half.lookupMs, 0.95) / quantile(one.lookupMs, 0.95)).toFixed(2)}x, 429s reaching staff ${half.staffErrors['rate-limited'] ?? 0})`);
  console.log(`FLEET-JSON ${JSON.stringify(figures)}`);
} finally {
  sandbox.stop();
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
