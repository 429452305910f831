// The managed-configuration policy: where it lives, how it is read and validated, and how it
// locks what it names over the desk's own settings.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPolicy, loadPolicy, policyFilePath, refusalFor, type Policy } from '../../../electron/policy/index.ts';
import { defaultSettings, type DeskSettings } from '../../../electron/settings/index.ts';

const EXAMPLE = {
  version: 1,
  profiles: [
    { id: 'city-library', name: 'City Library', baseUrl: 'https://partner.example.org', libraries: [{ libraryId: 4512, name: 'Main branch' }, { libraryId: 4513 }], country: 'US', wsApi: '2.1' },
  ],
  idleLockMinutes: 3,
  sandboxOffered: false,
  updates: { mode: 'auto', url: 'https://updates.library.example.org/lending-desk/' },
};

let dir: string | undefined;
afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; });

function policyFile(contents: string): string {
  dir = mkdtempSync(join(tmpdir(), 'lending-desk-policy-'));
  const path = join(dir, 'policy.json');
  writeFileSync(path, contents);
  return path;
}

function validPolicy(overrides: Record<string, unknown> = {}): Policy {
  const { policy, problem } = loadPolicy({ path: 'policy.json', readFile: () => JSON.stringify({ ...EXAMPLE, ...overrides }) });
  expect(problem).toBeUndefined();
  return policy as Policy;
}

function userSettings(): DeskSettings {
  return {
    ...defaultSettings(),
    profiles: [
      { id: 'sandbox', name: 'Sandbox', kind: 'sandbox', baseUrl: '', libraries: [], wsApi: '2.1', country: 'US' },
      { id: 'city-library', name: 'My edit', kind: 'partner', baseUrl: 'https://elsewhere.example.com', libraries: [{ libraryId: 1 }], wsApi: '2.1', country: 'CA' },
      { id: 'county', name: 'County', kind: 'partner', baseUrl: 'https://county.example.net', libraries: [{ libraryId: 77 }], wsApi: '2.1', country: 'US' },
    ],
    activeProfileId: 'sandbox',
    idleLockMinutes: 30,
  };
}

describe('where the policy lives', () => {
  it('is in each OS\'s machine-wide folder', () => {
    expect(policyFilePath({ platform: 'win32', env: { ProgramData: 'D:\\ProgramData' } })).toBe('D:\\ProgramData\\Lending Desk\\policy.json');
    expect(policyFilePath({ platform: 'win32', env: {} })).toBe('C:\\ProgramData\\Lending Desk\\policy.json');
    expect(policyFilePath({ platform: 'darwin', env: {} })).toBe('/Library/Application Support/Lending Desk/policy.json');
    expect(policyFilePath({ platform: 'linux', env: {} })).toBe('/etc/lending-desk/policy.json');
  });

  it('follows LENDING_DESK_POLICY_FILE only where allowed (tests, unpackaged builds)', () => {
    const env = { LENDING_DESK_POLICY_FILE: '/tmp/test-policy.json' };
    expect(policyFilePath({ platform: 'linux', env, allowEnvOverride: true })).toBe('/tmp/test-policy.json');
    expect(policyFilePath({ platform: 'linux', env })).toBe('/etc/lending-desk/policy.json');
  });
});

