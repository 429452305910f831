// The Windows policy from HKLM\SOFTWARE\Policies\Lending Desk. The registry is a stand-in (this
// machine has none), but every value in it is made by native-reg's own encoders, so the bytes are
// those RegQueryValueEx hands the app: UTF-16LE strings with their terminators, little-endian
// DWORDs, double-terminated multi-strings.
import { formatDWORD, formatMultiString, formatQWORD, formatString } from 'native-reg';
import { describe, expect, it } from 'vitest';
import { loadMachinePolicy, type MachinePolicy } from '../../../../electron/main/policy/index.ts';
import type { RegistryReader, RegistryValue } from '../../../../electron/main/policy/windows-source.ts';

const KEY = 'SOFTWARE\\Policies\\Lending Desk';
const SOURCE = 'HKLM\\SOFTWARE\\Policies\\Lending Desk';

type Tree = { values?: RegistryValue[]; subkeys?: Record<string, Tree> };

const sz = (name: string, text: string): RegistryValue => ({ name, type: 1, data: formatString(text) });
const expandSz = (name: string, text: string): RegistryValue => ({ name, type: 2, data: formatString(text) });
const dword = (name: string, value: number): RegistryValue => ({ name, type: 4, data: formatDWORD(value) });
const multiSz = (name: string, lines: string[]): RegistryValue => ({ name, type: 7, data: formatMultiString(lines) });
const binary = (name: string): RegistryValue => ({ name, type: 3, data: Buffer.from([1, 2, 3]) });
const qword = (name: string, value: number): RegistryValue => ({ name, type: 11, data: formatQWORD(value) });

/** A registry holding `tree` at the policy key (or nothing), reading keys by their full path. */
function registry(tree: Tree | undefined, denied?: string): RegistryReader & { opened: string[] } {
  const opened: string[] = [];
  return {
    opened,
    readKey(path) {
      opened.push(path);
      if (path === denied) throw new Error('Access is denied.');
      if (!tree || !path.startsWith(KEY)) return null;
      let node: Tree | undefined = tree;
      for (const part of path.slice(KEY.length).split('\\').filter(Boolean)) node = node?.subkeys?.[part];
      return node ? { values: node.values ?? [], subkeys: Object.keys(node.subkeys ?? {}) } : null;
    },
  };
}

const PROFILES = [{ id: 'ville', name: 'Bibliothèque de la Ville', baseUrl: 'https://partner.example.org', libraries: [{ libraryId: 4512, name: 'Succursale Côte-des-Neiges' }], country: 'CA' }];

function fullTree(profiles: RegistryValue = sz('profiles', JSON.stringify(PROFILES))): Tree {
  return {
    values: [dword('idleLockMinutes', 3), dword('sandboxOffered', 0), profiles],
    subkeys: { updates: { values: [sz('mode', 'auto'), sz('url', 'https://updates.example.org/desk/')] } },
  };
}

function load(tree: Tree | undefined, windowsPublisherVerified = true, denied?: string): MachinePolicy {
  return loadMachinePolicy({ platform: 'win32', registry: registry(tree, denied), windowsPublisherVerified });
}

