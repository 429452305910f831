// One connection per profile, as a library IT person tries it: two partner services (two
// sandboxes over HTTP) with different passwords, a profile removed and re-added at the other
// address, settings.json edited by hand, and everything the desk sends watched at the socket.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKeytarVault, type CredentialVault } from '../../../../electron/main/credentials/index.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import { DatabaseSync } from 'node:sqlite';
import { Connection } from '../../../../electron/main/connection/connection.ts';
import { DeskMirror } from '../../../../electron/main/mirror/desk-mirror.ts';
import type { SourceState } from '../../../../electron/shared/collection.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import type { MethodName } from '../../../../electron/shared/contract.ts';
import { createClock, type Clock } from '../../../support/clock.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { createNodeDesk, keychainOf, type NodeDeskOptions } from '../../../support/node-desk.ts';
import { inProcessSandbox } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { createSandboxService } from '../../../../electron/main/sandbox/server.ts';
import { answerOf } from '../../../support/desk-calls.ts';

interface Sent { origin: string; path: string; authorization: string | null; at: number }

let serviceA: SandboxHandle;
let serviceB: SandboxHandle;
let dir: string;
let vault: CredentialVault;
let sent: Sent[];
let desk: DeskService;
let closeLog: () => void;

beforeAll(async () => {
  serviceA = await startSandbox({ catalogSize: 600, password: 'password-of-A-1' });
  serviceB = await startSandbox({ catalogSize: 600, password: 'password-of-B-2' });
});
afterAll(async () => {
  await serviceA.close();
  await serviceB.close();
});

function newDesk(extra: Partial<NodeDeskOptions> = {}): DeskService {
  const created = createNodeDesk({
    dir, vault,
    // The transport stand-in: every request the desk makes, sync and refresh included, passes here.
    fetch: async (input, init) => {
      const url = new URL(input);
      sent.push({ origin: url.origin, path: url.pathname, authorization: new Headers(init.headers).get('authorization'), at: (extra.now ?? Date.now)() });
      return fetch(input, init);
    },
    clientOptions: { sleep: async () => {}, timeoutMs: 3000 },
    ...extra,
  });
  closeLog = () => created.logger.close();
  return created.desk;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'connections-'));
  vault = createKeytarVault({ service: `Lending Desk connections ${randomUUID()}` });
  sent = [];
  desk = newDesk();
});
afterEach(async () => {
  await desk.close();
  closeLog();
  await vault.forget('main');
  rmSync(dir, { recursive: true, force: true });
});

async function ok<T = any>(name: MethodName, args?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return answerOf<T>(desk, name, args);
}

const basicOf = (service: SandboxHandle): string => `Basic ${Buffer.from(`${service.username}:${service.password}`).toString('base64')}`;
const originOf = (service: SandboxHandle): string => new URL(service.url).origin;
const mainAt = (service: SandboxHandle) => ({
  profile: { id: 'main', name: 'Main', baseUrl: service.url, libraries: [{ libraryId: 101 }], country: 'US' },
  username: service.username, password: service.password,
});
const card = (service: SandboxHandle): string => service.libraries.find((l) => l.libraryId === 101)?.cards[1] ?? '';
const mirrorFiles = (): string[] => (existsSync(join(dir, 'catalog')) ? readdirSync(join(dir, 'catalog')).filter((n) => n.endsWith('.db')) : []);

