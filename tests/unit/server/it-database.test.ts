// docs/library-server.md §1, §2 and §14 as IT runs them, against a real PostgreSQL whose
// pg_hba.conf starts as Debian's does (pg_createcluster's `local all postgres peer` first, then
// peer for every local user and scram over loopback): the documented create-database command,
// which asks each role's password (read here from standard input: psql has no terminal) and sends
// only its hash; the documented pg_hba lines put above Debian's own, as the page says — the server
// over the Unix socket by the page's URL, the desks over TLS only, anything else to the database
// refused — and below them the socket line never reached (the first matching line wins); and the
// documented backup and restore, as the postgres OS user, which bring back the enrolled desks.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type DatabaseTarget } from '../../../electron/node/library-mirror/database.ts';
import { migrate, SCHEMA } from '../../../electron/node/library-mirror/schema.ts';
import { WorkstationAdmin } from '../../../server/workstations.ts';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.ts';
import { documentedBlock, readDoc } from '../../support/documented.ts';
import { REPO_ROOT } from '../../support/repo-root.ts';

const DOC = readDoc('library-server.md');
const asRoot = process.getuid?.() === 0;

/** pg_hba.conf as Debian's pg_createcluster writes it for PostgreSQL 15 (its lines, without the comments). */
const DEBIAN_HBA = `local   all             postgres                                peer
local   all             all                                     peer
host    all             all             127.0.0.1/32            scram-sha-256
host    all             all             ::1/128                 scram-sha-256
local   replication     all                                     peer
host    replication     all             127.0.0.1/32            scram-sha-256
host    replication     all             ::1/128                 scram-sha-256
`;

/** The page's lines with the example networks made this test server's loopback. */
const documentedHba = (): string => documentedBlock(DOC, 'pg_hba').replaceAll('10.20.0.0/16', '127.0.0.1/32').replaceAll('10.20.5.10/32', '127.0.0.1/32');

let cluster: PostgresCluster;
let admin: pg.Client;
const folders: string[] = [];
const passwords = { service: 'Svc-pass-7fQ2-longer-than-this', desk: 'Desk-pass-9kW4-longer-than-this' };

/** A documented command line as the postgres OS user would run it here: the test server's socket, the repository for /opt/lending-desk. */
function asDocumented(line: string, files: string): { command: string; env: NodeJS.ProcessEnv } {
  const command = line
    .replace(/^sudo -u postgres /, asRoot ? 'runuser -u postgres -- ' : '')
    .replaceAll('/opt/lending-desk/', `${REPO_ROOT}/`)
    .replaceAll('/var/backups/', `${files}/`);
  return { command, env: { ...process.env, PGHOST: cluster.socketDir, PGPORT: String(cluster.port), PGUSER: 'postgres' } };
}

/** Runs `command` with `sh -c`, in a session of its own (no terminal: psql then reads its prompts' answers from `input`). */
function run(command: string, env: NodeJS.ProcessEnv, input = ''): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.on('exit', (code) => resolve({ code, output }));
    child.stdin.end(input);
  });
}

const target = (role: string, password: string, where: string): DatabaseTarget => ({ url: `postgres://${role}:${encodeURIComponent(password)}@${where}/library_mirror`, ca: cluster.ca.cert });
const service = (): DatabaseTarget => target('library_mirror_service', passwords.service, `${cluster.host}:${cluster.port}`);
const desk = (): DatabaseTarget => target('library_mirror_desk', passwords.desk, `${cluster.host}:${cluster.port}`);

