// Unlocking the desk, tried as someone at the counter would: any name, wrong PINs, many at
// once, a restart to reset the count, IT's per-staff PINs, and the desk PIN's own door (which
// needs the partner password or the current PIN). Then as a patron left alone with the desk's
// OS session would, with Notepad: replacing the PIN hash, resetting the wrong tries, deleting
// or restoring the sign-in file (which now holds nothing the desk reads: the record is in the
// keychain). Through the contract's dispatcher, on a clock the test moves, against the sandbox over HTTP.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DESK_RECORDS } from '../../../../electron/main/credentials/desk-keychain.ts';
import { createMemoryVault, type CredentialVault } from '../../../../electron/main/credentials/index.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { hashPin } from '../../../../electron/node/pin/pin-hash.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import type { Policy } from '../../../../electron/main/policy/index.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import type { MethodName, Result } from '../../../../electron/shared/contract.ts';
import { createClock, type Clock } from '../../../support/clock.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { createNodeDesk, keychainOf, type NodeDeskOptions } from '../../../support/node-desk.ts';
import { TEST_PIN_COST } from '../../../support/weak-pin-cost.ts';

let partner: SandboxHandle;
let dir: string;
let clock: Clock;
let vault: CredentialVault;
let desk: DeskService;
let closeLog: () => void;
const results: string[] = [];

beforeAll(async () => {
  partner = await startSandbox({ catalogSize: 300, password: 'partner-Pa55-word' });
});
afterAll(async () => { await partner.close(); });

function newDesk(extra: Partial<NodeDeskOptions> = {}): DeskService {
  closeLog?.();
  const created = createNodeDesk({ dir, vault, now: clock.now, osUserName: () => 'desk-login', clientOptions: { sleep: async () => {}, timeoutMs: 3000 }, ...extra });
  closeLog = () => created.logger.close();
  return created.desk;
}

async function restart(extra: Partial<NodeDeskOptions> = {}): Promise<void> {
  await desk.close();
  // A desk on which no PIN was ever set has no sign-in record.
  if (extra.deskPin === 'none') keychainOf(vault).entries.delete(DESK_RECORDS.signIn);
  desk = newDesk(extra);
}

/** The next start of the desk on the same folder and keychain, as they are (no test PIN given to a desk without a record). */
async function reopen(extra: Partial<NodeDeskOptions> = {}): Promise<void> {
  await desk.close();
  desk = newDesk({ ...extra, deskPin: 'none' });
}

/** The keychain's sign-in record, as the desk keeps it. */
const signInRecord = (): Record<string, unknown> => JSON.parse(keychainOf(vault).entries.get(DESK_RECORDS.signIn) ?? 'null') as Record<string, unknown>;

async function call(name: MethodName, args?: unknown): Promise<Result<any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const result = await dispatch(desk, name, args);
  results.push(JSON.stringify(result));
  return result;
}
async function ok<T = any>(name: MethodName, args?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const result = await call(name, args);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}
const refusal = async (name: MethodName, args?: unknown) => {
  const result = await call(name, args);
  if (result.ok) throw new Error(`${name} was accepted`);
  return result.error;
};
const signIn = (staffName: string, pin: string) => call('startShift', { staffName, pin });

function logLines(): { event: string; [field: string]: unknown }[] {
  return readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}

/** Every byte the desk wrote (files and its keychain records) and every answer it gave, for what must never be in them. */
function everythingWritten(): string {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f)).filter((f) => !f.includes('catalog'));
  return [...files.flatMap((f) => { try { return [readFileSync(f, 'utf8')]; } catch { return []; } }), ...keychainOf(vault).entries.values(), ...results].join('\n');
}

const partnerProfile = (password: string) => ({
  profile: { name: 'Main branch', baseUrl: partner.url, libraries: [{ libraryId: partner.libraries[0]!.libraryId }], country: 'US' },
  username: partner.username, password,
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sign-in-'));
  clock = createClock();
  vault = createMemoryVault();
  results.length = 0;
  desk = newDesk();
});
afterEach(async () => {
  await desk.close();
  closeLog();
  rmSync(dir, { recursive: true, force: true });
});

