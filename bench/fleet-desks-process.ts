// Some of the fleet bench's desks (bench/fleet.ts) in one process: DeskService instances wired
// as main wires a desk in a library (tests/support/node-desk.ts) with main's background tasks on
// the bench's compressed intervals. A desk of the library (issue #31) has IT's policy naming the
// library server (both instances, the CA that issued their certificates) and the library mirror,
// its workstation id and secret in the keychain as IT's tooling puts them there (enrol-desk
// --print-secret) and no partner password; a `direct` desk is a standalone desk on the same
// credential, its password in the keychain, calling the partner itself. Only the desk marked
// `fills` runs the library fill: fifty first fills of a 1M-title library would measure this
// 2-core machine's CPU, not the library (the bench measures one desk's fill amid readers apart).
//
// At "sign in" staff sign in at the server; at "go" each desk works the modelled peak, as staff at a desk would, until "stop": every
// `everyMs` (at its own phase) a patron lookup, then one action chosen from what the lookup showed
// — the return of the desk's title when it is on the patron's loans, its borrow when it is not.
// Each call is timed as staff wait for it, with what staff were shown instead of an answer and
// when the server's first estimate of the wait (the serviceWait event) reached the desk. At
// "fill" (the service's sync over) the filling desk fills once more, as staff's "Sync now" does,
// and its Collection is counted; then the process prints what staff saw and exits.
// argv: one JSON FleetDesksJob. Prints {"ready":true}, {"signedIn":true}, then the FleetDesksResult as one line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createMemoryVault } from '../electron/main/credentials/index.ts';
import { DESK_RECORDS } from '../electron/main/credentials/desk-keychain.ts';
import type { DeskService } from '../electron/main/desk/desk-service.ts';
import { dispatch } from '../electron/main/ipc/dispatch.ts';
import { policySchema } from '../electron/main/policy/index.ts';
import type { EventName, EventPayloads, PatronView, SyncStatusView } from '../electron/shared/contract.ts';
import { TEST_DESK_PIN } from '../tests/support/desk-pin.ts';
import { createNodeDesk, keychainOf } from '../tests/support/node-desk.ts';

export interface FleetDesk {
  /** Its patron's card, and the Instant title it borrows and returns. */
  card: string;
  contentId: number | string;
  /** Fills its Collection from the library mirror (one desk a run). */
  fills: boolean;
  /** IT's tooling's record for the keychain; absent: a standalone desk straight to the partner, with the credential's password. */
  workstation?: { workstationId: string; secret: string };
  /** Its member of staff's account at the library server (with `workstation`): who signs in there. */
  staff?: { name: string; pin: string };
  /** Where in `everyMs` its first lookup comes (0 to 1); at random when absent. */
  phase?: number;
}

export interface FleetDesksJob {
  partner: { url: string; username: string; password: string };
  libraryId: number;
  libraryMirror: { host: string; port: number; database: string; user: string; password: string; caPem: string };
  /** The library server's instances, the first tried first, and the CA that issued their certificates. */
  server: { urls: string[]; caPem: string };
  desks: FleetDesk[];
  /** A patron lookup and one action per desk this often (the bench's modelled minutes, compressed). */
  everyMs: number;
  /** Main's intervals, compressed: the library fill (1 min), the availability refresh (10 min), the full entitlement pass (1 h). */
  fillEveryMs: number;
  refreshEveryMs: number;
  fullPassEveryMs: number;
}

/** One call staff waited for. Times are epoch milliseconds (performance.timeOrigin based), comparable across the bench's processes. */
export interface StaffCall {
  card: string;
  direct: boolean;
  kind: 'lookup' | 'borrow' | 'return';
  at: number;
  ms: number;
  /** What staff were shown instead of an answer (code, and the reason where there is one); absent: answered. */
  error?: string;
  /** The first wait the server told the desk during this call (serviceWait): when, after `at`, and its seconds. */
  toldAfterMs?: number;
  toldSeconds?: number;
}

/** One desk's actions as staff were told of them. */
export interface DeskActions {
  card: string;
  direct: boolean;
  borrowsDone: number;
  returnsDone: number;
  /** Reported to staff as not done (an error saying so). */
  notDone: number;
  /** Staff were told the outcome is not known. */
  unknown: number;
}

