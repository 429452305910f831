// The Linux policy file with real files, owners and modes (the tests run as root, as the desk's
// installer does): every way a user could have put their own policy in place is refused, and a
// refused file makes the desk fail closed instead of being half used. The trust root (the
// highest folder checked, `/` in production) is a temporary folder here.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadMachinePolicy, MAX_POLICY_BYTES } from '../../../../electron/main/policy/index.ts';
import { readLinuxPolicy } from '../../../../electron/main/policy/linux-source.ts';
import { readTrustedFile } from '../../../../electron/main/policy/trusted-file.ts';

const NOBODY = 65534;
const POLICY = { version: 1, idleLockMinutes: 5, sandboxOffered: false };

let root: string;
let folder: string;
let file: string;

beforeAll(() => {
  // chown needs root; so does the installer that puts /etc/lending-desk in place.
  expect(process.getuid?.(), 'these tests change file owners and must run as root').toBe(0);
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'policy-root-'));
  chmodSync(root, 0o755);
  folder = join(root, 'etc', 'lending-desk');
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  chmodSync(join(root, 'etc'), 0o755);
  chmodSync(folder, 0o755);
  file = join(folder, 'policy.json');
  writeFileSync(file, JSON.stringify(POLICY), { mode: 0o644 });
  chmodSync(file, 0o644);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const read = (path = file) => readLinuxPolicy({ path, trustRoot: root });

