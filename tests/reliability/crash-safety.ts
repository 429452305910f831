// Crash safety of local data: the desk's three stores killed with SIGKILL mid-write, at
// moments drawn from a seeded generator, then read back the way the app reads them.
// - The mirror: a child process syncs from a sandbox into one SQLite database and is
//   killed mid-run; after each kill the database must pass `PRAGMA integrity_check`, the next
//   run must resume the interrupted source rather than start it over, and a last run left to
//   finish must end identical to the service and to an uninterrupted sync.
// - The settings file: a child writes preferences and profiles (opened as the app opens
//   them) in a tight loop and is killed; the file must load without falling back to
//   defaults and hold the last write the child acknowledged, or the one it was making.
// - The action log: a child appends entries (titles up to a megabyte) in a tight loop and is
//   killed; the next child appends to the same file, so an entry written after a torn line is
//   exercised. Every acknowledged entry must be there; a kill may cost only the entry being written.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import Conf from 'conf';
import { ActionLog, ActionLogFile } from '../../electron/main/action-log/action-log.ts';
import { memoryLogKey } from '../../electron/main/action-log/log-key.ts';
import { fileDeskRecords } from './children/file-desk-records.ts';
import { CRASH_LOG_KEY } from './children/crash-log-key.ts';
import type { SyncRequest } from '../../electron/node/sync/engine.ts';
import { startSandbox } from '../../electron/main/sandbox/server.ts';
import { readSettingsFile, Settings, type DeskSettings, type SettingsStore } from '../../electron/main/settings/index.ts';
import { connectionOf, countriesOf, mirrorDifferences, mirrorFingerprint, mirrorTitleKeys, serviceFingerprint } from '../unit/mirror-owner/helpers.ts';
import { figure, zero, type Figure, type Scale, type Section } from './report.ts';
import { seeded } from './rig.ts';

const CHILDREN = join(import.meta.dirname, 'children');
const SYNC_CHILD = join(CHILDREN, 'sync-child.ts');
const SETTINGS_CHILD = join(CHILDREN, 'settings-writer.ts');
const LOG_CHILD = join(CHILDREN, 'action-log-writer.ts');

/** Big enough that a full sync takes a couple of seconds: room for a kill anywhere in it. */
const CATALOG_SIZE = 20_000;

interface Child {
  proc: ChildProcess;
  /** Complete stdout lines so far. */
  lines: string[];
  /** Resolves once the child has exited and its output is read to the end. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** Resolves when the child has printed `count` lines, or has ended. */
  linesReached(count: number): Promise<void>;
  ended: boolean;
}

function startChild(file: string, args: string[]): Child {
  const proc = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let partial = '';
  let stderr = '';
  const wake = (): void => {
    for (const waiter of [...waiters]) {
      if (child.ended || lines.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() as string;
    lines.push(...parts);
    wake();
  });
  proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-4000); });
  const child: Child = {
    proc, lines, ended: false,
    done: new Promise((resolve) => proc.on('close', (code, signal) => {
      child.ended = true;
      wake();
      resolve({ code, signal, stderr });
    })),
    linesReached: (count) => new Promise((resolve) => {
      waiters.push({ count, resolve });
      wake();
    }),
  };
  return child;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills the child unless it has already ended; true when the signal reached a live process. */
async function kill(child: Child): Promise<boolean> {
  const delivered = !child.ended && child.proc.kill('SIGKILL');
  const { signal } = await child.done;
  return delivered && signal === 'SIGKILL';
}

function spread(values: number[], unit = ''): string {
  if (values.length === 0) return 'none';
  return `${Math.min(...values).toLocaleString('en-US')}–${Math.max(...values).toLocaleString('en-US')}${unit}`;
}

// ---------------------------------------------------------------- the mirror

interface StateRow { source: string; in_progress: number; run_started_at: number | null; last_success_at: number | null; items: number }