/** The error a connection met, or undefined when it got in (and left). */
async function refusal(connect: () => Promise<pg.Client>): Promise<string | undefined> {
  try {
    const session = await connect();
    await session.end();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function writeHba(text: string): Promise<void> {
  const file = (await admin.query<{ hba_file: string }>('SHOW hba_file')).rows[0]!.hba_file;
  writeFileSync(file, `# Written by tests/unit/server/it-database.test.ts\n${text}`);
  await admin.query('SELECT pg_reload_conf()');
  // The reload is the server's to do; its view of the file says when it has read it, and any error in it.
  const { rows } = await admin.query<{ n: number; errors: number }>('SELECT count(*)::int AS n, count(error)::int AS errors FROM pg_hba_file_rules');
  expect(rows[0]!.errors).toBe(0);
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  // The administrator's own session, opened while the test server still trusts its socket: it outlives Debian's peer lines.
  admin = await cluster.admin();
}, 60_000);
afterAll(async () => {
  await admin?.end();
  await cluster?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('§1: the database and its two roles, by the documented command', () => {
  it('asks each role\'s password (twice, never on the command line), and only its SCRAM hash reaches the server', async () => {
    const lines = DOC.split('\n').filter((l) => l.startsWith('sudo -u postgres psql '));
    expect(lines).toEqual(['sudo -u postgres psql -f /opt/lending-desk/server/deploy/create-database.sql']);
    expect(lines[0]).not.toMatch(/password/i);
    // Every statement logged: what psql sends is what the server's log shows.
    await admin.query("ALTER SYSTEM SET log_statement = 'all'");
    await admin.query('SELECT pg_reload_conf()');
    const { command, env } = asDocumented(lines[0]!, tmpdir());
    const ran = await run(command, env, `${passwords.service}\n${passwords.service}\n${passwords.desk}\n${passwords.desk}\n`);
    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toContain('Enter new password for user "library_mirror_service"');
    expect(ran.output).toContain('Enter new password for user "library_mirror_desk"');
    await admin.query('ALTER SYSTEM RESET log_statement');
    await admin.query('SELECT pg_reload_conf()');
    // Each role signs in with the password typed for it, over verified TLS.
    for (const [who, t] of [['service', service()], ['desk', desk()]] as const) {
      const session = await openSession(t);
      expect((await session.query('SELECT current_user AS u')).rows[0].u, who).toBe(`library_mirror_${who}`);
      await session.end();
    }
    expect(await refusal(() => openSession({ ...desk(), url: desk().url.replace(encodeURIComponent(passwords.desk), 'not-the-password') }))).toMatch(/password authentication failed/);
    const log = cluster.log();
    expect(log).toMatch(/ALTER USER .*PASSWORD 'SCRAM-SHA-256\$/);
    expect(log).not.toContain(passwords.service);
    expect(log).not.toContain(passwords.desk);
  }, 60_000);
});

describe('§2: pg_hba.conf, the documented lines above Debian\'s own', () => {
  it('lets the server in over the Unix socket by the page\'s URL, the desks and the server over TLS, and refuses the rest', async () => {
    await writeHba(`${documentedHba()}\n${DEBIAN_HBA}`);
    // The same-host URL of §2 and §5, with the test server's socket folder and port.
    const urls = DOC.match(/postgres:\/\/library_mirror_service@\/library_mirror\?host=\/run\/postgresql/g) ?? [];
    expect(urls.length).toBeGreaterThanOrEqual(2);
    const socketUrl = urls[0]!.replace('@/', `@:${cluster.port}/`).replace('host=/run/postgresql', `host=${cluster.socketDir}`);
    const overSocket = await openSession({ url: socketUrl, password: passwords.service });
    expect((await overSocket.query('SELECT current_user AS u, (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS ssl, inet_client_addr() AS addr')).rows[0])
      .toEqual({ u: 'library_mirror_service', ssl: false, addr: null });
    await overSocket.end();
    expect(await refusal(() => openSession(service()))).toBeUndefined();
    expect(await refusal(() => openSession(desk()))).toBeUndefined();
    // Without TLS, for either role; and anyone else over the network, with TLS or without.
    const plain = async (t: DatabaseTarget): Promise<pg.Client> => {
      const { default: PG } = await import('pg');
      const url = new URL(t.url);
      const client = new PG.Client({ host: cluster.host, port: cluster.port, user: decodeURIComponent(url.username), password: decodeURIComponent(url.password), database: 'library_mirror', ssl: false });
      client.on('error', () => {});
      await client.connect();
      return client;
    };
    expect(await refusal(() => plain(desk()))).toMatch(/pg_hba\.conf rejects connection .*user "library_mirror_desk", database "library_mirror", no encryption/);
    expect(await refusal(() => plain(service()))).toMatch(/pg_hba\.conf rejects connection .*user "library_mirror_service", database "library_mirror", no encryption/);
    await admin.query("ALTER ROLE postgres PASSWORD 'an-admin-password'");
    expect(await refusal(() => openSession(target('postgres', 'an-admin-password', `${cluster.host}:${cluster.port}`)))).toMatch(/pg_hba\.conf rejects connection .*user "postgres", database "library_mirror", SSL encryption/);
  });

  it('below Debian\'s `local all all peer` the socket line is never reached: the first matching line wins', async () => {
    await writeHba(`${DEBIAN_HBA}\n${documentedHba()}`);
    const socketUrl = `postgres://library_mirror_service@:${cluster.port}/library_mirror?host=${cluster.socketDir}`;
    expect(await refusal(() => openSession({ url: socketUrl, password: passwords.service }))).toMatch(/Peer authentication failed for user "library_mirror_service"/);
    await writeHba(`${documentedHba()}\n${DEBIAN_HBA}`);
    expect(await refusal(() => openSession({ url: socketUrl, password: passwords.service }))).toBeUndefined();
  });
});

describe('§14: backups, as the postgres OS user', () => {
  // Acting as the postgres OS user (Debian's peer line) needs root, as CI runs; said when it cannot.
  if (!asRoot) console.log('it-database.test.ts: §14 is run as the postgres OS user through runuser, which needs root: skipped here.');
  it.runIf(asRoot)('the documented dump and restore work with §2\'s lines in place, and bring back the enrolled desks', async () => {
    await writeHba(`${documentedHba()}\n${DEBIAN_HBA}`);
    const session = await openSession(service());
    await migrate(session);
    const enrolled = await new WorkstationAdmin(session).enrolDirectly('Front desk 1');
    await session.end();

    const lines = documentedBlock(DOC, 'backup').trim().split('\n');
    expect(lines).toHaveLength(2);
    const files = mkdtempSync(join(tmpdir(), 'library-server-backup-'));
    folders.push(files);
    const dump = asDocumented(lines[0]!, files);
    const dumped = await run(dump.command, dump.env);
    expect(dumped.code, dumped.output).toBe(0);
    expect(readFileSync(join(files, 'library_mirror.dump')).subarray(0, 5).toString()).toBe('PGDMP');

    // The desk is lost (a mistake, a bad upgrade)…
    const losing = await openSession(service());
    await losing.query(`DELETE FROM ${SCHEMA}.workstations`);
    await losing.end();
    // …and comes back with the restore (every instance stopped: no session holds the tables).
    const restore = asDocumented(lines[1]!, files);
    const restored = await run(restore.command, restore.env);
    expect(restored.code, restored.output).toBe(0);
    const after = await openSession(service());
    expect((await new WorkstationAdmin(after).list()).map((w) => [w.id, w.name, w.revokedAt])).toEqual([[enrolled.id, 'Front desk 1', undefined]]);
    await after.end();
  }, 60_000);
});
