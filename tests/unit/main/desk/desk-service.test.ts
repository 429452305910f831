// DeskService through the contract's dispatcher, against the sandbox over HTTP, a real
// settings file (conf) and the real keychain: first run, partner connections, shifts and
// locks, patron work, and no secret in any result or log line.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { METHOD_NAMES, type EventPayloads, type MethodName, type Result } from '../../../../electron/shared/contract.ts';
import { createKeytarVault, type CredentialVault } from '../../../../electron/main/credentials/index.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import type { createFileLogger } from '../../../../electron/node/logging/logger.ts';
import { createNodeDesk, keychainOf, type NodeDeskOptions } from '../../../support/node-desk.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import { sandboxOverHttp } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { memoryClipboard } from '../../../../electron/main/desk/clipboard.ts';
import { ACTION_LOG_KEY_ACCOUNT, keychainLogKey } from '../../../../electron/main/action-log/log-key.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';

let partner: SandboxHandle; // plays the real partner service
let dir: string;
let vault: CredentialVault;
let keychainService: string;
let events: EventPayloads['sessionLocked'][];
let authHeaders: string[];
let desk: DeskService;
/** The built-in sandbox of the desk under test, over HTTP so the tests can steer it. */
let builtIn: SandboxHandle | undefined;
let logger: ReturnType<typeof createFileLogger>;

function newDesk(extra: Partial<NodeDeskOptions> = {}): DeskService {
  logger?.close();
  const created = createNodeDesk({
    dir,
    vault,
    fetch: async (input, init) => {
      const auth = new Headers(init.headers).get('authorization');
      if (auth) authHeaders.push(auth);
      return fetch(input, init);
    },
    sandbox: async () => {
      builtIn = await startSandbox({ catalogSize: 1500 });
      return sandboxOverHttp(builtIn);
    },
    version: '9.9.9-test',
    emit: (event, payload) => { if (event === 'sessionLocked') events.push(payload as EventPayloads['sessionLocked']); },
    clientOptions: { sleep: async () => {}, timeoutMs: 3000 },
    actionLogKey: keychainLogKey({ service: keychainService }),
    ...extra,
  });
  logger = created.logger;
  return created.desk;
}

async function call<M extends MethodName>(name: M, args?: unknown): Promise<Result<unknown>> {
  const result = await dispatch(desk, name, args);
  results.push(JSON.stringify(result));
  return result;
}
const results: string[] = [];

async function ok<T = any>(name: MethodName, args?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const result = await call(name, args);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

beforeAll(async () => {
  partner = await startSandbox({ catalogSize: 1500, password: 'partner-secret-Pa55!' });
});
afterAll(async () => { await partner.close(); });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'desk-service-'));
  keychainService = `Lending Desk unit ${randomUUID()}`;
  vault = createKeytarVault({ service: keychainService });
  events = [];
  authHeaders = [];
  desk = newDesk();
});
afterEach(async () => {
  await desk.close();
  logger.close();
  for (const id of ['main-branch', 'main-branch-2', ACTION_LOG_KEY_ACCOUNT]) await vault.forget(id);
  rmSync(dir, { recursive: true, force: true });
});

const partnerProfile = (password: string) => ({
  profile: { name: 'Main branch', baseUrl: partner.url, libraries: partner.libraries.slice(0, 2).map((l) => ({ libraryId: l.libraryId })), country: 'US' },
  username: partner.username,
  password,
});

