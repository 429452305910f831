// A real PostgreSQL server for one test file: Debian's binaries, a cluster made in a temporary
// folder, TLS with a certificate authority made for this run, stopped and removed at the end.
// No mock database anywhere (DESIGN.md, "A library of many desks").
//
// initdb and postgres refuse to run as root, and CI runs as root: the folder is then given to
// the `postgres` user and every server command runs as that user (`runuser -u postgres --`).
// As any other user, they run as that user. The server listens on loopback (a free port) and
// on a Unix socket inside the folder; pg_hba.conf lets the superuser in over that socket only
// (the folder is the postgres user's alone), and everyone else over TLS only:
//   local   all  postgres             trust
//   hostssl all  all       127.0.0.1  scram-sha-256
//   host    all  all       127.0.0.1  reject          (the same address without TLS)
// Readiness is the server's own answer (pg_ctl -w, then pg_isready), never a sleep.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { makeCertificateAuthority, makeServerCertificate, type CertificateAuthority } from './certificates.ts';

const run = promisify(execFile);

/** Where Debian installs a server version's binaries; the newest installed is used (15 on these machines). */
const DEBIAN_SERVER_BINARIES = '/usr/lib/postgresql';

export interface PostgresCluster {
  /** Loopback address and port the server listens on with TLS. */
  host: string;
  port: number;
  /** The folder holding the server's Unix socket (the superuser's way in). */
  socketDir: string;
  /** The CA that signed the server's certificate (subject alternative names 127.0.0.1 and localhost). */
  ca: CertificateAuthority;
  /** A connection as the superuser over the Unix socket; the caller ends it. */
  admin(database?: string): Promise<pg.Client>;
  /** Runs a psql script file as the superuser, with `-v name=value` variables (ON_ERROR_STOP). */
  psqlFile(file: string, variables: Record<string, string>, database?: string): Promise<string>;
  /** Another CA, made the same way, that signed nothing this server holds: a wrong certificate for tests. */
  otherCa(): Promise<CertificateAuthority>;
  /** The server's log so far (a failing test prints it). */
  log(): string;
  /** pg_ctl stop -m fast, then the folder removed. Safe to call twice. */
  stop(): Promise<void>;
}

/** The newest PostgreSQL server installed by Debian's packages (LENDING_DESK_PG_BIN overrides). */
export function serverBinaries(): string {
  const chosen = process.env.LENDING_DESK_PG_BIN;
  if (chosen) return chosen;
  const versions = existsSync(DEBIAN_SERVER_BINARIES)
    ? readdirSync(DEBIAN_SERVER_BINARIES).filter((v) => /^\d+$/.test(v) && existsSync(join(DEBIAN_SERVER_BINARIES, v, 'bin', 'initdb')))
    : [];
  const newest = versions.map(Number).sort((a, b) => b - a)[0];
  if (newest === undefined) throw new Error(`No PostgreSQL server under ${DEBIAN_SERVER_BINARIES}: run scripts/system-deps.sh (it installs Debian's postgresql).`);
  return join(DEBIAN_SERVER_BINARIES, String(newest), 'bin');
}

const asRoot = (): boolean => process.getuid?.() === 0;

/** A server command as the user that will own the cluster. */
function serverCommand(bin: string, tool: string, args: string[]): [string, string[]] {
  const path = join(bin, tool);
  return asRoot() ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('No free port');
  return address.port;
}

/** Gives `path` (and what is in it) to the postgres user when running as root. */
function giveToServerUser(path: string): void {
  if (!asRoot()) return;
  const { uid, gid } = postgresUser();
  chownSync(path, uid, gid);
  for (const entry of readdirSync(path, { recursive: true, encoding: 'utf8' })) chownSync(join(path, entry), uid, gid);
}

function postgresUser(): { uid: number; gid: number } {
  try {
    const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
    if (Number.isInteger(uid) && Number.isInteger(gid)) return { uid: uid as number, gid: gid as number };
  } catch {
    // No such user: said below.
  }
  throw new Error("There is no postgres user: install Debian's postgresql (scripts/system-deps.sh).");
}

