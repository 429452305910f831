// `npm run dist`: its choices, whether electron-builder can get Electron here (asked of Electron's
// download, bounded, before any build work) and its refusals in release mode: unsigned
// installers, or no installers at all.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { electronUnavailableReason, isDownloadFailure, parseDistArgs } from '../../../scripts/dist.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** A mirror that refuses at once (a port just closed on this machine): Electron's download cannot be reached, on any machine. */
let NO_ROUTE: { ELECTRON_MIRROR: string };
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  NO_ROUTE = { ELECTRON_MIRROR: `http://127.0.0.1:${port}/` };
});

describe('arguments', () => {
  it('reads platforms, release mode and --dir', () => {
    expect(parseDistArgs(['--win', '--release'], {}, 'linux')).toEqual({ platforms: ['win'], release: true, dirOnly: false });
    expect(parseDistArgs(['--dir'], {}, 'linux')).toEqual({ platforms: ['linux'], release: false, dirOnly: true });
    expect(parseDistArgs([], { LENDING_DESK_RELEASE: '1' }, 'darwin')).toMatchObject({ platforms: ['mac'], release: true });
  });
});

describe('whether electron-builder can get Electron', () => {
  it('says why not, naming the version and what to do', async () => {
    const reason = await electronUnavailableReason(ROOT, {}, async () => 'github.com could not be reached (ENOTFOUND)');
    expect(reason).toMatch(/^Installers not built: electron-builder downloads Electron 45\.\d+\.\d+ \(and its packaging tools\) from GitHub, and github\.com could not be reached \(ENOTFOUND\)\. /);
    expect(reason).toContain('ELECTRON_MIRROR');
    await expect(electronUnavailableReason(ROOT, {}, async () => undefined)).resolves.toBeUndefined();
  });

  it('asks the download Electron would come from (a mirror when one is set), and says what answered', async () => {
    const reason = await electronUnavailableReason(ROOT, NO_ROUTE);
    expect(reason).toContain(`${new URL(NO_ROUTE.ELECTRON_MIRROR).host} could not be reached (ECONNREFUSED)`);
  });

  it('tells a download failing during packaging from other failures', () => {
    expect(isDownloadFailure(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } }))).toBe(true);
    expect(isDownloadFailure(new Error('getaddrinfo EAI_AGAIN github.com'))).toBe(true);
    expect(isDownloadFailure(new Error('Cannot find module keytar'))).toBe(false);
  });
});

describe('release mode from the command line', () => {
  const env = (extra: Record<string, string>) => ({
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(CSC_|WIN_CSC_|APPLE_|AZURE_|LENDING_DESK_|ELECTRON_)/.test(name))),
    ...extra,
  });
  const dist = (args: string[], extra: Record<string, string>) => spawnSync(process.execPath, [join(ROOT, 'scripts', 'dist.ts'), ...args], { cwd: ROOT, env: env(extra), encoding: 'utf8' });

  it('exits 1 before building anything, giving every reason: unsigned installers, and no Electron to package', () => {
    const result = dist(['--release', '--win'], NO_ROUTE);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Release mode refuses to build unsigned installers/);
    expect(result.stderr).toMatch(/Installers not built: .*could not be reached/);
    expect(result.stdout).not.toMatch(/electron-vite/);
  });

  it('exits 1 before building anything when Electron cannot be had, even with nothing to sign (the deb)', () => {
    const result = dist(['--release', '--linux'], NO_ROUTE);
    expect(result.status).toBe(1);
    expect(result.stderr).not.toMatch(/unsigned/);
    expect(result.stderr).toMatch(/Installers not built: electron-builder downloads Electron .* could not be reached \(ECONNREFUSED\)/);
    expect(result.stderr).toMatch(/Release mode refuses to end without installers/);
    expect(result.stdout).not.toMatch(/== build/);
  });
});