describe('the desk PIN at the lock screen', () => {
  it('refuses any name without the right PIN, and nothing about a patron is reachable meanwhile', async () => {
    await ok('useSandbox');
    expect(await refusal('startShift', { staffName: 'Anyone' })).toMatchObject({ code: 'invalid-input', reason: 'input.required', params: { field: 'pin' } });
    expect(await signIn('Anyone', '000000')).toMatchObject({ ok: false, error: { code: 'unauthorized', reason: 'sign-in.wrong' } });
    expect(await signIn('JD', `${TEST_DESK_PIN} `)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect((await ok('appInfo')).session).toBeUndefined();
    expect(await refusal('lookupPatron', { libraryId: 101, card: '21101000000001' })).toMatchObject({ code: 'session-locked' });
    // The desk PIN is shared: a name anyone who knows it could type is not a record of who was there (issue #35).
    const deskStaff = { readLogByCard: false, exportLog: false, replaceLibraryMirrorPassword: false };
    expect(await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN })).toEqual({ staffName: '', startedAt: clock.now(), signedInWith: 'desk-pin', role: 'desk', may: deskStaff });
    expect((await ok('appInfo')).session).toMatchObject({ staffName: '', signedInWith: 'desk-pin' });
  });

  it('with the desk PIN, records a name only when staff choose it from IT\'s list, and gives the role IT sets for it', async () => {
    await restart({ policy: { version: 1, deskPinNames: ['Ana Lopez', 'Jo Park'], deskPinRole: 'manager' } });
    await ok('useSandbox');
    expect((await ok('appInfo')).signIn).toMatchObject({ method: 'desk-pin', deskPinNames: ['Ana Lopez', 'Jo Park'] });
    expect(await ok('startShift', { staffName: 'Mallory', pin: TEST_DESK_PIN })).toMatchObject({ staffName: '', signedInWith: 'desk-pin', role: 'manager' });
    await ok('lockSession', { reason: 'staff' });
    const manager = { readLogByCard: true, exportLog: true, replaceLibraryMirrorPassword: true };
    expect(await ok('startShift', { staffName: ' jo  PARK', pin: TEST_DESK_PIN })).toEqual({ staffName: 'Jo Park', startedAt: clock.now(), signedInWith: 'desk-pin', role: 'manager', may: manager });
    await ok('lockSession', { reason: 'staff' });
    expect(await ok('startShift', { pin: TEST_DESK_PIN })).toMatchObject({ staffName: '', role: 'manager' });
  });

  it('five wrong tries make the desk wait, a restart does not reset the count, and the wait grows', async () => {
    await ok('useSandbox');
    const reasons = [];
    for (let i = 0; i < 5; i++) reasons.push((await refusal('startShift', { staffName: `Guess ${i}`, pin: `11111${i}` })).reason);
    expect(reasons).toEqual(['sign-in.wrong', 'sign-in.wrong', 'sign-in.wrong', 'sign-in.wrong-last-try', 'sign-in.wait']);
    // Even the right PIN waits: the wait is not a hint that the guess was close.
    expect(await refusal('startShift', { staffName: 'JD', pin: TEST_DESK_PIN })).toMatchObject({ code: 'rate-limited', reason: 'sign-in.wait', params: { seconds: 30 } });

    clock.advance(10_000);
    await restart();
    expect((await ok('appInfo')).signIn).toMatchObject({ ready: true, waitSeconds: 20 });
    expect(await refusal('startShift', { staffName: 'JD', pin: TEST_DESK_PIN })).toMatchObject({ reason: 'sign-in.wait', params: { seconds: 20 } });

    clock.advance(20_000);
    expect(await refusal('startShift', { staffName: 'Guess 6', pin: '222222' })).toMatchObject({ reason: 'sign-in.wait', params: { seconds: 60 } });
    clock.advance(60_000);
    expect(await refusal('startShift', { staffName: 'Guess 7', pin: '333333' })).toMatchObject({ params: { seconds: 120 } });
    clock.advance(120_000);
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    // A good PIN starts the count again.
    expect(await refusal('startShift', { staffName: 'JD', pin: '444444' })).toMatchObject({ reason: 'sign-in.wrong' });
  });

  it('tries sent all at once are checked one at a time: no more than five PINs are tried before the wait', async () => {
    await ok('useSandbox');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn('Burst', `5555${String(i).padStart(2, '0')}`)));
    expect(answers.every((a) => !a.ok)).toBe(true);
    const checked = logLines().filter((l) => l.event === 'session.sign-in-refused' && l.why === 'wrong');
    expect(checked).toHaveLength(5);
    expect(answers.filter((a) => !a.ok && a.error.reason === 'sign-in.wait')).toHaveLength(8);
  });

  it('logs each try with the OS user, the name only once a sign-in succeeded, and no PIN is in any file, keychain record, log or answer', async () => {
    await ok('useSandbox');
    await signIn('Mallory at the counter', '808080');
    // A PIN typed into the name field by mistake: refused, and never logged.
    await signIn('418230', '808080');
    await ok('startShift', { staffName: 'Jo Park', pin: TEST_DESK_PIN });
    await ok('setDeskPin', { pin: 'river-8642', currentPin: TEST_DESK_PIN });
    await ok('lockSession', { reason: 'staff' });
    await ok('startShift', { staffName: 'Jo Park', pin: 'river-8642' });
    const lines = logLines();
    expect(lines.find((l) => l.event === 'session.sign-in-refused')).toMatchObject({ level: 'warn', osUser: 'desk-login', failures: 1 });
    expect(lines.filter((l) => l.event === 'session.sign-in-refused').every((l) => !('staff' in l))).toBe(true);
    // With the desk PIN and no list from IT, no typed name is recorded at all.
    expect(lines.filter((l) => l.event === 'session.start')).toEqual([
      expect.objectContaining({ staff: '', osUser: 'desk-login', signIn: 'desk-pin', role: 'desk' }),
      expect.objectContaining({ staff: '', osUser: 'desk-login' }),
    ]);
    expect(lines.find((l) => l.event === 'session.desk-pin-set')).toMatchObject({ osUser: 'desk-login', proof: 'current-pin' });
    const written = everythingWritten();
    for (const secret of ['808080', TEST_DESK_PIN, 'river-8642', '418230', 'Mallory', 'Jo Park']) expect(written).not.toContain(secret);
    // The record is in the keychain; nothing about signing in is written to a file.
    expect(existsSync(join(dir, 'sign-in.json'))).toBe(false);
    expect(signInRecord()).toEqual({ v: 1, deskPin: expect.stringMatching(/^\$scrypt\$ln=14,r=8,p=1\$/), failures: 0, shifts: 2 });
  });

  it('a desk training on the sandbox that also holds a partner connection: its PIN takes that partner password', async () => {
    await ok('savePartnerProfile', partnerProfile(partner.password));
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    await ok('useSandbox');
    await ok('lockSession', { reason: 'staff' });
    expect((await ok('appInfo')).signIn).toMatchObject({ ready: true, deskPinNeeds: 'partner-password', partnerProfile: 'Main branch' });
    expect(await refusal('setDeskPin', { pin: 'mine-now', currentPin: TEST_DESK_PIN })).toMatchObject({ reason: 'pin.partner-password-needed' });
    await ok('setDeskPin', { pin: 'fresh-pin', partnerPassword: partner.password });
    await ok('startShift', { staffName: 'IT', pin: 'fresh-pin' });
  });
});

