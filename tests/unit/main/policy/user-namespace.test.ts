// Linux: a policy hidden by a user namespace (issue #33). Any user of a desk where unprivileged
// user namespaces are on can run `unshare -Urm` and mount an empty folder over the policy's folder:
// inside, the policy is not there. Here that is done for real (util-linux's unshare, a bind mount)
// around the desk's own Linux policy reader, in a child process, with the test's folder standing
// for /etc; and the rule itself over /proc contents the test writes.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystemUserNamespace, policyHiddenBy, type ProcessView } from '../../../../electron/main/policy/user-namespace.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';

let root: string;
let policyDir: string;
let empty: string;
let script: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'lending-desk-userns-'));
  chmodSync(root, 0o755);
  policyDir = join(root, 'etc', 'lending-desk');
  empty = join(root, 'empty');
  mkdirSync(policyDir, { recursive: true, mode: 0o755 });
  mkdirSync(empty, { mode: 0o755 });
  chmodSync(join(root, 'etc'), 0o755);
  chmodSync(policyDir, 0o755);
  writeFileSync(join(policyDir, 'policy.json'), JSON.stringify({ version: 1, profileEditing: false, sandboxOffered: false }), { mode: 0o644 });
  script = join(root, 'read-policy.mjs');
  // Inside `unshare -r` this user is root (0); outside, the files are this user's own.
  writeFileSync(script, `
    const { readLinuxPolicy } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'electron', 'main', 'policy', 'linux-source.ts')).href)});
    const read = readLinuxPolicy({ path: ${JSON.stringify(join(policyDir, 'policy.json'))}, trustRoot: ${JSON.stringify(root)}, ownerUid: Number(process.argv[2]) });
    console.log(JSON.stringify(read));
  `);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function run(command: string, args: string[]): { kind: string; problem?: { reason: string; params: Record<string, unknown> } } {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  expect(result.status, `${command} ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!);
}

describe('a policy folder covered by a mount inside a user namespace', () => {
  it('outside, and in a namespace that covers nothing, the policy is read as it is', () => {
    expect(run(process.execPath, [script, String(process.getuid!())])).toMatchObject({ kind: 'found', raw: { profileEditing: false } });
    expect(run('unshare', ['-Urm', process.execPath, script, '0'])).toMatchObject({ kind: 'found', raw: { profileEditing: false } });
  });

  it('an empty folder mounted over it: refused as hidden (the desk fails closed), never read as no policy', () => {
    const read = run('unshare', ['-Urm', 'sh', '-c', `mount --bind '${empty}' '${policyDir}' && exec '${process.execPath}' '${script}' 0`]);
    expect(read).toEqual({ kind: 'refused', source: join(policyDir, 'policy.json'), problem: { reason: 'policy.hidden-in-namespace', params: { source: join(policyDir, 'policy.json'), mount: policyDir } } });
  });

  it('the folder above it covered too (a whole /etc of their own)', () => {
    const read = run('unshare', ['-Urm', 'sh', '-c', `mount -t tmpfs none '${join(root, 'etc')}' && exec '${process.execPath}' '${script}' 0`]);
    expect(read).toMatchObject({ kind: 'refused', problem: { reason: 'policy.hidden-in-namespace', params: { mount: join(root, 'etc') } } });
  });
});

describe('the rule', () => {
  const SYSTEM_MAP = '         0          0 4294967295\n';
  const CHILD_MAP = '         0       1000          1\n';
  const MOUNTS = [
    '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw',
    '23 22 0:21 / /proc rw,nosuid shared:12 - proc proc rw',
    '40 22 0:35 / /home/desk/My\\040Files rw,relatime - tmpfs tmpfs rw',
  ];
  const view = (uidMap: string | undefined, mounts: string[] | undefined): ProcessView => ({ uidMap: () => uidMap, mountInfo: () => mounts?.join('\n') });
  const FILE = '/etc/lending-desk/policy.json';

  it('knows the system\'s own user namespace by its whole identity map', () => {
    expect(inSystemUserNamespace(SYSTEM_MAP)).toBe(true);
    expect(inSystemUserNamespace(CHILD_MAP)).toBe(false);
    expect(inSystemUserNamespace('0 0 1\n')).toBe(false);
    expect(inSystemUserNamespace(undefined)).toBe(false);
  });

  it('in the system\'s namespace, an absent policy is absent whatever is mounted (mounting there takes root)', () => {
    expect(policyHiddenBy(FILE, { view: view(SYSTEM_MAP, [...MOUNTS, '50 22 0:40 / /etc/lending-desk rw - tmpfs none rw']) })).toBeUndefined();
  });

  it.each([
    ['a mount over the policy folder', [...MOUNTS, '50 22 0:40 / /etc/lending-desk rw - tmpfs none rw'], '/etc/lending-desk'],
    ['a mount over /etc', [...MOUNTS, '50 22 8:1 /home/desk/etc /etc rw - ext4 /dev/sda1 rw'], '/etc'],
    ['a bind mount over the file itself', [...MOUNTS, '50 22 8:1 /home/desk/empty.json /etc/lending-desk/policy.json rw - ext4 /dev/sda1 rw'], FILE],
    ['a root that is a folder of the user\'s own', ['22 1 8:1 /home/desk/root / rw - ext4 /dev/sda1 rw'], '/ (/home/desk/root)'],
    ['/proc that does not answer', undefined, '/proc (it does not answer inside this namespace)'],
  ])('in another namespace: %s hides it', (_what, mounts, by) => {
    expect(policyHiddenBy(FILE, { view: view(CHILD_MAP, mounts) })).toBe(by);
  });

  it('in another namespace that covers nothing of it (a toolbox, a container), an absent policy stays absent', () => {
    expect(policyHiddenBy(FILE, { view: view(CHILD_MAP, MOUNTS) })).toBeUndefined();
    expect(policyHiddenBy(FILE, { view: view(undefined, MOUNTS) })).toBeUndefined();
  });
});
