// What the desk keeps about patrons, and for how long, through DeskService as main runs it on a
// clock the test moves: the retention purge across a restart, titles only while the policy
// allows, no log at all with retention 0, the filters, and "today's actions for this patron".
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionLog, ActionLogFile, type ActionRecord } from '../../../../electron/main/action-log/action-log.ts';
import { machineTimeZone } from '../../../../electron/main/action-log/day-boundary.ts';
import { memoryLogKey } from '../../../../electron/main/action-log/log-key.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import type { Policy } from '../../../../electron/main/policy/index.ts';
import type { ActionPage, AppInfo } from '../../../../electron/shared/contract.ts';
import type { ActionEntry } from '../../../../electron/shared/action-log.ts';
import { createClock, type Clock } from '../../../support/clock.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { keychainOf } from '../../../support/node-desk.ts';
import { logDesk, type LogDesk } from './log-desk.ts';

const DAY = 86_400_000;
/** This desk PC: its folder, keychain and log key across its starts. */
let pc: LogDesk;
let dir: string;
let key: Buffer;
let clock: Clock;
let desk: DeskService | undefined;

beforeEach(() => {
  pc = logDesk('retention-', createClock(new Date(2026, 10, 22, 15, 30).getTime())); // mid-afternoon, local time
  ({ dir, key, clock } = pc);
  desk = undefined;
});
afterEach(async () => { await pc.close(); });

/** A start of the desk on the same folder and the same keychain. */
async function start(policy?: Policy): Promise<DeskService> {
  desk = await pc.start(policy);
  return desk;
}

const ok = <T = any>(name: Parameters<LogDesk['ok']>[0], args?: unknown): Promise<T> => pc.ok<T>(name, args); // eslint-disable-line @typescript-eslint/no-explicit-any

/** Entries written as an earlier run of the desk would have (their times in the past), on a desk whose log's days were settled before them. */
async function written(...records: ActionRecord[]): Promise<void> {
  const log = new ActionLog({ path: join(dir, 'action-log.jsonl'), key: memoryLogKey(key), head: keychainOf(pc.vault) });
  await log.dayBoundary(undefined, machineTimeZone());
  for (const record of records) await log.record(record);
}
const record = (daysAgo: number, fields: Partial<ActionRecord> = {}): ActionRecord => ({
  time: clock.now() - daysAgo * DAY, staff: 'JD', profile: 'Built-in sandbox', libraryId: 101, card: '21101000000042', action: 'borrow',
  contentId: Math.round(daysAgo * 100), title: `Title from ${daysAgo} days ago`, outcome: 'ok', ...fields,
});
const onDisk = (): ActionEntry[] => new ActionLogFile(join(dir, 'action-log.jsonl'), key).read().entries;
/** An action done for a patron, not a reading of the log (which is an entry of its own: #21). */
const forPatron = (entry: ActionEntry): boolean => entry.action !== 'log-read' && entry.action !== 'log-export';

async function onShift(): Promise<{ libraryId: number; cards: string[] }> {
  await ok('useSandbox');
  await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
  return (await ok<AppInfo>('appInfo')).sandbox!.libraries[0]!;
}

/** Timers the test runs by hand: the retention's next run is scheduled, not waited for. */
function manualTimers() {
  let pending: { run: () => void; ms: number } | undefined;
  let announce: () => void = () => {};
  let scheduled = new Promise<void>((resolve) => { announce = resolve; });
  return {
    timers: {
      setTimeout: (run: () => void, ms: number) => { pending = { run, ms }; announce(); return 0 as unknown as ReturnType<typeof setTimeout>; },
      clearTimeout: () => { pending = undefined; },
    },
    /** The run scheduled after the purge that just finished. */
    async next(): Promise<{ run: () => void; ms: number }> {
      await scheduled;
      scheduled = new Promise<void>((resolve) => { announce = resolve; });
      return pending!;
    },
  };
}

