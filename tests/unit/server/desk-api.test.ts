// The library server carries a desk's partner calls (issue #31), against a real PostgreSQL and the
// sandbox over HTTP: the desk's own partner client, pointed at the server with its workstation's
// credentials, looks a patron up and borrows as it would from the partner; the partner's password
// and token never reach it; an unknown or revoked workstation is refused (a revocation within a
// minute) with the desk's sentence; a certificate from another CA is refused; a library the server
// does not serve is not carried; and the credential's one budget holds past the limit: the
// partner refuses nothing, every call is done, and a wait past two seconds is told first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryServerLink } from '../../../electron/main/connection/library-server-fetch.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import { PartnerClient } from '../../../electron/node/partner/client.ts';
import type { Logger } from '../../../electron/node/logging/index.ts';
import { SCHEMA } from '../../../electron/node/library-mirror/schema.ts';
import { loadConfig } from '../../../server/config.ts';
import { startLibraryServer, type RunningService } from '../../../server/service.ts';
import { WorkstationAdmin } from '../../../server/workstations.ts';
import { StaffAdmin } from '../../../server/staff.ts';
import { useLibraryMirrorDatabase } from '../../support/library-mirror-database.ts';
import { makeCertificateAuthority, makeServerCertificate, type CertificateAuthority } from '../../support/certificates.ts';
import { freePort } from '../../support/running-library-server.ts';
import { removeServiceConfigs, writeServiceConfig } from './service-process.ts';

const db = useLibraryMirrorDatabase();
// Real time, which a test may jump ahead (a revocation's minute) without waiting it out.
let ahead = 0;
const clock = { now: (): number => Date.now() + ahead, advance: (ms: number): void => { ahead += ms; } };
let sandbox: SandboxHandle;
let dir: string;
let ca: CertificateAuthority;
let server: RunningService;
let admin: pg.Client;
const lines: { event: string; fields: Record<string, unknown> }[] = [];
const log: Logger = {
  info: (event, fields = {}) => { lines.push({ event, fields }); },
  warn: (event, fields = {}) => { lines.push({ event, fields }); },
  error: (event, fields = {}) => { lines.push({ event, fields }); },
};

/** The events logged so far, until `event` comes (the server's own log, in this process). */
async function logged(event: string): Promise<void> {
  while (!lines.some((l) => l.event === event)) await new Promise((resolve) => setImmediate(resolve));
}

beforeAll(async () => {
  // The credential's limit: 6 in any 3 s window, at the partner (the sandbox) and at the server.
  sandbox = await startSandbox({ catalogSize: 600, now: clock.now, rateLimitPerMinute: 6, rateLimitWindowMs: 3000 });
  dir = mkdtempSync(join(tmpdir(), 'desk-api-'));
  ca = await makeCertificateAuthority(dir, 'server-ca');
  const cert = await makeServerCertificate(dir, ca, 'desk-api');
  const port = await freePort();
  const path = writeServiceConfig(db(), sandbox, {
    requestsPerMinute: 6, catalogEveryHours: 24, libraries: [{ libraryId: 101, countries: ['US'] }],
    deskApi: { host: '127.0.0.1', port, certFile: cert.certFile, keyFile: cert.keyFile, caFile: ca.certFile, publicUrl: `https://127.0.0.1:${port}` },
  });
  server = startLibraryServer(loadConfig(path), { log, now: clock.now, rateWindowMs: 3000 });
  admin = await db().admin();
  await logged('run-started'); // the leader's schema is up to date, and it carries calls
  await logged('desk-api-listening');
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await admin?.end();
  await sandbox?.close();
  removeServiceConfigs();
  rmSync(dir, { recursive: true, force: true });
});

/** The member of staff the desks sign in as (issue #32: every staff call needs a live session). */
const STAFF = { name: 'Ana Lopez', pin: '482913' };
let staffAdded: Promise<unknown> | undefined;

