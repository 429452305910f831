// A desk whose IT policy names the library server (issue #31), through the contract, against the
// server itself (in this process, as IT runs it: PostgreSQL, the sandbox over HTTP, its desk
// endpoint over TLS with a test CA): before IT's enrolment code the desk reaches nothing; after
// it, a patron lookup and a borrow go through the server, the Collection fills from the library
// mirror with availability for every Flex title it lists, and after a whole shift no partner
// password and no token the partner issued is in the desk's files, keychain records or log. A
// revoked desk is refused within a minute, in the staff's words. Staff sign in as themselves at
// the server (issue #32): its PIN check, its wrong tries, its session in the desk's memory only,
// ended at the lock; a shift the server ends locks the desk.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DESK_RECORDS } from '../../../../electron/main/credentials/desk-keychain.ts';
import { createMemoryVault } from '../../../../electron/main/credentials/memory-vault.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import { policySchema } from '../../../../electron/main/policy/index.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import type { Logger } from '../../../../electron/node/logging/index.ts';
import type { BrowseRow, MethodName, PatronView } from '../../../../electron/shared/contract.ts';
import { loadConfig } from '../../../../server/config.ts';
import { startLibraryServer, type RunningService } from '../../../../server/service.ts';
import { StaffAdmin } from '../../../../server/staff.ts';
import { WorkstationAdmin } from '../../../../server/workstations.ts';
import { useLibraryMirrorDatabase } from '../../../support/library-mirror-database.ts';
import { deskTarget } from '../../../support/library-server.ts';
import { createNodeDesk, keychainOf } from '../../../support/node-desk.ts';
import { makeCertificateAuthority, makeServerCertificate, type CertificateAuthority } from '../../../support/certificates.ts';
import { freePort } from '../../../support/running-library-server.ts';
import { removeServiceConfigs, writeServiceConfig } from '../../server/service-process.ts';
import { answerOf } from '../../../support/desk-calls.ts';

const LIB = 101;
const db = useLibraryMirrorDatabase();
let sandbox: SandboxHandle;
let server: RunningService;
let dir: string;
let ca: CertificateAuthority;
let admin: pg.Client;
let desk: DeskService | undefined;
let closeLog = (): void => {};
// The server's clock: real time, which a test may jump ahead (a revocation's minute).
let ahead = 0;
const serverNow = (): number => Date.now() + ahead;
const events: string[] = [];
const quiet: Logger = { info: (event) => { events.push(event); }, warn: (event) => { events.push(event); }, error: (event) => { events.push(event); } };

beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 1200 });
  dir = mkdtempSync(join(tmpdir(), 'library-server-desk-'));
  ca = await makeCertificateAuthority(dir, 'server-ca');
  const cert = await makeServerCertificate(dir, ca, 'desk-api');
  const port = await freePort();
  const config = writeServiceConfig(db(), sandbox, {
    libraries: [{ libraryId: LIB, countries: ['US'] }],
    deskApi: { host: '127.0.0.1', port, certFile: cert.certFile, keyFile: cert.keyFile, publicUrl: `https://127.0.0.1:${port}` },
  });
  server = startLibraryServer(loadConfig(config), { log: quiet, now: serverNow });
  admin = await db().admin();
  // Staff accounts once the server has made its tables (it migrates when it takes the lead).
  while (!events.includes('first-full-sync-done')) await new Promise((resolve) => setTimeout(resolve, 50));
  await new StaffAdmin(admin).add('Ana Lopez', 'desk-staff', '482913');
  await new StaffAdmin(admin).add('Mo Chen', 'manager', '730518');
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await admin?.end();
  await sandbox?.close();
  removeServiceConfigs();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await desk?.close();
  desk = undefined;
  closeLog();
});

/** A managed desk of library 101 whose policy names the library server and the library mirror; no partner password anywhere. */
async function openDesk(name: string): Promise<{ desk: DeskService; folder: string; vault: ReturnType<typeof createMemoryVault> }> {
  const folder = mkdtempSync(join(dir, `${name}-`));
  const { target, password } = deskTarget(db(), folder);
  const caFile = join(folder, 'library-server-ca.pem');
  writeFileSync(caFile, ca.cert);
  const policy = policySchema.parse({
    version: 1,
    profiles: [{ id: 'city', name: 'City Library', baseUrl: 'https://partner.invalid', libraries: [{ libraryId: LIB }], country: 'US' }],
    libraryMirror: target,
    libraryServer: { url: (await server.deskApi()) as string, caFile },
  });
  const vault = createMemoryVault();
  keychainOf(vault).entries.set(DESK_RECORDS.libraryMirrorPassword, password);
  const created = createNodeDesk({ dir: folder, vault, policy, clientOptions: { timeoutMs: 10_000 } });
  desk = created.desk;
  closeLog = () => created.logger.close();
  return { desk, folder, vault };
}

