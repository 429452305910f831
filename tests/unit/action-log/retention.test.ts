// What the desk keeps about patrons, and for how long, through DeskService as main runs it on a
// clock the test moves: the retention purge across a restart, titles only while the policy
// allows, no log at all with retention 0, the filters, and "today's actions for this patron".
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionLog, ActionLogFile, type ActionRecord } from '../../../electron/action-log/action-log.ts';
import { memoryLogKey } from '../../../electron/action-log/log-key.ts';
import { createMemoryVault } from '../../../electron/credentials/index.ts';
import type { DeskService } from '../../../electron/desk/desk-service.ts';
import { dispatch } from '../../../electron/ipc/dispatch.ts';
import type { Policy } from '../../../electron/policy/index.ts';
import { createSandboxService, type SandboxService } from '../../../electron/sandbox/server.ts';
import { inProcessSandbox } from '../../../electron/connection/sandbox-endpoint.ts';
import type { ActionPage, AppInfo, MethodName } from '../../../electron/shared/contract.ts';
import type { ActionEntry } from '../../../electron/shared/action-log.ts';
import { createClock, type Clock } from '../../support/clock.ts';
import { TEST_DESK_PIN } from '../../support/desk-pin.ts';
import { createNodeDesk } from '../../support/node-desk.ts';

const DAY = 86_400_000;
let dir: string;
let key: Buffer;
let clock: Clock;
let desk: DeskService | undefined;
let closeLog: (() => void) | undefined;
let sandbox: SandboxService | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'retention-'));
  key = randomBytes(32);
  clock = createClock(new Date(2026, 10, 22, 15, 30).getTime()); // mid-afternoon, local time
});
afterEach(async () => {
  await desk?.close();
  closeLog?.();
  desk = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A start of the desk on the same folder and the same keychain key. */
async function start(policy?: Policy): Promise<DeskService> {
  await desk?.close();
  closeLog?.();
  const created = createNodeDesk({
    dir, vault: createMemoryVault(), now: clock.now, actionLogKey: memoryLogKey(key), ...(policy ? { policy } : {}),
    sandbox: async () => inProcessSandbox((sandbox ??= createSandboxService({ catalogSize: 300 }))),
    clientOptions: { sleep: async () => {}, timeoutMs: 3000 },
  });
  closeLog = () => created.logger.close();
  desk = created.desk;
  return desk;
}

async function ok<T = any>(name: MethodName, args?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const result = await dispatch(desk!, name, args);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

/** Entries written as an earlier run of the desk would have (their times in the past). */
async function written(...records: ActionRecord[]): Promise<void> {
  const log = new ActionLog({ path: join(dir, 'action-log.jsonl'), key: memoryLogKey(key) });
  for (const record of records) await log.record(record);
}
const record = (daysAgo: number, fields: Partial<ActionRecord> = {}): ActionRecord => ({
  time: clock.now() - daysAgo * DAY, staff: 'JD', profile: 'Built-in sandbox', libraryId: 101, card: '21101000000042', action: 'borrow',
  contentId: Math.round(daysAgo * 100), title: `Title from ${daysAgo} days ago`, outcome: 'ok', ...fields,
});
const onDisk = (): ActionEntry[] => new ActionLogFile(join(dir, 'action-log.jsonl'), key).read().entries;

async function onShift(): Promise<{ libraryId: number; cards: string[] }> {
  await ok('useSandbox');
  await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
  return (await ok<AppInfo>('appInfo')).sandbox!.libraries[0]!;
}

describe('retention', () => {
  it('entries past 30 days are purged at the next start (the default), the rest kept whole', async () => {
    await written(record(45), record(31), record(29.9), record(1), record(0.01));
    const started = await start();
    // Stopping waits for the purge the start began.
    await started.startActionLogRetention().stop();
    expect(onDisk()).toHaveLength(3);
    expect(onDisk().map((e) => e.title)).toEqual(['Title from 29.9 days ago', 'Title from 1 days ago', 'Title from 0.01 days ago']);
    // And daily while the desk runs: a day later the 29.9-day entry is past the period too.
    clock.advance(DAY);
    await started.applyRetention();
    expect(onDisk()).toHaveLength(2);
    const purges = readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8').split('\n').filter((line) => line.includes('action-log.purged')).map((line) => JSON.parse(line));
    expect(purges).toEqual([
      expect.objectContaining({ retentionDays: 30, keepTitles: true, removed: 2, unreadable: 0 }),
      expect.objectContaining({ removed: 1 }),
    ]);
  });

  it('follows the policy: 7 days kept, and titles dropped from old and new entries when IT turns them off', async () => {
    await written(record(8), record(6), record(2));
    const started = await start({ version: 1, actionLogRetentionDays: 7, actionLogTitles: false });
    await started.applyRetention();
    expect(onDisk().map((e) => [e.contentId, e.title])).toEqual([[600, undefined], [200, undefined]]);
    const { libraryId, cards } = await onShift();
    await dispatch(started, 'placeHold', { libraryId, card: cards[0], contentId: 3, title: 'A title the policy keeps out' });
    const latest = (await ok<ActionPage>('listActions', {})).entries[0]!;
    expect(latest).toMatchObject({ action: 'place-hold', contentId: 3 });
    expect(latest.title).toBeUndefined();
  });

  it('retention 0 keeps no log at all: the file goes at start, nothing is recorded, actions still work', async () => {
    await written(record(1), record(0.5));
    writeFileSync(join(dir, 'action-log.jsonl.unreadable-5'), 'noise');
    const started = await start({ version: 1, actionLogRetentionDays: 0 });
    await started.applyRetention();
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
    await start();
    await onShift();
    const ids = async (filter: Record<string, unknown>) => (await ok<ActionPage>('listActions', filter)).entries.map((e) => e.contentId);
    expect(await ids({ cardEnding: '1234' })).toEqual([100, 300]);
    expect(await ids({ cardEnding: '34' })).toEqual([100, 300]);
    expect(await ids({ staff: 'LOPEZ' })).toEqual([50, 300]);
    expect(await ids({ outcome: 'failed' })).toEqual([50, 200]);
    expect(await ids({ outcome: 'ok', staff: 'jo' })).toEqual([100]);
    expect(await ids({ from: clock.now() - 2.5 * DAY, to: clock.now() - 0.75 * DAY })).toEqual([100, 200]);
    expect((await dispatch(desk!, 'listActions', { cardEnding: '12345' })).ok).toBe(false);
    const exported = await ok<{ entries: ActionEntry[] }>('exportActions', { staff: 'jo park' });
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
    await start();
    await onShift();
    const today = await ok<ActionEntry[]>('todaysActions', { libraryId: 101, card: ' 21101000000042 ' });
    expect(today.map((e) => e.contentId)).toEqual([2, 5]);
    expect(JSON.stringify(today)).not.toContain('cardMatch');
  });
});
