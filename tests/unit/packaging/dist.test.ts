// `npm run dist`: its choices, its Electron check (made without loading the electron package,
// whose loader would start a download) and its refusal in release mode, which comes before any
// build work.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronUnavailableReason, parseDistArgs } from '../../../scripts/dist.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('arguments', () => {
  it('reads platforms, release mode, the e2e variant and --dir', () => {
    expect(parseDistArgs(['--win', '--release'], {}, 'linux')).toEqual({ platforms: ['win'], release: true, variant: 'production', dirOnly: false });
    expect(parseDistArgs(['--e2e', '--dir'], {}, 'linux')).toEqual({ platforms: ['linux'], release: false, variant: 'e2e', dirOnly: true });
    expect(parseDistArgs([], { LENDING_DESK_RELEASE: '1' }, 'darwin')).toMatchObject({ platforms: ['mac'], release: true });
  });
});

describe('the Electron binary check', () => {
  let root: string | undefined;
  afterEach(() => { if (root) rmSync(root, { recursive: true, force: true }); });

  it('skips with a reason when the electron package left no binary', () => {
    root = mkdtempSync(join(tmpdir(), 'lending-desk-dist-'));
    mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true });
    expect(electronUnavailableReason(root, {})).toMatch(/Installers skipped: no Electron binary/);
    writeFileSync(join(root, 'node_modules', 'electron', 'path.txt'), 'electron');
    expect(electronUnavailableReason(root, {})).toMatch(/dist is incomplete/);
    mkdirSync(join(root, 'node_modules', 'electron', 'dist'));
    writeFileSync(join(root, 'node_modules', 'electron', 'dist', 'electron'), '');
    expect(electronUnavailableReason(root, {})).toBeUndefined();
  });

  it('accepts ELECTRON_OVERRIDE_DIST_PATH', () => {
    expect(electronUnavailableReason('/nowhere', { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' })).toBeUndefined();
  });
});

describe('release mode from the command line', () => {
  it('exits 1 before building anything when the installers would be unsigned', () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(CSC_|WIN_CSC_|APPLE_|AZURE_|LENDING_DESK_)/.test(name)));
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'dist.ts'), '--release', '--win'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Release mode refuses to build unsigned installers/);
    expect(result.stdout).not.toMatch(/electron-vite/);
  });
});
