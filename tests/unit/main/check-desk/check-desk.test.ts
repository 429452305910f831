// IT's headless check of a desk (`--check-desk`, issue #31), its checks run as plain functions
// against the library server itself — two instances, a real PostgreSQL, the sandbox over HTTP —
// with the desk's policy and keychain records as IT sets them: all well, exit code 0; and each
// thing IT gets wrong named on its own line (no enrolment, a revoked or copied-wrong secret, the
// wrong CA file, an instance down, a library the server does not serve, the mirror's password,
// a mirror not filled yet, no policy). The report never holds a secret. An attacker who adds a
// root of their own to Node's default store (what NODE_EXTRA_CA_CERTS does) gains nothing where
// the policy names no CA file: the desk trusts Node's own public CAs by name.
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDesk, deskCheckReport, type CheckLine } from '../../../../electron/main/check-desk/check-desk.ts';
import { LibraryServerLink } from '../../../../electron/main/connection/library-server-fetch.ts';
import { DESK_RECORDS, memoryDeskRecords } from '../../../../electron/main/credentials/desk-keychain.ts';
import { policySchema, type MachinePolicy } from '../../../../electron/main/policy/index.ts';
import { policyProblem } from '../../../../electron/main/policy/problem.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import { WorkstationAdmin } from '../../../../server/workstations.ts';
import { createLibraryMirrorDatabase, leadingSession, useLibraryMirrorDatabase } from '../../../support/library-mirror-database.ts';
import { deskTarget } from '../../../support/library-server.ts';
import { makeCertificateAuthority, type CertificateAuthority } from '../../../support/certificates.ts';
import { freePort, runLibraryServer, type RunningLibraryServer } from '../../../support/running-library-server.ts';
import { removeServiceConfigs } from '../../server/service-process.ts';

const LIB = 101;
const POLICY_FILE = '/etc/lending-desk/policy.json';
const db = useLibraryMirrorDatabase();
let sandbox: SandboxHandle;
let dir: string;
let ca: CertificateAuthority;
let first: RunningLibraryServer;
let second: RunningLibraryServer;
let admin: pg.Client;
let caFile: string;

beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 300 });
  dir = mkdtempSync(join(tmpdir(), 'check-desk-'));
  ca = await makeCertificateAuthority(dir, 'library-ca');
  caFile = join(dir, 'library-server-ca.pem');
  writeFileSync(caFile, ca.cert);
  const libraries = { libraries: [{ libraryId: LIB, countries: ['US'] }, { libraryId: 202, countries: ['CA'] }] };
  first = await runLibraryServer(db(), sandbox, { dir, ca, name: 'lending-server-1', overrides: libraries });
  await first.log.waitFor('first-full-sync-done');
  second = await runLibraryServer(db(), sandbox, { dir, ca, name: 'lending-server-2', overrides: libraries });
  await second.log.waitFor('following');
  admin = await db().admin();
}, 120_000);
afterAll(async () => {
  await second?.service.stop();
  await first?.service.stop();
  await admin?.end();
  await sandbox?.close();
  removeServiceConfigs();
  rmSync(dir, { recursive: true, force: true });
});

interface DeskSetup {
  /** Policy fields to change or remove (undefined), on top of a desk of library 101 naming both instances and the mirror. */
  policy?: Record<string, unknown>;
  /** The workstation record (null: none); a fresh enrolment's line by default. */
  workstation?: string | null;
  /** The mirror's password (null: none); the desks' role's by default. */
  password?: string | null;
}

async function enrolledLine(name: string): Promise<string> {
  const enrolled = await new WorkstationAdmin(admin).enrolDirectly(name);
  return `${enrolled.id}:${enrolled.secret}`;
}

/** The check on a desk set up as `setup` says, and the records it held (to look for them in the report). */
async function check(setup: DeskSetup = {}): Promise<{ lines: CheckLine[]; secrets: string[] }> {
  const folder = mkdtempSync(join(dir, 'desk-'));
  const { target, password } = deskTarget(db(), folder);
  const raw: Record<string, unknown> = {
    version: 1,
    profiles: [{ id: 'city', name: 'City Library', baseUrl: 'https://partner.invalid', libraries: [{ libraryId: LIB }], country: 'US' }],
    libraryServer: { url: first.url, fallbackUrl: second.url, caFile },
    libraryMirror: target,
    ...setup.policy,
  };
  for (const [key, value] of Object.entries(raw)) if (value === undefined) delete raw[key];
  const keychain = memoryDeskRecords();
  const workstation = setup.workstation === undefined ? await enrolledLine('Checked desk') : setup.workstation;
  if (workstation !== null) keychain.entries.set(DESK_RECORDS.workstation, workstation);
  const mirrorPassword = setup.password === undefined ? password : setup.password;
  if (mirrorPassword !== null) keychain.entries.set(DESK_RECORDS.libraryMirrorPassword, mirrorPassword);
  const machine: MachinePolicy = { policy: policySchema.parse(raw), problems: {}, source: POLICY_FILE };
  const lines = await checkDesk({ machine, keychain, policyPlace: POLICY_FILE });
  return { lines, secrets: [workstation?.split(':')[1], mirrorPassword].filter((s): s is string => typeof s === 'string') };
}