describe('first run and the sandbox', () => {
  it('starts unconfigured, then the sandbox is one call away with its libraries and demo cards', async () => {
    expect(await ok('appInfo')).toMatchObject({ mode: 'unconfigured', version: '9.9.9-test', preferences: { idleLockMinutes: 5, language: 'en' } });
    expect(await ok('useSandbox')).toMatchObject({ mode: 'sandbox', activeProfile: { id: 'sandbox', kind: 'sandbox' }, signIn: { method: 'desk-pin', ready: true } });
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    const info = await ok('appInfo');
    expect(info.sandbox.libraries.length).toBeGreaterThanOrEqual(3);
    expect(info.activeProfile.libraries.map((l: { libraryId: number }) => l.libraryId)).toEqual(info.sandbox.libraries.map((l: { libraryId: number }) => l.libraryId));
  });

  it('refuses patron work until a shift is open, and after a lock', async () => {
    expect((await ok('useSandbox')).sandbox).toBeUndefined(); // no patron on a locked desk, not even a demo one
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    const { libraryId, cards } = (await ok('appInfo')).sandbox.libraries[0];
    await ok('lockSession', { reason: 'staff' });
    expect(await call('lookupPatron', { libraryId, card: cards[0] })).toMatchObject({ ok: false, error: { code: 'session-locked' } });
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    const view = await ok('lookupPatron', { libraryId, card: cards[0] });
    expect(view).toMatchObject({ libraryId, status: { borrowsAllowedPerMonth: expect.any(Number) }, problems: [] });
    await ok('lockSession', { reason: 'idle' });
    expect(events).toEqual([{ reason: 'staff' }, { reason: 'idle' }]);
    expect((await ok('appInfo')).session).toBeUndefined();
    expect(await call('lookupPatron', { libraryId, card: cards[0] })).toMatchObject({ ok: false, error: { code: 'session-locked' } });
  });

  it('refuses a library that is not part of the active connection', async () => {
    await ok('useSandbox');
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    expect(await call('lookupPatron', { libraryId: 999999, card: '1234' })).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringMatching(/not part of the connection/) } });
  });
});

