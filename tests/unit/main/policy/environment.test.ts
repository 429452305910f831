// No variable a desk user can set changes which code main loads or which program reads the policy
// (issue #33). The attacker has the desk's OS session and sets per-user variables (`setx`):
//   - NATIVE_REG_PREBUILD (and PREBUILDS_ONLY), which node-gyp-build honours when native-reg's own
//     entry loads its binary: a folder holding a `.node` of theirs, loaded into main;
//   - %SystemRoot%, where the reg.exe fallback used to be looked for: a reg.exe of theirs, which
//     says there is no policy.
// This machine is not Windows: the policy reader runs in a child process that takes itself for
// Windows (process.platform), with a real shared library of this machine as the stand-in `.node`
// (keytar's, copied: any library the loader accepts), and /proc/self/maps says what was loaded. The
// reg.exe fallback runs real stand-in programs, at the Windows paths each side names, under a
// folder standing for drive C:.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadMachinePolicy } from '../../../../electron/main/policy/index.ts';
import type { ProcessResult } from '../../../../electron/main/policy/macos-source.ts';
import { regExeRegistry, windowsSystemDirectory } from '../../../../electron/main/policy/reg-exe.ts';
import { nativeRegBinary, windowsRegistry } from '../../../../electron/main/policy/windows-registry.ts';
import type { RegistryReader } from '../../../../electron/main/policy/windows-source.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';

const KEY = 'SOFTWARE\\Policies\\Lending Desk';
const MODULES = join(REPO_ROOT, 'node_modules');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lending-desk-variables-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

