// docs/library-server.md §4, §8 and §11 as IT runs them, against the library server itself (a real
// PostgreSQL, the sandbox over HTTP, its desk endpoint over TLS): the documented install copies
// enough to run the server's commands; enrol-desk's code is traded by a desk; enrol-desk
// --print-secret's line, put in the keychain by each OS's documented command, is read back by the
// desk's own keychain reader and gets the desk through the server (Linux: secret-tool against a
// real keyring; macOS: the shell runs the line with a stand-in `security` that records what it is
// given; Windows: the line is parsed as cmd and Windows parse a command line, and cmdkey's UTF-16 is
// read back as keytar reads it); list-desks and revoke-desk, the desk refused within a minute;
// sync-now wakes the leader, and first-full-sync-done is said once. And a database certificate the
// server cannot verify is said in our words, never with Node's advice to use the OS's store.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_RECORDS, keychainDeskRecords, memoryDeskRecords } from '../../../electron/main/credentials/desk-keychain.ts';
import { DEFAULT_KEYCHAIN_SERVICE } from '../../../electron/main/credentials/index.ts';
import { LibraryServerSettings } from '../../../electron/main/desk/library-server-settings.ts';
import { LibraryServerLink } from '../../../electron/main/connection/library-server-fetch.ts';
import { policySchema } from '../../../electron/main/policy/index.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import { PartnerClient } from '../../../electron/node/partner/client.ts';
import { StaffAdmin } from '../../../server/staff.ts';
import { documentedBlock, documentedLines, readDoc } from '../../support/documented.ts';
import { useLibraryMirrorDatabase } from '../../support/library-mirror-database.ts';
import { makeCertificateAuthority, type CertificateAuthority } from '../../support/certificates.ts';
import { REPO_ROOT } from '../../support/repo-root.ts';
import { runLibraryServer, type RunningLibraryServer } from '../../support/running-library-server.ts';
import { event, removeServiceConfigs, startServiceProcess, stopService, writeServiceConfig } from './service-process.ts';

const DOC = readDoc('library-server.md');
const CLI = join(REPO_ROOT, 'server', 'main.ts');
const LIB = 101;
const db = useLibraryMirrorDatabase();
let sandbox: SandboxHandle;
let dir: string;
let ca: CertificateAuthority;
let server: RunningLibraryServer;
/** The server's clock: real time, which a test may jump ahead (a revocation's minute). */
let ahead = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 300 });
  dir = mkdtempSync(join(tmpdir(), 'library-server-commands-'));
  ca = await makeCertificateAuthority(dir, 'server-ca');
  server = await runLibraryServer(db(), sandbox, { dir, ca, name: 'lending-server-1', deps: { now: () => Date.now() + ahead } });
}, 60_000);
afterAll(async () => {
  await server?.service.stop();
  await sandbox?.close();
  removeServiceConfigs();
  rmSync(dir, { recursive: true, force: true });
});

/** One of IT's commands, `node server/main.ts <config> …` (or the installed copy's main.ts), as IT runs it. */
function command(args: string[], main = CLI): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, server.configPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A member of staff to sign in at the desk (issue #32: every staff call the server carries needs a live session). */
let staffAccount: Promise<void> | undefined;
beforeAll(() => {
  staffAccount = (async () => {
    await server.log.waitFor('first-full-sync-done');
    const admin = await db().admin();
    try {
      await new StaffAdmin(admin).add('Ana Lopez', 'desk-staff', '482913');
    } finally {
      await admin.end();
    }
  })();
  staffAccount.catch(() => {});
});

/** What a desk of library 101 holds for its server (its policy's libraryServer, the CA in a file) and a look-up through it. */
async function lookUpThrough(keychain: ReturnType<typeof memoryDeskRecords> | ReturnType<typeof keychainDeskRecords>): Promise<number> {
  const caFile = join(dir, 'desk-ca.pem');
  writeFileSync(caFile, ca.cert);
  const policy = policySchema.parse({ libraryServer: { url: server.url, caFile } }).libraryServer!;
  const settings = new LibraryServerSettings(policy, keychain);
  try {
    await staffAccount;
    await settings.signIn('Ana Lopez', '482913');
    const through = settings.options(() => {});
    const client = new PartnerClient({ baseUrl: settings.link.baseUrl, fetch: settings.link.fetchWith(through.onWait, through.session), credentials: await settings.workstation() });
    const card = sandbox.libraries.find((l) => l.libraryId === LIB)!.cards[0]!;
    return (await client.patronStatus(LIB, card)).borrowsAllowedPerMonth ?? 0;
  } finally {
    settings.link.close();
  }
}

/** A command line as Windows' C runtime (and CommandLineToArgvW) splits it: quotes group, backslashes escape only before a quote. */
function windowsArgv(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < line.length;) {
    const c = line[i]!;
    if (c === '\\') {
      let n = 0;
      while (line[i] === '\\') { n++; i++; }
      if (line[i] === '"') {
        current += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) { current += '"'; i++; }
      } else current += '\\'.repeat(n);
      started = true;
    } else if (c === '"') {
      if (quoted && line[i + 1] === '"') { current += '"'; i += 2; } else { quoted = !quoted; i++; }
      started = true;
    } else if ((c === ' ' || c === '\t') && !quoted) {
      if (started) args.push(current);
      current = '';
      started = false;
      i++;
    } else {
      current += c;
      started = true;
      i++;
    }
  }
  if (started) args.push(current);
  return args;
}

