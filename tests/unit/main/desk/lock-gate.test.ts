// While the desk is locked the contract answers nothing about a patron, the catalog, the action
// log, connections or credentials — tried as a page (or a compromised renderer) would: every
// method in METHOD_NAMES, called with arguments that would work on shift, through dispatch and
// straight on DeskService, and the sandbox's request log read to see that nothing was sent. The
// table (lock-gate.ts) is the one place that decides: every contract method is in it, and no
// other module of the desk refuses a call for the lock.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryVault } from '../../../../electron/main/credentials/index.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { WHILE_LOCKED } from '../../../../electron/main/desk/lock-gate.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import { createSandboxService, type SandboxService } from '../../../../electron/main/sandbox/server.ts';
import { inProcessSandbox } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { METHOD_NAMES, METHODS, type AppInfo, type MethodName, type Result } from '../../../../electron/shared/contract.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { createNodeDesk } from '../../../support/node-desk.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';
import { answerOf } from '../../../support/desk-calls.ts';

let dir: string;
let desk: DeskService;
let sandbox: SandboxService | undefined;
let closeLog: () => void;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lock-gate-'));
  const created = createNodeDesk({ dir, vault: createMemoryVault(), sandbox: async () => inProcessSandbox((sandbox = createSandboxService({ catalogSize: 300 }))) });
  desk = created.desk;
  closeLog = () => created.logger.close();
});
afterEach(async () => {
  await desk.close();
  closeLog();
  rmSync(dir, { recursive: true, force: true });
});

const call = (name: MethodName, args?: unknown): Promise<Result<unknown>> => dispatch(desk, name, args);
async function ok<T>(name: MethodName, args?: unknown): Promise<T> {
  return answerOf<T>(desk, name, args);
}

/** Arguments each method would accept on shift, for the sandbox's first library and a demo patron. */
function workingArguments(libraryId: number, card: string): Record<MethodName, unknown> {
  const title = { libraryId, card, contentId: 1, title: 'A title' };
  const partner = { username: 'someone', password: 'their-password' };
  return {
    appInfo: undefined, listProfiles: undefined, useSandbox: undefined, syncStatus: undefined, reportActivity: undefined,
    testPartnerConnection: { baseUrl: 'https://lending.example.org', ...partner },
    savePartnerProfile: { profile: { name: 'Elsewhere', baseUrl: 'https://lending.example.org', libraries: [{ libraryId: 1 }], country: 'US' }, ...partner },
    replaceCredentials: { profileId: 'sandbox', ...partner }, forgetCredentials: { profileId: 'sandbox' },
    activateProfile: { profileId: 'sandbox' }, removeProfile: { profileId: 'sandbox' },
    updatePreferences: { idleLockMinutes: 240 }, startShift: { staffName: 'Anyone', pin: '000000' }, lockSession: { reason: 'staff' },
    setDeskPin: { pin: 'mine-now-1' }, copyText: { text: 'slip', purpose: 'slip' },
    lookupPatron: { libraryId, card }, findCardElsewhere: { libraryId, card }, borrow: title, returnTitle: title, placeHold: title, removeHold: title,
    liveSearch: { libraryId, q: 'the' }, liveAvailability: { libraryId, contentIds: [1, 2] },
    listActions: {}, exportActions: {}, todaysActions: { libraryId, card },
    collectionBrowse: { libraryId }, collectionTitle: { libraryId, contentId: 1 }, collectionLiveAvailability: { libraryId, contentIds: [1] },
    syncNow: { full: false }, titleContents: { libraryId, titleIds: [1] }, lookUpTitles: { libraryId, titleIds: [1] },
    libraryMirror: undefined, setLibraryMirrorPassword: { password: 'a-password' },
    cancelCalls: { callIds: ['s1-1'] },
    libraryServer: undefined, enrolDesk: { code: 'ABCD-EFGH-JKMN-PQRS' }, readAuditTrail: { offset: 0, limit: 10 },
  };
}

/** The sandbox in use, one shift to learn a demo card and to record an action, then locked. */
async function lockedSandboxDesk(): Promise<{ libraryId: number; card: string }> {
  await ok('useSandbox');
  await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
  const { libraryId, cards } = (await ok<AppInfo>('appInfo')).sandbox!.libraries[0]!;
  const card = cards[0]!;
  await ok('placeHold', { libraryId, card, contentId: 2, title: 'Held before the lock' }).catch(() => undefined);
  await ok('lockSession', { reason: 'idle' });
  return { libraryId, card };
}

/** The methods the gate refuses on a locked desk that was set up: all but the open ones. */
const refusedWhileLocked = (): MethodName[] => METHOD_NAMES.filter((name) => WHILE_LOCKED[name] !== 'open');