async function duringSync(runs: number, random: () => number, root: string): Promise<{ figures: Figure[]; notes: string[] }> {
  const sandbox = await startSandbox({ catalogSize: CATALOG_SIZE });
  try {
    const request: SyncRequest = {
      countries: countriesOf(sandbox), libraries: sandbox.libraries.map((l) => l.libraryId),
      source: 'global+entitlements', pageSize: 100,
      // Every run is a full one, so a run that follows a finished one is long enough to kill too.
      full: true,
    };
    const argsFor = (database: string): string[] => [database, JSON.stringify(connectionOf(sandbox)), JSON.stringify(request)];

    // The uninterrupted sync the killed one must end up equal to; its page count sets where kills may land.
    const referencePath = join(root, 'uninterrupted.db');
    const reference = startChild(SYNC_CHILD, argsFor(referencePath));
    const referenceEnd = await reference.done;
    if (referenceEnd.code !== 0) throw new Error(`The uninterrupted sync failed: ${referenceEnd.stderr}`);
    const pagesInFullRun = reference.lines.filter((l) => l.startsWith('page ')).length;

    const target = join(root, 'killed.db');
    let landedMidRun = 0;
    let integrityFailures = 0;
    let restarted = 0;
    const points: string[] = [];
    const phases = new Map<string, number>();
    // Sources a kill left in progress: the run they belong to and how far it had got.
    let interrupted = new Map<string, { runStartedAt: number | null; items: number }>();
    const checkResumed = (rows: StateRow[]): void => {
      for (const [source, before] of interrupted) {
        const now = rows.find((r) => r.source === source);
        // Resumed means the same run went on: still in progress from where it was, or finished as that run.
        const resumed = now !== undefined && (now.in_progress === 1
          ? now.run_started_at === before.runStartedAt && now.items >= before.items
          : now.last_success_at === before.runStartedAt);
        if (!resumed) restarted += 1;
      }
    };

    for (let i = 0; i < runs; i++) {
      // Somewhere in the first half of a full run's pages, then up to 25 ms more: in a fetch,
      // in a page's transaction, or in its commit. A resumed run has fewer pages left, so the
      // first half keeps every kill inside a run.
      const afterPages = 1 + Math.floor(random() * Math.max(1, Math.floor(pagesInFullRun / 2)));
      const extraMs = Math.floor(random() * 25);
      const child = startChild(SYNC_CHILD, argsFor(target));
      await child.linesReached(afterPages);
      await sleep(extraMs);
      const pages = child.lines.filter((l) => l.startsWith('page '));
      const finished = child.lines.includes('done');
      if (await kill(child) && pages.length > 0 && !finished) {
        landedMidRun += 1;
        const [, phase = '?', done = '?'] = (pages.at(-1) as string).split(' ');
        const name = phase.startsWith('entitlements') ? 'entitlements' : phase;
        phases.set(name, (phases.get(name) ?? 0) + 1);
        points.push(`${phase} at ${Number(done).toLocaleString('en-US')}`);
      }

      const db = new DatabaseSync(target);
      try {
        const check = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
        if (check.length !== 1 || check[0]?.integrity_check !== 'ok') integrityFailures += 1;
        const rows = db.prepare('SELECT source, in_progress, run_started_at, last_success_at, items FROM sync_state').all() as unknown as StateRow[];
        checkResumed(rows);
        interrupted = new Map(rows.filter((r) => r.in_progress === 1).map((r) => [r.source, { runStartedAt: r.run_started_at, items: r.items }]));
      } catch {
        integrityFailures += 1;
      } finally {
        db.close();
      }
    }

    const last = startChild(SYNC_CHILD, argsFor(target));
    const lastEnd = await last.done;
    const expected = await serviceFingerprint(sandbox);
    let equal = false;
    let resumedAtEnd = 0;
    /** Why the last mirror is not the service's and the uninterrupted one's, when it is not. */
    const differences: string[] = [];
    if (lastEnd.code !== 0) differences.push(`the last run failed (exit ${String(lastEnd.code)}): ${lastEnd.stderr.slice(-300)}`);
    else {
      const killed = new DatabaseSync(target);
      const uninterrupted = new DatabaseSync(referencePath);
      try {
        resumedAtEnd = interrupted.size;
        const rows = killed.prepare('SELECT source, in_progress, run_started_at, last_success_at, items FROM sync_state').all() as unknown as StateRow[];
        checkResumed(rows);
        const check = killed.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
        const mine = mirrorFingerprint(killed);
        const theirs = mirrorFingerprint(uninterrupted);
        if (check.length !== 1 || check[0]?.integrity_check !== 'ok') differences.push('integrity check failed');
        const unfinished = rows.filter((r) => r.in_progress !== 0).map((r) => r.source);
        if (unfinished.length > 0) differences.push(`still in progress: ${unfinished.join(', ')}`);
        if (!isDeepStrictEqual(mine, theirs)) {
          const parts = (Object.keys(mine) as (keyof typeof mine)[]).filter((k) => mine[k] !== theirs[k]);
          differences.push(`differs from the uninterrupted sync in ${parts.join(', ')}`, ...mirrorDifferences(killed, uninterrupted, ['killed', 'uninterrupted']));
        }
        if (mine.titles !== expected.titles || mirrorTitleKeys(killed) !== expected.titleKeys) {
          differences.push(`titles differ from the service (${mine.titles.toLocaleString('en-US')} here, ${expected.titles.toLocaleString('en-US')} there${mine.titles === expected.titles ? ', ids, titles or formats differ' : ''})`);
        }
        if (mine.entitlements !== expected.entitlements || mine.entitlementSum !== expected.entitlementSum) {
          differences.push(`entitlements differ from the service (${mine.entitlements.toLocaleString('en-US')} here, ${expected.entitlements.toLocaleString('en-US')} there)`);
        }
        equal = differences.length === 0;
      } finally {
        killed.close();
        uninterrupted.close();
      }
    }

    return {
      figures: [
        figure('sync kills that landed mid-run', landedMidRun, `${runs}`, landedMidRun === runs, 'Each kill hit a sync between its first page and its end, not a process starting up or done.'),
        zero('mirror integrity failures after a kill', integrityFailures, 'SQLite found the mirror intact after every kill: a crash mid-sync never corrupts it.'),
        zero('interrupted sources started over', restarted, 'The next run carried on from the last stored page of the interrupted source instead of starting it again.'),
        figure('final mirror equal to the service', equal ? 'yes' : 'no', 'yes', equal, 'After the kills, one run left to finish ends with exactly the titles and entitlements of the service and of an uninterrupted sync.'),
      ],
      notes: [
        `Sync: a child process syncing a ${CATALOG_SIZE.toLocaleString('en-US')}-title sandbox (${pagesInFullRun} pages a full run) killed ${runs} times, after 1 to ${Math.floor(pagesInFullRun / 2)} stored pages plus 0–24 ms; kills landed in ${[...phases].map(([p, n]) => `${p} ×${n}`).join(', ') || 'no run'} (${points.slice(0, 6).join('; ')}${points.length > 6 ? '; …' : ''}); the last run resumed ${resumedAtEnd} interrupted source(s) and finished.`,
        ...differences.map((d) => `final mirror: ${d}`),
      ],
    };
  } finally {
    await sandbox.close();
  }
}

