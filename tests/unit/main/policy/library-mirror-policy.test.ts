// The policy's `libraryMirror` (issue #25): where a desk in a library reads its Collection from.
// A valid one is taken with its defaults; anything this desk cannot read whole — a bad host or
// port, an unknown field, a password written into it, a way to turn TLS off — refuses the whole
// policy (the desk fails closed, as for every other setting), and says which field and why.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkedPolicy } from '../../../../electron/main/policy/index.ts';
import { readWindowsPolicy, REG_DWORD, REG_SZ, type RegistryValue } from '../../../../electron/main/policy/windows-source.ts';
import { WINDOWS_POLICY_KEY } from '../../../../electron/main/policy/location.ts';

const SOURCE = '/etc/lending-desk/policy.json';
const LINUX = { platform: 'linux', windowsPublisherVerified: false } as const;
const MIRROR = { host: 'mirror.library.example.org', database: 'library_mirror', user: 'library_mirror_desk' };
const check = (libraryMirror: unknown) => checkedPolicy({ kind: 'found', source: SOURCE, raw: { version: 1, libraryMirror } }, LINUX);

describe('libraryMirror in the policy', () => {
  it('is taken with the port 5432 and the password from the keychain unless it says otherwise', () => {
    expect(check(MIRROR)).toMatchObject({ problems: {}, policy: { libraryMirror: { ...MIRROR, port: 5432, passwordEntry: 'keychain' } } });
    const full = { ...MIRROR, host: '10.2.0.15', port: 6432, caFile: '/etc/lending-desk/library-ca.pem', passwordEntry: 'settings' };
    expect(check(full)).toMatchObject({ problems: {}, policy: { libraryMirror: full } });
  });

  it.each([
    ['a URL for a host', { ...MIRROR, host: 'postgres://mirror.example.org' }, 'libraryMirror.host'],
    ['a host with a port', { ...MIRROR, host: 'mirror.example.org:5432' }, 'libraryMirror.host'],
    ['port 0', { ...MIRROR, port: 0 }, 'libraryMirror.port'],
    ['a port as text', { ...MIRROR, port: '5432' }, 'libraryMirror.port'],
    ['no database', { host: MIRROR.host, user: MIRROR.user }, 'libraryMirror.database'],
    ['a role with a quote', { ...MIRROR, user: 'desk"; DROP' }, 'libraryMirror.user'],
    ['a relative CA file', { ...MIRROR, caFile: 'ca.pem' }, 'libraryMirror.caFile'],
    ['an unknown password entry', { ...MIRROR, passwordEntry: 'anywhere' }, 'libraryMirror.passwordEntry'],
    ['not an object', 'mirror.example.org', 'libraryMirror'],
  ])('refuses the policy for %s, naming the field', (_what, value, setting) => {
    const { policy, problems } = check(value);
    expect(policy).toBeUndefined();
    expect(problems.ignored).toMatchObject({ reason: 'policy.invalid-value', params: { source: SOURCE, setting } });
  });

  it('refuses a password written into it, and any way to turn certificate checks off', () => {
    expect(check({ ...MIRROR, password: 'hunter2' }).problems.ignored).toMatchObject({ reason: 'policy.credential-field', params: { setting: 'libraryMirror.password' } });
    expect(check({ ...MIRROR, sslmode: 'disable' }).problems.ignored).toMatchObject({ reason: 'policy.unknown-field', params: { setting: 'libraryMirror.sslmode' } });
    expect(check({ ...MIRROR, verifyCertificate: false }).problems.ignored).toMatchObject({ reason: 'policy.unknown-field' });
  });

  it('takes a CA file absolute on the OS the policy is for, and refuses one that is not', () => {
    const on = (platform: NodeJS.Platform, caFile: string) => checkedPolicy({ kind: 'found', source: SOURCE, raw: { libraryMirror: { ...MIRROR, caFile } } }, { platform, windowsPublisherVerified: true }, { windowsFolder: () => 'C:\\Windows' });
    const windowsPath = 'C:\\Program Files\\Lending Desk CA\\library-mirror-ca.pem';
    expect(on('win32', windowsPath)).toMatchObject({ problems: {}, policy: { libraryMirror: { caFile: windowsPath } } });
    expect(on('darwin', '/Library/Application Support/Lending Desk/ca.pem').problems).toEqual({});
    // Read on Linux or macOS, C:\… is a name relative to wherever the desk was started; C:ca.pem is relative on Windows too.
    for (const [platform, caFile] of [['linux', windowsPath], ['darwin', windowsPath], ['win32', 'C:ca.pem'], ['win32', 'ca.pem']] as const) {
      expect(on(platform, caFile).problems.ignored, `${platform} ${caFile}`).toMatchObject({ reason: 'policy.invalid-value', params: { source: SOURCE, setting: 'libraryMirror.caFile' } });
    }
  });

  describe('a CA file only administrators can change (issue #33: whoever replaces it picks the server the desk trusts)', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'lending-desk-ca-'));
      chmodSync(root, 0o755);
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));
    /** As on Linux, with the test's folder for `/` and its own user for root. */
    const onLinux = (caFile: string) => checkedPolicy({ kind: 'found', source: SOURCE, raw: { libraryMirror: { ...MIRROR, caFile } } }, LINUX, { trustRoot: root, ownerUid: process.getuid!() });
    const onWindows = (caFile: string, windowsFolder = () => 'C:\\Windows') => checkedPolicy({ kind: 'found', source: 'HKLM\\SOFTWARE\\Policies\\Lending Desk', raw: { libraryMirror: { ...MIRROR, caFile } } }, { platform: 'win32', windowsPublisherVerified: true }, { windowsFolder });

    it('on Linux and macOS: taken where the file and the folders above it are root\'s alone, even before IT put the file there', () => {
      mkdirSync(join(root, 'etc', 'lending-desk'), { recursive: true, mode: 0o755 });
      writeFileSync(join(root, 'etc', 'lending-desk', 'ca.pem'), 'PEM', { mode: 0o644 });
      expect(onLinux(join(root, 'etc', 'lending-desk', 'ca.pem')).problems).toEqual({});
      expect(onLinux(join(root, 'etc', 'not-yet', 'ca.pem')).problems).toEqual({});
    });

    it.each([
      ['a file other users can write', (dir: string) => { writeFileSync(join(dir, 'ca.pem'), 'PEM', { mode: 0o666 }); chmodSync(join(dir, 'ca.pem'), 0o666); return join(dir, 'ca.pem'); }, 'policy.writable-by-others'],
      ['a folder other users can write (as /tmp)', (dir: string) => { mkdirSync(join(dir, 'shared')); chmodSync(join(dir, 'shared'), 0o1777); return join(dir, 'shared', 'ca.pem'); }, 'policy.writable-by-others'],
      ['a link to a file elsewhere', (dir: string) => { writeFileSync(join(dir, 'real.pem'), 'PEM', { mode: 0o644 }); symlinkSync(join(dir, 'real.pem'), join(dir, 'ca.pem')); return join(dir, 'ca.pem'); }, 'policy.symbolic-link'],
    ])('on Linux and macOS: refused for %s, naming the setting', (_what, make, reason) => {
      const caFile = make(root);
      const { policy, problems } = onLinux(caFile);
      expect(policy).toBeUndefined();
      expect(problems.ignored).toMatchObject({ reason, params: { source: expect.stringContaining('[libraryMirror.caFile]') } });
    });

    it('on Windows: taken under the Windows folder or Program Files of its drive, and nowhere else', () => {
      expect(onWindows('C:\\Program Files\\Lending Desk CA\\ca.pem').problems).toEqual({});
      expect(onWindows('c:\\program files (x86)\\Library\\ca.pem').problems).toEqual({});
      expect(onWindows('D:\\Windows\\ca.pem', () => 'D:\\Windows').problems).toEqual({});
      for (const caFile of ['C:\\ProgramData\\Lending Desk\\ca.pem', 'C:\\ca.pem', 'C:\\Program Files\\..\\Users\\mallory\\ca.pem', 'C:\\Program Files Evil\\ca.pem', '\\\\server\\share\\ca.pem', 'D:\\Program Files\\ca.pem']) {
        expect(onWindows(caFile).problems.ignored, caFile).toEqual({
          reason: 'policy.file-unprotected',
          params: { source: 'HKLM\\SOFTWARE\\Policies\\Lending Desk', setting: 'libraryMirror.caFile', file: caFile, folders: 'C:\\Windows, C:\\Program Files, C:\\Program Files (x86)' },
        });
      }
    });

    it('on Windows: refused when Windows did not say where it is (nothing is guessed from %SystemRoot%)', () => {
      const { problems } = onWindows('C:\\Program Files\\Lending Desk CA\\ca.pem', () => { throw new Error('Windows did not say where its system folder is'); });
      expect(problems.ignored).toMatchObject({ reason: 'policy.unreadable' });
    });
  });

  const sz = (name: string, text: string): RegistryValue => ({ name, type: REG_SZ, data: Buffer.from(`${text}\0`, 'utf16le') });
  const dword = (name: string, n: number): RegistryValue => { const data = Buffer.alloc(4); data.writeUInt32LE(n); return { name, type: REG_DWORD, data }; };

  it('reads from the registry as a subkey of values, as Group Policy writes one', () => {
    const keys = new Map<string, { values: RegistryValue[]; subkeys: string[] }>([
      [WINDOWS_POLICY_KEY, { values: [], subkeys: ['libraryMirror'] }],
      [`${WINDOWS_POLICY_KEY}\\libraryMirror`, { values: [sz('host', MIRROR.host), dword('port', 6432), sz('database', MIRROR.database), sz('user', MIRROR.user)], subkeys: [] }],
    ]);
    const read = readWindowsPolicy({ readKey: (path) => keys.get(path) ?? null });
    const { policy, problems } = checkedPolicy(read, { platform: 'win32', windowsPublisherVerified: true });
    expect(problems).toEqual({});
    expect(policy?.libraryMirror).toEqual({ ...MIRROR, port: 6432, passwordEntry: 'keychain' });
  });

  it('reads a blank text value in a subkey as a field not set (an optional box IT left empty), not as a refusal', () => {
    const keys = new Map<string, { values: RegistryValue[]; subkeys: string[] }>([
      [WINDOWS_POLICY_KEY, { values: [], subkeys: ['libraryMirror', 'updates'] }],
      [`${WINDOWS_POLICY_KEY}\\libraryMirror`, { values: [sz('host', MIRROR.host), dword('port', 5432), sz('database', MIRROR.database), sz('user', MIRROR.user), sz('caFile', ''), sz('passwordEntry', 'keychain')], subkeys: [] }],
      [`${WINDOWS_POLICY_KEY}\\updates`, { values: [sz('mode', 'it-managed'), sz('url', '')], subkeys: [] }],
    ]);
    const { policy, problems } = checkedPolicy(readWindowsPolicy({ readKey: (path) => keys.get(path) ?? null }), { platform: 'win32', windowsPublisherVerified: true });
    expect(problems).toEqual({});
    expect(policy).toMatchObject({ libraryMirror: { ...MIRROR, port: 5432, passwordEntry: 'keychain' }, updates: { mode: 'it-managed' } });
    expect(policy?.libraryMirror).not.toHaveProperty('caFile');
    expect(policy?.updates).not.toHaveProperty('url');
  });
});