export interface FleetDesksResult {
  calls: StaffCall[];
  actions: DeskActions[];
  /** The filling desk's Collection at the end (titles), when one of these desks fills. */
  filledTitles: number | null;
  /** Why its last fill failed, if it did (the Sync view's words). */
  fillProblem?: string;
  /** How late this process's event loop ran while the desks worked (ms), and its CPU seconds. */
  loop: { p99: number; max: number; cpuSeconds: number };
}

const clock = (): number => performance.timeOrigin + performance.now();
const job = JSON.parse(process.argv[2] as string) as FleetDesksJob;
const root = mkdtempSync(join(tmpdir(), 'fleet-desks-'));
const mirrorCaFile = join(root, 'library-ca.pem');
writeFileSync(mirrorCaFile, job.libraryMirror.caPem);
const serverCaFile = join(root, 'library-server-ca.pem');
writeFileSync(serverCaFile, job.server.caPem);
const { host, port, database, user } = job.libraryMirror;
const [serverUrl, fallbackUrl] = job.server.urls;
const policyOf = (direct: boolean) => policySchema.parse({
  version: 1,
  profiles: [{ id: 'library', name: 'The library', baseUrl: job.partner.url, libraries: [{ libraryId: job.libraryId }], country: 'US' }],
  libraryMirror: { host, port, database, user, caFile: mirrorCaFile },
  ...(direct ? {} : { libraryServer: { url: serverUrl, ...(fallbackUrl ? { fallbackUrl } : {}), caFile: serverCaFile } }),
});

interface Desk { plan: FleetDesk; service: DeskService; waits: { at: number; seconds: number }[]; actions: DeskActions; close: () => void }
const desks: Desk[] = [];
for (const [i, plan] of job.desks.entries()) {
  const dir = join(root, `desk-${i}`);
  const vault = createMemoryVault();
  const direct = plan.workstation === undefined;
  if (direct) await vault.save('library', { username: job.partner.username, password: job.partner.password }, new URL(job.partner.url).origin);
  else keychainOf(vault).entries.set(DESK_RECORDS.workstation, JSON.stringify(plan.workstation));
  keychainOf(vault).entries.set(DESK_RECORDS.libraryMirrorPassword, job.libraryMirror.password);
  const waits: Desk['waits'] = [];
  const emit = <E extends EventName>(event: E, payload: EventPayloads[E]): void => {
    if (event === 'serviceWait') waits.push({ at: clock(), seconds: (payload as EventPayloads['serviceWait']).seconds });
  };
  const { desk, logger } = createNodeDesk({ dir, vault, policy: policyOf(direct), ratePerMinute: 100, emit });
  // A standalone desk's shift opens now, with its desk PIN; a library desk's staff sign in at the server once it runs ("go").
  if (!plan.staff) {
    const started = await dispatch(desk, 'startShift', { staffName: `Desk ${i}`, pin: TEST_DESK_PIN });
    if (!started.ok) throw new Error(`desk ${i} could not start a shift: ${started.error.code}`);
  }
  desk.background.start({
    only: plan.fills ? ['availability-refresh', 'full-pass', 'library-fill'] : ['availability-refresh', 'full-pass'],
    everyMs: { 'availability-refresh': job.refreshEveryMs, 'full-pass': job.fullPassEveryMs, 'library-fill': job.fillEveryMs },
  });
  const actions: DeskActions = { card: plan.card, direct, borrowsDone: 0, returnsDone: 0, notDone: 0, unknown: 0 };
  desks.push({ plan, service: desk, waits, actions, close: () => logger.close() });
}

const result: FleetDesksResult = { calls: [], actions: desks.map((d) => d.actions), filledTitles: null, loop: { p99: 0, max: 0, cpuSeconds: 0 } };
const loop = monitorEventLoopDelay({ resolution: 10 });
let stopping = false;
let wake: () => void = () => {};
const stopped = new Promise<void>((resolve) => { wake = resolve; });
const pause = (ms: number): Promise<void> => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  void stopped.then(() => { clearTimeout(timer); resolve(); });
});