describe('per-staff PINs from the policy', () => {
  let policy: Policy;
  beforeAll(async () => {
    policy = {
      version: 1,
      staffPins: [{ name: 'Ana Lopez', pinHash: await hashPin('ana-2468', TEST_PIN_COST), role: 'manager' }, { name: 'Jo Park', pinHash: await hashPin('jo-1357', TEST_PIN_COST) }],
      // IT's desk-PIN settings mean nothing where staff have their own PINs.
      deskPinRole: 'manager', deskPinNames: ['Jo Park'],
    };
  });

  it('gives each PIN the role IT wrote beside it: a manager, or desk staff when it says none', async () => {
    await restart({ policy });
    await ok('useSandbox');
    expect((await ok('appInfo')).signIn.deskPinNames).toBeUndefined();
    expect(await ok('startShift', { staffName: 'Ana Lopez', pin: 'ana-2468' })).toMatchObject({
      staffName: 'Ana Lopez', signedInWith: 'staff-pin', role: 'manager', may: { readLogByCard: true, exportLog: true, replaceLibraryMirrorPassword: true },
    });
    await ok('lockSession', { reason: 'staff' });
    expect(await ok('startShift', { staffName: 'Jo Park', pin: 'jo-1357' })).toMatchObject({
      staffName: 'Jo Park', signedInWith: 'staff-pin', role: 'desk', may: { readLogByCard: false, exportLog: false, replaceLibraryMirrorPassword: false },
    });
  });

  it('lets each member of staff in with their own PIN, under the name IT wrote; no other name, PIN or the desk PIN', async () => {
    await restart({ policy });
    await ok('useSandbox');
    expect((await ok('appInfo')).signIn).toEqual({ method: 'staff-pins', ready: true, deskPinNeeds: 'policy', waitSeconds: 0, setUp: false });
    expect(await signIn('Ana Lopez', 'jo-1357')).toMatchObject({ ok: false, error: { reason: 'sign-in.wrong' } });
    expect(await signIn('Someone Else', 'ana-2468')).toMatchObject({ ok: false, error: { reason: 'sign-in.wrong' } });
    expect(await signIn('Ana Lopez', TEST_DESK_PIN)).toMatchObject({ ok: false, error: { reason: 'sign-in.wrong' } });
    expect(await ok('startShift', { staffName: '  ana   LOPEZ ', pin: 'ana-2468' })).toMatchObject({ staffName: 'Ana Lopez' });
    expect(await refusal('setDeskPin', { pin: '99999999', currentPin: TEST_DESK_PIN })).toMatchObject({ code: 'invalid-input', reason: 'pin.set-by-policy' });
  });

  it('a PIN below the rules (IT hashed it before them) is refused unchecked, telling staff to ask IT; it costs no try', async () => {
    await restart({ policy: { version: 1, staffPins: [{ name: 'Old Timer', pinHash: await hashPin('4321', TEST_PIN_COST) }, { name: 'Easy', pinHash: await hashPin('123456', TEST_PIN_COST) }] } });
    await ok('useSandbox');
    for (const [name, pin] of [['Old Timer', '4321'], ['Easy', '123456']] as const) {
      expect(await refusal('startShift', { staffName: name, pin })).toMatchObject({ code: 'invalid-input', reason: 'sign-in.pin-below-rules' });
    }
    expect(signInRecord()).toMatchObject({ failures: 0 });
    expect(logLines().filter((l) => l.event === 'session.sign-in-refused')).toEqual([]);
  });

  it('an ignored policy gives no staff PINs and no desk PIN either: nobody signs in (it fails closed)', async () => {
    await restart({ policy, policyProblem: { ignored: { reason: 'policy.not-json', params: { source: '/etc/lending-desk/policy.json', detail: 'x' } } } });
    expect((await ok('appInfo')).signIn).toMatchObject({ method: 'desk-pin', ready: false, policyRefused: true, deskPinNeeds: 'it' });
    expect(await refusal('startShift', { staffName: 'JD', pin: TEST_DESK_PIN })).toMatchObject({ code: 'unauthorized', reason: 'sign-in.policy-refused' });
    expect(await refusal('startShift', { staffName: 'Ana Lopez', pin: 'ana-2468' })).toMatchObject({ reason: 'sign-in.policy-refused' });
    expect(await refusal('setDeskPin', { pin: 'maple-2026', currentPin: TEST_DESK_PIN })).toMatchObject({ reason: 'sign-in.policy-refused' });
  });
});

