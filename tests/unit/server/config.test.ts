// The service's configuration and its credentials file: what IT writes, what the environment
// overrides, and the files it refuses (anyone but root or its user could read or have written
// them). Also: the PostgreSQL client loads in a worker thread, where the desk will use it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_REQUESTS_PER_MINUTE, fromEnvironment, loadConfig, parseConfig } from '../../../server/config.ts';
import { readCredentialsFile } from '../../../server/credentials-file.ts';
import { LEADER_RETRY_SECONDS } from '../../../server/leadership.ts';
import { REPO_ROOT } from '../../support/repo-root.ts';

const made: string[] = [];
const dir = (): string => {
  const folder = mkdtempSync(join(tmpdir(), 'library-mirror-config-test-'));
  made.push(folder);
  return folder;
};
afterAll(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const me = process.getuid?.() ?? 0;

function credentials(folder: string, mode = 0o600, body: unknown = { username: 'partner-user', password: 'partner-secret' }): string {
  const path = join(folder, 'credentials.json');
  writeFileSync(path, JSON.stringify(body), { mode });
  chmodSync(path, mode);
  return path;
}

const minimal = (credentialsFile: string) => ({
  partner: { baseUrl: 'https://lending.example.org' },
  libraries: [{ libraryId: 101, countries: ['US'] }],
  database: { url: 'postgres://library_mirror_service@db.example.org/library_mirror' },
  credentialsFile,
});

describe('the configuration', () => {
  it('fills in the defaults: the credential\'s whole budget (the server spends it for every desk), Flex availability every 10 minutes, a follower retry under 30 s', () => {
    const config = parseConfig(minimal('/etc/x'));
    expect(config).toMatchObject({
      requestsPerMinute: DEFAULT_REQUESTS_PER_MINUTE, availabilityEveryMinutes: 10, pageSize: 500, leaderRetrySeconds: LEADER_RETRY_SECONDS,
      database: { deskRole: 'library_mirror_desk' }, partner: { wsApi: '2.1' }, instanceName: expect.any(String),
    });
    expect(DEFAULT_REQUESTS_PER_MINUTE).toBe(100);
    expect(LEADER_RETRY_SECONDS).toBeLessThanOrEqual(30);
  });

  it('takes overrides from the environment (a container passes them so), by the library server\'s names and the library mirror\'s before them', () => {
    const deskApi = { certFile: '/etc/lending-desk/library-server/desk-api.crt', keyFile: '/etc/lending-desk/library-server/desk-api.key', publicUrl: 'https://server-b.example.org:8443' };
    const config = parseConfig({ ...minimal('/etc/x'), deskApi }, {
      LIBRARY_SERVER_DATABASE_URL: 'postgres://svc@other/db', LIBRARY_SERVER_REQUESTS_PER_MINUTE: '30', LIBRARY_SERVER_INSTANCE: 'server-b',
      LIBRARY_SERVER_DESK_API_KEY_FILE: '/run/credentials/desk-api.key',
    });
    expect(config).toMatchObject({ database: { url: 'postgres://svc@other/db' }, requestsPerMinute: 30, instanceName: 'server-b', deskApi: { keyFile: '/run/credentials/desk-api.key' } });
    const old = parseConfig(minimal('/etc/x'), {
      LIBRARY_MIRROR_DATABASE_URL: 'postgres://svc@other/db', LIBRARY_MIRROR_REQUESTS_PER_MINUTE: '30', LIBRARY_MIRROR_INSTANCE: 'mirror-b',
    });
    expect(old).toMatchObject({ database: { url: 'postgres://svc@other/db' }, requestsPerMinute: 30, instanceName: 'mirror-b' });
    // A key file for a desk endpoint the file does not configure is no desk endpoint.
    expect(parseConfig(minimal('/etc/x'), { LIBRARY_SERVER_DESK_API_KEY_FILE: '/run/credentials/desk-api.key' }).deskApi).toBeUndefined();
    // Both set: the library server's name wins.
    expect(parseConfig(minimal('/etc/x'), { LIBRARY_MIRROR_INSTANCE: 'old', LIBRARY_SERVER_INSTANCE: 'new' }).instanceName).toBe('new');
    expect(fromEnvironment({ LIBRARY_MIRROR_CONFIG: '/etc/old.json' }, 'CONFIG')).toBe('/etc/old.json');
    expect(fromEnvironment({ LIBRARY_MIRROR_CONFIG: '/etc/old.json', LIBRARY_SERVER_CONFIG: '/etc/new.json' }, 'CONFIG')).toBe('/etc/new.json');
  });

  it('refuses a database URL asking for less than verified TLS, or one it does not read, saying so', () => {
    for (const mode of ['require', 'disable', 'prefer', 'verify-ca']) {
      expect(() => parseConfig({ ...minimal('/etc/x'), database: { url: `postgres://svc@db.example.org/library_mirror?sslmode=${mode}` } }), mode)
        .toThrow(new RegExp(`database\\.url: The database URL asks for sslmode=${mode}, but the connection is always verified TLS \\(verify-full`));
    }
    expect(() => parseConfig({ ...minimal('/etc/x'), database: { url: 'postgres://svc@db.example.org/library_mirror?connect_timeout=5' } })).toThrow(/database\.url: .*"connect_timeout" is not one/);
    // The same-host form of the docs (libpq's, no host before the path): accepted.
    expect(parseConfig({ ...minimal('/etc/x'), database: { url: 'postgres://library_mirror_service@/library_mirror?host=/run/postgresql' } }).database.url)
      .toBe('postgres://library_mirror_service@/library_mirror?host=/run/postgresql');
  });

  it('refuses what it does not know, and a leader retry over 30 s', () => {
    expect(() => parseConfig({ ...minimal('/etc/x'), extra: 1 })).toThrow(/not valid/);
    expect(() => parseConfig({ ...minimal('/etc/x'), leaderRetrySeconds: 45 })).toThrow(/leaderRetrySeconds/);
    expect(() => parseConfig({ ...minimal('/etc/x'), libraries: [{ libraryId: 101, countries: ['FR'] }] })).toThrow(/libraries/);
  });

  it('reads the credentials file and the CA it points to; the database password from the file', () => {
    const folder = dir();
    const file = credentials(folder, 0o600, { username: 'u', password: 'p', databasePassword: 'db-secret' });
    writeFileSync(join(folder, 'ca.pem'), 'PEM');
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ ...minimal(file), database: { url: 'postgres://svc@db/m', caFile: join(folder, 'ca.pem') } }));
    const loaded = loadConfig(join(folder, 'config.json'), {}, me);
    expect(loaded.credentials).toEqual({ username: 'u', password: 'p', databasePassword: 'db-secret' });
    expect(loaded.database).toEqual({ url: 'postgres://svc@db/m', ca: 'PEM', password: 'db-secret' });
  });
});