/** Times one call as staff wait for it, and notes the first wait estimate that reached the desk meanwhile. */
async function timed<T>(desk: Desk, kind: StaffCall['kind'], call: () => Promise<{ ok: true; value: T } | { ok: false; error: { code: string; reason?: string } }>): Promise<{ ok: true; value: T } | { ok: false; error: { code: string; reason?: string } }> {
  const at = clock();
  const answer = await call();
  const ms = clock() - at;
  const told = desk.waits.find((w) => w.at >= at);
  const record: StaffCall = { card: desk.plan.card, direct: desk.actions.direct, kind, at, ms };
  if (!answer.ok) record.error = answer.error.reason ? `${answer.error.code}:${answer.error.reason}` : answer.error.code;
  if (told && told.at <= at + ms) {
    record.toldAfterMs = told.at - at;
    record.toldSeconds = told.seconds;
  }
  result.calls.push(record);
  return answer;
}

/** One desk's peak: a lookup, then the action its answer calls for, every `everyMs`. */
async function peak(desk: Desk): Promise<void> {
  const { plan, actions } = desk;
  await pause((plan.phase ?? Math.random()) * job.everyMs);
  let onLoan = false;
  while (!stopping) {
    const next = clock() + job.everyMs;
    const view = await timed(desk, 'lookup', async () => {
      const answer = await dispatch(desk.service, 'lookupPatron', { libraryId: job.libraryId, card: plan.card });
      // Part of the view missing (status, loans or holds) is an error staff see on the screen.
      const problem = answer.ok ? (answer.value as PatronView).problems[0] : undefined;
      return problem ? { ok: false as const, error: problem.error } : answer;
    });
    if (view.ok) onLoan = (view.value as PatronView).loans.some((loan) => String(loan.contentId) === String(plan.contentId));
    if (stopping) break;
    const kind = onLoan ? 'return' : 'borrow';
    const action = await timed(desk, kind, () => dispatch(desk.service, onLoan ? 'returnTitle' : 'borrow', { libraryId: job.libraryId, card: plan.card, contentId: plan.contentId }));
    if (action.ok) {
      if (kind === 'borrow') actions.borrowsDone += 1;
      else actions.returnsDone += 1;
      onLoan = !onLoan;
    } else if (action.error.reason === 'action.outcome-unknown') actions.unknown += 1;
    else actions.notDone += 1;
    await pause(Math.max(0, next - clock()));
  }
}

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
await lines.next(); // "sign in": the server runs
// Staff sign in at the library server as themselves (issue #32), each at their own desk, before the
// peak: fifty PIN hashes at once are a shift change (bench:sign-in measures it), not the peak's lookups.
await Promise.all(desks.filter((d) => d.plan.staff).map(async (d) => {
  const staff = d.plan.staff as NonNullable<FleetDesk['staff']>;
  const started = await dispatch(d.service, 'startShift', { staffName: staff.name, pin: staff.pin });
  if (!started.ok) throw new Error(`${staff.name} could not sign in at the library server: ${started.error.code} ${started.error.message}`);
}));
process.stdout.write(`${JSON.stringify({ signedIn: true })}\n`);
await lines.next(); // "go"
loop.enable();
const cpuAtGo = process.cpuUsage();
const working = desks.map((desk) => peak(desk));
await lines.next(); // "stop"
stopping = true;
wake();
await Promise.all(working);
loop.disable();
const cpu = process.cpuUsage(cpuAtGo);
result.loop = { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
// Main's tasks stopped first: a fill under way finishes (a first fill shows its Collection only once done).
await Promise.all(desks.map((desk) => desk.service.background.stop()));
await lines.next(); // "fill": the service's sync is over
const filling = desks.find((d) => d.plan.fills);
if (filling) {
  // Staff's "Sync now" on a library desk: one more fill from the library mirror, by change sequence.
  const synced = await dispatch(filling.service, 'syncNow', { full: false });
  if (!synced.ok) result.fillProblem = `final fill: ${synced.error.code}`;
  else {
    const source = (synced.value as SyncStatusView).sources.find((s) => s.source === 'library-mirror');
    if (source?.lastError) result.fillProblem = source.lastError;
  }
  const page = await dispatch(filling.service, 'collectionBrowse', { libraryId: job.libraryId, sort: 'title', offset: 0, limit: 1, exactCount: true });
  result.filledTitles = page.ok ? (page.value as { total: number }).total : null;
}
for (const desk of desks) {
  await desk.service.close();
  desk.close();
}
input.close();
rmSync(root, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
