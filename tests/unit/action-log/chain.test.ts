// The action log's gaps show. Done as someone with the desk's OS session would with the file:
// delete a line, swap two, cut the end off, delete the file, put back an older copy — and each
// is found when the desk next opens the log: staff see that it was changed (listActions and the
// export carry when), the app log says where. A retention purge and a crash are not edits. All
// through the contract (dispatch) on a desk as main assembles it, on a clock the test moves.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryLogKey } from '../../../electron/action-log/log-key.ts';
import { createMemoryVault, type CredentialVault } from '../../../electron/credentials/index.ts';
import type { DeskService } from '../../../electron/desk/desk-service.ts';
import { dispatch } from '../../../electron/ipc/dispatch.ts';
import { inProcessSandbox } from '../../../electron/connection/sandbox-endpoint.ts';
import { createSandboxService, type SandboxService } from '../../../electron/sandbox/server.ts';
import type { ActionPage, AppInfo, MethodName } from '../../../electron/shared/contract.ts';
import { createClock, type Clock } from '../../support/clock.ts';
import { TEST_DESK_PIN } from '../../support/desk-pin.ts';
import { createNodeDesk } from '../../support/node-desk.ts';

const DAY = 86_400_000;
let dir: string;
let key: Buffer;
let vault: CredentialVault;
let clock: Clock;
let desk: DeskService | undefined;
let closeLog: (() => void) | undefined;
let sandbox: SandboxService | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'log-chain-'));
  key = randomBytes(32);
  vault = createMemoryVault();
  clock = createClock(new Date(2026, 10, 22, 10, 0).getTime());
});
afterEach(async () => {
  await desk?.close();
  closeLog?.();
  desk = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A start of the desk on the same folder and keychain. */
async function start(): Promise<DeskService> {
  await desk?.close();
  closeLog?.();
  const created = createNodeDesk({
    dir, vault, now: clock.now, actionLogKey: memoryLogKey(key),
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

const logFile = () => join(dir, 'action-log.jsonl');
const fileLines = () => readFileSync(logFile(), 'utf8').split('\n').filter(Boolean);
const changedLines = () => readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8').split('\n').filter(Boolean)
  .map((line) => JSON.parse(line) as { event: string; where?: string[]; path?: string }).filter((line) => line.event === 'action-log.changed');

/** A shift with six holds placed and removed for a demo patron: six entries, then the desk stops. */
async function sixEntries(): Promise<void> {
  await start();
  await ok('useSandbox');
  await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
  const { libraryId, cards } = (await ok<AppInfo>('appInfo')).sandbox!.libraries[0]!;
  for (let n = 0; n < 3; n++) {
    clock.advance(60_000);
    await dispatch(desk!, 'placeHold', { libraryId, card: cards[0], contentId: 40 + n, title: `Title ${n}` });
    clock.advance(60_000);
    await dispatch(desk!, 'removeHold', { libraryId, card: cards[0], contentId: 40 + n, title: `Title ${n}` });
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
    expect(page.changedAt).toBe(clock.now());
    expect(changedLines()).toEqual([expect.objectContaining({ path: logFile(), where: expect.arrayContaining([expect.stringMatching(where)]) })]);
    // The export says so too, and the notice stays after another restart.
    expect((await ok<{ changedAt?: number }>('exportActions', {})).changedAt).toBe(page.changedAt);
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
    const old = join(dir, 'action-log.old');
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
    clock.advance(31 * DAY);
    await desk!.applyRetention();
    let page = await onShiftAgain();
    expect(page.entries.filter((e) => e.action !== 'log-read')).toHaveLength(0);
    expect(page.changedAt).toBeUndefined();
    // A line deleted now, found at the next start; a purge later keeps the notice while it is recent.
    clock.advance(DAY);
    await ok('lockSession', { reason: 'staff' });
    await onShiftAgain();
    writeFileSync(logFile(), `${fileLines().filter((_, i) => i !== 1).join('\n')}\n`);
    page = await onShiftAgain();
    const found = page.changedAt;
    expect(found).toBeDefined();
    await desk!.applyRetention();
    expect((await onShiftAgain()).changedAt).toBe(found);
    clock.advance(31 * DAY);
    await desk!.applyRetention();
    expect((await onShiftAgain()).changedAt).toBeUndefined();
  });

  it('reading and exporting the log are themselves entries: who, when, which filter', async () => {
    await sixEntries();
    clock.advance(1000);
    await ok('listActions', { staff: 'jd', outcome: 'failed' });
    await ok('listActions', { offset: 20, limit: 20 }); // a further page of the same reading is not a new one
    clock.advance(1000);
    await ok('exportActions', { cardEnding: '0042' });
    const audit = (await ok<ActionPage>('listActions', {})).entries.filter((e) => e.action.startsWith('log-'));
    expect(audit).toEqual([
      expect.objectContaining({ action: 'log-read', staff: 'JD', time: clock.now(), filter: {} }),
      expect.objectContaining({ action: 'log-export', staff: 'JD', time: clock.now(), filter: { cardEnding: '0042' } }),
      expect.objectContaining({ action: 'log-read', staff: 'JD', time: clock.now() - 1000, filter: { staff: 'jd', outcome: 'failed' } }),
    ]);
    // The app log has who and which filters, not their values.
    const appLog = readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8');
    expect(appLog).toContain('"event":"action-log.audit","action":"log-export"');
    expect(appLog).not.toContain('0042');
  });
});
