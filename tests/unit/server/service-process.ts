// The library mirror service as IT runs it (`node server/main.ts <config>`, plain
// Node, no Electron), in a child process whose JSON-lines log a test waits on: an event, never a
// sleep. Its configuration and credentials file are written in a temporary folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import type { LibraryMirrorDatabase } from '../../support/library-mirror-database.ts';
import { REPO_ROOT } from '../../support/repo-root.ts';

const CLI = join(REPO_ROOT, 'server', 'main.ts');

export interface LogLine { time: string; level: string; event: string; instance?: string; [field: string]: unknown }

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  lines: LogLine[];
  /** The first line (already written, or to come) that `match` accepts; fails if the process exits first. */
  waitFor(match: (line: LogLine) => boolean, what: string): Promise<LogLine>;
  exited: Promise<number | null>;
  stderr(): string;
}

const configFolders: string[] = [];

/** Removes the folders writeServiceConfig made (they hold the test's passwords). */
export function removeServiceConfigs(): void {
  for (const folder of configFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** A configuration for the service against `sandbox` and `db`, its database password in the credentials file; answers its path. */
export function writeServiceConfig(db: LibraryMirrorDatabase, sandbox: SandboxHandle, overrides: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'library-mirror-config-'));
  configFolders.push(dir);
  const url = new URL(db.service.url);
  const databasePassword = decodeURIComponent(url.password);
  url.password = '';
  const credentialsFile = join(dir, 'credentials.json');
  writeFileSync(credentialsFile, JSON.stringify({ username: sandbox.username, password: sandbox.password, databasePassword }), { mode: 0o600 });
  const caFile = join(dir, 'db-ca.pem');
  writeFileSync(caFile, db.cluster.ca.cert);
  const config = {
    partner: { baseUrl: sandbox.url },
    libraries: [{ libraryId: 101, countries: ['US'] }, { libraryId: 202, countries: ['CA'] }],
    database: { url: url.href, caFile, deskRole: db.deskRole },
    credentialsFile,
    leaderRetrySeconds: 1,
    ...overrides,
  };
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

export function startServiceProcess(configPath: string, name: string, env: NodeJS.ProcessEnv = {}): ServiceProcess {
  const child = spawn(process.execPath, [CLI, configPath], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LIBRARY_MIRROR_INSTANCE: name, ...env } });
  const lines: LogLine[] = [];
  const waiters = new Set<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      stderr += `(not JSON on stdout) ${text}\n`;
      return;
    }
    lines.push(line);
    for (const waiter of waiters) {
      if (waiter.match(line)) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name, child, lines, exited,
    stderr: () => stderr,
    waitFor(match, what) {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise<LogLine>((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        void exited.then((code) => {
          if (!waiters.has(waiter)) return;
          waiters.delete(waiter);
          reject(new Error(`${name} exited (${code}) before ${what}.\nstderr: ${stderr}\nlog:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`));
        });
      });
    },
  };
}

export const event = (name: string, fields: Record<string, unknown> = {}) => (line: LogLine): boolean =>
  line.event === name && Object.entries(fields).every(([k, v]) => line[k] === v);

/** Stops it the way systemd does (SIGTERM), and waits for the exit. */
export async function stopService(service: ServiceProcess): Promise<number | null> {
  if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGTERM');
  return service.exited;
}