describe('reading the policy file', () => {
  it('reads and validates a good file from disk', () => {
    const path = policyFile(JSON.stringify(EXAMPLE, null, 2));
    const loaded = loadPolicy({ path });
    expect(loaded.problem).toBeUndefined();
    expect(loaded.policy?.profiles?.[0]).toMatchObject({ id: 'city-library', kind: 'partner', libraries: [{ libraryId: 4512, name: 'Main branch' }, { libraryId: 4513 }] });
    expect(loaded.policy?.idleLockMinutes).toBe(3);
  });

  it('accepts a byte-order mark (Notepad\'s UTF-8)', () => {
    expect(loadPolicy({ path: policyFile(`\uFEFF${JSON.stringify(EXAMPLE)}`) }).policy).toBeDefined();
  });

  it('treats a missing file as an unmanaged desk: no policy and no problem', () => {
    expect(loadPolicy({ path: join(tmpdir(), 'lending-desk-no-such-dir', 'policy.json') })).toEqual({ path: join(tmpdir(), 'lending-desk-no-such-dir', 'policy.json') });
  });

  it('reports a file it may not read', () => {
    const denied = Object.assign(new Error('permission denied'), { code: 'EACCES' });
    const loaded = loadPolicy({ path: '/etc/lending-desk/policy.json', readFile: () => { throw denied; } });
    expect(loaded.policy).toBeUndefined();
    expect(loaded.problem).toMatch(/policy file \/etc\/lending-desk\/policy.json could not be read \(EACCES\)\. The app runs with its own settings/);
  });

  it('reports bad JSON clearly and keeps the desk on its own settings', () => {
    const loaded = loadPolicy({ path: policyFile('{ "idleLockMinutes": 3, }') });
    expect(loaded.policy).toBeUndefined();
    expect(loaded.problem).toMatch(/is not valid JSON .*nothing is locked until the file is fixed/);
    // …and the settings the app then uses are the user's, untouched.
    const settings = userSettings();
    expect(applyPolicy(settings, loaded.policy).settings).toEqual(settings);
  });

  it.each([
    [{ ...EXAMPLE, idleLockMinutes: 0 }, 'idleLockMinutes must be a whole number of minutes from 1 to 240.'],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], baseUrl: 'http://partner.example.org' }] }, 'profiles[0].baseUrl: Service address must be an https:// URL'],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], libraries: [] }] }, 'profiles[0].libraries: A partner profile needs at least one library.'],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], country: 'FR' }] }, 'profiles[0].country: Country must be one of US, CA, AU, NZ.'],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], kind: 'sandbox' }] }, "profiles[0].kind: A managed profile is always kind 'partner'"],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], password: 'hunter2' }] }, 'profiles[0]: A managed profile cannot hold "password": credentials are entered on each PC and kept in its keychain.'],
    [{ ...EXAMPLE, profiles: [EXAMPLE.profiles[0], EXAMPLE.profiles[0]] }, 'profiles: Profile id "city-library" appears more than once.'],
    [{ ...EXAMPLE, updates: { mode: 'auto' } }, "updates.url is required when updates.mode is 'auto'."],
    [{ ...EXAMPLE, updates: { mode: 'auto', url: 'http://updates.example.org/' } }, 'updates.url must be an https:// address'],
    [{ ...EXAMPLE, updates: { mode: 'sometimes' } }, "updates.mode must be one of 'auto', 'it-managed', 'off'."],
    [{ ...EXAMPLE, sandboxOffered: 'no' }, 'sandboxOffered must be true or false.'],
    [{ ...EXAMPLE, idleMinutes: 3 }, 'The policy has an unknown field "idleMinutes".'],
    [{ ...EXAMPLE, version: 2 }, 'version must be 1.'],
    [[EXAMPLE], 'The policy must be a JSON object.'],
  ])('names the field in a schema violation (%#)', (contents, message) => {
    const loaded = loadPolicy({ path: '/etc/lending-desk/policy.json', readFile: () => JSON.stringify(contents) });
    expect(loaded.policy).toBeUndefined();
    expect(loaded.problem).toContain(`The policy file /etc/lending-desk/policy.json is not valid: ${message}`);
    expect(loaded.problem).toContain('The app runs with its own settings');
  });
});

