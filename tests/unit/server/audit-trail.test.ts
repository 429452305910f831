// Staff and the audit trail on the library server (issue #32), against a real PostgreSQL (the
// trail made by the very script IT runs, server/deploy/create-audit-trail.sql) and the sandbox
// over HTTP: staff sign in as themselves and the server counts the wrong tries, per account and
// per workstation, whatever a desk does with its own records; every staff call needs a live
// session, which the desk's sign-out ends; every lookup and action is written by the server with
// who, where, the card masked and a keyed hash, an action before it is sent and again with its
// outcome; neither the desks' role nor the server's runtime role can UPDATE, DELETE or TRUNCATE
// the trail, and only the maintenance role's purge removes old entries, itself recorded; a
// manager's read is recorded with its filter, and desk staff are refused (and that is recorded).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryServerLink, type WorkstationCredentials } from '../../../electron/main/connection/library-server-fetch.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import type { Logger } from '../../../electron/node/logging/index.ts';
import { PartnerClient } from '../../../electron/node/partner/client.ts';
import { AUDIT_SCHEMA } from '../../../server/audit-trail.ts';
import { loadConfig } from '../../../server/config.ts';
import { startLibraryServer, type RunningService } from '../../../server/service.ts';
import { StaffAdmin } from '../../../server/staff.ts';
import { WorkstationAdmin } from '../../../server/workstations.ts';
import { useLibraryMirrorDatabase } from '../../support/library-mirror-database.ts';
import { makeCertificateAuthority, makeServerCertificate, type CertificateAuthority } from '../../support/certificates.ts';
import { freePort } from '../../support/running-library-server.ts';
import { removeServiceConfigs, writeServiceConfig } from './service-process.ts';

const LIB = 101;
const db = useLibraryMirrorDatabase();
let sandbox: SandboxHandle;
let dir: string;
let ca: CertificateAuthority;
let server: RunningService;
let admin: pg.Client;
const events: string[] = [];
// The server's clock: real time, which a test may jump ahead (past what an instance trusts of a session).
let ahead = 0;
const serverNow = (): number => Date.now() + ahead;
const log: Logger = { info: (event) => { events.push(event); }, warn: (event) => { events.push(event); }, error: (event) => { events.push(event); } };

beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 400 });
  dir = mkdtempSync(join(tmpdir(), 'audit-trail-'));
  ca = await makeCertificateAuthority(dir, 'server-ca');
  const cert = await makeServerCertificate(dir, ca, 'desk-api');
  const port = await freePort();
  const config = writeServiceConfig(db(), sandbox, {
    libraries: [{ libraryId: LIB, countries: ['US'] }],
    deskApi: { host: '127.0.0.1', port, certFile: cert.certFile, keyFile: cert.keyFile, publicUrl: `https://127.0.0.1:${port}` },
  });
  server = startLibraryServer(loadConfig(config), { log, now: serverNow });
  admin = await db().admin();
  while (!events.includes('run-started')) await new Promise((resolve) => setTimeout(resolve, 20));
  const staff = new StaffAdmin(admin);
  await staff.add('Ana Lopez', 'desk-staff', '482913');
  await staff.add('Mo Chen', 'manager', '730518');
  await staff.add('Lee Park', 'desk-staff', '915274');
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await admin?.end();
  await sandbox?.close();
  removeServiceConfigs();
  rmSync(dir, { recursive: true, force: true });
});

interface Desk { link: LibraryServerLink; workstation: WorkstationCredentials; id: string }

async function enrol(name: string): Promise<Desk> {
  const link = new LibraryServerLink({ urls: [(await server.deskApi()) as string], ca: ca.cert });
  const enrolled = await link.enrol((await new WorkstationAdmin(admin).createCode(name)).code);
  return { link, workstation: { username: enrolled.workstationId, password: enrolled.secret }, id: enrolled.workstationId };
}

const clientFor = (desk: Desk, session: () => string | undefined): PartnerClient =>
  new PartnerClient({ baseUrl: desk.link.baseUrl, fetch: desk.link.fetchWith(() => {}, session), credentials: desk.workstation });

const card = (): string => sandbox.libraries.find((l) => l.libraryId === LIB)!.cards[0]!;
const entries = async (where = 'true', params: unknown[] = []) => (await admin.query(`SELECT * FROM ${AUDIT_SCHEMA}.entries WHERE ${where} ORDER BY id`, params)).rows;