// ---------------------------------------------------------------- the settings file

function openSettings(dir: string): Settings {
  const store = new Conf({ cwd: dir, configName: 'settings', projectName: 'lending-desk', clearInvalidConfig: false, deserialize: readSettingsFile });
  return new Settings(store as unknown as SettingsStore);
}

/** The number of the write the settings hold (see settings-writer.ts); -1 for none. */
function writeNumber(settings: DeskSettings): number {
  const fromWindow = settings.window.x ?? -1;
  const name = settings.profiles.find((p) => p.id === 'crash')?.name ?? '';
  const fromProfile = /^write (\d+)$/.test(name) ? Number(name.slice(6)) : -1;
  return Math.max(fromWindow, fromProfile);
}

/**
 * Starts a writer child and, once it is writing (its first write acknowledged), kills it at a
 * random moment within `windowMs`; returns how many writes it acknowledged and the last one's number.
 */
async function killWhileWriting(file: string, args: string[], next: number, random: () => number, windowMs: number): Promise<{ acks: number; lastAck: number }> {
  const child = startChild(file, args);
  await child.linesReached(1);
  await sleep(Math.floor(random() * windowMs));
  await kill(child);
  const acks = child.lines.filter((l) => l.startsWith('ack '));
  return { acks: acks.length, lastAck: acks.length > 0 ? Number((acks.at(-1) as string).split(' ')[1]) : next - 1 };
}

