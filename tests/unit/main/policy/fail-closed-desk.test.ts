// A desk whose policy file is there but refused, end to end: the file is real (put in place by a
// user rather than root, or carrying a value it may not have), the desk fails closed through the
// contract — nobody signs in, not with the desk PIN set earlier nor with no proof at all, and
// connections, the sandbox and automatic updates are off — the lock screen's appInfo and the log
// say which rule failed. A policy with a setting this version does not know is not refused: the
// setting is set aside and listed, and the rest applies.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryVault } from '../../../../electron/main/credentials/index.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import { decideUpdates } from '../../../../electron/main/app/updates.ts';
import { loadMachinePolicy, logMachinePolicy } from '../../../../electron/main/policy/index.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import type { AppInfo, MethodName, Result } from '../../../../electron/shared/contract.ts';
import { hashPin } from '../../../../electron/node/pin/pin-hash.ts';
import { createNodeDesk } from '../../../support/node-desk.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';

const USER = 1000;
let partner: SandboxHandle;
let dir: string;
let root: string;
let policyFile: string;
let desk: DeskService;
let closeLog: () => void;

beforeAll(async () => { partner = await startSandbox({ catalogSize: 300 }); });
afterAll(async () => { await partner.close(); });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fail-closed-desk-'));
  root = mkdtempSync(join(tmpdir(), 'fail-closed-root-'));
  chmodSync(root, 0o755);
  mkdirSync(join(root, 'etc', 'lending-desk'), { recursive: true });
  for (const folder of [join(root, 'etc'), join(root, 'etc', 'lending-desk')]) chmodSync(folder, 0o755);
  policyFile = join(root, 'etc', 'lending-desk', 'policy.json');
});
afterEach(async () => {
  await desk.close();
  closeLog();
  rmSync(dir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

function startDesk(vault = createMemoryVault()) {
  const machine = loadMachinePolicy({ platform: 'linux', linux: { path: policyFile, trustRoot: root } });
  const created = createNodeDesk({ dir, vault, policy: machine.policy, policyProblem: machine.problems, clientOptions: { sleep: async () => {}, timeoutMs: 3000 } });
  logMachinePolicy(machine, created.logger);
  desk = created.desk;
  closeLog = () => created.logger.close();
  return machine;
}

async function call(name: MethodName, args?: unknown): Promise<Result<unknown>> {
  return dispatch(desk, name, args);
}

async function value<T>(name: MethodName, args?: unknown): Promise<T> {
  const result = await call(name, args);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.message}`);
  return result.value as T;
}

const library = () => partner.libraries[0]!;
const partnerArgs = (name: string) => ({
  profile: { name, baseUrl: partner.url, libraries: [{ libraryId: library().libraryId }], country: 'US' },
  username: partner.username, password: partner.password,
});

describe('a policy file a user wrote', () => {
  it('is refused: nobody signs in (not even with the desk PIN set before), appInfo and the log say which rule failed, nothing can be changed', async () => {
    // Before: an unmanaged desk with its own partner connection and its desk PIN.
    const vault = createMemoryVault();
    startDesk(vault);
    expect(await call('savePartnerProfile', partnerArgs('Main branch'))).toMatchObject({ ok: true });
    expect(await call('startShift', { staffName: 'JD', pin: TEST_DESK_PIN })).toMatchObject({ ok: true });
    await desk.close();
    closeLog();

    // A desk user drops in a policy of their own: it would loosen the idle lock and bring back the sandbox.
    writeFileSync(policyFile, JSON.stringify({ version: 1, idleLockMinutes: 240, sandboxOffered: true }), { mode: 0o644 });
    chownSync(policyFile, USER, USER);
    const machine = startDesk(vault);
    expect(decideUpdates(machine)).toEqual({ enabled: false, reason: 'policy-ignored' });

    const info = await call('appInfo');
    expect(info).toMatchObject({
      ok: true,
      value: {
        mode: 'partner',
        preferences: { idleLockMinutes: 5 },
        signIn: { ready: false, policyRefused: true, deskPinNeeds: 'it' },
        managed: {
          profileEditing: false, sandboxAvailable: false, updateMode: 'off', lockedProfileIds: [],
          policyIgnored: { reason: 'policy.wrong-owner', params: { source: policyFile, owner: USER, expected: 'root' } },
        },
      },
    });
    const log = readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log).toContainEqual(expect.objectContaining({ level: 'warn', event: 'policy.ignored', message: `policy ignored: ${policyFile} is owned by user ${USER}, not by root.` }));

    const refused = { ok: false, error: { code: 'unauthorized', reason: 'sign-in.policy-refused' } };
    expect(await call('startShift', { staffName: 'JD', pin: TEST_DESK_PIN })).toMatchObject(refused);
    expect(await call('setDeskPin', { pin: 'harbour-77', partnerPassword: partner.password })).toMatchObject(refused);
    expect(await call('lookupPatron', { libraryId: library().libraryId, card: library().cards[0] })).toMatchObject({ ok: false, error: { code: 'session-locked' } });
  });

  it('with a value it may not have, is refused the same way: no fallback to the desk PIN, and no PIN set without proof on a desk with no connection', async () => {
    writeFileSync(policyFile, JSON.stringify({ version: 1, staffPins: [{ name: 'Ana', pinHash: await hashPin('ana-2468') }], idleLockMinutes: 0 }), { mode: 0o644 });
    chownSync(policyFile, 0, 0);
    const machine = startDesk();
    expect(machine.problems.ignored).toMatchObject({ reason: 'policy.invalid-value', params: { setting: 'idleLockMinutes' } });
    expect(await value<AppInfo>('appInfo')).toMatchObject({ mode: 'unconfigured', signIn: { ready: false, policyRefused: true } });
    expect(await call('startShift', { staffName: 'JD', pin: TEST_DESK_PIN })).toMatchObject({ ok: false, error: { reason: 'sign-in.policy-refused' } });
    expect(await call('startShift', { staffName: 'Ana', pin: 'ana-2468' })).toMatchObject({ ok: false, error: { reason: 'sign-in.policy-refused' } });
    expect(await call('setDeskPin', { pin: 'mine-now-1' })).toMatchObject({ ok: false, error: { reason: 'sign-in.policy-refused' } });
    expect(await call('useSandbox')).toMatchObject({ ok: false, error: { reason: 'policy.sandbox-off' } });
    expect(await call('savePartnerProfile', partnerArgs('Mine'))).toMatchObject({ ok: false, error: { reason: 'policy.profiles-frozen' } });
  });

  it('with a setting this version does not know, is applied without it, and lists it for IT', async () => {
    writeFileSync(policyFile, JSON.stringify({ version: 1, idleLockMinutes: 12, kioskMode: true, printerTray: 'B' }), { mode: 0o644 });
    chownSync(policyFile, 0, 0);
    expect(startDesk().problems).toEqual({ unknownSettings: ['kioskMode', 'printerTray'] });
    expect(await value<AppInfo>('appInfo')).toMatchObject({ preferences: { idleLockMinutes: 12 }, managed: { unknownSettings: ['kioskMode', 'printerTray'] }, signIn: { ready: true } });
    expect(await call('startShift', { staffName: 'JD', pin: TEST_DESK_PIN })).toMatchObject({ ok: true });
    const log = readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8');
    expect(log).toContain('"event":"policy.unknown-settings"');
  });

  it('once root owns it and it is not writable by others, is applied', async () => {
    writeFileSync(policyFile, JSON.stringify({ version: 1, idleLockMinutes: 3, sandboxOffered: false }), { mode: 0o644 });
    chownSync(policyFile, USER, USER);
    expect(startDesk().problems.ignored).toMatchObject({ reason: 'policy.wrong-owner' });
    await desk.close();
    closeLog();
    chownSync(policyFile, 0, 0);
    chmodSync(policyFile, 0o664);
    expect(startDesk().problems.ignored).toMatchObject({ reason: 'policy.writable-by-others' });
    await desk.close();
    closeLog();
    chmodSync(policyFile, 0o644);
    startDesk();
    expect(await call('appInfo')).toMatchObject({ ok: true, value: { preferences: { idleLockMinutes: 3 }, managed: { idleLockMinutes: true, profileEditing: true, sandboxAvailable: false } } });
    expect((await value<AppInfo>('appInfo')).managed?.policyIgnored).toBeUndefined();
  });
});