describe('a profile removed and re-added at another address', () => {
  it('sends everything to the new address with its own password, and starts a fresh mirror', async () => {
    await ok('savePartnerProfile', mainAt(serviceA));
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    await ok('syncNow', { full: false });
    expect(mirrorFiles()).toHaveLength(1);
    const mirrorOfA = mirrorFiles()[0];

    await ok('removeProfile', { profileId: 'main' });
    expect(mirrorFiles()).toEqual([]); // a removed profile's mirror is deleted
    const fromHere = sent.length;
    await ok('savePartnerProfile', mainAt(serviceB));
    expect((await ok('syncStatus')).counts.titles).toBe(0); // fresh: nothing of A's collection

    await ok('lookupPatron', { libraryId: 101, card: card(serviceB) });
    await ok('syncNow', { full: false });
    await ok('collectionLiveAvailability', { libraryId: 101, contentIds: [1, 2, 3] });
    await desk.background.runNow('availability-refresh');

    const after = sent.slice(fromHere);
    expect(after.length).toBeGreaterThan(10);
    expect(after.filter((s) => s.origin !== originOf(serviceB))).toEqual([]);
    expect(sent.filter((s) => s.origin === originOf(serviceA) && s.authorization === basicOf(serviceB))).toEqual([]);
    expect(mirrorFiles()).toHaveLength(1);
    expect(mirrorFiles()[0]).not.toBe(mirrorOfA);
  });
});

