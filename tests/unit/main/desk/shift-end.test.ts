// Nothing outlives the shift: main's own idle lock (a frozen or crashed renderer cannot keep a
// shift open past its limit), the 30-minute ceiling of an unmanaged desk's idle lock, and the
// clipboard cleared on quit as on a lock. Through the contract (dispatch), on a clock the test
// moves, with the desk's clipboard and events watched.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { createMemoryVault, type CredentialVault } from '../../../../electron/main/credentials/index.ts';
import { memoryClipboard } from '../../../../electron/main/desk/clipboard.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { IDLE_GRACE_MS } from '../../../../electron/main/desk/idle-clock.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import type { Policy } from '../../../../electron/main/policy/index.ts';
import { createSandboxService, type SandboxService } from '../../../../electron/main/sandbox/server.ts';
import type { AppInfo, EventPayloads, MethodName } from '../../../../electron/shared/contract.ts';
import { createClock, type Clock } from '../../../support/clock.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { createNodeDesk } from '../../../support/node-desk.ts';
import { answerOf } from '../../../support/desk-calls.ts';

const MINUTE = 60_000;
let dir: string;
let vault: CredentialVault;
let clock: Clock;
let desk: DeskService;
let closeLog: () => void;
let sandbox: SandboxService | undefined;
let locks: EventPayloads['sessionLocked'][];
let clipboard: ReturnType<typeof memoryClipboard>;

function start(policy?: Policy): void {
  const created = createNodeDesk({
    dir, vault, now: clock.now, clipboard, ...(policy ? { policy } : {}),
    emit: (event, payload) => { if (event === 'sessionLocked') locks.push(payload as EventPayloads['sessionLocked']); },
    sandbox: async () => inProcessSandbox((sandbox ??= createSandboxService({ catalogSize: 300 }))),
  });
  desk = created.desk;
  closeLog = () => created.logger.close();
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shift-end-'));
  vault = createMemoryVault();
  clock = createClock();
  locks = [];
  clipboard = memoryClipboard();
  start();
});
afterEach(async () => {
  await desk.close();
  closeLog();
  rmSync(dir, { recursive: true, force: true });
});

async function ok<T = any>(name: MethodName, args?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return answerOf<T>(desk, name, args);
}

async function onShift(): Promise<{ libraryId: number; card: string }> {
  await ok('useSandbox');
  await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
  const { libraryId, cards } = (await ok<AppInfo>('appInfo')).sandbox!.libraries[0]!;
  return { libraryId, card: cards[0]! };
}