describe('a policy file only root can write', () => {
  it('is read when root owns it and every folder above it, none writable by others', () => {
    expect(read()).toEqual({ kind: 'found', source: file, raw: POLICY });
  });

  it('is absent, not refused, when the file or its folder does not exist', () => {
    expect(read(join(folder, 'other.json'))).toEqual({ kind: 'absent' });
    expect(read(join(root, 'etc', 'nowhere', 'policy.json'))).toEqual({ kind: 'absent' });
  });

  it('refuses a file owned by another user (a user who wrote their own policy)', () => {
    chownSync(file, NOBODY, NOBODY);
    expect(read()).toMatchObject({ kind: 'refused', source: file, problem: { reason: 'policy.wrong-owner', params: { source: file, owner: NOBODY, expected: 'root' } } });
  });

  it.each([
    ['group', 0o664, '0664'],
    ['other users', 0o646, '0646'],
    ['everybody', 0o666, '0666'],
  ])('refuses a root-owned file writable by %s', (_who, mode, shown) => {
    chmodSync(file, mode);
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.writable-by-others', params: { source: file, mode: shown } } });
  });

  it('refuses a file in a folder another user owns (they could swap the file)', () => {
    chownSync(folder, NOBODY, NOBODY);
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.wrong-owner', params: { source: folder, owner: NOBODY } } });
  });

  it('refuses a file in a folder others can write, anywhere up to the trust root', () => {
    chmodSync(folder, 0o777);
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.writable-by-others', params: { source: folder, mode: '0777' } } });
    chmodSync(folder, 0o755);
    chmodSync(join(root, 'etc'), 0o775);
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.writable-by-others', params: { source: join(root, 'etc') } } });
    chmodSync(join(root, 'etc'), 0o755);
    // A sticky, world-writable folder like /tmp is not IT's alone either.
    chmodSync(root, 0o1777);
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.writable-by-others', params: { source: root, mode: '1777' } } });
  });

  it('refuses a symbolic link, even to a good root-owned file', () => {
    const real = join(folder, 'real.json');
    writeFileSync(real, JSON.stringify(POLICY), { mode: 0o644 });
    rmSync(file);
    symlinkSync(real, file);
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.symbolic-link', params: { source: file } } });
  });

  it('refuses a file reached through a linked folder (the link\'s target is not where IT looked)', () => {
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o755 });
    writeFileSync(join(elsewhere, 'policy.json'), JSON.stringify(POLICY), { mode: 0o644 });
    rmSync(folder, { recursive: true });
    symlinkSync(elsewhere, folder);
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.symbolic-link', params: { source: folder } } });
  });

  it('refuses what is not a regular file: a folder, or a FIFO that would hang a plain read', () => {
    rmSync(file);
    mkdirSync(file, { mode: 0o755 });
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.not-a-file' } });
    rmSync(file, { recursive: true });
    expect(spawnSync('mkfifo', ['-m', '0644', file]).status).toBe(0);
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.not-a-file' } });
  });

  it(`refuses a file over ${MAX_POLICY_BYTES / 1024} KiB, and reads one of exactly that size`, () => {
    const padded = (size: number) => {
      const text = JSON.stringify({ ...POLICY, pad: '' });
      return text.replace('"pad":""', `"pad":"${'x'.repeat(size - text.length)}"`);
    };
    writeFileSync(file, padded(MAX_POLICY_BYTES));
    expect(readTrustedFile(file, { trustRoot: root })).toMatchObject({ kind: 'read' });
    writeFileSync(file, padded(MAX_POLICY_BYTES + 1));
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.too-large', params: { limit: 64 } } });
  });

  it('refuses a file the desk user may not read, rather than running unmanaged', () => {
    chmodSync(file, 0o600);
    // The reader runs as a desk user (nobody), in a process of its own.
    const script = `import { readTrustedFile } from ${JSON.stringify(join(import.meta.dirname, '../../../../electron/main/policy/trusted-file.ts'))};
      process.stdout.write(JSON.stringify(readTrustedFile(${JSON.stringify(file)}, { trustRoot: ${JSON.stringify(root)} })));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ kind: 'refused', problem: { reason: 'policy.unreadable', params: { source: file, code: 'EACCES' } } });
  });

  it('refuses a file that is not JSON or not UTF-8, naming the file', () => {
    writeFileSync(file, '{ "idleLockMinutes": 5, }');
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.not-json', params: { source: file, detail: expect.stringMatching(/JSON/) } } });
    writeFileSync(file, Buffer.from([0x7b, 0xff, 0x7d]));
    expect(read()).toMatchObject({ kind: 'refused', problem: { reason: 'policy.not-json' } });
  });

  it('accepts the byte-order mark Notepad writes', () => {
    writeFileSync(file, `\uFEFF${JSON.stringify(POLICY)}`);
    expect(read()).toMatchObject({ kind: 'found', raw: POLICY });
  });
});

describe('loading the machine policy on Linux', () => {
  const load = () => loadMachinePolicy({ platform: 'linux', linux: { path: file, trustRoot: root } });

  it('applies a good file', () => {
    expect(load()).toEqual({ policy: POLICY, problems: {}, source: file });
  });

  it('ignores a refused file and says why, with nothing of it used', () => {
    chownSync(file, NOBODY, NOBODY);
    const machine = load();
    expect(machine.policy).toBeUndefined();
    expect(machine.problems.ignored).toMatchObject({ reason: 'policy.wrong-owner' });
  });

  it('sets aside a setting it does not know, and refuses a file with a credential', () => {
    writeFileSync(file, JSON.stringify({ ...POLICY, idleMinutes: 3 }));
    expect(load()).toMatchObject({ policy: { idleLockMinutes: 5 }, problems: { unknownSettings: ['idleMinutes'] } });
    writeFileSync(file, JSON.stringify({ ...POLICY, profiles: [{ id: 'a', name: 'A', baseUrl: 'https://a.example.org', libraries: [{ libraryId: 1 }], country: 'US', password: 'x' }] }));
    expect(load().problems.ignored).toEqual({ reason: 'policy.credential-field', params: { source: file, setting: 'profiles[0].password' } });
  });

  it('refuses auto updates on Linux but keeps the rest of the policy', () => {
    writeFileSync(file, JSON.stringify({ ...POLICY, updates: { mode: 'auto', url: 'https://updates.example.org/desk/' } }));
    const machine = load();
    expect(machine.policy?.idleLockMinutes).toBe(5);
    expect(machine.problems).toEqual({ updatesRefused: { reason: 'updates.linux-auto', params: {} } });
    writeFileSync(file, JSON.stringify({ ...POLICY, updates: { mode: 'it-managed' } }));
    expect(load().problems).toEqual({});
  });

  it('runs unmanaged where there is no file at all', () => {
    rmSync(file);
    expect(load()).toEqual({ problems: {} });
  });
});