describe('setting the desk PIN', () => {
  it('a sandbox-only training desk: the first PIN needs nothing, a change needs the current PIN (counted like a sign-in)', async () => {
    await restart({ deskPin: 'none' });
    expect((await ok('appInfo')).signIn).toMatchObject({ method: 'desk-pin', ready: false });
    await ok('useSandbox');
    expect((await ok('appInfo')).signIn).toMatchObject({ ready: false, deskPinNeeds: 'nothing' });
    expect(await refusal('startShift', { staffName: 'JD', pin: '123456' })).toMatchObject({ code: 'invalid-input', reason: 'sign-in.no-desk-pin' });
    expect(await refusal('setDeskPin', { pin: '1234' })).toMatchObject({ code: 'invalid-input', reason: 'input.min-characters', params: { field: 'pin', min: 6 } });
    expect((await ok('setDeskPin', { pin: 'maple-2026' })).signIn).toMatchObject({ ready: true, deskPinNeeds: 'current-pin' });
    expect(await refusal('setDeskPin', { pin: 'taken-over' })).toMatchObject({ reason: 'pin.current-pin-needed' });
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push((await refusal('setDeskPin', { pin: 'taken-over', currentPin: `guess-${i}` })).reason);
    expect(wrong).toEqual(['pin.current-pin-wrong', 'pin.current-pin-wrong', 'pin.current-pin-wrong', 'pin.current-pin-wrong', 'sign-in.wait']);
    // The count is the sign-in's: the lock screen waits too.
    expect(await refusal('startShift', { staffName: 'JD', pin: 'maple-2026' })).toMatchObject({ reason: 'sign-in.wait' });
    clock.advance(30_000);
    await ok('setDeskPin', { pin: 'birch-2027', currentPin: 'maple-2026' });
    expect(await signIn('JD', 'maple-2026')).toMatchObject({ ok: false, error: { reason: 'sign-in.wrong' } });
    await ok('startShift', { staffName: 'JD', pin: 'birch-2027' });
  });

  it('a partner desk: only the partner password of the active connection sets or changes it', async () => {
    await restart({ deskPin: 'none' });
    // First run, while locked: the connection is set up (its password tested), then the PIN.
    await ok('savePartnerProfile', partnerProfile(partner.password));
    expect((await ok('appInfo')).signIn).toEqual({
      method: 'desk-pin', ready: false, deskPinNeeds: 'partner-password', partnerProfile: 'Main branch', partnerUsernameNeeded: false, waitSeconds: 0, setUp: false,
    });
    expect(await refusal('setDeskPin', { pin: 'harbour-77' })).toMatchObject({ reason: 'pin.partner-password-needed', params: { profile: 'Main branch' } });
    expect(await refusal('setDeskPin', { pin: 'harbour-77', partnerPassword: 'not-it' })).toMatchObject({ code: 'unauthorized', reason: 'pin.partner-password-wrong' });
    await ok('setDeskPin', { pin: 'harbour-77', partnerPassword: partner.password });
    await ok('startShift', { staffName: 'IT', pin: 'harbour-77' });
    await ok('lockSession', { reason: 'staff' });
    // The current PIN is not enough on a partner desk.
    expect(await refusal('setDeskPin', { pin: 'harbour-88', currentPin: 'harbour-77' })).toMatchObject({ reason: 'pin.partner-password-needed' });
    await ok('setDeskPin', { pin: 'harbour-88', partnerPassword: partner.password });
    await ok('startShift', { staffName: 'IT', pin: 'harbour-88' });
    expect(everythingWritten()).not.toContain(partner.password);
  });

  it("a preset connection on its first start: the service checks the partner username and password, which are then saved", async () => {
    const preset: Policy = {
      version: 1,
      profiles: [{ id: 'main-branch', name: 'Main branch', kind: 'partner', baseUrl: partner.url, libraries: [{ libraryId: partner.libraries[0]!.libraryId }], wsApi: '2.1', country: 'US' }],
    };
    await restart({ deskPin: 'none', policy: preset });
    expect((await ok('appInfo')).signIn).toMatchObject({ ready: false, deskPinNeeds: 'partner-password', partnerUsernameNeeded: true });
    expect(await refusal('setDeskPin', { pin: 'harbour-77', partnerPassword: partner.password })).toMatchObject({ reason: 'pin.partner-username-needed' });
    expect(await refusal('setDeskPin', { pin: 'harbour-77', partnerUsername: partner.username, partnerPassword: 'wrong' })).toMatchObject({ code: 'unauthorized', reason: 'pin.partner-password-wrong' });
    expect(await vault.has('main-branch')).toBe(false);
    await ok('setDeskPin', { pin: 'harbour-77', partnerUsername: partner.username, partnerPassword: partner.password });
    expect(await vault.read('main-branch')).toEqual({ username: partner.username, password: partner.password, origin: new URL(partner.url).origin });
    await ok('startShift', { staffName: 'IT', pin: 'harbour-77' });
    await expect(ok('lookupPatron', { libraryId: partner.libraries[0]!.libraryId, card: partner.libraries[0]!.cards[0] })).resolves.toHaveProperty('status');
  });
});

