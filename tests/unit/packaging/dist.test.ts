// `npm run dist`: its choices, whether electron-builder can get Electron here (asked of Electron's
// download, bounded, before any build work) and its refusals in release mode: unsigned
// installers, or no installers at all.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { dist, electronUnavailableReason, isDownloadFailure, NO_INSTALLER_EXIT, parseDistArgs, targetsAsked, type DistSteps } from '../../../scripts/dist.ts';

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

describe('a run that could not build what it was asked for (not release mode)', () => {
  /** dist's own steps, the slow and network-bound ones played: Electron's download unreachable, the build and the layout done. */
  function steps(overrides: Partial<DistSteps> = {}): DistSteps & { calls: string[] } {
    const calls: string[] = [];
    return {
      calls,
      electronUnavailable: async () => 'Installers not built: electron-builder downloads Electron 45.4.1 (and its packaging tools) from GitHub, and github.com could not be reached (ENOTFOUND).',
      validate: async () => { calls.push('validate'); },
      build: () => { calls.push('build'); return 0; },
      packageApp: async () => { calls.push('package'); },
      packLayout: async () => { calls.push('layout'); return 0; },
      ...overrides,
    };
  }
  const said = (spy: { mock: { calls: unknown[][] } }): string => spy.mock.calls.map((call) => call.join(' ')).join('\n');

  it.each([
    [['--linux'], 'Linux (deb)'],
    [['--win', '--mac'], 'Windows (NSIS and MSI), macOS (dmg and zip)'],
    [['--dir', '--linux'], 'the unpacked Linux app'],
  ])('packs the layout, says plainly that no installer was built, and exits non-zero (%o)', async (args, asked) => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const played = steps();
      expect(await dist(args, {}, played)).toBe(NO_INSTALLER_EXIT);
      expect(NO_INSTALLER_EXIT).not.toBe(0);
      expect(played.calls).toEqual(['validate', 'build', 'layout']);
      expect(said(err)).toContain(`No installer was built: asked for ${asked}`);
      expect(said(err)).toContain('it is not an installer and cannot start');
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });

  it('the same when the download fails during packaging; and exits 0 only with installers', async () => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const failing = steps({ electronUnavailable: async () => undefined, packageApp: async () => { throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } }); } });
      expect(await dist(['--linux'], {}, failing)).toBe(NO_INSTALLER_EXIT);
      expect(said(err)).toContain('No installer was built');
      expect(await dist(['--linux'], {}, steps({ electronUnavailable: async () => undefined }))).toBe(0);
      expect(await dist(['--linux'], {}, steps({ packLayout: async () => 1 }))).toBe(1);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });

  it('names what was asked', () => {
    expect(targetsAsked(parseDistArgs([], {}, 'win32'))).toBe('Windows (NSIS and MSI)');
  });
});