async function duringSettingsWrite(runs: number, random: () => number, root: string): Promise<{ figures: Figure[]; notes: string[] }> {
  const dir = join(root, 'settings');
  mkdirSync(dir, { recursive: true });
  let failedLoads = 0;
  let older = 0;
  let neverWritten = 0;
  let heldInFlight = 0;
  const completed: number[] = [];
  const sizes: number[] = [];
  let next = 0;
  for (let i = 0; i < runs; i++) {
    const { acks, lastAck } = await killWhileWriting(SETTINGS_CHILD, [dir, String(next)], next, random, 150);
    completed.push(acks);
    const path = join(dir, 'settings.json');
    if (existsSync(path)) sizes.push(statSync(path).size);

    let held = -1;
    let loaded = false;
    try {
      const settings = openSettings(dir);
      const value = settings.read();
      loaded = settings.lastLoadProblem === undefined;
      held = writeNumber(value);
    } catch {
      // A store that throws is a load that failed, as much as one that falls back.
    }
    if (!loaded) failedLoads += 1;
    else {
      if (held < lastAck) older += 1;
      else if (held > lastAck + 1) neverWritten += 1;
      else if (held === lastAck + 1) heldInFlight += 1;
    }
    next = Math.max(held, lastAck) + 1;
  }
  const leftovers = readdirSync(dir).filter((name) => name !== 'settings.json').length;
  return {
    figures: [
      zero('settings loads failed or fell back to defaults', failedLoads, 'After every kill the desk starts with its own settings, never "unreadable file, defaults in use".'),
      zero('settings loads older than the last acknowledged write', older, 'A change the desk had finished saving is never lost to a crash.'),
      zero('settings loads holding a write never made', neverWritten, 'What loads is always a state the desk really wrote.'),
    ],
    notes: [
      `Settings: a child writing preferences and profiles in a tight loop (file ${spread(sizes, ' bytes')} at the kills) killed ${runs} times, 0–149 ms after its first write, after ${spread(completed)} completed writes each; ${heldInFlight} load(s) held the write in flight at the kill, the rest the last acknowledged one; ${leftovers} temporary file(s) of interrupted atomic writes left beside the settings (never read; a start removes those older than a minute).`,
    ],
  };
}

// ---------------------------------------------------------------- the action log

interface LogRun { first: number; lastAck: number; killed: boolean; tornAtKill: boolean }