describe('a patron left alone at the desk, with Notepad and the desk\'s OS session', () => {
  const legacyFile = () => join(dir, 'sign-in.json');
  /** What an earlier version kept in sign-in.json, and what a patron would write there. */
  const fileRecord = async (pin: string, failures = 0) => JSON.stringify({ deskPin: await hashPin(pin, TEST_PIN_COST), failures });

  it('replacing the PIN hash: a sign-in.json with the hash of a PIN of their own opens nothing; the desk PIN still does', async () => {
    await ok('useSandbox');
    writeFileSync(legacyFile(), await fileRecord('patron-999'));
    await restart();
    expect(await signIn('Patron', 'patron-999')).toMatchObject({ ok: false, error: { reason: 'sign-in.wrong' } });
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
  });

  it('resetting the wait: writing "failures":0 into the file leaves the wait where it was', async () => {
    await ok('useSandbox');
    for (let i = 0; i < 5; i++) await signIn('Guess', `77077${i}`);
    writeFileSync(legacyFile(), JSON.stringify({ failures: 0 }));
    await restart();
    expect((await ok('appInfo')).signIn).toMatchObject({ waitSeconds: 30 });
    expect(await refusal('startShift', { staffName: 'JD', pin: TEST_DESK_PIN })).toMatchObject({ code: 'rate-limited', reason: 'sign-in.wait' });
    expect(signInRecord()).toMatchObject({ failures: 5 });
  });

  it('deleting the file with per-staff PINs: no fresh tries (15 PINs in three rounds was the attack)', async () => {
    const policy: Policy = { version: 1, staffPins: [{ name: 'Ana Lopez', pinHash: await hashPin('ana-2468', TEST_PIN_COST) }] };
    await restart({ policy });
    await ok('useSandbox');
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) await signIn('Ana Lopez', `90${round}5${i}7`);
      rmSync(legacyFile(), { force: true });
      await restart({ policy });
    }
    const checked = logLines().filter((l) => l.event === 'session.sign-in-refused' && l.why === 'wrong');
    expect(checked).toHaveLength(5);
  });

  it('restoring an older copy of the file brings back neither the old PIN nor the old count', async () => {
    await ok('useSandbox');
    writeFileSync(legacyFile(), await fileRecord(TEST_DESK_PIN));
    copyFileSync(legacyFile(), join(dir, 'sign-in.json.old'));
    await ok('setDeskPin', { pin: 'maple-2026', currentPin: TEST_DESK_PIN });
    for (let i = 0; i < 3; i++) await signIn('Guess', `38104${i}`);
    copyFileSync(join(dir, 'sign-in.json.old'), legacyFile());
    await restart();
    expect(await signIn('JD', TEST_DESK_PIN)).toMatchObject({ ok: false, error: { reason: 'sign-in.wrong-last-try' } });
    await ok('startShift', { staffName: 'JD', pin: 'maple-2026' });
  });
});