describe('the lock gate', () => {
  it('classifies every contract method, and only those: a method added to the contract and not to the table fails here', () => {
    expect(Object.keys(WHILE_LOCKED).sort()).toEqual([...METHOD_NAMES].sort());
    for (const name of METHOD_NAMES) expect(['open', 'before-any-connection', 'language-only', 'refused'], name).toContain(WHILE_LOCKED[name]);
  });

  it('is the one lock check: no other module of the desk refuses a call for the lock', () => {
    const desk = join(REPO_ROOT, 'electron', 'main', 'desk');
    const checking = readdirSync(desk, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && /session-locked|session\.locked|requireShift/.test(readFileSync(join(desk, file), 'utf8')));
    expect(checking).toEqual(['lock-gate.ts']);
  });

  it('names the open methods, and refuses every patron, catalog, log, export, profile and credential method', () => {
    const open = METHOD_NAMES.filter((name) => WHILE_LOCKED[name] === 'open').sort();
    // enrolDesk proves itself with IT's one-time code; libraryServer names a server and whether this desk is enrolled.
    expect(open).toEqual(['appInfo', 'cancelCalls', 'enrolDesk', 'libraryServer', 'lockSession', 'reportActivity', 'setDeskPin', 'startShift']);
    const firstRun = METHOD_NAMES.filter((name) => WHILE_LOCKED[name] === 'before-any-connection').sort();
    expect(firstRun).toEqual(['savePartnerProfile', 'testPartnerConnection', 'useSandbox']);
    expect(METHOD_NAMES.filter((name) => WHILE_LOCKED[name] === 'language-only')).toEqual(['updatePreferences']);
    for (const name of ['lookupPatron', 'borrow', 'returnTitle', 'placeHold', 'removeHold', 'todaysActions', 'copyText',
      'liveSearch', 'liveAvailability', 'collectionBrowse', 'collectionTitle', 'collectionLiveAvailability', 'syncStatus', 'syncNow',
      'listActions', 'exportActions', 'listProfiles', 'activateProfile', 'removeProfile', 'replaceCredentials', 'forgetCredentials',
      'libraryMirror', 'setLibraryMirrorPassword'] as MethodName[]) {
      expect(WHILE_LOCKED[name], name).toBe('refused');
    }
  });

  it('walks every contract method on a locked desk: each one not open answers session-locked and sends nothing', async () => {
    const { libraryId, card } = await lockedSandboxDesk();
    const args = workingArguments(libraryId, card);
    sandbox!.control.resetRequestCounts();
    const refused = refusedWhileLocked();
    expect(refused.length).toBeGreaterThan(20);
    for (const name of refused) {
      expect(await call(name, args[name]), name).toMatchObject({ ok: false, error: { code: 'session-locked', reason: 'session.locked' } });
    }
    expect(Object.values(sandbox!.control.requestCounts()).reduce((a, b) => a + b, 0)).toBe(0);
    // appInfo answers, with no patron in it: no shift, no demo cards.
    const info = await call('appInfo') as Result<AppInfo>;
    expect(info.ok && info.value.session).toBeUndefined();
    expect(info.ok && info.value.sandbox).toBeUndefined();
    expect(JSON.stringify(info)).not.toContain(card);
    expect(JSON.stringify(info)).not.toContain('Held before the lock');
  });

  it('holds for calls straight on DeskService too (main, a bench), not only through dispatch: every method not open', async () => {
    const { libraryId, card } = await lockedSandboxDesk();
    const args = workingArguments(libraryId, card);
    sandbox!.control.resetRequestCounts();
    for (const name of refusedWhileLocked()) {
      const method = desk[name] as (args: unknown) => Promise<unknown>;
      await expect(method.call(desk, METHODS[name].args.parse(args[name])), name).rejects.toMatchObject({ code: 'session-locked' });
    }
    expect(Object.values(sandbox!.control.requestCounts()).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('changes the language while locked, but not the idle lock\'s minutes', async () => {
    await lockedSandboxDesk();
    expect(await ok('updatePreferences', { language: 'fr-CA' })).toEqual({ idleLockMinutes: 5, language: 'fr-CA' });
    expect(await call('updatePreferences', { idleLockMinutes: 240 })).toMatchObject({ ok: false, error: { code: 'session-locked' } });
    expect(await call('updatePreferences', { idleLockMinutes: 240, language: 'en' })).toMatchObject({ ok: false, error: { code: 'session-locked' } });
    expect((await ok<AppInfo>('appInfo')).preferences).toEqual({ idleLockMinutes: 5, language: 'fr-CA' });
  });

  it('answers the first-run methods only while no connection is set up', async () => {
    expect(await call('listProfiles')).toMatchObject({ ok: false, error: { code: 'session-locked' } });
    expect(await call('testPartnerConnection', { baseUrl: 'http://127.0.0.1:9/', username: 'u', password: 'p' })).toMatchObject({ ok: false, error: { code: 'network' } });
    await ok('useSandbox');
    expect(await call('useSandbox')).toMatchObject({ ok: false, error: { code: 'session-locked' } });
    expect(await call('testPartnerConnection', { baseUrl: 'http://127.0.0.1:9/', username: 'u', password: 'p' })).toMatchObject({ ok: false, error: { code: 'session-locked' } });
  });

  it('on a desk that had a shift, a settings.json edited to name no connection opens no first-run method (nobody adds or re-addresses one while locked)', async () => {
    await lockedSandboxDesk();
    const file = join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), activeProfileId: null }));
    expect((await ok<AppInfo>('appInfo'))).toMatchObject({ mode: 'unconfigured', signIn: { setUp: true } });
    for (const [name, args] of [['useSandbox', undefined], ['testPartnerConnection', { baseUrl: 'http://127.0.0.1:9/', username: 'u', password: 'p' }],
      ['savePartnerProfile', { profile: { id: 'sandbox-2', name: 'Mine', baseUrl: 'http://127.0.0.1:9/', libraries: [{ libraryId: 1 }], country: 'US' }, username: 'u', password: 'p' }]] as const) {
      expect(await call(name, args), name).toMatchObject({ ok: false, error: { code: 'session-locked' } });
    }
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    await ok('useSandbox');
  });

  it('opens everything once a PIN opens a shift, and shuts it all again at the lock', async () => {
    const { libraryId, card } = await lockedSandboxDesk();
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    await expect(ok('lookupPatron', { libraryId, card })).resolves.toHaveProperty('loans');
    expect((await ok<{ total: number }>('listActions', {})).total).toBeGreaterThan(0);
    await ok('lockSession', { reason: 'staff' });
    expect(await call('listActions', {})).toMatchObject({ ok: false, error: { code: 'session-locked' } });
  });
});