describe('staff sign in at the server', () => {
  it('as themselves; a wrong PIN is counted on the server per account and per workstation, so nothing at a desk lifts the wait', async () => {
    const front = await enrol('Front desk');
    const back = await enrol('Back desk');
    const session = await front.link.signIn(front.workstation, 'ana lopez', '482913'); // as typed: case does not matter
    expect(session.staff).toEqual({ name: 'Ana Lopez', role: 'desk-staff' });
    await front.link.signOut(front.workstation, session.token);

    // Five wrong PINs for Lee at the front desk: then Lee waits at any desk, and the front desk waits for any name.
    for (let i = 0; i < 4; i++) await expect(front.link.signIn(front.workstation, 'Lee Park', '111119')).rejects.toMatchObject({ detail: { reason: 'library-server.staff-wrong' } });
    await expect(front.link.signIn(front.workstation, 'Lee Park', '111119')).rejects.toMatchObject({ detail: { reason: 'library-server.staff-wait', params: { seconds: 30 } } });
    await expect(back.link.signIn(back.workstation, 'Lee Park', '915274')).rejects.toMatchObject({ detail: { reason: 'library-server.staff-wait' } });
    await expect(front.link.signIn(front.workstation, 'Mo Chen', '730518')).rejects.toMatchObject({ detail: { reason: 'library-server.staff-wait' } });
    // A desk that forgets everything (a new link, its own records rewritten) is the same workstation to the server: the wait holds.
    const forgetful = new LibraryServerLink({ urls: [front.link.baseUrl], ca: ca.cert });
    await expect(forgetful.signIn(front.workstation, 'Mo Chen', '730518')).rejects.toMatchObject({ detail: { reason: 'library-server.staff-wait' } });
    const refused = await entries(`action = 'sign-in-refused' AND workstation_id = $1`, [front.id]);
    expect(refused.length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(refused)).not.toContain('111119'); // a PIN is never written
    // IT resets Lee's PIN: the account's wrong tries are forgotten (the workstation's still stand).
    await new StaffAdmin(admin).resetPin('Lee Park', '915274');
    await expect(back.link.signIn(back.workstation, 'Lee Park', '915274')).resolves.toMatchObject({ staff: { name: 'Lee Park' } });
  });

  it('every staff call needs a live session at that workstation: none, another desk\'s, or one signed out is refused', async () => {
    const desk = await enrol('Desk A');
    const other = await enrol('Desk B');
    const otherSession = await other.link.signIn(other.workstation, 'Ana Lopez', '482913');
    let token: string | undefined;
    const client = clientFor(desk, () => token);
    await expect(client.patronStatus(LIB, card())).rejects.toMatchObject({ code: 'session-locked', detail: { reason: 'library-server.session-ended' } });
    token = otherSession.token;
    await expect(client.patronStatus(LIB, card())).rejects.toMatchObject({ code: 'session-locked' });
    token = (await desk.link.signIn(desk.workstation, 'Ana Lopez', '482913')).token;
    await client.patronStatus(LIB, card());
    await desk.link.signOut(desk.workstation, token);
    await expect(client.patronStatus(LIB, card())).rejects.toMatchObject({ code: 'session-locked' });
    // IT disables an account: its open shifts end.
    await new StaffAdmin(admin).add('Temp Worker', 'desk-staff', '604827');
    token = (await desk.link.signIn(desk.workstation, 'Temp Worker', '604827')).token;
    await client.patronStatus(LIB, card());
    await new StaffAdmin(admin).disable('Temp Worker');
    ahead += 31_000; // past what an instance trusts of a session it read
    const fresh = clientFor(desk, () => token);
    await expect(fresh.patronStatus(LIB, card())).rejects.toMatchObject({ code: 'session-locked' });
    await expect(desk.link.signIn(desk.workstation, 'Temp Worker', '604827')).rejects.toMatchObject({ detail: { reason: 'library-server.staff-disabled' } });
  });
});

