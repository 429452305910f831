// The action log's gaps show. Done as someone with the desk's OS session would with the file:
// delete a line, swap two, cut the end off, delete the file, put back an older copy — and each
// is found when the desk next opens the log: staff see that it was changed (listActions and the
// export carry when), the app log says where. A retention purge and a crash are not edits. All
// through the contract (dispatch) on a desk as main assembles it, on a clock the test moves.
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import type { ActionPage, AppInfo } from '../../../../electron/shared/contract.ts';
import { createClock } from '../../../support/clock.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { logDesk, type LogDesk } from './log-desk.ts';

const DAY = 86_400_000;
let pc: LogDesk;
beforeEach(() => { pc = logDesk('log-chain-', createClock(new Date(2026, 10, 22, 10, 0).getTime())); });
afterEach(async () => { await pc.close(); });
const start = () => pc.start();
const ok = <T = any>(name: Parameters<LogDesk['ok']>[0], args?: unknown): Promise<T> => pc.ok<T>(name, args); // eslint-disable-line @typescript-eslint/no-explicit-any

const logFile = () => join(pc.dir, 'action-log.jsonl');
const fileLines = () => readFileSync(logFile(), 'utf8').split('\n').filter(Boolean);
const changedLines = () => readFileSync(join(pc.dir, 'logs', 'lending-desk.log'), 'utf8').split('\n').filter(Boolean)
  .map((line) => JSON.parse(line) as { event: string; where?: string[]; path?: string }).filter((line) => line.event === 'action-log.changed');

/** A shift with six holds placed and removed for a demo patron: six entries, then the desk stops. */
async function sixEntries(): Promise<void> {
  await start();
  await ok('useSandbox');
  await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
  const { libraryId, cards } = (await ok<AppInfo>('appInfo')).sandbox!.libraries[0]!;
  for (let n = 0; n < 3; n++) {
    pc.clock.advance(60_000);
    await dispatch(pc.desk, 'placeHold', { libraryId, card: cards[0], contentId: 40 + n, title: `Title ${n}` });
    pc.clock.advance(60_000);
    await dispatch(pc.desk, 'removeHold', { libraryId, card: cards[0], contentId: 40 + n, title: `Title ${n}` });
  }
}

async function onShiftAgain(): Promise<ActionPage> {
  await start();
  await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
  return ok<ActionPage>('listActions', {});
}

describe('the action log\'s gaps show', () => {
  it('an untouched log, read after a restart, is not flagged', async () => {
    await sixEntries();
    const page = await onShiftAgain();
    expect(page.entries.filter((e) => e.action !== 'log-read')).toHaveLength(6);
    expect(page.changedAt).toBeUndefined();
    expect(changedLines()).toEqual([]);
  });

  it.each([
    ['a line deleted', (lines: string[]) => [lines[0]!, ...lines.slice(1, 3), ...lines.slice(4)], /line \d+ does not follow the line before it/],
    ['two lines swapped', (lines: string[]) => [lines[0]!, lines[1]!, lines[3]!, lines[2]!, ...lines.slice(4)], /line \d+ does not follow the line before it/],
    ['the end cut off', (lines: string[]) => lines.slice(0, 5), /the file ends after entry 4 of the 6 the desk wrote/],
    ['a line copied in twice', (lines: string[]) => [...lines.slice(0, 4), lines[2]!, ...lines.slice(4)], /line \d+ does not follow the line before it/],
  ])('%s: staff see the log was changed, the app log says where', async (_what, edit, where) => {
    await sixEntries();
    writeFileSync(logFile(), `${edit(fileLines()).join('\n')}\n`);
    const page = await onShiftAgain();
    expect(page.changedAt).toBe(pc.clock.now());
    expect(changedLines()).toEqual([expect.objectContaining({ path: logFile(), where: expect.arrayContaining([expect.stringMatching(where)]) })]);
    // The export says so too, and the notice stays after another restart.
    expect((await ok<{ changedAt?: number }>('exportActions', { pin: TEST_DESK_PIN })).changedAt).toBe(page.changedAt);
    expect((await onShiftAgain()).changedAt).toBe(page.changedAt);
  });

  it('the file deleted: found missing, though the desk had written to it', async () => {
    await sixEntries();
    rmSync(logFile());
    const page = await onShiftAgain();
    expect(page.changedAt).toBeDefined();
    expect(changedLines()[0]?.where).toEqual([expect.stringMatching(/the file is missing or empty, though the desk had written 6 entries/)]);
  });

  it('an older copy put back (before the last entries, or from before a purge) is found', async () => {
    await sixEntries();
    const old = join(pc.dir, 'action-log.old');
    copyFileSync(logFile(), old);
    await ok('lockSession', { reason: 'staff' });
    await onShiftAgain();
    copyFileSync(old, logFile());
    const page = await onShiftAgain();
    expect(page.changedAt).toBeDefined();
    expect(changedLines()[0]?.where?.[0]).toMatch(/the file ends after entry 6 of the 7 the desk wrote|is not the one the desk wrote last/);
  });

  it('a retention purge starts a new chain and is not an edit; a change found before stays shown until the retention period has passed since', async () => {
    await sixEntries();
    pc.clock.advance(31 * DAY);
    await pc.desk.background.runNow('retention');
    let page = await onShiftAgain();
    expect(page.entries.filter((e) => e.action !== 'log-read')).toHaveLength(0);
    expect(page.changedAt).toBeUndefined();
    // A line deleted now, found at the next start; a purge later keeps the notice while it is recent.
    pc.clock.advance(DAY);
    await ok('lockSession', { reason: 'staff' });
    await onShiftAgain();
    writeFileSync(logFile(), `${fileLines().filter((_, i) => i !== 1).join('\n')}\n`);
    page = await onShiftAgain();
    const found = page.changedAt;
    expect(found).toBeDefined();
    await pc.desk.background.runNow('retention');
    expect((await onShiftAgain()).changedAt).toBe(found);
    pc.clock.advance(31 * DAY);
    await pc.desk.background.runNow('retention');
    expect((await onShiftAgain()).changedAt).toBeUndefined();
  });

  it('reading and exporting the log are themselves entries: who, when, which filter', async () => {
    await sixEntries();
    pc.clock.advance(1000);
    await ok('listActions', { staff: 'jd', outcome: 'failed' });
    await ok('listActions', { offset: 20, limit: 20 }); // a further page of the same reading is not a new one
    pc.clock.advance(1000);
    await ok('exportActions', { cardEnding: '0042', pin: TEST_DESK_PIN });
    const audit = (await ok<ActionPage>('listActions', {})).entries.filter((e) => e.action.startsWith('log-'));
    expect(audit).toEqual([
      expect.objectContaining({ action: 'log-read', staff: 'JD', time: pc.clock.now(), filter: {} }),
      expect.objectContaining({ action: 'log-export', staff: 'JD', time: pc.clock.now(), filter: { cardEnding: '0042' } }),
      expect.objectContaining({ action: 'log-read', staff: 'JD', time: pc.clock.now() - 1000, filter: { staff: 'jd', outcome: 'failed' } }),
    ]);
    // The app log has who and which filters, not their values.
    const appLog = readFileSync(join(pc.dir, 'logs', 'lending-desk.log'), 'utf8');
    expect(appLog).toContain('"event":"action-log.audit","action":"log-export"');
    expect(appLog).not.toContain('0042');
  });
});
