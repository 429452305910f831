// Getting the Electron binary the way the `electron` package does now. Since Electron 42 the
// package downloads its binary the first time its `bin` runs, not at install (its index.js runs
// its install.js, which is also its `install-electron` bin), so after `npm ci` there is no
// binary yet even where the network allows one. `npm start` and the Electron e2e host
// (tests/e2e/global-setup.ts) try that download first, and go without only when it fails,
// saying why; `npm run dist` asks whether Electron's download can be reached at all before it
// hands packaging to electron-builder (which downloads its own Electron zip).
//
// Both are bounded: a reachability check of the download host first (a DNS failure answers at
// once; a network that drops packets answers after PROBE_TIMEOUT_MS), then the download itself.
// Nothing here loads the `electron` package: its loader would start the download unbounded.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** How long the download host may take to answer before Electron counts as out of reach. */
export const PROBE_TIMEOUT_MS = 15_000;
/** How long the download itself (about 100 MB) may take. */
export const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

type Env = Record<string, string | undefined>;

export type ElectronBinary = { ok: true; path: string; downloaded: boolean } | { ok: false; reason: string };

function electronPackage(root: string): { dir: string; version: string } {
  const dir = join(root, 'node_modules', 'electron');
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  return { dir, version };
}

/** The binary the package has already downloaded (or ELECTRON_OVERRIDE_DIST_PATH names), if any. */
export function installedElectron(root: string, env: Env): string | undefined {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : undefined;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) return join(env.ELECTRON_OVERRIDE_DIST_PATH, relative ?? 'electron');
  if (relative === undefined) return undefined;
  const binary = join(dir, 'dist', relative);
  return existsSync(binary) ? binary : undefined;
}

/** The first setting @electron/get would use for a mirror option (its env and npm config names). */
function mirrorSetting(env: Env, name: 'mirror' | 'custom_dir'): string | undefined {
  return env[`npm_config_electron_${name}`] || env[`NPM_CONFIG_ELECTRON_${name.toUpperCase()}`] || env[`ELECTRON_${name.toUpperCase()}`] || undefined;
}

/** Where Electron's release files for this version are, as @electron/get (the package's download) finds them. */
export function electronReleaseUrl(version: string, env: Env): string {
  const base = mirrorSetting(env, 'mirror') ?? 'https://github.com/electron/electron/releases/download/';
  const dir = (mirrorSetting(env, 'custom_dir') ?? `v${version}`).replace('{{ version }}', version);
  return `${base}${dir}/SHASUMS256.txt`;
}

/** Why Electron's download cannot be reached from here, or undefined when it can. */
export async function electronDownloadProblem(version: string, env: Env, options: { timeoutMs?: number; fetch?: typeof fetch } = {}): Promise<string | undefined> {
  const { timeoutMs = PROBE_TIMEOUT_MS, fetch: get = fetch } = options;
  const url = electronReleaseUrl(version, env);
  try {
    const response = await get(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
    if (response.ok) return undefined;
    return `${url} answered HTTP ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${Math.round(timeoutMs / 1000)} s` : cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    return `${new URL(url).host} could not be reached (${why})`;
  }
}

/**
 * The binary, downloaded first if the package has not yet (its own install.js, bounded). Where
 * that cannot be done, the reason, in words for the console.
 */
export async function obtainElectron(root: string, env: Env, options: { log?: (line: string) => void; probeTimeoutMs?: number; downloadTimeoutMs?: number } = {}): Promise<ElectronBinary> {
  const { log = () => {}, probeTimeoutMs = PROBE_TIMEOUT_MS, downloadTimeoutMs = DOWNLOAD_TIMEOUT_MS } = options;
  const present = installedElectron(root, env);
  if (present) return { ok: true, path: present, downloaded: false };
  if (env.ELECTRON_OVERRIDE_DIST_PATH) return { ok: false, reason: `ELECTRON_OVERRIDE_DIST_PATH (${env.ELECTRON_OVERRIDE_DIST_PATH}) holds no Electron binary.` };
  const { dir, version } = electronPackage(root);
  const unreachable = await electronDownloadProblem(version, env, { timeoutMs: probeTimeoutMs });
  const advice = 'Allow access to github.com, or set ELECTRON_MIRROR (or ELECTRON_OVERRIDE_DIST_PATH to an Electron you have), and run it again.';
  if (unreachable) return { ok: false, reason: `Electron ${version} is not downloaded yet, and its download cannot be reached: ${unreachable}. ${advice}` };
  log(`Downloading Electron ${version} (the electron package's first-run download)…`);
  const exit = await new Promise<{ code: number | null; output: string; timedOut: boolean }>((resolve) => {
    const child = spawn(process.execPath, [join(dir, 'install.js')], { cwd: root, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const timer = setTimeout(() => {
      child.kill();
      resolve({ code: null, output, timedOut: true });
    }, downloadTimeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut: false });
    });
  });
  const installed = installedElectron(root, env);
  if (exit.code === 0 && installed) return { ok: true, path: installed, downloaded: true };
  const detail = exit.timedOut ? `it did not finish within ${Math.round(downloadTimeoutMs / 60_000)} minutes` : (exit.output.trim().split('\n').find((line) => line.trim() !== '') ?? `exit code ${exit.code}`);
  return { ok: false, reason: `Electron ${version} could not be downloaded: ${detail}. ${advice}` };
}