describe('native-reg, loaded by its own absolute path', () => {
  /** A real shared library of this machine, put where a variable names it: a DLL of the attacker's. */
  function standIn(relative: string): string {
    const file = join(dir, 'theirs', relative);
    mkdirSync(dirname(file), { recursive: true });
    copyFileSync(join(MODULES, 'keytar', 'build', 'Release', 'keytar.node'), file);
    return file;
  }

  /** Main's policy reader, in a process that takes itself for Windows: which reader it chose, and whether the stand-in is mapped into it. */
  function readPolicyIn(env: Record<string, string>, standInFile: string): { chosen: string[]; why: string[]; standInLoaded: boolean } {
    const script = join(dir, 'read-policy.mjs');
    writeFileSync(script, `
      import { readFileSync } from 'node:fs';
      Object.defineProperty(process, 'platform', { value: 'win32' });
      const { windowsRegistry } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'electron', 'main', 'policy', 'windows-registry.ts')).href)});
      const chosen = [];
      const why = [];
      const registry = windowsRegistry({ fallback: () => ({ readKey: () => null }), onChosen: (reader, because) => { chosen.push(reader); if (because) why.push(because); } });
      try { registry.readKey(${JSON.stringify(KEY)}); } catch {}
      console.log(JSON.stringify({ chosen, why, standInLoaded: readFileSync('/proc/self/maps', 'utf8').includes(${JSON.stringify(standInFile)}) }));
    `);
    const result = spawnSync(process.execPath, [script], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { chosen: string[]; why: string[]; standInLoaded: boolean };
  }

  it.each([
    ['NATIVE_REG_PREBUILD naming a folder with build/Release/*.node', 'build-release', 'build/Release/theirs.node', {}],
    ['NATIVE_REG_PREBUILD with PREBUILDS_ONLY, naming prebuilds/<os>-<arch>/', 'prebuilds-only', `prebuilds/${process.platform}-${process.arch}/node.napi.node`, { PREBUILDS_ONLY: '1' }],
  ])('%s: their .node is never loaded into main', (_name, folder, file, extra) => {
    const theirs = standIn(join(folder, file));
    const outcome = readPolicyIn({ NATIVE_REG_PREBUILD: join(dir, 'theirs', folder), ...extra }, theirs);
    expect(outcome.standInLoaded).toBe(false);
    // The app's own binary was the one tried (it is Windows' and this is not Windows): then reg.exe.
    expect(outcome.chosen).toEqual(['reg.exe']);
    expect(outcome.why.join(' ')).toContain(nativeRegBinary(MODULES));
  });

  it('the binary is the app\'s own, for this process\'s architecture', () => {
    expect(nativeRegBinary('C:\\Program Files\\Lending Desk\\resources\\app.asar\\node_modules', 'x64').replaceAll('/', '\\'))
      .toBe('C:\\Program Files\\Lending Desk\\resources\\app.asar\\node_modules\\native-reg\\prebuilds\\win32-x64\\node.napi.node');
    expect(existsSync(nativeRegBinary(MODULES, 'x64'))).toBe(true);
  });
});

describe('reg.exe, from the system folder Windows reports', () => {
  const DRIVE = (): string => join(dir, 'drive-c');
  /** A Windows path as a file under the folder standing for drive C:. */
  const onDrive = (windowsPath: string): string => join(DRIVE(), ...windowsPath.replace(/^C:\\/i, '').split('\\'));
  const LISTING = ['', 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk', ''].join('\r\n');
  const KEY_VALUES = ['', 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk', '    idleLockMinutes    REG_DWORD    0x3', '    profileEditing    REG_DWORD    0x0', '', ''].join('\r\n');

  /** A reg.exe that prints `listing` for the listing of Policies and `key` for the key; `marker` is written when it runs. */
  function regExeProgram(windowsPath: string, output: { listing: string; key: string }, marker: string): void {
    const file = onDrive(windowsPath);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(join(dirname(file), 'listing.txt'), output.listing);
    writeFileSync(join(dirname(file), 'key.txt'), output.key);
    writeFileSync(file, `#!/bin/sh\ntouch '${marker}'\nhere=$(dirname "$0")\nif [ "$2" = 'HKLM\\SOFTWARE\\Policies' ]; then cat "$here/listing.txt"; else cat "$here/key.txt"; fi\n`);
    chmodSync(file, 0o755);
  }

  /** Runs the program at the Windows path it is asked for, on the stand-in drive. */
  const run = (file: string, args: string[]): ProcessResult => {
    const result = spawnSync(onDrive(file), args);
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, error: result.error };
  };

  const cannotLoad = (): RegistryReader => { throw new Error('native-reg blocked by AppLocker (played by the test)'); };

  it('a %SystemRoot% of the user\'s own, with a reg.exe of theirs at the path it names, is not where reg.exe is run from', () => {
    const genuine = join(dir, 'genuine-ran');
    const theirs = join(dir, 'theirs-ran');
    regExeProgram('C:\\Windows\\System32\\reg.exe', { listing: LISTING, key: KEY_VALUES }, genuine);
    // Theirs says there is no policy at all: the desk would run unmanaged, its locks gone.
    regExeProgram('C:\\Users\\mallory\\fake\\System32\\reg.exe', { listing: ['', 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Microsoft', ''].join('\r\n'), key: '' }, theirs);
    vi.stubEnv('SystemRoot', 'C:\\Users\\mallory\\fake');
    vi.stubEnv('SYSTEMROOT', 'C:\\Users\\mallory\\fake');
    vi.stubEnv('windir', 'C:\\Users\\mallory\\fake');

    const registry = windowsRegistry({ native: cannotLoad, fallback: () => regExeRegistry(KEY, { run, systemDirectory: () => 'C:\\Windows\\System32' }) });
    const machine = loadMachinePolicy({ platform: 'win32', registry });
    expect(machine.policy).toEqual({ version: 1, idleLockMinutes: 3, profileEditing: false });
    expect(existsSync(genuine)).toBe(true);
    expect(existsSync(theirs)).toBe(false);
  });

  it('finds the system folder where Windows loaded ntdll.dll from, and nowhere else', () => {
    const report = (sharedObjects: string[]) => () => ({ sharedObjects });
    expect(windowsSystemDirectory(report(['C:\\Program Files\\Lending Desk\\Lending Desk.exe', 'C:\\WINDOWS\\SYSTEM32\\ntdll.dll', 'C:\\WINDOWS\\System32\\KERNEL32.DLL']))).toBe('C:\\WINDOWS\\SYSTEM32');
    expect(windowsSystemDirectory(report(['D:\\Win\\system32\\NTDLL.DLL']))).toBe('D:\\Win\\system32');
    // No ntdll.dll listed (not Windows, or a report without its modules): nothing is guessed, and reg.exe is not run.
    expect(() => windowsSystemDirectory(report(['/usr/lib/x86_64-linux-gnu/libc.so.6']))).toThrow(/did not say where its system folder is/);
    expect(() => windowsSystemDirectory()).toThrow(/did not say where its system folder is/);
    const calls: string[] = [];
    const registry = windowsRegistry({ native: cannotLoad, fallback: () => regExeRegistry(KEY, { run: (file) => { calls.push(file); return { status: 0, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) }; } }) });
    expect(loadMachinePolicy({ platform: 'win32', registry }).problems.ignored).toMatchObject({ reason: 'policy.unreadable', params: { code: expect.stringMatching(/system folder/) } });
    expect(calls).toEqual([]);
  });
});
