// A desk whose policy file was put in place by a user (not root), end to end: the file is real and
// refused, the desk fails closed through the contract (connections cannot be added, changed or
// removed, no sandbox, no automatic updates), the log says "policy ignored: <why>", and the desk
// otherwise keeps serving patrons against the partner service (the sandbox over HTTP).
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryVault } from '../../../electron/credentials/index.ts';
import type { DeskService } from '../../../electron/desk/desk-service.ts';
import { dispatch } from '../../../electron/ipc/dispatch.ts';
import { decideUpdates } from '../../../electron/main/updates.ts';
import { loadMachinePolicy, logMachinePolicy } from '../../../electron/policy/index.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/sandbox/server.ts';
import type { AppInfo, MethodName, Result } from '../../../electron/shared/contract.ts';
import { createNodeDesk } from '../../support/node-desk.ts';
import { TEST_DESK_PIN } from '../../support/desk-pin.ts';

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
  it('is ignored: the desk fails closed, says why in appInfo and the log, and still serves patrons', async () => {
    // Before: an unmanaged desk with its own partner connection.
    const vault = createMemoryVault();
    startDesk(vault);
    expect(await call('savePartnerProfile', partnerArgs('Main branch'))).toMatchObject({ ok: true });
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
        managed: {
          profileEditing: false, sandboxAvailable: false, updateMode: 'off', lockedProfileIds: [],
          policyIgnored: { reason: 'policy.wrong-owner', params: { source: policyFile, owner: USER, expected: 'root' } },
        },
      },
    });
    const log = readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log).toContainEqual(expect.objectContaining({ level: 'warn', event: 'policy.ignored', message: `policy ignored: ${policyFile} is owned by user ${USER}, not by root.` }));

    // On shift (connections answer only to staff signed in), profile editing and the sandbox: refused, with a reason staff read in their language.
    expect(await call('startShift', { staffName: 'JD', pin: TEST_DESK_PIN })).toMatchObject({ ok: true });
    const frozen = { ok: false, error: { code: 'invalid-input', reason: 'policy.profiles-frozen' } };
    expect(await call('savePartnerProfile', partnerArgs('Another branch'))).toMatchObject(frozen);
    expect(await call('removeProfile', { profileId: 'main-branch' })).toMatchObject(frozen);
    expect((await call('useSandbox')).ok).toBe(false);
    expect((await value<{ id: string }[]>('listProfiles')).map((profile) => profile.id)).toEqual(['main-branch']);

    // Everything else works: the idle lock is the desk's own, credentials, a patron.
    expect(await call('updatePreferences', { idleLockMinutes: 10 })).toMatchObject({ ok: true, value: { idleLockMinutes: 10 } });
    expect(await call('replaceCredentials', { profileId: 'main-branch', username: partner.username, password: partner.password })).toMatchObject({ ok: true });
    expect(await call('lookupPatron', { libraryId: library().libraryId, card: library().cards[0] })).toMatchObject({ ok: true, value: { libraryId: library().libraryId } });
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