async function duringActionLogWrite(runs: number, random: () => number, root: string): Promise<{ figures: Figure[]; notes: string[] }> {
  const path = join(root, 'action-log.jsonl');
  const logRuns: LogRun[] = [];
  const sizes: number[] = [];
  let next = 0;
  for (let i = 0; i < runs; i++) {
    const { lastAck } = await killWhileWriting(LOG_CHILD, [path, String(next)], next, random, 60);
    const bytes = readFileSync(path);
    sizes.push(bytes.length);
    logRuns.push({ first: next, lastAck, killed: true, tornAtKill: bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a });
    // The entry being written at the kill keeps its number, written or not.
    next = lastAck + 2;
  }
  // A last child appends after the last kill and exits normally.
  const last = startChild(LOG_CHILD, [path, String(next), '5']);
  const lastEnd = await last.done;
  logRuns.push({ first: next, lastAck: lastEnd.code === 0 ? next + 4 : next - 1, killed: false, tornAtKill: false });

  const text = readFileSync(path, 'utf8');
  const torn = text.split('\n').filter((line) => {
    if (line.trim() === '') return false;
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  }).length;
  const entries = new ActionLogFile(path, CRASH_LOG_KEY).read().entries;
  // The next start of the desk checks the chain against the keychain's head: kills are not edits.
  const seenChanged: string[][] = [];
  await new ActionLog({ path, key: memoryLogKey(CRASH_LOG_KEY), head: fileDeskRecords(path), onChanged: (where) => seenChanged.push(where) }).changed();
  // The crash runs act on numbered titles of the default sandbox.
  const seen = new Map<number, number>();
  for (const entry of entries) seen.set(entry.contentId as number, (seen.get(entry.contentId as number) ?? 0) + 1);
  let acknowledgedLost = 0;
  let beyondInFlight = 0;
  let written = 0;
  for (const run of logRuns) {
    let lost = 0;
    for (let n = run.first; n <= run.lastAck; n++) if (!seen.has(n)) lost += 1;
    acknowledgedLost += lost;
    if (lost > 0) beyondInFlight += 1;
    written += run.lastAck - run.first + 1;
  }
  const inRuns = (n: number): boolean => logRuns.some((run) => n >= run.first && n <= run.lastAck + (run.killed ? 1 : 0));
  const garbled = [...seen].filter(([n, count]) => count > 1 || !inRuns(n)).length;
  const tornKills = logRuns.filter((r) => r.tornAtKill).length;
  return {
    figures: [
      zero('acknowledged action-log entries lost', acknowledgedLost, 'Every borrow, return or hold the log had recorded before a crash is still in it.'),
      figure('torn action-log lines', torn, 'reported', true, 'Lines a kill cut short mid-append: skipped when read, never fatal.'),
      zero('kills that lost more than the entry being written', beyondInFlight, 'A crash costs at most the one entry in flight, even when the next start appends after a torn line.'),
      zero('action-log entries duplicated or never written', garbled, 'What the log shows is exactly what was recorded, once each.'),
      zero('kills the log took for an edit', seenChanged.length, 'The chain and the keychain\'s head agree after every kill: a crash never reads as a removed or cut entry.'),
    ],
    notes: [
      `Action log: a child appending entries (titles up to 1.2 MB) in a tight loop killed ${runs} times, 0–59 ms after its first append, the next child appending to the same file each time; ${tornKills} kill(s) left a torn last line; log ${spread(sizes.map((s) => Math.round(s / 1024)), ' KiB')} at the kills; ${written.toLocaleString('en-US')} entries acknowledged, ${entries.length.toLocaleString('en-US')} read back.`,
    ],
  };
}

export async function runCrashSafety(scale: Scale): Promise<Section> {
  const random = seeded(47);
  const root = mkdtempSync(join(tmpdir(), 'crash-safety-'));
  try {
    const sync = await duringSync(scale.crashRuns, random, root);
    const settings = await duringSettingsWrite(scale.crashRuns, random, root);
    const log = await duringActionLogWrite(scale.crashRuns, random, root);
    return {
      title: 'Crash safety of local data',
      figures: [...sync.figures, ...settings.figures, ...log.figures],
      notes: [
        `Each store written by a child process killed with SIGKILL ${scale.crashRuns} times at moments from a seeded generator, then read back as the app reads it.`,
        ...sync.notes, ...settings.notes, ...log.notes,
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