async function call(name: MethodName, args?: unknown) {
  return dispatch(desk!, name, args);
}
async function ok<T = any>(name: MethodName, args?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return answerOf<T>(desk!, name, args);
}

const card = (): string => sandbox.libraries.find((l) => l.libraryId === LIB)!.cards[0]!;
const code = async (name: string): Promise<string> => (await new WorkstationAdmin(admin).createCode(name)).code;

/** Every file under `folder`, as text. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((f) => join(folder, f)).filter((f) => statSync(f).isFile()).map((f) => readFileSync(f).toString('latin1'));
}

describe('a desk whose policy names the library server', () => {
  it('reaches nothing before IT enrols it, then looks up, borrows and fills its Collection through the server, and keeps no partner secret', async () => {
    const { folder, vault } = await openDesk('enrolled');
    expect(await ok('libraryServer')).toMatchObject({ enrolled: false });
    expect((await ok('appInfo')).signIn).toMatchObject({ method: 'library-server', ready: false });
    const before = await call('startShift', { staffName: 'Ana Lopez', pin: '482913' });
    expect(before).toMatchObject({ ok: false, error: { code: 'unauthorized', reason: 'library-server.not-enrolled' } });

    expect(await ok('enrolDesk', { code: await code('Front desk') })).toMatchObject({ enrolled: true, workstationId: expect.stringMatching(/^ws-/) });
    expect((await ok('appInfo')).signIn).toMatchObject({ method: 'library-server', ready: true });
    // The server checks the PIN and counts the wrong try; then Ana signs in as herself, with her role.
    expect(await call('startShift', { staffName: 'Ana Lopez', pin: '000000' })).toMatchObject({ ok: false, error: { reason: 'library-server.staff-wrong' } });
    expect(await ok('startShift', { staffName: 'ana lopez', pin: '482913' })).toMatchObject({ staffName: 'Ana Lopez', signedInWith: 'library-server', role: 'desk' });
    const view = await ok<PatronView>('lookupPatron', { libraryId: LIB, card: card() });
    expect(view.status.borrowsAllowedPerMonth).toBeGreaterThan(0);
    const [title] = sandbox.control.sampleContent(LIB, { purchaseModel: 'INSTANT', active: true, count: 1 });
    const borrowed = await ok('borrow', { libraryId: LIB, card: card(), contentId: title, title: 'A title' });
    expect(borrowed.value.contentId).toBe(title);
    await ok('returnTitle', { libraryId: LIB, card: card(), contentId: title, title: 'A title' });

    // The Collection from the library mirror: availability for every Flex title it lists, read by the server.
    expect(await desk!.background.runNow('library-fill')).toBe(true);
    const flex: BrowseRow[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await ok('collectionBrowse', { libraryId: LIB, model: 'FLEX', active: true, offset, limit: 500, exactCount: true });
      flex.push(...page.rows);
      if (offset + 500 >= page.total) break;
    }
    expect(flex.length).toBeGreaterThan(0);
    expect(flex.filter((row) => row.availability?.status === undefined)).toEqual([]);

    // The lock ends the shift at the server too.
    await ok('lockSession', { reason: 'staff' });
    const { rows: open } = await admin.query('SELECT count(*)::int AS n FROM library_mirror.staff_sessions WHERE ended_at IS NULL');
    expect(open[0].n).toBe(0);
    expect(await call('lookupPatron', { libraryId: LIB, card: card() })).toMatchObject({ ok: false, error: { code: 'session-locked' } });

    // After the shift: no partner password and no token the partner issued, anywhere on this desk;
    // no staff PIN either (the server checked it).
    await desk!.close();
    desk = undefined;
    closeLog();
    closeLog = () => {};
    const secrets = [sandbox.password, ...sandbox.control.issuedTokens()];
    expect(secrets.length).toBeGreaterThan(1);
    // The partner password of the one profile, had one been saved anywhere, and every keychain record.
    const kept = [...filesUnder(folder), ...keychainOf(vault).entries.values(), JSON.stringify((await vault.read('city')) ?? null)];
    expect(await vault.read('city')).toBeUndefined();
    for (const secret of secrets) for (const text of kept) expect(text.includes(secret), 'a partner secret on the desk').toBe(false);
    for (const text of kept) expect(text.includes('482913'), 'a staff PIN on the desk').toBe(false);
  }, 60_000);

  it('locks when the server ends the shift (IT disabled the account), and nothing the desk keeps signs anyone in again', async () => {
    const { vault } = await openDesk('ended');
    await ok('enrolDesk', { code: await code('Side desk') });
    await ok('startShift', { staffName: 'Mo Chen', pin: '730518' });
    expect((await ok('appInfo')).session).toMatchObject({ role: 'manager', may: { exportLog: true } });
    await ok('lookupPatron', { libraryId: LIB, card: card() });
    await new StaffAdmin(admin).disable('Mo Chen');
    ahead += 31_000; // past the server's cache of its sessions
    expect(await call('lookupPatron', { libraryId: LIB, card: card() })).toMatchObject({ ok: false, error: { reason: 'library-server.session-ended' } });
    await expect.poll(async () => (await ok('appInfo')).session).toBeUndefined();
    // A sign-in record forged into the keychain (the standalone desk's) opens nothing here: the server decides.
    keychainOf(vault).entries.set(DESK_RECORDS.signIn, JSON.stringify({ version: 1, forged: true }));
    expect(await call('startShift', { staffName: 'Mo Chen', pin: '730518' })).toMatchObject({ ok: false, error: { reason: 'library-server.staff-disabled' } });
    await new StaffAdmin(admin).enable('Mo Chen');
  }, 60_000);

  it('lets a manager read and export the server\'s audit trail, each read recorded; desk staff are refused by the server and the desk', async () => {
    await openDesk('audit');
    await ok('enrolDesk', { code: await code('Audit desk') });
    await ok('startShift', { staffName: 'Ana Lopez', pin: '482913' });
    await ok('lookupPatron', { libraryId: LIB, card: card() });
    // Desk staff: the whole trail refused by the server (and recorded there); one patron's entries and the export refused by the desk first.
    expect(await call('readAuditTrail', { offset: 0, limit: 10 })).toMatchObject({ ok: false, error: { reason: 'library-server.manager-only' } });
    expect(await call('readAuditTrail', { libraryId: LIB, card: card() })).toMatchObject({ ok: false, error: { reason: 'log.managers-only' } });
    expect(await call('readAuditTrail', { export: true, pin: '482913' })).toMatchObject({ ok: false, error: { reason: 'log.managers-only' } });
    await ok('lockSession', { reason: 'staff' });

    await ok('startShift', { staffName: 'Mo Chen', pin: '730518' });
    const patron = await ok('readAuditTrail', { libraryId: LIB, card: card(), offset: 0, limit: 50 });
    expect(patron.entries.length).toBeGreaterThan(0);
    expect(patron.entries.every((e: { cardMasked?: string }) => e.cardMasked?.endsWith(card().slice(-4)) && !e.cardMasked.includes(card()))).toBe(true);
    expect(patron.entries).toContainEqual(expect.objectContaining({ action: 'lookup', staffName: 'Ana Lopez', workstationName: 'Audit desk' }));
    // The export takes the manager's PIN again; a wrong one is the server's wrong try.
    expect(await call('readAuditTrail', { export: true })).toMatchObject({ ok: false, error: { reason: 'log.export-pin-needed' } });
    expect(await call('readAuditTrail', { export: true, pin: '000000' })).toMatchObject({ ok: false, error: { reason: 'library-server.staff-wrong' } });
    const exported = await ok('readAuditTrail', { export: true, pin: '730518' });
    // Every read is itself an entry: Ana's refusal, Mo's read of one patron and the export.
    const actions = exported.entries.map((e: { action: string; outcome: string; staffName?: string }) => `${e.staffName} ${e.action} ${e.outcome}`);
    expect(actions).toEqual(expect.arrayContaining(['Ana Lopez audit-read refused', 'Mo Chen audit-read done', 'Mo Chen audit-export done']));
    // The PIN typed again for the export left one session open at the server, not two.
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM library_mirror.staff_sessions WHERE ended_at IS NULL');
    expect(rows[0].n).toBe(1);
  }, 60_000);

  it('is refused, in the staff\'s words, once IT revokes it: within a minute', async () => {
    await openDesk('revoked');
    const enrolled = await ok('enrolDesk', { code: await code('Back office') });
    await ok('startShift', { staffName: 'Ana Lopez', pin: '482913' });
    await ok('lookupPatron', { libraryId: LIB, card: card() });
    expect(await new WorkstationAdmin(admin).revoke(enrolled.workstationId)).toBe(true);
    ahead += 31_000; // past the server's read of its workstations
    const refused = await call('lookupPatron', { libraryId: LIB, card: card() });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unauthorized', reason: 'library-server.revoked' } });
    // A code cannot be traded twice, nor on a desk already enrolled.
    expect(await call('enrolDesk', { code: 'ANYT-HING-GOES-HERE' })).toMatchObject({ ok: false, error: { reason: 'library-server.enrolled-already' } });
  }, 60_000);
});