describe('retention', () => {
  it('by default an entry is kept until the end of the day it was made: earlier days go at start, today\'s at local midnight', async () => {
    // 15:30 now: 0.8 days ago is yesterday evening; 0.6 days ago is just after 1 am today.
    await written(record(45), record(1.5), record(0.8), record(0.6), record(0.01));
    const started = await start();
    const manual = manualTimers();
    started.background.start({ only: ['retention'], timers: manual.timers });
    const midnight = await manual.next();
    expect(onDisk().map((e) => e.title)).toEqual(['Title from 0.6 days ago', 'Title from 0.01 days ago']);
    expect(midnight.ms).toBe(new Date(2026, 10, 23).getTime() - clock.now()); // the next run at local midnight
    // Shown only while kept: nothing of yesterday's, even before a purge would have run.
    await onShift();
    expect((await ok<ActionPage>('listActions', {})).entries.filter(forPatron).map((e) => e.title)).toEqual(['Title from 0.01 days ago', 'Title from 0.6 days ago']);
    clock.advance(midnight.ms);
    // After midnight the list holds only this reading of it: yesterday's actions and yesterday's reading are past keeping.
    expect((await ok<ActionPage>('listActions', {})).entries.map((e) => [e.action, e.time])).toEqual([['log-read', clock.now()]]);
    midnight.run();
    const after = await manual.next();
    expect(onDisk().map((e) => e.action)).toEqual(['log-read']);
    expect(after.ms).toBe(DAY); // and every local midnight after
    await started.background.stop();
    const purges = readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8').split('\n').filter((line) => line.includes('action-log.purged')).map((line) => JSON.parse(line));
    expect(purges).toEqual([
      expect.objectContaining({ retentionDays: 1, keepTitles: true, removed: 3, unreadable: 0 }),
      expect.objectContaining({ removed: 3 }), // today's two actions and the reading made before midnight
    ]);
  });

  it('stopping waits for the purge the start began (the app quits only once nothing is half written)', async () => {
    await written(record(45), record(1.5), record(0.01));
    const started = await start();
    started.background.start({ only: ['retention'], timers: manualTimers().timers });
    await started.background.stop();
    expect(onDisk().map((e) => e.title)).toEqual(['Title from 0.01 days ago']);
  });

  it('follows the policy: 7 days kept, and titles dropped from old and new entries when IT turns them off', async () => {
    await written(record(8), record(6), record(2));
    const started = await start({ version: 1, actionLogRetentionDays: 7, actionLogTitles: false });
    await started.background.runNow('retention');
    expect(onDisk().map((e) => [e.contentId, e.title])).toEqual([[600, undefined], [200, undefined]]);
    const { libraryId, cards } = await onShift();
    await dispatch(started, 'placeHold', { libraryId, card: cards[0], contentId: 3, title: 'A title the policy keeps out' });
    // The newest entry is the reading itself (the log records who read it); the hold is next.
    const [reading, latest] = (await ok<ActionPage>('listActions', {})).entries as [ActionEntry, ActionEntry];
    expect(reading).toMatchObject({ action: 'log-read', staff: 'JD', filter: {} });
    expect(latest).toMatchObject({ action: 'place-hold', contentId: 3 });
    expect(latest.title).toBeUndefined();
  });

  it('retention 0 keeps no log at all: the file goes at start, nothing is recorded, actions still work', async () => {
    await written(record(1), record(0.5));
    writeFileSync(join(dir, 'action-log.jsonl.unreadable-5'), 'noise');
    const started = await start({ version: 1, actionLogRetentionDays: 0 });
    await started.background.runNow('retention');
    expect(readdirSync(dir).filter((name) => name.startsWith('action-log'))).toEqual([]);
    const { libraryId, cards } = await onShift();
    const availability = await ok<{ contentId: number; purchaseModel?: string; status?: string }[]>('liveAvailability', { libraryId, contentIds: Array.from({ length: 40 }, (_, i) => i + 1) });
    const instant = availability.find((a) => a.purchaseModel === 'INSTANT' && a.status === 'BORROW')!;
    await ok('borrow', { libraryId, card: cards[0], contentId: instant.contentId, title: 'Kept nowhere' });
    expect(readdirSync(dir).filter((name) => name.startsWith('action-log'))).toEqual([]);
    expect(await ok('listActions', {})).toEqual({ total: 0, entries: [], skipped: 0 });
    expect(await ok('todaysActions', { libraryId, card: cards[0] })).toEqual([]);
  });
});

describe('reading the log', () => {
  it('filters by card ending, staff, date range and outcome', async () => {
    await written(
      record(3, { card: '21101000001234', staff: 'Ana Lopez', outcome: 'ok' }),
      record(2, { card: '21101000005678', staff: 'Jo Park', outcome: 'limit-reached' }),
      record(1, { card: '21101000001234', staff: 'Jo Park', outcome: 'ok' }),
      record(0.5, { card: '21101000009999', staff: 'ana lopez', outcome: 'network' }),
    );
    await start({ version: 1, actionLogRetentionDays: 30 });
    await onShift();
    const ids = async (filter: Record<string, unknown>) => (await ok<ActionPage>('listActions', filter)).entries.map((e) => e.contentId);
    expect(await ids({ cardEnding: '1234' })).toEqual([100, 300]);
    expect(await ids({ cardEnding: '34' })).toEqual([100, 300]);
    expect(await ids({ staff: 'LOPEZ' })).toEqual([50, 300]);
    expect(await ids({ outcome: 'failed' })).toEqual([50, 200]);
    expect(await ids({ outcome: 'ok', staff: 'jo' })).toEqual([100]);
    expect(await ids({ from: clock.now() - 2.5 * DAY, to: clock.now() - 0.75 * DAY })).toEqual([100, 200]);
    expect((await dispatch(desk!, 'listActions', { cardEnding: '12345' })).ok).toBe(false);
    const exported = await ok<{ entries: ActionEntry[] }>('exportActions', { staff: 'jo park', pin: TEST_DESK_PIN });
    expect(exported.entries.map((e) => e.contentId)).toEqual([200, 100]);
  });

  it("today's actions for this patron: the whole card at this library, since local midnight — not another card with the same ending", async () => {
    const sameEnding = '99999000000042';
    const midnight = new Date(clock.now());
    midnight.setHours(0, 0, 0, 0);
    const sinceMidnight = (clock.now() - midnight.getTime()) / DAY;
    await written(
      record(sinceMidnight + 0.01, { contentId: 1 }), // yesterday evening
      record(sinceMidnight - 0.01, { contentId: 2 }), // just after midnight
      record(0.1, { contentId: 3, card: sameEnding }),
      record(0.1, { contentId: 4, libraryId: 202 }),
      record(0.05, { contentId: 5, action: 'return' }),
    );
    await start({ version: 1, actionLogRetentionDays: 30 });
    await onShift();
    const today = await ok<ActionEntry[]>('todaysActions', { libraryId: 101, card: ' 21101000000042 ' });
    expect(today.map((e) => e.contentId)).toEqual([2, 5]);
    expect(JSON.stringify(today)).not.toContain('cardMatch');
  });
});