describe('a partner connection', () => {
  it('with a wrong password: a clear error and nothing saved, not in settings, not in the keychain', async () => {
    await ok('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
    const settingsFile = join(dir, 'settings.json');
    const before = (() => { try { return readFileSync(settingsFile, 'utf8'); } catch { return undefined; } })();
    const result = await call('savePartnerProfile', partnerProfile('wrong-password'));
    expect(result).toMatchObject({ ok: false, error: { code: 'unauthorized', message: expect.stringMatching(/username or password/) } });
    expect(await vault.has('main-branch')).toBe(false);
    const after = (() => { try { return readFileSync(settingsFile, 'utf8'); } catch { return undefined; } })();
    expect(after).toBe(before);
    expect(await ok('listProfiles')).toEqual([]);
  });

  it('with the right password: saved in the keychain and settings; a restarted desk connects without asking', async () => {
    const info = await ok('savePartnerProfile', partnerProfile(partner.password));
    expect(info).toMatchObject({ mode: 'partner', activeProfile: { id: 'main-branch', hasCredentials: true, baseUrl: partner.url } });
    expect(await vault.read('main-branch')).toEqual({ username: partner.username, password: partner.password, origin: new URL(partner.url).origin });
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain(partner.password);

    await desk.close();
    desk = newDesk();
    expect(await ok('appInfo')).toMatchObject({ mode: 'partner', activeProfile: { id: 'main-branch', hasCredentials: true } });
    await ok('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
    const { libraryId, cards } = partner.libraries[0]!;
    await expect(ok('lookupPatron', { libraryId, card: cards[0] })).resolves.toHaveProperty('status');
  });

  it('replaces and forgets credentials; without them, work says where to enter them', async () => {
    await ok('savePartnerProfile', partnerProfile(partner.password));
    await ok('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
    expect(await call('replaceCredentials', { profileId: 'main-branch', username: partner.username, password: 'nope' }))
      .toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(await vault.read('main-branch')).toEqual({ username: partner.username, password: partner.password, origin: new URL(partner.url).origin });
    await ok('forgetCredentials', { profileId: 'main-branch' });
    expect(await vault.has('main-branch')).toBe(false);
    await ok('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
    const { libraryId, cards } = partner.libraries[0]!;
    expect(await call('lookupPatron', { libraryId, card: cards[0] })).toMatchObject({ ok: false, error: { code: 'unauthorized', message: expect.stringMatching(/Settings/) } });
    await ok('replaceCredentials', { profileId: 'main-branch', username: partner.username, password: partner.password });
    await expect(ok('lookupPatron', { libraryId, card: cards[0] })).resolves.toHaveProperty('loans');
  });

  it('switches between profiles and removes one (its keychain entry too)', async () => {
    await ok('savePartnerProfile', partnerProfile(partner.password));
    await ok('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
    await ok('useSandbox');
    expect((await ok('listProfiles')).map((p: { id: string }) => p.id).sort()).toEqual(['main-branch', 'sandbox']);
    expect(await ok('activateProfile', { profileId: 'main-branch' })).toMatchObject({ mode: 'partner' });
    expect(await call('activateProfile', { profileId: 'ghost' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await ok('removeProfile', { profileId: 'main-branch' })).toMatchObject({ mode: 'unconfigured' });
    expect(await vault.has('main-branch')).toBe(false);
  });

  it('updates preferences and refuses bad ones, keeping the old', async () => {
    await ok('useSandbox');
    await ok('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
    expect(await ok('updatePreferences', { idleLockMinutes: 12, language: 'fr-CA' })).toEqual({ idleLockMinutes: 12, language: 'fr-CA' });
    expect(await call('updatePreferences', { idleLockMinutes: 500 })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect((await ok('appInfo')).preferences).toEqual({ idleLockMinutes: 12, language: 'fr-CA' });
  });
});

describe('secrets', () => {
  it('no result and no log line holds the password, a bearer token or a full card number', async () => {
    results.length = 0;
    const card = partner.libraries[0]!.cards[1]!;
    const libraryId = partner.libraries[0]!.libraryId;
    await call('savePartnerProfile', partnerProfile('wrong-password'));
    await ok('savePartnerProfile', partnerProfile(partner.password));
    await ok('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
    await ok('testPartnerConnection', { baseUrl: partner.url, username: partner.username, password: partner.password });
    const contentIds = [1, 2, 3, 4, 5, 6, 7, 8];
    const availability = await ok('liveAvailability', { libraryId, contentIds });
    const instant = availability.find((a: { purchaseModel?: string; status?: string }) => a.purchaseModel === 'INSTANT' && a.status === 'BORROW');
    const flex = availability.find((a: { purchaseModel?: string; status?: string }) => a.purchaseModel === 'FLEX');
    const called = new Set<string>();
    const drive = async (name: MethodName, args?: unknown) => { called.add(name); await call(name, args); };
    await drive('appInfo');
    await drive('listProfiles');
    await drive('lookupPatron', { libraryId, card });
    await drive('findCardElsewhere', { libraryId, card });
    await drive('lookupPatron', { libraryId, card: '99999999999999' });
    await drive('liveSearch', { libraryId, q: 'the' });
    await drive('liveAvailability', { libraryId, contentIds });
    await drive('borrow', { libraryId, card, contentId: instant?.contentId ?? 1 });
    await drive('returnTitle', { libraryId, card, contentId: instant?.contentId ?? 1 });
    await drive('placeHold', { libraryId, card, contentId: flex?.contentId ?? 2 });
    await drive('removeHold', { libraryId, card, contentId: flex?.contentId ?? 2 });
    await drive('updatePreferences', { idleLockMinutes: 7 });
    await drive('testPartnerConnection', { baseUrl: partner.url, username: partner.username, password: 'bad' });
    await drive('replaceCredentials', { profileId: 'main-branch', username: partner.username, password: partner.password });
    await drive('savePartnerProfile', { ...partnerProfile(partner.password), profile: { ...partnerProfile(partner.password).profile, name: 'Main branch' } });
    await drive('activateProfile', { profileId: 'main-branch' });
    await drive('useSandbox');
    await drive('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
    await drive('copyText', { text: `Loans of ${card}`, purpose: 'card' });
    await drive('reportActivity');
    await drive('lockSession', { reason: 'staff' });
    await drive('setDeskPin', { pin: '97531864', currentPin: TEST_DESK_PIN });
    await drive('startShift', { staffName: 'Ana', pin: '97531864' });
    await drive('forgetCredentials', { profileId: 'main-branch' });
    await drive('syncStatus');
    await drive('syncNow', {});
    await drive('collectionBrowse', { libraryId, text: 'the', limit: 20 });
    await drive('collectionTitle', { libraryId, contentId: contentIds[0] });
    await drive('titleContents', { libraryId, titleIds: contentIds.slice(0, 3) });
    await drive('lookUpTitles', { libraryId, titleIds: contentIds.slice(0, 2) });
    await drive('collectionLiveAvailability', { libraryId, contentIds });
    await drive('listActions', { limit: 50 });
    await drive('exportActions');
    await drive('todaysActions', { libraryId, card });
    // A desk on its own: no library mirror, and its password cannot be typed here (whatever is sent stays out of answers and the log).
    await drive('libraryMirror');
    await drive('setLibraryMirrorPassword', { password: partner.password });
    // Nor a library server: nothing to enrol with.
    await drive('libraryServer');
    await drive('enrolDesk', { code: 'K7QM-2ZTB-9XWD-4HNA' });
    // Nor an audit trail of a server's (issue #32).
    await drive('readAuditTrail', { offset: 0, limit: 10 });
    await drive('removeProfile', { profileId: 'main-branch-2' });
    await drive('cancelCalls', { callIds: ['s1-1'] });
    expect([...called].sort()).toEqual([...METHOD_NAMES].sort());

    const tokens = [...new Set(authHeaders.filter((h) => h.startsWith('Bearer ')).map((h) => h.slice(7)))];
    expect(tokens.length).toBeGreaterThan(0);
    const logText = [...readdirSync(join(dir, 'logs')).map((f) => join(dir, 'logs', f)), join(dir, 'action-log.jsonl')]
      .map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(logText).toContain('patron.action');
    // Settings, and the desk's records in its keychain (the sign-in record, connections, the log's head).
    const settingsText = readFileSync(join(dir, 'settings.json'), 'utf8') + [...keychainOf(vault).entries.values()].join('\n');
    const haystacks = { results: results.join('\n'), logs: logText, settings: settingsText };
    for (const [where, text] of Object.entries(haystacks)) {
      for (const pin of [TEST_DESK_PIN, '97531864']) expect(text, `${where}: a PIN`).not.toContain(pin);
      expect(text, `${where}: password`).not.toContain(partner.password);
      expect(text, `${where}: Basic credentials`).not.toContain(Buffer.from(`${partner.username}:${partner.password}`).toString('base64'));
      for (const token of tokens) expect(text, `${where}: bearer token`).not.toContain(token);
    }
    expect(logText, 'logs: full card').not.toContain(card);
    expect(logText, 'logs: unknown full card').not.toContain('99999999999999');
    const patronResults = results.filter((r) => !r.includes('"sandbox":{')); // the sandbox's demo card list is training data, shown on purpose
    expect(patronResults.join('\n'), 'results: full card').not.toContain(card);
  });
});

/** The sandbox in use, a shift open for "Jo", a fresh patron's card and an Instant title free to borrow. */
async function sandboxShiftWithInstantTitle(): Promise<{ libraryId: number; card: string; instant: { contentId: number } }> {
  await ok('useSandbox');
  await ok('startShift', { staffName: 'Jo', pin: TEST_DESK_PIN });
  const { libraryId, cards } = (await ok('appInfo')).sandbox.libraries[0];
  const availability = await ok('liveAvailability', { libraryId, contentIds: Array.from({ length: 60 }, (_, i) => i + 1) });
  const instant = availability.find((a: { purchaseModel?: string; status?: string }) => a.purchaseModel === 'INSTANT' && a.status === 'BORROW');
  return { libraryId, card: cards[0] as string, instant };
}

describe('the action log', () => {
  it('records every on-behalf action with staff, OS user, profile, library, masked card, title and outcome, sealed on disk; exports the entries', async () => {
    await desk.close();
    // The desk PIN records the name chosen from IT's list; IT lets this one-person desk's PIN read and export the log (issue #35).
    desk = newDesk({ osUserName: () => 'circ-desk-2', policy: { version: 1, deskPinNames: ['Jo'], deskPinRole: 'manager' } });
    const { libraryId, card, instant } = await sandboxShiftWithInstantTitle();
    await ok('borrow', { libraryId, card, contentId: instant.contentId, title: '=HYPERLINK("x")' });
    expect(await call('borrow', { libraryId, card, contentId: instant.contentId, title: 'Again' })).toMatchObject({ ok: false, error: { code: 'already-borrowed' } });
    await ok('returnTitle', { libraryId, card, contentId: instant.contentId });

    const page = await ok('listActions', {});
    // Reading the log is itself an entry: who, when, which filter (here none), and nothing about a patron.
    expect(page).toMatchObject({ total: 4, skipped: 0 });
    expect(page.entries.map((e: { action: string; outcome: string }) => `${e.action}:${e.outcome}`)).toEqual(['log-read:ok', 'return:ok', 'borrow:already-borrowed', 'borrow:ok']);
    expect(page.entries[0]).toEqual({ time: expect.any(Number), staff: 'Jo', deskPin: true, osUser: 'circ-desk-2', profile: 'Built-in sandbox', libraryId: 0, card: '', action: 'log-read', contentId: 0, outcome: 'ok', filter: {} });
    expect(page.entries[3]).toEqual({
      time: expect.any(Number), staff: 'Jo', deskPin: true, osUser: 'circ-desk-2', profile: 'Built-in sandbox', libraryId, libraryName: expect.stringContaining('('),
      card: `••••${card.slice(-4)}`, action: 'borrow', contentId: instant.contentId, title: '=HYPERLINK("x")', outcome: 'ok', confirmedByReread: false,
    });
    const exported = await ok('exportActions', { pin: TEST_DESK_PIN });
    expect(exported.fileName).toMatch(/^lending-desk-actions-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(exported.entries.map((e: { action: string }) => e.action)).toEqual(['borrow', 'borrow', 'return', 'log-read', 'log-export']);
    expect(await ok('exportActions', { outcome: 'failed', pin: TEST_DESK_PIN })).toMatchObject({ entries: [{ outcome: 'already-borrowed', title: 'Again' }] });
    expect((await ok('listActions', { staff: 'jo' })).entries.slice(0, 2)).toMatchObject([{ action: 'log-read', filter: { staff: 'jo' } }, { action: 'log-export', filter: { outcome: 'failed' } }]);
    expect(JSON.stringify([page, exported])).not.toContain(card);
    // On disk, the entries are sealed: no title, staff name, card ending or library in the clear.
    const onDisk = readFileSync(join(dir, 'action-log.jsonl'), 'utf8');
    for (const clear of ['HYPERLINK', 'Again', '"staff"', 'circ-desk-2', `••••${card.slice(-4)}`, 'Built-in sandbox', 'borrow']) expect(onDisk).not.toContain(clear);
    // And the app log says that it happened, not to whom or what.
    const appLog = readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8');
    expect(appLog).toContain('"event":"patron.action"');
    for (const kept of ['HYPERLINK', 'Again', card.slice(-4), `"contentId":${instant.contentId}`]) expect(appLog).not.toContain(kept);
  });
});

describe('double submission', () => {
  it('joins a repeated borrow to the one under way: one request, one loan, one log entry', async () => {
    const { libraryId, card, instant } = await sandboxShiftWithInstantTitle();
    const sandbox = builtIn!;
    sandbox.control.resetRequestCounts();
    const args = { libraryId, card, contentId: instant.contentId };
    const [first, second] = await Promise.all([call('borrow', args), call('borrow', args)]);
    expect(first).toMatchObject({ ok: true });
    expect(second).toEqual(first);
    expect(sandbox.control.requestCounts().borrow).toBe(1);
    const view = await ok('lookupPatron', { libraryId, card });
    expect(view.loans.filter((l: { contentId: number }) => l.contentId === instant.contentId)).toHaveLength(1);
    expect((await ok('listActions', {})).entries.filter((e: { action: string }) => e.action === 'borrow')).toHaveLength(1);
  });
});

describe('a managed desk (policy file)', () => {
  it('opens on the preset connection, hides the sandbox, locks what the policy names, and says so', async () => {
    await desk.close();
    desk = newDesk({
      version: 'managed',
      policy: {
        version: 1, sandboxOffered: false, idleLockMinutes: 3, updates: { mode: 'it-managed' },
        profiles: [{ id: 'main-branch', name: 'Main branch', kind: 'partner', baseUrl: partner.url, libraries: [{ libraryId: partner.libraries[0]!.libraryId }], wsApi: '2.1', country: 'US' }],
      },
    });
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    const info = await ok('appInfo');
    expect(info).toMatchObject({
      mode: 'partner', activeProfile: { id: 'main-branch', hasCredentials: false }, preferences: { idleLockMinutes: 3 },
      managed: { profiles: true, lockedProfileIds: ['main-branch'], idleLockMinutes: true, sandboxAvailable: false, updateMode: 'it-managed' },
    });
    expect(await call('useSandbox')).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringMatching(/IT/) } });
    expect(await call('removeProfile', { profileId: 'main-branch' })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/cannot be removed/) } });
    expect(await call('updatePreferences', { idleLockMinutes: 30 })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/idle lock is set/) } });
    await expect(ok('updatePreferences', { language: 'fr-CA' })).resolves.toEqual({ idleLockMinutes: 3, language: 'fr-CA' });
    // Credentials still come from this PC's keychain.
    await ok('replaceCredentials', { profileId: 'main-branch', username: partner.username, password: partner.password });
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    await expect(ok('lookupPatron', { libraryId: partner.libraries[0]!.libraryId, card: partner.libraries[0]!.cards[0] })).resolves.toHaveProperty('status');
  });
});

describe('the catalog through the contract', () => {
  it('syncs the sandbox on a worker with progress events, then browses, opens and refreshes a title', async () => {
    const progress: unknown[] = [];
    await desk.close();
    desk = newDesk({ emit: (event, payload) => { if (event === 'syncProgress') progress.push(payload); } });
    expect(await call('syncStatus')).toMatchObject({ ok: false, error: { code: 'session-locked' } });
    await ok('startShift', { staffName: 'Jo', pin: TEST_DESK_PIN });
    expect(await ok('syncStatus')).toMatchObject({ available: false });
    const { libraryId } = await sandboxShiftWithInstantTitle();
    const status = await ok('syncNow', {});
    expect(status.available).toBe(true);
    expect(status.counts.titles).toBeGreaterThan(0);
    expect(progress.length).toBeGreaterThan(0);
    const page = await ok('collectionBrowse', { libraryId, model: 'FLEX', limit: 5 });
    expect(page.total).toBeGreaterThan(5);
    expect(page.rows).toHaveLength(5);
    const first = page.rows[0];
    expect(await ok('collectionTitle', { libraryId, contentId: first.contentId })).toMatchObject({ contentId: first.contentId, purchaseModel: 'FLEX' });
    const [refreshed] = await ok('collectionLiveAvailability', { libraryId, contentIds: [first.contentId] });
    expect(refreshed.availability).toMatchObject({ status: expect.stringMatching(/BORROW|HOLD|UNAVAILABLE/), readAt: expect.any(Number) });
    expect(await call('collectionBrowse', { libraryId: 999_999 })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });
});

describe('the clipboard on a shared desk', () => {
  it('a copied slip is cleared at the lock, unless staff copied something else since', async () => {
    const clipboard = memoryClipboard();
    await desk.close();
    desk = newDesk({ clipboard });
    await ok('useSandbox');
    expect(await call('copyText', { text: 'Loans for ••••0002', purpose: 'slip' })).toMatchObject({ ok: false, error: { code: 'session-locked' } });
    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    await ok('copyText', { text: 'Loans for ••••0002', purpose: 'slip' });
    expect(clipboard.text).toBe('Loans for ••••0002');
    await ok('lockSession', { reason: 'idle' });
    expect(clipboard.text).toBe('');

    await ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    await ok('copyText', { text: 'Loans for ••••0005', purpose: 'slip' });
    clipboard.text = 'a phone number staff copied from elsewhere';
    await ok('lockSession', { reason: 'staff' });
    expect(clipboard.text).toBe('a phone number staff copied from elsewhere');
  });
});

describe("main's background tasks", () => {
  it('are the idle lock, the log\'s retention and the Collection\'s four, on main\'s intervals; the retention runs at start; closing the desk stops them all', async () => {
    const armed = new Map<number, number>();
    let ids = 0;
    let retentionArmed: (ms: number) => void = () => {};
    const retention = new Promise<number>((resolve) => { retentionArmed = resolve; });
    const timers = {
      setTimeout: (_run: () => void, ms: number) => {
        armed.set((ids += 1), ms);
        if (ids === 6) retentionArmed(ms); // the retention's wait, armed once its first purge has ended
        return ids as unknown as ReturnType<typeof setTimeout>;
      },
      clearTimeout: (timer: ReturnType<typeof setTimeout>) => { armed.delete(timer as unknown as number); },
    };
    expect(desk.background.names).toEqual(['idle-lock', 'retention', 'availability-refresh', 'full-pass', 'catalog-refresh', 'library-fill']);
    desk.background.start({ timers });
    // Armed as they start: the idle lock, the availability refresh, the full pass, the catalog refresh, the library fill.
    expect([...armed.values()]).toEqual([15_000, 600_000, 3_600_000, 600_000, 15_000]);
    const untilMidnight = await retention;
    expect(untilMidnight).toBeGreaterThan(0);
    expect(untilMidnight).toBeLessThanOrEqual(86_400_000);
    expect(readFileSync(logger.path, 'utf8')).toContain('action-log.purged');
    await desk.close();
    expect([...armed.values()]).toEqual([]);
  });
});
