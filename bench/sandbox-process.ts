// Runs the sandbox in its own process (as `npm run sandbox` does) so a benchmark measures the
// client's work, not the server's, on this process's event loop.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { ADMIN_HEADER } from '../electron/main/sandbox/server.ts';

export interface SandboxProcess {
  url: string;
  username: string;
  password: string;
  adminToken: string;
  libraries: { libraryId: number; country: string; cards: string[] }[];
  stop(): void;
}

export interface SandboxProcessOptions {
  /** The service's per-credential limit (requests a minute, then 429 with Retry-After): `--rate-limit`. */
  rateLimitPerMinute?: number;
}

export async function startSandboxProcess(args: string[] = [], options: SandboxProcessOptions = {}): Promise<SandboxProcess> {
  const cli = join(import.meta.dirname, '..', 'electron', 'main', 'sandbox', 'cli.ts');
  const limit = options.rateLimitPerMinute === undefined ? [] : ['--rate-limit', String(options.rateLimitPerMinute)];
  const child = spawn(process.execPath, [cli, ...args, ...limit], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the sandbox exited with code ${code} before describing itself`)));
  });
  lines.close();
  return { ...(JSON.parse(first) as Omit<SandboxProcess, 'stop'>), stop: () => child.kill('SIGTERM') };
}

/** A bearer token of the sandbox's own, for a bench that asks the service directly (no desk, no client). */
export async function sandboxToken(sandbox: Pick<SandboxProcess, 'url' | 'username' | 'password'>): Promise<string> {
  const basic = Buffer.from(`${sandbox.username}:${sandbox.password}`).toString('base64');
  const answer = await fetch(`${sandbox.url}/api/v1/get-token`, { method: 'POST', headers: { Authorization: `Basic ${basic}` } });
  if (!answer.ok) throw new Error(`the sandbox refused a token: ${answer.status}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** One of the sandbox's admin routes (`/__sandbox/<route>`) with its admin token; its JSON answer, if any. */
export async function sandboxAdmin(sandbox: Pick<SandboxProcess, 'url' | 'adminToken'>, method: string, route: string, body?: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const answer = await fetch(`${sandbox.url}/__sandbox/${route}`, {
    method, headers: { [ADMIN_HEADER]: sandbox.adminToken, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok) throw new Error(`sandbox admin ${route}: HTTP ${answer.status}`);
  const text = await answer.text();
  return text ? JSON.parse(text) : undefined;
}