describe('the audit trail', () => {
  it('holds every lookup and action the server carried: who, where, the card masked and its keyed hash, the title, an action before it was sent and with its outcome', async () => {
    const desk = await enrol('Circulation 1');
    const { token } = await desk.link.signIn(desk.workstation, 'Ana Lopez', '482913');
    const client = clientFor(desk, () => token);
    const mark = Number((await admin.query(`SELECT coalesce(max(id), 0) AS id FROM ${AUDIT_SCHEMA}.entries`)).rows[0].id);
    await client.patronStatus(LIB, card());
    const [title] = sandbox.control.sampleContent(LIB, { purchaseModel: 'INSTANT', active: true, count: 1 });
    await client.borrow(LIB, card(), title!);
    await client.returnTitle(LIB, card(), title!);
    // An action's 'sent' entry is written before it is sent; a lookup's entry and an outcome as the answer goes back.
    let rows = await entries('id > $1 AND workstation_id = $2', [mark, desk.id]);
    while (rows.length < 5) rows = await entries('id > $1 AND workstation_id = $2', [mark, desk.id]);
    expect(rows.map((r) => `${r.action}:${r.outcome}`).sort()).toEqual(['borrow:done', 'borrow:sent', 'lookup:done', 'return:done', 'return:sent']);
    const at = (name: string): number => rows.findIndex((r) => `${r.action}:${r.outcome}` === name);
    expect(at('borrow:sent')).toBeLessThan(at('borrow:done'));
    expect(at('borrow:done')).toBeLessThan(at('return:done'));
    expect(at('return:sent')).toBeLessThan(at('return:done'));
    for (const r of rows) {
      expect(r).toMatchObject({ staff_name: 'Ana Lopez', staff_role: 'desk-staff', library_id: String(LIB), card_masked: `••••${card().slice(-4)}` });
      expect(r.card_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(JSON.stringify(r)).not.toContain(card());
    }
    expect(new Set(rows.map((r) => r.card_key)).size).toBe(1); // one patron, one key
    const borrowed = rows.find((r) => r.action === 'borrow' && r.outcome === 'done');
    expect(borrowed.content_id).toBe(String(title));
    expect(borrowed.title).toBe((await admin.query(`SELECT record::jsonb->>'title' AS t FROM library_mirror.titles WHERE id = $1`, [String(title)])).rows[0]?.t);
  });

  it('cannot be rewritten: the desks\' role and the server\'s runtime role are refused UPDATE, DELETE and TRUNCATE', async () => {
    const service = await db().session(db().service, 'audit attacker (server role)');
    const desk = await db().session(db().desk, 'audit attacker (desk role)');
    // The desks' role reads only by default; the grants are what must refuse, so a read-write transaction is asked for.
    await desk.query('SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE');
    try {
      for (const [who, session] of [['server', service], ['desk', desk]] as const) {
        for (const statement of [`UPDATE ${AUDIT_SCHEMA}.entries SET staff_name = 'Alice'`, `DELETE FROM ${AUDIT_SCHEMA}.entries`, `TRUNCATE ${AUDIT_SCHEMA}.entries`]) {
          await expect(session.query(statement), `${who}: ${statement}`).rejects.toMatchObject({ code: '42501' });
        }
        await expect(session.query(`SELECT ${AUDIT_SCHEMA}.purge(1, 'me')`), `${who} purges`).rejects.toMatchObject({ code: '42501' });
        await expect(session.query(`ALTER TABLE ${AUDIT_SCHEMA}.entries DISABLE TRIGGER ALL`), `${who} alters`).rejects.toMatchObject({ code: '42501' });
      }
      await expect(desk.query(`SELECT count(*) FROM ${AUDIT_SCHEMA}.entries`)).rejects.toMatchObject({ code: '42501' }); // desks read nothing of it
      await expect(desk.query(`INSERT INTO ${AUDIT_SCHEMA}.entries (action, outcome) VALUES ('borrow', 'done')`)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await service.end();
      await desk.end();
    }
  });

  it('loses old entries only to the maintenance role\'s purge, which records itself', async () => {
    // An entry from long ago, as if written then (the test's superuser alone can backdate one).
    await admin.query(`INSERT INTO ${AUDIT_SCHEMA}.entries (at, action, outcome, staff_name) VALUES (now() - interval '400 days', 'lookup', 'done', 'Old Timer')`);
    const before = (await entries()).length;
    const maintenance = await db().session(db().maintenance, 'audit maintenance');
    try {
      await expect(maintenance.query(`DELETE FROM ${AUDIT_SCHEMA}.entries`)).rejects.toMatchObject({ code: '42501' });
      const removed = (await maintenance.query(`SELECT ${AUDIT_SCHEMA}.purge(365, 'IT nightly') AS n`)).rows[0].n;
      expect(Number(removed)).toBe(1);
    } finally {
      await maintenance.end();
    }
    const after = await entries();
    expect(after.length).toBe(before - 1 + 1);
    expect(after.at(-1)).toMatchObject({ action: 'purge', staff_name: 'IT nightly', detail: { keepDays: 365, removed: 1, role: db().maintenanceRole } });
  });

  it('a manager reads it and the read is recorded with its filter; desk staff are refused, and that is recorded too', async () => {
    const desk = await enrol('Office');
    const manager = await desk.link.signIn(desk.workstation, 'Mo Chen', '730518');
    const found = await desk.link.readAudit(desk.workstation, manager.token, { libraryId: LIB, card: card(), limit: 50 }) as { entries: { action: string; cardMasked?: string }[]; total: number };
    expect(found.total).toBeGreaterThan(0);
    expect(found.entries.every((e) => e.cardMasked === `••••${card().slice(-4)}`)).toBe(true);
    const reads = await entries(`action = 'audit-read' AND staff_name = 'Mo Chen'`);
    expect(reads.at(-1).detail).toEqual({ filter: { card: { libraryId: LIB, card: `••••${card().slice(-4)}` }, offset: 0, limit: 50 } });
    await desk.link.readAudit(desk.workstation, manager.token, { export: 1 });
    expect((await entries(`action = 'audit-export' AND staff_name = 'Mo Chen'`)).length).toBe(1);

    const clerk = await desk.link.signIn(desk.workstation, 'Ana Lopez', '482913');
    await expect(desk.link.readAudit(desk.workstation, clerk.token, { export: 1 })).rejects.toMatchObject({ detail: { reason: 'library-server.manager-only' } });
    expect((await entries(`action = 'audit-read' AND outcome = 'refused' AND staff_name = 'Ana Lopez'`)).length).toBe(1);
  });
});