describe('a desk whose sign-in record is missing or not its own', () => {
  it('an upgrading desk (an earlier version\'s sign-in.json, no keychain record) is locked until the partner password of its connection sets a new PIN, after the wait', async () => {
    await restart({ deskPin: 'none' });
    await ok('savePartnerProfile', partnerProfile(partner.password));
    await ok('setDeskPin', { pin: 'harbour-77', partnerPassword: partner.password });
    await ok('startShift', { staffName: 'IT', pin: 'harbour-77' });
    await ok('lockSession', { reason: 'staff' });
    // What an upgrade finds: the old version's file (same thing as a patron's), and none of this version's records.
    writeFileSync(join(dir, 'sign-in.json'), JSON.stringify({ deskPin: await hashPin('harbour-77', TEST_PIN_COST), failures: 0 }));
    keychainOf(vault).entries.clear();
    await reopen();
    expect((await ok('appInfo')).signIn).toMatchObject({
      method: 'desk-pin', ready: false, reestablish: 'missing', setUp: true, waitSeconds: 30, deskPinNeeds: 'partner-password', partnerProfile: 'Main branch',
    });
    expect(await refusal('startShift', { staffName: 'IT', pin: 'harbour-77' })).toMatchObject({ code: 'rate-limited', reason: 'sign-in.wait' });
    clock.advance(30_000);
    expect(await refusal('startShift', { staffName: 'IT', pin: 'harbour-77' })).toMatchObject({ code: 'invalid-input', reason: 'sign-in.reestablish-first' });
    expect(await refusal('savePartnerProfile', partnerProfile(partner.password))).toMatchObject({ code: 'session-locked' });
    // The count it had is unknown, so the worst is assumed: five wrong tries already, so one more waits a minute.
    expect(await refusal('setDeskPin', { pin: 'harbour-99', partnerPassword: 'not-it' })).toMatchObject({ code: 'rate-limited', reason: 'sign-in.wait', params: { seconds: 60 } });
    clock.advance(60_000);
    await ok('setDeskPin', { pin: 'harbour-99', partnerPassword: partner.password });
    await ok('startShift', { staffName: 'IT', pin: 'harbour-99' });
    expect(logLines()).toContainEqual(expect.objectContaining({ event: 'sign-in.record-lost', why: 'missing', legacyFileFound: true }));
  });

  it('a record that is not the desk\'s own is the same: never fresh, never fewer waits', async () => {
    await ok('savePartnerProfile', partnerProfile(partner.password));
    keychainOf(vault).entries.set(DESK_RECORDS.signIn, '{"deskPin":"$scrypt$ln=14,r=8,p=1$AAAA$BBBB","failures":0}');
    await reopen();
    expect((await ok('appInfo')).signIn).toMatchObject({ ready: false, reestablish: 'not-the-desks-own', waitSeconds: 30, deskPinNeeds: 'partner-password' });
    expect(await refusal('setDeskPin', { pin: 'harbour-99', partnerPassword: partner.password })).toMatchObject({ reason: 'sign-in.wait' });
  });

  it('a sandbox-only training desk, with no partner connection to prove anything, is set again after the wait', async () => {
    await ok('useSandbox');
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    await ok('lockSession', { reason: 'staff' });
    keychainOf(vault).entries.delete(DESK_RECORDS.signIn);
    writeFileSync(join(dir, 'sign-in.json'), '{}');
    await reopen();
    expect((await ok('appInfo')).signIn).toMatchObject({ ready: false, reestablish: 'missing', deskPinNeeds: 'nothing', waitSeconds: 30 });
    expect(await refusal('setDeskPin', { pin: 'birch-2027' })).toMatchObject({ reason: 'sign-in.wait' });
    clock.advance(30_000);
    await ok('setDeskPin', { pin: 'birch-2027' });
    await ok('startShift', { staffName: 'JD', pin: 'birch-2027' });
  });
});

