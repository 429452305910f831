// Some of the fleet bench's desks (bench/fleet.ts) in one process: DeskService instances wired
// as main wires a desk in a library (tests/support/node-desk.ts, IT's policy naming the library
// mirror, its password in the keychain, the partner credential in the vault, the connection's
// own 100-a-minute budget) with main's background tasks on the bench's compressed intervals.
// Only the desk marked `fills` runs the library fill: fifty first fills of a 1M-title library
// would measure this 2-core machine's CPU, not the library (the bench measures one desk's fill
// amid readers apart). At "go" each desk works the modelled peak, a patron lookup then one action
// (a borrow, or the return of what it borrowed) every `everyMs`, at its own random phase, until
// "stop"; at "fill" (the service's sync over) the filling desk fills once more, as staff's "Sync
// now" does, and its Collection is counted; then the process prints what staff saw and exits.
// argv: one JSON FleetDesksJob. Prints {"ready":true}, then the FleetDesksResult as one line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createMemoryVault } from '../electron/main/credentials/index.ts';
import { DESK_RECORDS } from '../electron/main/credentials/desk-keychain.ts';
import type { DeskService } from '../electron/main/desk/desk-service.ts';
import type { RepeatingTask } from '../electron/main/desk/repeating-task.ts';
import { dispatch } from '../electron/main/ipc/dispatch.ts';
import { policySchema } from '../electron/main/policy/index.ts';
import type { SyncStatusView } from '../electron/shared/contract.ts';
import { TEST_DESK_PIN } from '../tests/support/desk-pin.ts';
import { createNodeDesk, keychainOf } from '../tests/support/node-desk.ts';

export interface FleetDesksJob {
  partner: { url: string; username: string; password: string };
  libraryId: number;
  libraryMirror: { host: string; port: number; database: string; user: string; password: string; caPem: string };
  /** One entry per desk: its patron's card and the Instant title it borrows and returns. */
  desks: { card: string; contentId: number; fills: boolean }[];
  /** A patron lookup and one action per desk this often (the bench's 2 minutes, compressed). */
  everyMs: number;
  /** Main's intervals, compressed: the library fill (1 min), the availability refresh (10 min), the full entitlement pass (1 h). */
  fillEveryMs: number;
  refreshEveryMs: number;
  fullPassEveryMs: number;
}

export interface FleetDesksResult {
  /** Each lookup staff waited for, ms (the whole patron view: status, loans and holds). */
  lookupMs: number[];
  actionMs: number[];
  /** What staff were shown instead of an answer, by error code. */
  errors: Record<string, number>;
  /** The filling desk's Collection at the end (titles), when one of these desks fills. */
  filledTitles: number | null;
  /** Why its last fill failed, if it did (the Sync view's words). */
  fillProblem?: string;
}

const job = JSON.parse(process.argv[2] as string) as FleetDesksJob;
const root = mkdtempSync(join(tmpdir(), 'fleet-desks-'));
const caFile = join(root, 'library-ca.pem');
writeFileSync(caFile, job.libraryMirror.caPem);
const { host, port, database, user } = job.libraryMirror;
const policy = policySchema.parse({
  version: 1,
  profiles: [{ id: 'library', name: 'The library', baseUrl: job.partner.url, libraries: [{ libraryId: job.libraryId }], country: 'US' }],
  libraryMirror: { host, port, database, user, caFile },
});

interface Desk { service: DeskService; tasks: RepeatingTask[]; close: () => void }
const desks: Desk[] = [];
for (const [i, plan] of job.desks.entries()) {
  const dir = join(root, `desk-${i}`);
  const vault = createMemoryVault();
  await vault.save('library', { username: job.partner.username, password: job.partner.password }, new URL(job.partner.url).origin);
  keychainOf(vault).entries.set(DESK_RECORDS.libraryMirrorPassword, job.libraryMirror.password);
  const { desk, logger } = createNodeDesk({ dir, vault, policy, ratePerMinute: 100 });
  const started = await dispatch(desk, 'startShift', { staffName: `Desk ${i}`, pin: TEST_DESK_PIN });
  if (!started.ok) throw new Error(`desk ${i} could not start a shift: ${started.error.code}`);
  const tasks = [desk.startAvailabilityRefresh(job.refreshEveryMs), desk.startFullEntitlementPass(job.fullPassEveryMs)];
  if (plan.fills) tasks.push(desk.startLibraryFill(job.fillEveryMs));
  desks.push({ service: desk, tasks, close: () => logger.close() });
}

const result: FleetDesksResult = { lookupMs: [], actionMs: [], errors: {}, filledTitles: null };
const failed = (code: string): void => { result.errors[code] = (result.errors[code] ?? 0) + 1; };
let stopping = false;
let wake: () => void = () => {};
const stopped = new Promise<void>((resolve) => { wake = resolve; });
const pause = (ms: number): Promise<void> => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  void stopped.then(() => { clearTimeout(timer); resolve(); });
});

/** One desk's peak: a lookup, then a borrow (or the return of the title it holds), every `everyMs`. */
async function peak(desk: Desk, plan: FleetDesksJob['desks'][number]): Promise<void> {
  await pause(Math.random() * job.everyMs);
  let onLoan = false;
  while (!stopping) {
    const next = performance.now() + job.everyMs;
    let t = performance.now();
    const view = await dispatch(desk.service, 'lookupPatron', { libraryId: job.libraryId, card: plan.card });
    if (view.ok) result.lookupMs.push(performance.now() - t);
    else failed(view.error.code);
    if (stopping) break;
    t = performance.now();
    const action = await dispatch(desk.service, onLoan ? 'returnTitle' : 'borrow', { libraryId: job.libraryId, card: plan.card, contentId: plan.contentId });
    if (action.ok) {
      result.actionMs.push(performance.now() - t);
      onLoan = !onLoan;
    } else failed(action.error.code);
    await pause(Math.max(0, next - performance.now()));
  }
}

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
await lines.next(); // "go"
const working = desks.map((desk, i) => peak(desk, job.desks[i] as FleetDesksJob['desks'][number]));
await lines.next(); // "stop"
stopping = true;
wake();
await Promise.all(working);
// Main's tasks stopped first: a fill under way finishes (a first fill shows its Collection only once done).
await Promise.all(desks.flatMap((desk) => desk.tasks.map((task) => task.stop())));
await lines.next(); // "fill": the service's sync is over
const filling = job.desks.findIndex((d) => d.fills);
if (filling >= 0) {
  const desk = desks[filling] as Desk;
  // Staff's "Sync now" on a library desk: one more fill from the library mirror, by change sequence.
  const synced = await dispatch(desk.service, 'syncNow', { full: false });
  if (!synced.ok) failed(`final-fill:${synced.error.code}`);
  else {
    const source = (synced.value as SyncStatusView).sources.find((s) => s.source === 'library-mirror');
    if (source?.lastError) result.fillProblem = source.lastError;
  }
  const page = await dispatch(desk.service, 'collectionBrowse', { libraryId: job.libraryId, sort: 'title', offset: 0, limit: 1, exactCount: true });
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