describe('the Windows policy key', () => {
  it('is absent when the key does not exist: an unmanaged desk', () => {
    const reader = registry(undefined);
    expect(loadMachinePolicy({ platform: 'win32', registry: reader })).toEqual({ problems: {} });
    expect(reader.opened).toEqual([KEY]);
  });

  it('maps DWORDs, a JSON profile list in a REG_SZ and the updates subkey onto the policy', () => {
    expect(load(fullTree())).toEqual({
      source: SOURCE,
      problems: {},
      policy: {
        version: 1, idleLockMinutes: 3, sandboxOffered: false,
        profiles: [{ ...PROFILES[0], kind: 'partner', wsApi: '2.1' }],
        updates: { mode: 'auto', url: 'https://updates.example.org/desk/' },
      },
    });
  });

  it('takes the profile list from a REG_MULTI_SZ too, its lines joined (what the ADMX multi-line box writes)', () => {
    const lines = JSON.stringify(PROFILES, null, 2).split('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(load(fullTree(multiSz('profiles', lines))).policy?.profiles).toEqual(load(fullTree()).policy?.profiles);
  });

  it('reads sandboxOffered 1 as true and refuses any other number', () => {
    expect(load({ values: [dword('sandboxOffered', 1)] }).policy?.sandboxOffered).toBe(true);
    expect(load({ values: [dword('sandboxOffered', 2)] }).problems.ignored).toEqual({
      reason: 'policy.invalid-value', params: { source: SOURCE, setting: 'sandboxOffered', rule: 'sandboxOffered must be true or false.' },
    });
  });

  it('refuses auto updates on a build with no verified publisher, keeping the rest', () => {
    const machine = load(fullTree(), false);
    expect(machine.policy?.idleLockMinutes).toBe(3);
    expect(machine.problems).toEqual({ updatesRefused: { reason: 'updates.unverified-windows-build', params: {} } });
  });

  it('treats an empty key as a policy that locks nothing', () => {
    expect(load({})).toEqual({ source: SOURCE, problems: {}, policy: { version: 1 } });
  });

  it('passes over the empty updates key Group Policy leaves when Updates is disabled', () => {
    expect(load({ values: [dword('idleLockMinutes', 3)], subkeys: { updates: {} } })).toEqual({ source: SOURCE, problems: {}, policy: { version: 1, idleLockMinutes: 3 } });
  });
});

describe('a Windows policy key that is refused (the desk fails closed)', () => {
  it.each([
    ['REG_EXPAND_SZ (it would expand a user\'s environment variables)', { subkeys: { updates: { values: [sz('mode', 'auto'), expandSz('url', '%UPDATE_HOST%/desk/')] } } }, `${SOURCE}\\updates`, 'updates.url', 'REG_EXPAND_SZ'],
    ['REG_BINARY', { values: [binary('idleLockMinutes')] }, SOURCE, 'idleLockMinutes', 'REG_BINARY'],
    ['REG_QWORD', { values: [qword('idleLockMinutes', 3)] }, SOURCE, 'idleLockMinutes', 'REG_QWORD'],
  ])('refuses a value of type %s', (_type, tree, source, field, type) => {
    expect(load(tree).problems.ignored).toEqual({ reason: 'policy.registry-type', params: { source, setting: field, type } });
  });

  it('refuses a number written as text', () => {
    expect(load({ values: [sz('idleLockMinutes', '3')] }).problems.ignored).toMatchObject({ reason: 'policy.invalid-value', params: { setting: 'idleLockMinutes' } });
  });

  it.each([
    ['a value name spelt differently', { values: [dword('IdleLockMinutes', 3)] }, 'IdleLockMinutes'],
    ['the key\'s default value', { values: [sz('', 'x')] }, '(Default)'],
    ['an unknown subkey', { subkeys: { extras: { values: [sz('colour', 'red')] } } }, 'extras'],
    // A newer ADMX may write types this version does not take: a name it does not know is set aside whatever its type.
    ['a setting of a newer version, in a type no known setting takes', { values: [qword('printerTrayCount', 3)] }, 'printerTrayCount'],
  ])('sets aside %s as a setting this version does not know', (_what, tree, field) => {
    expect(load(tree).problems).toEqual({ unknownSettings: [field] });
  });

  it('refuses an unknown value inside a known setting', () => {
    const tree = { subkeys: { updates: { values: [sz('mode', 'off'), sz('channel', 'beta')] } } };
    expect(load(tree).problems.ignored).toEqual({ reason: 'policy.unknown-field', params: { source: SOURCE, setting: 'updates.channel' } });
  });

  it('reads profileEditing as a DWORD 0 or 1', () => {
    expect(load({ values: [dword('profileEditing', 0)] }).policy).toMatchObject({ profileEditing: false });
    expect(load({ values: [dword('profileEditing', 2)] }).problems.ignored).toMatchObject({ reason: 'policy.invalid-value', params: { setting: 'profileEditing' } });
  });

  it('refuses a credential put in the registry', () => {
    const profiles = sz('profiles', JSON.stringify([{ ...PROFILES[0], password: 'hunter2' }]));
    expect(load(fullTree(profiles)).problems.ignored).toEqual({ reason: 'policy.credential-field', params: { source: SOURCE, setting: 'profiles[0].password' } });
  });

  it('refuses a profile list that is not JSON, naming the value', () => {
    expect(load(fullTree(sz('profiles', '[{ "id": "ville", }]'))).problems.ignored).toMatchObject({
      reason: 'policy.not-json', params: { source: `${SOURCE}\\profiles` },
    });
  });

  it('refuses more than 64 KiB of values', () => {
    const big = sz('profiles', JSON.stringify([{ ...PROFILES[0], name: 'x'.repeat(33 * 1024) }]));
    expect(load(fullTree(big)).problems.ignored).toEqual({ reason: 'policy.too-large', params: { source: SOURCE, limit: 64 } });
  });

  it('refuses a key it may not read, rather than running unmanaged', () => {
    expect(load(fullTree(), true, KEY).problems.ignored).toEqual({ reason: 'policy.unreadable', params: { source: SOURCE, code: 'Access is denied.' } });
    expect(load(fullTree(), true, `${KEY}\\updates`).problems.ignored).toMatchObject({ reason: 'policy.unreadable', params: { source: `${SOURCE}\\updates` } });
  });

  it('fails closed, not crashes, when the registry library cannot read (here: native-reg off Windows)', () => {
    // The real adapter: native-reg loads on any OS but its calls work only on Windows.
    expect(loadMachinePolicy({ platform: 'win32' }).problems.ignored).toMatchObject({ reason: 'policy.unreadable', params: { source: SOURCE } });
  });

  it('refuses a name that is both a value and a subkey', () => {
    const tree: Tree = { values: [sz('updates', 'auto')], subkeys: { updates: { values: [sz('mode', 'off')] } } };
    expect(load(tree).problems.ignored).toMatchObject({ reason: 'policy.invalid-value', params: { setting: 'updates' } });
  });

  it('does not descend past the depth the policy has', () => {
    const reader = registry({ subkeys: { updates: { values: [sz('mode', 'off')], subkeys: { deeper: { subkeys: { deepest: {} } } } } } });
    expect(loadMachinePolicy({ platform: 'win32', registry: reader }).problems.ignored).toMatchObject({ reason: 'policy.unknown-field', params: { setting: 'updates.deeper' } });
    expect(reader.opened).toEqual([KEY, `${KEY}\\updates`]);
  });
});