describe('§4: the documented install', () => {
  it('copies what the server runs: its commands start from the copy, with only the packages of server/package-lock.json', async () => {
    const target = mkdtempSync(join(tmpdir(), 'lending-desk-install-'));
    try {
      const block = documentedBlock(DOC, 'install').trim().split('\n');
      expect(block.at(-1)).toBe('cd /opt/lending-desk && npm ci --omit=dev --ignore-scripts');
      // npm ci needs the registry: the packages its lock file names are linked from this checkout instead.
      const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'server', 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
      const script = [...block.slice(0, -1), 'cd /opt/lending-desk'].join('\n').replaceAll('/opt/lending-desk', target);
      const copied = spawnSync('sh', ['-e', '-c', script], { cwd: REPO_ROOT, encoding: 'utf8' });
      expect(copied.status, copied.stderr).toBe(0);
      mkdirSync(join(target, 'node_modules'));
      for (const key of Object.keys(lock.packages).filter((k) => k.startsWith('node_modules/') && !k.includes('/node_modules/', 1))) {
        symlinkSync(join(REPO_ROOT, key), join(target, key));
      }
      // Nothing of the desk is in the copy.
      expect(spawnSync('ls', [join(target, 'electron')], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean)).toEqual(['node', 'shared']);
      const listed = await command(['list-desks'], join(target, 'server', 'main.ts'));
      expect(listed.code, listed.stderr).toBe(0);
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('§8: enrolling and revoking desks with the server\'s commands', () => {
  it('enrol-desk prints a one-time code that a desk trades for its workstation, once', async () => {
    const enrolled = await command(['enrol-desk', '--name', 'Front desk 2']);
    expect(enrolled.code, enrolled.stderr).toBe(0);
    const code = /^Enrolment code for "Front desk 2": ([2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4})$/m.exec(enrolled.stdout)?.[1];
    expect(code, enrolled.stdout).toBeDefined();
    const keychain = memoryDeskRecords();
    const caFile = join(dir, 'desk-ca.pem');
    writeFileSync(caFile, ca.cert);
    const settings = new LibraryServerSettings(policySchema.parse({ libraryServer: { url: server.url, caFile } }).libraryServer!, keychain);
    expect(await settings.enrol(code!)).toMatchObject({ enrolled: true, workstationId: expect.stringMatching(/^ws-/) });
    settings.link.close();
    expect(await lookUpThrough(keychain)).toBeGreaterThan(0);
    const again = new LibraryServerLink({ urls: [server.url], ca: ca.cert });
    await expect(again.enrol(code!)).rejects.toMatchObject({ detail: { reason: 'library-server.enrolment-code' } });
    again.close();
  }, 120_000);

  describe('the workstation credential enrol-desk --print-secret prints, put in the keychain by each OS\'s documented command', () => {
    /** A fresh workstation's line, as printed; and the printed shape is the page's. */
    async function printedLine(name: string): Promise<string> {
      const printed = await command(['enrol-desk', '--name', name, '--print-secret']);
      expect(printed.code, printed.stderr).toBe(0);
      const [first, line, ...rest] = printed.stdout.trimEnd().split('\n');
      expect(rest).toEqual([]);
      expect(first).toMatch(new RegExp(`^Workstation ws-[0-9a-f]{12} \\(${name}\\) is enrolled\\. Its credential for that desk's keychain, as one line`));
      expect(DOC).toContain(first!.replace(/ws-[0-9a-f]{12}/, 'ws-3f9a0c27d41e').replace(name, 'Front desk 2'));
      expect(line).toMatch(/^ws-[0-9a-f]{12}:[A-Za-z0-9_-]{43}$/);
      return line!;
    }
    const documented = (tool: string): string => {
      const lines = documentedLines(DOC, tool, DESK_RECORDS.workstation);
      expect(lines, tool).toHaveLength(1);
      return lines[0]!;
    };

    it('Linux: the secret-tool line, against a real keyring', async () => {
      const service = `Lending Desk workstation test ${process.pid}`;
      const line = await printedLine('Linux desk');
      const documentedLine = documented('| secret-tool store ');
      expect(documentedLine).toContain(`service '${DEFAULT_KEYCHAIN_SERVICE}'`);
      try {
        const run = spawnSync('sh', ['-c', documentedLine.replace(`service '${DEFAULT_KEYCHAIN_SERVICE}'`, `service '${service}'`)], { env: { ...process.env, LENDING_DESK_WORKSTATION: line }, encoding: 'utf8' });
        expect(run.status, run.stderr).toBe(0);
        const keychain = keychainDeskRecords({ service });
        expect(await keychain.read(DESK_RECORDS.workstation)).toBe(line);
        expect(await lookUpThrough(keychain)).toBeGreaterThan(0);
      } finally {
        await keytar.deletePassword(service, DESK_RECORDS.workstation);
      }
    }, 120_000);

    it('macOS: the security line, through the shell, with the names keytar looks the entry up by', async () => {
      const line = await printedLine('Mac desk');
      const bin = mkdtempSync(join(dir, 'security-'));
      const recorded = join(bin, 'argv');
      // A stand-in for /usr/bin/security that writes down each argument it was given.
      writeFileSync(join(bin, 'security'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done > '${recorded}'\n`);
      chmodSync(join(bin, 'security'), 0o755);
      const run = spawnSync('sh', ['-c', documented('security add-generic-password')], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, LENDING_DESK_WORKSTATION: line }, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const argv = readFileSync(recorded, 'utf8').split('\0').slice(0, -1);
      const after = (flag: string): string | undefined => argv[argv.indexOf(flag) + 1];
      expect(argv[0]).toBe('add-generic-password');
      expect(argv).toContain('-U');
      expect([after('-s'), after('-a'), after('-T'), after('-w')]).toEqual([DEFAULT_KEYCHAIN_SERVICE, DESK_RECORDS.workstation, '/Applications/Lending Desk.app', line]);
      // keytar reads the password back as the UTF-8 it was given.
      const keychain = memoryDeskRecords();
      keychain.entries.set(DESK_RECORDS.workstation, after('-w')!);
      expect(await lookUpThrough(keychain)).toBeGreaterThan(0);
    }, 120_000);

    it('Windows: the cmdkey line, as cmd expands and Windows splits it, its UTF-16 read back as keytar reads it', async () => {
      const line = await printedLine('Windows desk');
      const documentedLine = documented('cmdkey /generic:');
      // cmd expands %NAME% before the program sees its command line.
      const expanded = documentedLine.replace(/%LENDING_DESK_WORKSTATION%/g, line);
      const argv = windowsArgv(expanded);
      const option = (name: string): string | undefined => argv.find((a) => a.toLowerCase().startsWith(`/${name}:`))?.slice(name.length + 2);
      expect(argv[0]).toBe('cmdkey');
      // keytar's entry on Windows is the generic credential "<service>/<account>".
      expect(option('generic')).toBe(`${DEFAULT_KEYCHAIN_SERVICE}/${DESK_RECORDS.workstation}`);
      expect(option('pass')).toBe(line);
      // cmdkey stores UTF-16LE; keytar hands its bytes back as a UTF-8 string (a NUL after each character).
      const keychain = memoryDeskRecords();
      keychain.entries.set(DESK_RECORDS.workstation, Buffer.from(option('pass')!, 'utf16le').toString('utf8'));
      expect(await lookUpThrough(keychain)).toBeGreaterThan(0);
    }, 120_000);
  });

  it('list-desks names each workstation; revoke-desk withdraws one, refused by the server within a minute', async () => {
    const line = await (async () => {
      const printed = await command(['enrol-desk', '--name', 'Back office', '--print-secret']);
      return printed.stdout.trimEnd().split('\n')[1]!;
    })();
    const id = line.split(':')[0]!;
    const keychain = memoryDeskRecords();
    keychain.entries.set(DESK_RECORDS.workstation, line);
    expect(await lookUpThrough(keychain)).toBeGreaterThan(0);

    const listed = await command(['list-desks']);
    expect(listed.code, listed.stderr).toBe(0);
    const row = listed.stdout.split('\n').find((l) => l.startsWith(`${id}\t`));
    expect(row).toMatch(new RegExp(`^${id}\\tBack office\\tenrolled \\S+\\t(never seen|last seen \\S+)$`));

    const revoked = await command(['revoke-desk', id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toBe(`Workstation ${id} is revoked: the library server refuses it within a minute.\n`);
    ahead += 31_000; // past the instance's read of its workstations, within the minute
    await expect(lookUpThrough(keychain)).rejects.toMatchObject({ code: 'unauthorized', detail: { reason: 'library-server.revoked' } });
    expect((await command(['list-desks'])).stdout).toMatch(new RegExp(`^${id}\\tBack office\\tenrolled \\S+\\tREVOKED \\S+$`, 'm'));
    const twice = await command(['revoke-desk', id]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/no enrolled workstation .* that is not revoked already/);
  }, 120_000);
});

describe('§11: a forced sync, and the first full sync said once', () => {
  it('sync-now wakes the leader at once; first-full-sync-done comes once, after the catalog, the entitlements and every Flex title\'s availability', async () => {
    const { log } = server;
    const first = await log.waitFor('first-full-sync-done');
    expect(first.fields).toMatchObject({ seconds: expect.any(Number), sources: expect.arrayContaining([expect.objectContaining({ source: 'global' })]) });
    const before = log.events.length;
    const asked = await command(['sync-now']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toMatch(/^The instance that leads starts a catalog sync now/);
    await log.waitFor('sync-requested', undefined, before);
    const requested = log.events.findIndex((e, i) => i >= before && e.event === 'sync-requested');
    // The whole catalog sync ran again at once (not at its next day), and the first full sync was not announced again.
    await log.waitFor('run-finished', (f) => f.source === 'global', requested);
    await log.waitFor('run-finished', (f) => f.source === 'entitlements:202:FLEX', requested);
    expect(log.events.filter((e) => e.event === 'first-full-sync-done')).toHaveLength(1);
  }, 120_000);
});

describe('a database certificate the server cannot verify', () => {
  it('is said in our words, in the log and by a command: what it was checked against, never Node\'s advice to use the OS store', async () => {
    const other = await makeCertificateAuthority(dir, 'not-the-database-ca');
    const path = writeServiceConfig(db(), sandbox, { leaderRetrySeconds: 1 });
    const config = JSON.parse(readFileSync(path, 'utf8')) as { database: { caFile: string } };
    config.database.caFile = other.certFile;
    writeFileSync(path, JSON.stringify(config));
    const service = startServiceProcess(path, 'wrong-ca');
    try {
      const line = await service.waitFor(event('database-unreachable'), 'the database refused');
      expect(line.message).toMatch(/^the server's certificate was refused: its certificate was not issued by the certificate authority it is checked against: database\.caFile .*; the operating system's certificate store is never used/);
      expect(String(line.message)).not.toMatch(/use-system-ca|installed locally/);
    } finally {
      await stopService(service);
    }
    const listed = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, path, 'list-desks'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(listed.code).toBe(2);
    expect(listed.stderr).toMatch(/the database could not be reached \(the server's certificate was refused: its certificate was not issued by the certificate authority/);
    expect(listed.stderr).not.toMatch(/use-system-ca/);
  }, 120_000);
});