/** A desk as main builds it for a library server: the partner client, the server's link, the workstation's credentials, a signed-in member of staff. */
async function enrolledDesk(name: string, options: { ca?: string } = {}): Promise<{
  client: PartnerClient; link: LibraryServerLink; waits: number[]; workstationId: string;
  /** Another client of this desk (its staff's session), telling its own waits to `onWait`: one call's waits apart from the others'. */
  clientFor: (onWait: (seconds: number) => void) => PartnerClient;
}> {
  const url = (await server.deskApi()) as string;
  const link = new LibraryServerLink({ urls: [url], ca: options.ca ?? ca.cert });
  const code = (await new WorkstationAdmin(admin).createCode(name)).code;
  const enrolled = await link.enrol(code.toLowerCase()); // as typed: case and dashes do not matter
  staffAdded ??= new StaffAdmin(admin).add(STAFF.name, 'desk-staff', STAFF.pin);
  await staffAdded;
  const credentials = { username: enrolled.workstationId, password: enrolled.secret };
  const session = await link.signIn(credentials, STAFF.name, STAFF.pin);
  const waits: number[] = [];
  const clientFor = (onWait: (seconds: number) => void): PartnerClient => new PartnerClient({
    baseUrl: link.baseUrl, fetch: link.fetchWith(onWait, () => session.token), now: clock.now, credentials,
  });
  return { client: clientFor((s) => waits.push(s)), link, waits, workstationId: enrolled.workstationId, clientFor };
}

const card = (): string => sandbox.libraries.find((l) => l.libraryId === 101)!.patrons[0]!.card;