describe('settings.json edited by hand to another address', () => {
  it('is refused as changed outside the desk: nothing is sent there (nor to the old one), and nobody is asked its password', async () => {
    await ok('savePartnerProfile', mainAt(serviceA));
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    await ok('lookupPatron', { libraryId: 101, card: card(serviceA) });

    const file = join(dir, 'settings.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(serviceA.url, serviceB.url));
    const fromHere = sent.length;
    const changedOutside = { code: 'invalid-input', reason: 'connection.changed-outside', params: { profile: 'Main' } };
    expect(await dispatch(desk, 'lookupPatron', { libraryId: 101, card: card(serviceB) })).toMatchObject({ ok: false, error: changedOutside });
    expect(sent.slice(fromHere)).toEqual([]); // not to B, and not to A either
    expect((await ok('listProfiles'))[0]).toMatchObject({ id: 'main', baseUrl: serviceB.url, changedOutside: true });
    // Typing a password for that address is refused too: it would go to whoever edited the file.
    expect(await dispatch(desk, 'replaceCredentials', { profileId: 'main', username: serviceB.username, password: serviceB.password })).toMatchObject({ ok: false, error: changedOutside });
    expect(sent.slice(fromHere)).toEqual([]);
    // Put back as it was saved, it works again; removed and added anew, it is the desk's again.
    writeFileSync(file, readFileSync(file, 'utf8').replace(serviceB.url, serviceA.url));
    await ok('lookupPatron', { libraryId: 101, card: card(serviceA) });
  });

  it('refuses a keychain entry from before origins were kept, naming the address', async () => {
    await ok('savePartnerProfile', mainAt(serviceA));
    await desk.close();
    closeLog();
    // What the previous version stored: username and password, no origin (the desk's own records are as they were).
    desk = newDesk({ vault: { ...vault, read: async () => ({ username: serviceA.username, password: serviceA.password }) }, keychain: keychainOf(vault) });
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    const fromHere = sent.length;
    expect(await dispatch(desk, 'lookupPatron', { libraryId: 101, card: card(serviceA) })).toMatchObject({
      ok: false, error: { code: 'unauthorized', reason: 'connection.password-not-bound', params: { profile: 'Main', origin: originOf(serviceA) } },
    });
    expect(sent.slice(fromHere)).toEqual([]);
  });
});

describe('one connection: one token, one budget, one Retry-After', () => {
  it('lookups, live availability, mirror reads, a refresh and a sync within one token lifetime ask for one token', async () => {
    const logFrom = serviceA.control.requestLogNext();
    const sentFrom = sent.length;
    await ok('savePartnerProfile', mainAt(serviceA));
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    const tokensBefore = serviceA.control.requestCounts().token;
    await Promise.all([
      ok('lookupPatron', { libraryId: 101, card: card(serviceA) }),
      ok('liveAvailability', { libraryId: 101, contentIds: [1, 2, 3] }),
      ok('syncNow', { full: false }),
      ok('lookupPatron', { libraryId: 101, card: serviceA.libraries[0]!.cards[2] }),
    ]);
    await ok('collectionLiveAvailability', { libraryId: 101, contentIds: [4, 5] });
    await ok('collectionBrowse', { libraryId: 101, offset: 0, limit: 10 });
    await desk.background.runNow('availability-refresh');
    await ok('liveSearch', { libraryId: 101, q: 'the' });
    // savePartnerProfile's own test of the password is one token; the open connection asked for exactly one more.
    expect(serviceA.control.requestCounts().token - tokensBefore).toBe(1);
    // Every request the service saw came through the desk's transport: nothing else talks to it.
    const seen = serviceA.control.requestLog(logFrom).length;
    expect(seen).toBeGreaterThan(12);
    expect(sent.slice(sentFrom).filter((s) => s.origin === originOf(serviceA)).length).toBe(seen);
  });

  it("a Retry-After from the sync's request holds desk work, the sync and the refresh alike", async () => {
    const clock: Clock = createClock(Date.now());
    await desk.close();
    closeLog();
    desk = newDesk({ now: clock.now, clientOptions: { timeoutMs: 3000, now: clock.now, sleep: async (ms) => clock.advance(ms) } });
    await ok('savePartnerProfile', mainAt(serviceA));
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    serviceA.control.addFault({ route: 'entitlements', kind: 'rate-limit', retryAfterSeconds: 30, times: 1 });
    const from = sent.length;
    await Promise.all([
      ok('syncNow', { full: true }),
      ...Array.from({ length: 4 }, () => ok('lookupPatron', { libraryId: 101, card: card(serviceA) })),
      desk.background.runNow('availability-refresh'),
    ]);
    serviceA.control.clearFaults();
    const log = serviceA.control.requestLog(0);
    const refused = log.findIndex((r) => r.route === 'entitlements');
    expect(refused).toBeGreaterThanOrEqual(0);
    const refusedAt = sent.slice(from).find((s) => s.path.endsWith('/entitlements'))!.at;
    const heldUntil = refusedAt + 30_000;
    // Nothing at all was sent while the Retry-After ran, whichever part of the desk wanted to send.
    expect(sent.slice(from).filter((s) => s.at > refusedAt && s.at < heldUntil)).toEqual([]);
    expect(sent.slice(from).filter((s) => s.at >= heldUntil).length).toBeGreaterThan(0);
  });

  it('closing the connection mid-sync cancels the sync, never a failure; the next connection resumes it from the first page not stored', async () => {
    // Every request of the catalog after the first is held on the wire until it is aborted,
    // whatever the credential change that closes the connection takes; the desk's progress
    // events tell when the first page is stored.
    let firstPageStored!: () => void;
    const stored = new Promise<void>((resolve) => { firstPageStored = resolve; });
    let catalogPages = 0;
    let catalogAnswers = 0;
    const catalogAsked: URL[] = [];
    let holding = true;
    await desk.close();
    closeLog();
    desk = newDesk({
      emit: (name, payload) => { if (name === 'syncProgress' && (payload as { source: string }).source === 'global') firstPageStored(); },
      fetch: async (input, init) => {
        const url = new URL(input);
        sent.push({ origin: url.origin, path: url.pathname, authorization: new Headers(init.headers).get('authorization'), at: Date.now() });
        const catalog = url.pathname.endsWith('/global-contents');
        if (catalog) catalogAsked.push(url);
        if (catalog && ++catalogPages > 1 && holding) {
          await new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true }));
        }
        const answer = await fetch(input, init);
        if (catalog) catalogAnswers++;
        return answer;
      },
    });
    await ok('savePartnerProfile', mainAt(serviceA));
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    const syncing = dispatch(desk, 'syncNow', { full: true });
    await stored; // the first page stored, the next on its way
    // A credential change closes the connection.
    await ok('replaceCredentials', { profileId: 'main', username: serviceA.username, password: serviceA.password });
    expect(await syncing).toMatchObject({ ok: false, error: { reason: 'sync.cancelled' } });
    expect(catalogAnswers).toBe(1); // the held pages were aborted, none came in after the close
    holding = false;
    const global = (await ok('syncStatus')).sources.find((s: SourceState) => s.source === 'global') as SourceState;
    expect(global).toMatchObject({ inProgress: true });
    expect(global.items).toBeGreaterThan(0);
    expect(global.nextToken).toBeDefined();
    expect(global.lastError).toBeUndefined(); // cancelled, not failed
    expect(global.lastErrorCode).toBeUndefined();
    const resumedFrom = catalogAsked.length;
    const status = await ok('syncNow', { full: false });
    expect(status.sources.every((s: SourceState) => !s.inProgress && s.lastError === undefined)).toBe(true);
    // The resumed run asked first for the page after the last one stored, not the catalog's start.
    expect(catalogAsked[resumedFrom]?.searchParams.get('startToken')).toBe(global.nextToken);
    expect(status.counts.titles).toBeGreaterThan(global.items);
    const mirror = new DatabaseSync(join(dir, 'catalog', mirrorFiles()[0]!));
    expect(mirror.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    expect((mirror.prepare('SELECT COUNT(*) AS n FROM titles').get() as { n: number }).n).toBe(status.counts.titles);
    mirror.close();
  });

  it('a connection opened while the previous one is still closing waits for it: one mirror file, one owner', async () => {
    await ok('savePartnerProfile', mainAt(serviceA));
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    await ok('syncStatus'); // the connection is open
    const events: string[] = [];
    let began!: () => void;
    const closingBegan = new Promise<void>((resolve) => { began = resolve; });
    let finishClosing!: () => void;
    const held = new Promise<void>((resolve) => { finishClosing = resolve; });
    const close = Connection.prototype.close;
    const closing = vi.spyOn(Connection.prototype, 'close').mockImplementation(async function (this: Connection) {
      events.push('closing');
      began();
      await close.call(this);
      await held; // the old connection has not let go yet (its mirror's owner still storing, say)
      events.push('closed');
    });
    const status = DeskMirror.prototype.status;
    const read = vi.spyOn(DeskMirror.prototype, 'status').mockImplementation(function (this: DeskMirror) {
      events.push('status read');
      return status.call(this);
    });
    try {
      const replacing = ok('replaceCredentials', { profileId: 'main', username: serviceA.username, password: serviceA.password });
      await closingBegan;
      // A status asked for meanwhile (the Sync page, the 10-minute refresh) needs the profile's connection.
      const answered = ok('syncStatus');
      // Opening a connection takes no I/O the test would wait on: a few turns of the event loop are all it could need.
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
      finishClosing();
      await Promise.all([replacing, answered]);
      expect(events).toEqual(['closing', 'closed', 'status read']);
    } finally {
      closing.mockRestore();
      read.mockRestore();
      finishClosing();
    }
  });
});

describe('the built-in sandbox', () => {
  it('answers in-process (nothing goes through the network transport) and stops when a partner profile becomes active', async () => {
    let started = 0;
    let stopped = 0;
    await desk.close();
    closeLog();
    desk = newDesk({
      sandbox: async () => {
        started += 1;
        const endpoint = inProcessSandbox(createSandboxService({ catalogSize: 300 }));
        return { ...endpoint, close: async () => { stopped += 1; await endpoint.close(); } };
      },
    });
    await ok('useSandbox');
    await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
    const info = await ok('appInfo');
    await ok('lookupPatron', { libraryId: 101, card: info.sandbox.libraries[0].cards[1] });
    await ok('syncNow', { full: false });
    expect(sent).toEqual([]); // the network transport carried nothing: the sandbox has no socket
    expect([started, stopped]).toEqual([1, 0]);

    await ok('savePartnerProfile', mainAt(serviceA));
    expect([started, stopped]).toEqual([1, 1]);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((s) => s.origin === originOf(serviceA))).toBe(true);
  });
});