describe('applying the policy', () => {
  it('changes nothing without a policy', () => {
    const settings = userSettings();
    const outcome = applyPolicy(settings, undefined);
    expect(outcome.settings).toEqual(settings);
    expect(outcome.managed).toEqual({ profiles: false, lockedProfileIds: [], idleLockMinutes: false, sandboxOffered: false, updates: false });
    expect(outcome.sandboxOffered).toBe(true);
    expect(outcome.updates).toEqual({ mode: 'off' });
  });

  it('presets and locks the profiles it names, replacing the user\'s profile of the same id', () => {
    const { settings, managed } = applyPolicy(userSettings(), validPolicy());
    expect(settings.profiles.map((profile) => profile.id)).toEqual(['city-library', 'county']);
    expect(settings.profiles[0]).toEqual({ ...EXAMPLE.profiles[0], kind: 'partner' });
    expect(managed).toEqual({ profiles: true, lockedProfileIds: ['city-library'], idleLockMinutes: true, sandboxOffered: true, updates: true });
  });

  it('locks the idle minutes', () => {
    expect(applyPolicy(userSettings(), validPolicy()).settings.idleLockMinutes).toBe(3);
    const unlocked = applyPolicy(userSettings(), validPolicy({ idleLockMinutes: undefined }));
    expect(unlocked.settings.idleLockMinutes).toBe(30);
    expect(unlocked.managed.idleLockMinutes).toBe(false);
  });

  it('removes the sandbox when it is not offered, and opens on the preset connection instead', () => {
    const outcome = applyPolicy(userSettings(), validPolicy());
    expect(outcome.sandboxOffered).toBe(false);
    expect(outcome.settings.profiles.some((profile) => profile.kind === 'sandbox')).toBe(false);
    expect(outcome.settings.activeProfileId).toBe('city-library');
  });

  it('keeps the sandbox when offered, and the user\'s choice of active profile', () => {
    const outcome = applyPolicy(userSettings(), validPolicy({ sandboxOffered: true }));
    expect(outcome.settings.profiles.map((profile) => profile.id)).toEqual(['city-library', 'sandbox', 'county']);
    expect(outcome.settings.activeProfileId).toBe('sandbox');
  });

  it('opens a first-run desk on the first preset profile', () => {
    expect(applyPolicy(defaultSettings(), validPolicy()).settings.activeProfileId).toBe('city-library');
  });

  it('wins over whatever the user saved afterwards', () => {
    const policy = validPolicy();
    const edited = applyPolicy(userSettings(), policy).settings;
    const tampered: DeskSettings = {
      ...edited,
      idleLockMinutes: 240,
      profiles: edited.profiles.map((profile) => (profile.id === 'city-library' ? { ...profile, baseUrl: 'https://attacker.example.com', country: 'AU' as const } : profile)),
    };
    const again = applyPolicy(tampered, policy).settings;
    expect(again.idleLockMinutes).toBe(3);
    expect(again.profiles[0]).toMatchObject({ baseUrl: 'https://partner.example.org', country: 'US', libraries: [{ libraryId: 4512, name: 'Main branch' }, { libraryId: 4513 }] });
  });

  it('produces settings that still pass the settings schema', async () => {
    const { deskSettingsSchema } = await import('../../../electron/settings/index.ts');
    expect(deskSettingsSchema.safeParse(applyPolicy(userSettings(), validPolicy()).settings).success).toBe(true);
  });
});

describe('refusing edits to locked values', () => {
  const outcome = applyPolicy(userSettings(), validPolicy());

  it('refuses editing or removing a preset profile, and adding the sandbox when it is not offered', () => {
    expect(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'city-library', kind: 'partner' } })).toMatch(/set by your library's IT/);
    expect(refusalFor(outcome, { kind: 'remove-profile', profileId: 'city-library' })).toMatch(/cannot be removed/);
    expect(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'sandbox', kind: 'sandbox' } })).toMatch(/sandbox is turned off/);
    expect(refusalFor(outcome, { kind: 'idle-lock', minutes: 10 })).toMatch(/idle lock is set by your library's IT/);
  });

  it('allows what the policy does not name', () => {
    expect(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'county', kind: 'partner' } })).toBeUndefined();
    expect(refusalFor(outcome, { kind: 'remove-profile', profileId: 'county' })).toBeUndefined();
    const unmanaged = applyPolicy(userSettings(), undefined);
    expect(refusalFor(unmanaged, { kind: 'idle-lock', minutes: 10 })).toBeUndefined();
    expect(refusalFor(unmanaged, { kind: 'save-profile', profile: { id: 'sandbox', kind: 'sandbox' } })).toBeUndefined();
  });
});