describe('a desk through the library server', () => {
  it('looks a patron up and borrows with its own partner client, as from the partner; the desk holds no partner secret', async () => {
    const { client, link } = await enrolledDesk('Front desk 1');
    const direct = new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password }, now: clock.now });
    expect(await client.patronStatus(101, card())).toEqual(await direct.patronStatus(101, card()));
    const [title] = sandbox.control.sampleContent(101, { purchaseModel: 'INSTANT', active: true, count: 1 });
    const borrowed = await client.borrow(101, card(), title!);
    expect(borrowed.value.contentId).toBe(title);
    expect((await direct.currentLoans(101, card())).some((l) => l.contentId === title)).toBe(true);
    await client.returnTitle(101, card(), title!);
    expect((await direct.currentLoans(101, card())).some((l) => l.contentId === title)).toBe(false);
    // The desk's token is the server's, never the partner's.
    const tokenAnswer = await link.fetchWith()(`${link.baseUrl}/api/v1/get-token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`nobody:nothing`).toString('base64')}` } }).catch((e: unknown) => e);
    expect(tokenAnswer).toMatchObject({ code: 'unauthorized', detail: { reason: 'library-server.not-enrolled' } });
    // Nothing the desk was given or logged carries a token the partner issued.
    const issued = sandbox.control.issuedTokens();
    expect(issued.length).toBeGreaterThan(0);
    for (const partnerToken of issued) expect(JSON.stringify(lines)).not.toContain(partnerToken);
    link.close();
  });

  it('refuses a workstation IT revoked within a minute, and one it never enrolled, with the desk\'s sentence', async () => {
    const { client, link, workstationId } = await enrolledDesk('Front desk 2');
    await client.patronStatus(101, card());
    expect(await new WorkstationAdmin(admin).revoke(workstationId)).toBe(true);
    clock.advance(31_000); // past the server's read of the workstations, well within a minute
    await expect(client.patronStatus(101, card())).rejects.toMatchObject({ code: 'unauthorized', detail: { reason: 'library-server.revoked' } });
    const stranger = new PartnerClient({ baseUrl: link.baseUrl, fetch: link.fetchWith(() => {}, () => 'a-made-up-session'), now: clock.now, credentials: { username: workstationId, password: 'a-copied-but-wrong-secret' } });
    await expect(stranger.patronStatus(101, card())).rejects.toMatchObject({ code: 'unauthorized', detail: { reason: 'library-server.not-enrolled' } });
    const listed = (await admin.query(`SELECT revoked_at FROM ${SCHEMA}.workstations WHERE id = $1`, [workstationId])).rows[0];
    expect(listed.revoked_at).not.toBeNull();
    link.close();
  });

  it('an enrolment code works once; a certificate from another CA is refused before anything is sent', async () => {
    const url = (await server.deskApi()) as string;
    const code = (await new WorkstationAdmin(admin).createCode('Front desk 3')).code;
    const link = new LibraryServerLink({ urls: [url], ca: ca.cert });
    await link.enrol(code);
    await expect(link.enrol(code)).rejects.toMatchObject({ code: 'invalid-input', detail: { reason: 'library-server.enrolment-code' } });
    const other = await makeCertificateAuthority(dir, 'other-ca');
    const wrong = new LibraryServerLink({ urls: [url], ca: other.cert });
    await expect(wrong.enrol('ANYT-HING-GOES-HERE')).rejects.toMatchObject({ code: 'network', detail: { reason: 'library-server.certificate' } });
    link.close();
    wrong.close();
  });

  it('carries only the libraries it serves, and only the calls staff make', async () => {
    const { client, link } = await enrolledDesk('Front desk 4');
    await expect(client.patronStatus(202, card())).rejects.toMatchObject({ status: 403 });
    const bulk = await link.fetchWith()(`${link.baseUrl}/api/v1/global-contents`, { method: 'GET', headers: {} });
    expect(bulk.status).toBe(404);
    link.close();
  });

  it('past the credential\'s limit: the partner refuses nothing, every call is done once, and waits past two seconds are told first', async () => {
    // Enrolled one after the other: IT's commands share one session (`admin`), where statements go one at a time.
    const desks = [];
    for (const name of ['Overload A', 'Overload B', 'Overload C']) desks.push(await enrolledDesk(name));
    const refusedBefore = sandbox.control.rateLimit().refused;
    // 12 patron reads from three desks at once, where the credential takes 6 in any 3 seconds: each
    // call with a client of its own, so the waits it was told are its own.
    const calls = desks.flatMap(({ clientFor }) => Array.from({ length: 4 }, async () => {
      const told: number[] = [];
      const started = performance.now();
      const client = clientFor((seconds) => { if (told.length === 0) told.push(performance.now() - started); });
      await client.patronStatus(101, card());
      return { ms: performance.now() - started, toldAfterMs: told[0] };
    }));
    const answers = await Promise.allSettled(calls);
    expect(answers.filter((a) => a.status === 'rejected')).toEqual([]);
    expect(sandbox.control.rateLimit().refused - refusedBefore).toBe(0);
    const waited = answers.map((a) => (a as PromiseFulfilledResult<{ ms: number; toldAfterMs: number | undefined }>).value);
    // Half of them wait for the window to move (about 3 s): each was told, and within 2 s of asking.
    const long = waited.filter((call) => call.ms > 2_000);
    expect(long.length).toBeGreaterThan(0);
    for (const call of long) expect(call.toldAfterMs, `a call of ${Math.round(call.ms)} ms`).toBeLessThan(2_000);
    for (const d of desks) d.link.close();
  }, 60_000);

  it('reads availability for every active Flex title after its first full sync, and says when that sync is done', async () => {
    await logged('first-full-sync-done');
    const { rows } = await admin.query(`SELECT count(*)::int AS unread FROM ${SCHEMA}.entitlements e
      WHERE e.library_id = 101 AND e.model = 'FLEX' AND e.active AND NOT e.removed
        AND NOT EXISTS (SELECT 1 FROM ${SCHEMA}.availability a WHERE a.library_id = e.library_id AND a.content_id = e.content_id)`);
    expect(rows[0].unread).toBe(0);
    const { rows: read } = await admin.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.availability WHERE library_id = 101`);
    expect(read[0].n).toBeGreaterThan(0);
  }, 120_000);
});