describe('main\'s own idle lock', () => {
  it('locks a shift nobody used for the idle minutes and a minute more, with no help from the renderer', async () => {
    const { libraryId, card } = await onShift();
    clock.advance(5 * MINUTE + IDLE_GRACE_MS - 1);
    expect(await desk.background.runNow('idle-lock')).toBe(false);
    clock.advance(1);
    expect(await desk.background.runNow('idle-lock')).toBe(true);
    expect(locks).toEqual([{ reason: 'idle' }]);
    expect(await dispatch(desk, 'lookupPatron', { libraryId, card })).toMatchObject({ ok: false, error: { code: 'session-locked' } });
    expect(readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8')).toContain('"event":"session.lock","staff":"","reason":"idle"');
  });

  it('counts the renderer\'s heartbeat and calls staff make; not the renderer\'s own polls', async () => {
    const { libraryId, card } = await onShift();
    clock.advance(4 * MINUTE);
    await ok('reportActivity');
    clock.advance(4 * MINUTE);
    await ok('lookupPatron', { libraryId, card });
    clock.advance(5 * MINUTE);
    // A frozen page's timers are gone, but a window left open may still poll: that is no one at the desk.
    await ok('appInfo');
    await ok('syncStatus');
    clock.advance(IDLE_GRACE_MS);
    expect(await desk.background.runNow('idle-lock')).toBe(true);
    expect(locks).toEqual([{ reason: 'idle' }]);
  });

  it('a locked desk has nothing to lock; the heartbeat opens nothing', async () => {
    await onShift();
    await ok('lockSession', { reason: 'staff' });
    clock.advance(60 * MINUTE);
    expect(await ok('reportActivity')).toBeNull();
    expect(await desk.background.runNow('idle-lock')).toBe(false);
    expect((await ok<AppInfo>('appInfo')).session).toBeUndefined();
  });
});

describe('the longest shift (issue #33)', () => {
  it('ends a shift kept busy forever (a mouse jiggler\'s heartbeat every minute) after 12 hours, whatever the idle lock says', async () => {
    await onShift();
    for (let minute = 1; minute < 12 * 60; minute++) {
      clock.advance(MINUTE);
      await ok('reportActivity');
      if (minute % 60 === 0) expect(await desk.background.runNow('idle-lock')).toBe(false);
    }
    clock.advance(MINUTE);
    expect(await desk.background.runNow('idle-lock')).toBe(true);
    expect(locks).toEqual([{ reason: 'shift-length' }]);
    expect((await ok<AppInfo>('appInfo')).session).toBeUndefined();
    expect(readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8')).toContain('"event":"session.lock","staff":"","reason":"shift-length"');
  });

  it('follows IT\'s maxShiftHours; a new shift starts a new count', async () => {
    await desk.close();
    closeLog();
    start({ version: 1, maxShiftHours: 2 });
    await onShift();
    clock.advance(2 * 60 * MINUTE - 1);
    await ok('reportActivity');
    expect(await desk.background.runNow('idle-lock')).toBe(false);
    clock.advance(1);
    expect(await desk.background.runNow('idle-lock')).toBe(true);
    expect(locks).toEqual([{ reason: 'shift-length' }]);
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    clock.advance(60 * MINUTE);
    await ok('reportActivity');
    expect(await desk.background.runNow('idle-lock')).toBe(false);
  });
});

describe('an unmanaged desk\'s idle lock', () => {
  it('is at most 30 minutes, whatever settings.json says; staff cannot set more, IT\'s policy can', async () => {
    await onShift();
    const file = join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), idleLockMinutes: 240 }));
    expect((await ok<AppInfo>('appInfo')).preferences.idleLockMinutes).toBe(30);
    expect(await dispatch(desk, 'updatePreferences', { idleLockMinutes: 31 })).toMatchObject({ ok: false, error: { code: 'invalid-input', reason: 'settings.idle-lock-unmanaged' } });
    expect(await ok('updatePreferences', { idleLockMinutes: 30 })).toMatchObject({ idleLockMinutes: 30 });
    clock.advance(30 * MINUTE + IDLE_GRACE_MS);
    expect(await desk.background.runNow('idle-lock')).toBe(true);

    await desk.close();
    closeLog();
    start({ version: 1, idleLockMinutes: 240 });
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    expect((await ok<AppInfo>('appInfo')).preferences.idleLockMinutes).toBe(240);
    clock.advance(30 * MINUTE + IDLE_GRACE_MS);
    expect(await desk.background.runNow('idle-lock')).toBe(false);
  });
});

describe('the clipboard', () => {
  it('what the desk put there is cleared on quit, as on a lock', async () => {
    await onShift();
    await ok('copyText', { text: 'Due 1 December: The Night Garden', purpose: 'slip' });
    expect(clipboard.text).toBe('Due 1 December: The Night Garden');
    await desk.endShiftForQuit();
    expect(clipboard.text).toBe('');
    expect((await ok<AppInfo>('appInfo')).session).toBeUndefined();
    expect(readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8')).toContain('"reason":"quit","clipboardCleared":true');
  });

  it('something staff copied since, from elsewhere, is theirs and stays', async () => {
    await onShift();
    await ok('copyText', { text: 'Due 1 December', purpose: 'slip' });
    clipboard.text = 'an email address from another window';
    await desk.close();
    expect(clipboard.text).toBe('an email address from another window');
  });
});