describe('the credentials file', () => {
  it('is read when only its owner (root or the service\'s user) can read it', () => {
    expect(readCredentialsFile(credentials(dir(), 0o600), me)).toEqual({ username: 'partner-user', password: 'partner-secret' });
    expect(readCredentialsFile(credentials(dir(), 0o400), me)).toEqual({ username: 'partner-user', password: 'partner-secret' });
  });

  it('is refused when group or others may read it, or write it', () => {
    for (const mode of [0o640, 0o604, 0o620, 0o644]) {
      expect(() => readCredentialsFile(credentials(dir(), mode), me), mode.toString(8)).toThrow(/lets group or others at it/);
    }
  });

  it.runIf(me === 0)('is refused when another user owns it', () => {
    const file = credentials(dir());
    chownSync(file, 4321, 4321);
    expect(() => readCredentialsFile(file, 1234)).toThrow(/belongs to user 4321, not root or the service's user \(1234\)/);
    expect(() => readCredentialsFile(file, 4321)).not.toThrow();
  });

  it('is refused when it is a symbolic link, or holds more than the credential', () => {
    const folder = dir();
    const real = credentials(folder);
    symlinkSync(real, join(folder, 'link.json'));
    expect(() => readCredentialsFile(join(folder, 'link.json'), me)).toThrow(/symbolic link/);
    expect(() => readCredentialsFile(credentials(dir(), 0o600, { username: 'u', password: 'p', token: 't' }), me)).toThrow(/nothing else/);
  });

  it('never quotes the secret in what it says', () => {
    let message = '';
    try {
      readCredentialsFile(credentials(dir(), 0o644, { username: 'u', password: 'hunter2-very-secret' }), me);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/refused/);
    expect(message).not.toContain('hunter2');
  });

  it('the service refuses to start with it (exit 2, the reason on standard error)', async () => {
    const folder = dir();
    const file = credentials(folder, 0o644);
    writeFileSync(join(folder, 'config.json'), JSON.stringify(minimal(file)));
    const child = spawn(process.execPath, [join(REPO_ROOT, 'server', 'main.ts'), join(folder, 'config.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toMatch(/credentials file .* was refused: its mode 0644/);
  });

  it('the server refuses, at start and for a command, a database URL asking for sslmode=require (exit 2, the reason on standard error, never retried)', async () => {
    const folder = dir();
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ ...minimal(credentials(folder)), database: { url: 'postgres://library_mirror_service@db.example.org/library_mirror?sslmode=require' } }));
    for (const command of [[], ['list-desks']]) {
      const child = spawn(process.execPath, [join(REPO_ROOT, 'server', 'main.ts'), join(folder, 'config.json'), ...command], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
      child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
      const [code] = await once(child, 'exit');
      expect(code, command.join(' ')).toBe(2);
      expect(stderr).toMatch(/^library-server: The library server's configuration is not valid: database\.url: The database URL asks for sslmode=require, but the connection is always verified TLS/m);
      expect(stderr).toContain('Remove sslmode from the URL.');
      expect(stdout).not.toContain('database-unreachable');
    }
  });

  it('the service refuses a partner address that would send the credential in clear text (exit 2)', async () => {
    const folder = dir();
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ ...minimal(credentials(folder)), partner: { baseUrl: 'http://lending.example.org' } }));
    const child = spawn(process.execPath, [join(REPO_ROOT, 'server', 'main.ts'), join(folder, 'config.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^library-server: .*https/m);
  });
});

describe('the PostgreSQL client', () => {
  it('loads and runs in a worker thread (the desk will read the library mirror from its mirror\'s worker)', async () => {
    const worker = new Worker(`
      import pg from 'pg';
      import { from } from 'pg-copy-streams';
      import { parentPort } from 'node:worker_threads';
      const client = new pg.Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 });
      client.connect().then(() => parentPort.postMessage('connected'), (error) => parentPort.postMessage([typeof pg.Client, typeof from, error.code]));
    `, { eval: true });
    const [answer] = await once(worker, 'message');
    await worker.terminate();
    // It got as far as the network (nothing listens on port 1): the client and COPY streams loaded.
    expect(answer).toEqual(['function', 'function', 'ECONNREFUSED']);
  });
});

describe('what IT installs (server/deploy/)', () => {
  const resources = join(REPO_ROOT, 'server', 'deploy');
  const read = (name: string): string => readFileSync(join(resources, name), 'utf8');

  it('the example configuration is one the service accepts', () => {
    expect(parseConfig(JSON.parse(read('config.example.json')))).toMatchObject({ requestsPerMinute: 100, libraries: [{ libraryId: 101 }, { libraryId: 102 }] });
  });

  it('the systemd unit is the library server\'s: its command as its own user, hardened, its credential and desk key through systemd', () => {
    const unit = read('lending-desk-library-server.service');
    const settings = new Map<string, string[]>();
    for (const line of unit.split('\n').filter((l) => /^[A-Za-z]+=/.test(l))) {
      const key = line.slice(0, line.indexOf('='));
      settings.set(key, [...(settings.get(key) ?? []), line.slice(line.indexOf('=') + 1)]);
    }
    const one = (key: string): string | undefined => settings.get(key)?.at(-1);
    expect(one('Description')).toMatch(/^Lending Desk library server/);
    expect(one('Documentation')).toBe('file:///opt/lending-desk/docs/library-server.md');
    expect(one('ExecStart')).toBe('/usr/bin/node /opt/lending-desk/server/main.ts /etc/lending-desk/library-server/config.json');
    expect(one('User')).toBe('lending-server');
    for (const [key, value] of [['NoNewPrivileges', 'yes'], ['ProtectSystem', 'strict'], ['ProtectHome', 'yes'], ['PrivateTmp', 'yes'], ['CapabilityBoundingSet', ''], ['RestrictSUIDSGID', 'yes'], ['UMask', '0077'], ['RestartPreventExitStatus', '2']]) {
      expect(one(key as string), key).toBe(value);
    }
    expect(settings.get('LoadCredential')).toEqual([
      'credentials.json:/etc/lending-desk/library-server/credentials.json', 'desk-api.key:/etc/lending-desk/library-server/desk-api.key',
    ]);
    expect(settings.get('Environment')).toEqual(['LIBRARY_SERVER_CREDENTIALS_FILE=%d/credentials.json', 'LIBRARY_SERVER_DESK_API_KEY_FILE=%d/desk-api.key']);
    // What the environment names is what the configuration reads: the credential and the key systemd handed over.
    const env = Object.fromEntries((settings.get('Environment') ?? []).map((e) => e.replace('%d', '/run/credentials/lending-desk-library-server.service').split('=') as [string, string]));
    expect(parseConfig(JSON.parse(read('config.example.json')), env)).toMatchObject({
      credentialsFile: '/run/credentials/lending-desk-library-server.service/credentials.json',
      deskApi: { keyFile: '/run/credentials/lending-desk-library-server.service/desk-api.key' },
    });
  });

  it('the container runs the same command as a user that is not root, from the official Node 24 image, with the library server\'s configuration', () => {
    const file = read('Containerfile');
    expect(file).toMatch(/^FROM node:24-bookworm-slim$/m);
    expect(file).toMatch(/^USER 10001:10001$/m);
    expect(file).toMatch(/^ENTRYPOINT \["node", "server\/main\.ts"\]$/m);
    expect(file).toMatch(/LIBRARY_SERVER_CONFIG=\/etc\/lending-desk\/library-server\/config\.json/);
    expect(file).toMatch(/^EXPOSE 8443$/m);
  });
});