const HBA = `# Written by tests/support/postgres-cluster.ts
local   all  postgres                trust
hostssl all  all       127.0.0.1/32  scram-sha-256
host    all  all       127.0.0.1/32  reject
`;

export interface ClusterOptions {
  /** fsync and full-page writes on, as a real server runs (benches); tests trade them for speed. */
  durable?: boolean;
}

function serverSettings(port: number, socketDir: string, tls: { certFile: string; keyFile: string }, durable: boolean): string {
  return `
# Added by tests/support/postgres-cluster.ts
listen_addresses = '127.0.0.1'
port = ${port}
unix_socket_directories = '${socketDir}'
ssl = on
ssl_cert_file = '${tls.certFile}'
ssl_key_file = '${tls.keyFile}'
password_encryption = 'scram-sha-256'
max_connections = 40
shared_buffers = 32MB
${durable ? '' : `# A test cluster: speed over durability (a crash loses the folder anyway).
fsync = off
synchronous_commit = off
full_page_writes = off
`}`;
}

/** Starts a cluster; `stop()` it when done (useTestCluster does that for a Vitest file). */
export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = serverBinaries();
  const root = mkdtempSync(join(tmpdir(), 'lending-desk-pg-'));
  chmodSync(root, 0o700);
  const dataDir = join(root, 'data');
  const socketDir = root;
  const logFile = join(root, 'server.log');
  let stopped = false;
  let started = false;

  const exec = async (tool: string, args: string[]): Promise<string> => {
    const [command, argv] = serverCommand(bin, tool, args);
    return (await run(command, argv, { cwd: root, env: { ...process.env, LC_ALL: 'C' } })).stdout;
  };
  const stopNow = (mode: 'fast' | 'immediate'): void => {
    if (started) {
      const [command, argv] = serverCommand(bin, 'pg_ctl', ['stop', '-D', dataDir, '-m', mode, '-w']);
      try {
        execFileSync(command, argv, { stdio: 'ignore' });
      } catch {
        // Already stopped (or never got going): the folder goes anyway.
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  // A worker that dies without running afterAll still takes its server with it.
  const onExit = (): void => {
    if (!stopped) stopNow('immediate');
  };
  process.once('exit', onExit);

  try {
    const ca = await makeCertificateAuthority(root, 'ca');
    const tls = await makeServerCertificate(root, ca);
    chmodSync(tls.keyFile, 0o600);
    giveToServerUser(root);
    await exec('initdb', ['-D', dataDir, '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--auth-local=trust', '--auth-host=reject', '--no-sync']);
    writeFileSync(join(dataDir, 'pg_hba.conf'), HBA);

    // A free port can be taken between asking and binding: a start that fails on it tries another.
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      writeFileSync(join(dataDir, 'postgresql.auto.conf'), serverSettings(port, socketDir, tls, options.durable === true));
      giveToServerUser(root);
      try {
        await exec('pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-s']);
        started = true;
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
    await exec('pg_isready', ['-h', socketDir, '-p', String(port), '-U', 'postgres', '-q']);

    const admin = async (database = 'postgres'): Promise<pg.Client> => {
      const client = new pg.Client({ host: socketDir, port, user: 'postgres', database });
      await client.connect();
      return client;
    };
    let other: CertificateAuthority | undefined;
    return {
      host: '127.0.0.1',
      port,
      socketDir,
      ca,
      admin,
      psqlFile: async (file, variables, database = 'postgres') => {
        const vars = Object.entries(variables).flatMap(([name, value]) => ['-v', `${name}=${value}`]);
        const { stdout } = await run(join(bin, 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', socketDir, '-p', String(port), '-U', 'postgres', '-d', database, ...vars, '-f', file]);
        return stdout;
      },
      otherCa: async () => (other ??= await makeCertificateAuthority(root, 'other-ca')),
      log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        process.off('exit', onExit);
        stopNow('fast');
      },
    };
  } catch (error) {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    stopped = true;
    process.off('exit', onExit);
    stopNow('immediate');
    throw new Error(`The test PostgreSQL cluster did not start: ${error instanceof Error ? error.message : String(error)}${log ? `\n${log}` : ''}`);
  }
}