const failed = (lines: CheckLine[]): string[] => lines.filter((l) => !l.ok).map((l) => `${l.what}: ${l.detail}`);

describe('a desk set up as docs/library-server.md §9 says', () => {
  it('passes every check: the policy, its keychain records, each instance (certificate and enrolment), the mirror (password, a first batch); exit code 0, no secret said', async () => {
    const { lines, secrets } = await check();
    expect(failed(lines)).toEqual([]);
    const text = lines.map((l) => `${l.what}: ${l.detail}`);
    expect(text).toEqual([
      expect.stringMatching(/^policy: \/etc\/lending-desk\/policy\.json; libraryServer and libraryMirror; libraries 101 \(profile city\)$/),
      expect.stringMatching(/^keychain: the workstation credential \(ws-[0-9a-f]{12}\)$/),
      "keychain: the library mirror's password",
      expect.stringMatching(new RegExp(`^library server ${first.url}: certificate for 127\\.0\\.0\\.1, issued by Lending Desk test CA \\w+, valid until \\d{4}-\\d\\d-\\d\\d, verified with the CA file ${caFile}$`)),
      expect.stringMatching(new RegExp(`^library server ${first.url}: enrolment accepted \\(ws-[0-9a-f]{12} "Checked desk"\\); instance lending-server-1 serves libraries 101, 202$`)),
      expect.stringMatching(new RegExp(`^library server ${second.url}: certificate for 127\\.0\\.0\\.1, issued by `)),
      expect.stringMatching(new RegExp(`^library server ${second.url}: enrolment accepted \\(ws-[0-9a-f]{12} "Checked desk"\\); instance lending-server-2 serves libraries 101, 202$`)),
      expect.stringMatching(/^library mirror 127\.0\.0\.1:\d+\/library_mirror: the role library_mirror_desk signed in \(TLS verified with the CA file .*\)$/),
      expect.stringMatching(/^library mirror 127\.0\.0\.1:\d+\/library_mirror: a fill's first batch read \(\d+ changes: \d+ titles, \d+ entitlements, \d+ availability\); last catalog sync \d{4}-/),
    ]);
    const report = deskCheckReport(lines, 'Lending Desk 0.1.0 check-desk');
    expect(report.exitCode).toBe(0);
    expect(report.text.split('\n').at(-2)).toBe('All checks passed.');
    for (const secret of secrets) expect(report.text).not.toContain(secret);
  }, 60_000);
});

describe('what IT got wrong, each named on its own line (exit code 1)', () => {
  it('no enrolment: the keychain has no workstation credential, and no instance is asked with one', async () => {
    const { lines } = await check({ workstation: null });
    expect(failed(lines)).toEqual([
      'keychain: no workstation credential (lending-desk:workstation): enrol this desk (docs/library-server.md §8)',
      `library server ${first.url}: enrolment not checked: no workstation credential in the keychain`,
      `library server ${second.url}: enrolment not checked: no workstation credential in the keychain`,
    ]);
    expect(deskCheckReport(lines, '').exitCode).toBe(1);
  });

  it('a workstation IT revoked, and a secret copied wrong', async () => {
    const line = await enrolledLine('Revoked desk');
    await new WorkstationAdmin(admin).revoke(line.split(':')[0]!);
    const revoked = await check({ workstation: line });
    expect(failed(revoked.lines)).toEqual([first, second].map((s) => `library server ${s.url}: workstation ${line.split(':')[0]} was revoked (revoke-desk): enrol this desk again for a new one`));
    const wrong = `${line.split(':')[0]}:${'x'.repeat(43)}`;
    const copied = await check({ workstation: wrong });
    expect(failed(copied.lines)).toEqual([first, second].map((s) => `library server ${s.url}: the server does not know workstation ${line.split(':')[0]} (or its secret is not the one it issued): enrol this desk (enrol-desk)`));
    expect(deskCheckReport(copied.lines, '').text).not.toContain('x'.repeat(43));
  });

  it('a CA file of another authority: each instance\'s certificate refused, in words that say the OS store is never used', async () => {
    const other = await makeCertificateAuthority(dir, 'another-ca');
    const { lines } = await check({ policy: { libraryServer: { url: first.url, fallbackUrl: second.url, caFile: other.certFile } } });
    const refusals = failed(lines);
    expect(refusals).toHaveLength(2);
    for (const [i, s] of [first, second].entries()) {
      expect(refusals[i]).toMatch(new RegExp(`^library server ${s.url}: its certificate was not issued by the certificate authority it is checked against: the CA file ${other.certFile}; the operating system's certificate store is never used \\(\\w+\\)$`));
      expect(refusals[i]).not.toMatch(/use-system-ca/);
    }
  });

  it('an instance down, and a library the server does not serve', async () => {
    const closed = `https://127.0.0.1:${await freePort()}`;
    const down = await check({ policy: { libraryServer: { url: first.url, fallbackUrl: closed, caFile } } });
    expect(failed(down.lines)).toEqual([expect.stringMatching(new RegExp(`^library server ${closed}: not reached \\(connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\)$`))]);
    const elsewhere = await check({ policy: { profiles: [{ id: 'branch', name: 'Branch', baseUrl: 'https://partner.invalid', libraries: [{ libraryId: LIB }, { libraryId: 303 }], country: 'US' }] } });
    expect(failed(elsewhere.lines)).toEqual([first, second].map((s) => expect.stringMatching(new RegExp(`^library server ${s.url}: enrolment accepted \\(.*\\), but instance lending-server-\\d serves libraries 101, 202, not 303, which this desk's policy names$`))));
  });

  it('the mirror\'s password missing or wrong', async () => {
    const missing = await check({ password: null });
    expect(failed(missing.lines)).toEqual([
      "keychain: no password for the library mirror (lending-desk:library-mirror): IT puts it there with its tools (docs/it-deployment.md)",
      expect.stringMatching(/^library mirror 127\.0\.0\.1:\d+\/library_mirror: No password for the library mirror is kept in this computer’s keychain/),
    ]);
    const wrong = await check({ password: 'not-the-password' });
    expect(failed(wrong.lines)).toEqual([expect.stringMatching(/^library mirror 127\.0\.0\.1:\d+\/library_mirror: The library mirror refused the desks' role \(password authentication failed/)]);
    expect(deskCheckReport(wrong.lines, '').text).not.toContain('not-the-password');
  });

  it('a mirror the server has not filled yet', async () => {
    const empty = await createLibraryMirrorDatabase(db().cluster, 'not_filled');
    await (await leadingSession(empty)).end();
    const folder = mkdtempSync(join(dir, 'empty-'));
    const { target, password } = deskTarget(empty, folder);
    const { lines } = await check({ policy: { libraryServer: undefined, libraryMirror: target }, password, workstation: null });
    expect(failed(lines)).toEqual([expect.stringMatching(/^library mirror 127\.0\.0\.1:\d+\/not_filled: a fill's first batch is empty: the library server has not filled the mirror for libraries 101 yet \(no catalog sync yet; its log says first-full-sync-done when it has\)$/)]);
  });

  it('no policy, a policy refused, a policy naming neither the server nor the mirror', async () => {
    const keychain = memoryDeskRecords();
    const none = await checkDesk({ machine: { problems: {} }, keychain, policyPlace: POLICY_FILE });
    expect(failed(none)).toEqual([`policy: none at ${POLICY_FILE}: this desk works alone. Name libraryServer (and libraryMirror) in IT's policy (docs/it-deployment.md, "A desk in a library").`]);
    const ignored = await checkDesk({ machine: { problems: { ignored: policyProblem('policy.invalid-value', { source: POLICY_FILE, setting: 'libraryServer.caFile', rule: 'libraryServer.caFile must be an absolute path to a PEM file.' }) }, source: POLICY_FILE }, keychain, policyPlace: POLICY_FILE });
    expect(failed(ignored)).toEqual([expect.stringMatching(/^policy: \/etc\/lending-desk\/policy\.json: policy ignored: .*libraryServer\.caFile/)]);
    const alone = await checkDesk({ machine: { policy: policySchema.parse({ idleLockMinutes: 5 }), problems: {}, source: POLICY_FILE }, keychain, policyPlace: POLICY_FILE });
    expect(failed(alone)).toEqual([`policy: ${POLICY_FILE} names neither libraryServer nor libraryMirror: this desk works alone.`]);
    for (const lines of [none, ignored, alone]) expect(deskCheckReport(lines, '').exitCode).toBe(1);
  });
});

describe('an attacker who adds a root of their own to Node\'s default store (NODE_EXTRA_CA_CERTS)', () => {
  it('gains nothing where the policy names no CA file: the check, the desk\'s link and its mirror session trust Node\'s own public CAs only', async () => {
    const before = getCACertificates('default');
    // The test CA stands for the attacker's: their server's certificates chain to it.
    setDefaultCACertificates([...before, ca.cert, db().cluster.ca.cert]);
    try {
      const { lines } = await check({ policy: { libraryServer: { url: first.url }, libraryMirror: { ...deskTarget(db(), dir).target, caFile: undefined } } });
      expect(failed(lines)).toEqual([
        expect.stringMatching(new RegExp(`^library server ${first.url}: its certificate was not issued by the certificate authority it is checked against: the public CAs built into Lending Desk`)),
        expect.stringMatching(/^library mirror .*: The library mirror's certificate was refused: its certificate was not issued by the certificate authority it is checked against: the public CAs built into Lending Desk/),
      ]);
      const link = new LibraryServerLink({ urls: [first.url] });
      await expect(link.enrol('ANYT-HING-GOES-HERE')).rejects.toMatchObject({ detail: { reason: 'library-server.certificate' } });
      link.close();
    } finally {
      setDefaultCACertificates(before);
    }
  });
});