describe('proof that cannot be minted on the spot', () => {
  let theirs: SandboxHandle;
  beforeAll(async () => { theirs = await startSandbox({ catalogSize: 50, password: 'colleague-own-pass' }); });
  afterAll(async () => { await theirs.close(); });
  const theirProfile = (id?: string) => ({
    profile: { ...(id ? { id } : {}), name: 'Mine', baseUrl: theirs.url, libraries: [{ libraryId: theirs.libraries[0]!.libraryId }], country: 'US' },
    username: theirs.username, password: theirs.password,
  });

  async function partnerDeskOnShift(): Promise<void> {
    await restart({ deskPin: 'none' });
    await ok('savePartnerProfile', partnerProfile(partner.password));
    await ok('setDeskPin', { pin: 'harbour-77', partnerPassword: partner.password });
    await ok('startShift', { staffName: 'Colleague', pin: 'harbour-77' });
  }

  it('a connection added in this shift, made active, does not prove who may set the PIN — on shift, locked, or after a restart', async () => {
    await partnerDeskOnShift();
    await ok('savePartnerProfile', theirProfile());
    expect((await ok('appInfo')).activeProfile).toMatchObject({ name: 'Mine' });
    expect((await ok('appInfo')).signIn).toMatchObject({ deskPinNeeds: 'partner-password', partnerProfile: 'Main branch' });
    expect(await refusal('setDeskPin', { pin: 'lockout-1', partnerPassword: theirs.password })).toMatchObject({ code: 'unauthorized', reason: 'pin.partner-password-wrong', params: { profile: 'Main branch' } });
    await ok('lockSession', { reason: 'staff' });
    expect(await refusal('setDeskPin', { pin: 'lockout-1', partnerPassword: theirs.password })).toMatchObject({ reason: 'pin.partner-password-wrong' });
    await restart();
    expect(await refusal('setDeskPin', { pin: 'lockout-1', partnerPassword: theirs.password })).toMatchObject({ reason: 'pin.partner-password-wrong' });
    // The real partner password still works, and colleagues still sign in with theirs.
    await ok('startShift', { staffName: 'Colleague', pin: 'harbour-77' });
  });

  it('the only connection re-addressed in this shift proves nothing until the next shift', async () => {
    await partnerDeskOnShift();
    await ok('savePartnerProfile', theirProfile('main-branch'));
    expect((await ok('appInfo')).signIn).toMatchObject({ deskPinNeeds: 'next-shift', partnerProfile: 'Mine' });
    expect(await refusal('setDeskPin', { pin: 'lockout-1', partnerPassword: theirs.password })).toMatchObject({ reason: 'pin.connection-too-new', params: { profile: 'Mine' } });
    await ok('lockSession', { reason: 'staff' });
    expect(await refusal('setDeskPin', { pin: 'lockout-1', partnerPassword: theirs.password })).toMatchObject({ reason: 'pin.connection-too-new' });
  });

  it('under IT\'s profileEditing: false, staff cannot add, re-address or remove a connection', async () => {
    await partnerDeskOnShift();
    await restart({ policy: { version: 1, profileEditing: false } });
    await ok('startShift', { staffName: 'Colleague', pin: 'harbour-77' });
    const setByIt = { code: 'invalid-input', reason: 'policy.profiles-set-by-it' };
    expect(await refusal('savePartnerProfile', theirProfile())).toMatchObject(setByIt);
    expect(await refusal('savePartnerProfile', theirProfile('main-branch'))).toMatchObject(setByIt);
    expect(await refusal('removeProfile', { profileId: 'main-branch' })).toMatchObject(setByIt);
    expect((await ok('appInfo')).managed).toMatchObject({ profileEditing: false });
    expect(await vault.read('main-branch')).toMatchObject({ password: partner.password });
    // New credentials for the same address are still the desk's to keep.
    await ok('replaceCredentials', { profileId: 'main-branch', username: partner.username, password: partner.password });
  });
});
