// The managed-configuration policy: how its content is checked (whatever the source), how it
// locks what it names over the desk's own settings, and how an ignored policy fails closed.
import { describe, expect, it } from 'vitest';
import { applyPolicy, checkedPolicy, refusalFor, type Policy } from '../../../../electron/main/policy/index.ts';
import { defaultSettings, type DeskSettings } from '../../../../electron/main/settings/index.ts';

const EXAMPLE = {
  version: 1,
  profiles: [
    { id: 'city-library', name: 'City Library', baseUrl: 'https://partner.example.org', libraries: [{ libraryId: 4512, name: 'Main branch' }, { libraryId: 4513 }], country: 'US', wsApi: '2.1' },
  ],
  idleLockMinutes: 3,
  sandboxOffered: false,
  updates: { mode: 'auto', url: 'https://updates.library.example.org/lending-desk/' },
};
const SOURCE = '/etc/lending-desk/policy.json';
/** A macOS build signed with a Developer ID: the one build that follows every field of a policy as written. */
const MAC = { platform: 'darwin', windowsPublisherVerified: false, macSigned: true } as const;

function check(raw: unknown) {
  return checkedPolicy({ kind: 'found', source: SOURCE, raw }, MAC);
}

function validPolicy(overrides: Record<string, unknown> = {}): Policy {
  const { policy, problems } = check({ ...EXAMPLE, ...overrides });
  expect(problems).toEqual({});
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

describe('checking a policy', () => {
  it('accepts the example in docs/it-deployment.md with every field', () => {
    const { policy, problems, source } = check(EXAMPLE);
    expect(problems).toEqual({});
    expect(source).toBe(SOURCE);
    expect(policy?.profiles?.[0]).toMatchObject({ id: 'city-library', kind: 'partner', libraries: [{ libraryId: 4512, name: 'Main branch' }, { libraryId: 4513 }] });
  });

  it.each([
    [{ ...EXAMPLE, idleLockMinutes: 0 }, 'idleLockMinutes', 'idleLockMinutes must be a whole number of minutes from 1 to 240.'],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], baseUrl: 'http://partner.example.org' }] }, 'profiles[0].baseUrl', /^Service address must be an https:\/\/ URL/],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], libraries: [] }] }, 'profiles[0].libraries', 'A partner profile needs at least one library.'],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], country: 'FR' }] }, 'profiles[0].country', 'Country must be one of US, CA, AU, NZ.'],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], kind: 'sandbox' }] }, 'profiles[0].kind', /^A managed profile is always kind 'partner'/],
    [{ ...EXAMPLE, profiles: [EXAMPLE.profiles[0], EXAMPLE.profiles[0]] }, 'profiles', 'Profile id "city-library" appears more than once.'],
    [{ ...EXAMPLE, updates: { mode: 'auto' } }, 'updates.url', "updates.url is required when updates.mode is 'auto'."],
    [{ ...EXAMPLE, updates: { mode: 'auto', url: 'http://updates.example.org/' } }, 'updates.url', /^updates.url must be an https:\/\/ address/],
    [{ ...EXAMPLE, updates: { mode: 'sometimes' } }, 'updates.mode', "updates.mode must be one of 'auto', 'it-managed', 'off'."],
    [{ ...EXAMPLE, sandboxOffered: 'no' }, 'sandboxOffered', 'sandboxOffered must be true or false.'],
    [{ ...EXAMPLE, version: 2 }, 'version', 'version must be 1.'],
    [[EXAMPLE], '(root)', 'The policy must be a JSON object.'],
    // What stays on the desk holds (issue #33): the inspection CA, the log's time zone, the longest shift.
    [{ ...EXAMPLE, tlsInspectionCa: ['AB:CD'] }, 'tlsInspectionCa[0]', /^tlsInspectionCa must be a list of 1 to 20 SHA-256 certificate fingerprints/],
    [{ ...EXAMPLE, tlsInspectionCa: 'A9A1DB821A8F26AA9001DE8C563385099CEA8838728E44FD88F1BD8C997495FB' }, 'tlsInspectionCa', /^tlsInspectionCa must be a list/],
    [{ ...EXAMPLE, tlsInspectionCa: [] }, 'tlsInspectionCa', /^tlsInspectionCa must be a list/],
    [{ ...EXAMPLE, actionLogTimeZone: 'Eastern Standard Time' }, 'actionLogTimeZone', 'actionLogTimeZone must be a time zone name such as America/Toronto.'],
    [{ ...EXAMPLE, actionLogTimeZone: 'Mars/Olympus_Mons' }, 'actionLogTimeZone', 'actionLogTimeZone must be a time zone name such as America/Toronto.'],
    [{ ...EXAMPLE, maxShiftHours: 0 }, 'maxShiftHours', 'maxShiftHours must be a whole number of hours from 1 to 24.'],
    [{ ...EXAMPLE, maxShiftHours: 25 }, 'maxShiftHours', 'maxShiftHours must be a whole number of hours from 1 to 24.'],
    // Issue #35: each library's card rules, recent patrons, the desk PIN's role and names.
    [{ ...EXAMPLE, libraries: [{ libraryId: 4512, cards: { checkDigit: 'mod11' } }] }, 'libraries[0].cards.checkDigit', "libraries[].cards.checkDigit must be one of 'none', 'luhn', 'codabar'."],
    [{ ...EXAMPLE, libraries: [{ libraryId: 4512, cards: { checkDigit: 'codabar', length: 12 } }] }, 'libraries[0].cards.length', 'libraries[].cards.length must be 14 (or left out) with the Codabar check digit.'],
    [{ ...EXAMPLE, libraries: [{ libraryId: 4512, cards: { checkDigit: 'codabar', prefix: '34512' } }] }, 'libraries[0].cards.prefix', /^libraries\[\]\.cards\.prefix must start with 2 with the Codabar check digit/],
    [{ ...EXAMPLE, libraries: [{ libraryId: 4512, items: { checkDigit: 'codabar', prefix: '24512' } }] }, 'libraries[0].items.prefix', /^libraries\[\]\.items\.prefix must start with 3/],
    [{ ...EXAMPLE, libraries: [{ libraryId: 4512, cards: { prefix: '12345678', length: 6 } }] }, 'libraries[0].cards.prefix', 'libraries[].cards.prefix is longer than libraries[].cards.length.'],
    [{ ...EXAMPLE, libraries: [{ libraryId: 4512, cards: { prefix: '24 512' } }] }, 'libraries[0].cards.prefix', 'libraries[].cards.prefix must be 1 to 20 letters or digits.'],
    [{ ...EXAMPLE, libraries: [{ libraryId: 4512 }, { libraryId: 4512, name: 'Again' }] }, 'libraries', 'Library 4512 appears more than once in libraries.'],
    [{ ...EXAMPLE, libraries: [{ libraryId: 0 }] }, 'libraries[0].libraryId', 'libraries[].libraryId must be a positive whole number.'],
    [{ ...EXAMPLE, recentPatrons: 11 }, 'recentPatrons', 'recentPatrons must be a whole number from 0 (no recent patrons) to 10.'],
    [{ ...EXAMPLE, deskPinRole: 'admin' }, 'deskPinRole', "deskPinRole must be one of 'desk', 'manager'."],
    [{ ...EXAMPLE, deskPinNames: ['Ana', 'ANA '] }, 'deskPinNames', 'Staff name "ana" appears more than once in deskPinNames.'],
  ])('ignores a wrong value, naming its field (%#)', (raw, field, rule) => {
    const { policy, problems } = check(raw);
    expect(policy).toBeUndefined();
    expect(problems.ignored).toEqual({ reason: 'policy.invalid-value', params: { source: SOURCE, setting: field, rule: typeof rule === 'string' ? rule : expect.stringMatching(rule) } });
  });

  it('takes the inspection CA as fingerprints in either spelling, a time zone IANA names, and the longest shift in whole hours', () => {
    const policy = validPolicy({
      tlsInspectionCa: ['a9:a1:db:82:1a:8f:26:aa:90:01:de:8c:56:33:85:09:9c:ea:88:38:72:8e:44:fd:88:f1:bd:8c:99:74:95:fb', 'A9A1DB821A8F26AA9001DE8C563385099CEA8838728E44FD88F1BD8C997495FB'],
      actionLogTimeZone: 'America/St_Johns', maxShiftHours: 24,
    });
    expect(policy).toMatchObject({ actionLogTimeZone: 'America/St_Johns', maxShiftHours: 24 });
    expect(policy.tlsInspectionCa).toHaveLength(2);
    expect(validPolicy({ actionLogTimeZone: 'UTC' }).actionLogTimeZone).toBe('UTC');
  });

  it('takes each library\'s name and card rules, recent patrons and the desk PIN\'s role and names (issue #35)', () => {
    const libraries = [{ libraryId: 4512, name: 'Main branch', cards: { prefix: '24512', checkDigit: 'codabar' }, items: { prefix: '34512', checkDigit: 'codabar' } }];
    expect(validPolicy({ libraries, recentPatrons: 0, deskPinRole: 'manager', deskPinNames: ['Ana Lopez'] })).toMatchObject({ libraries, recentPatrons: 0, deskPinRole: 'manager', deskPinNames: ['Ana Lopez'] });
    expect(validPolicy({ staffPins: undefined }).libraries).toBeUndefined();
  });

  it('sets aside a top-level setting this version does not know (Chrome\'s rule: a newer template must not lock out an older desk), keeping the rest', () => {
    const { policy, problems } = check({ ...EXAMPLE, idleMinutes: 3, printerTray: 'B' });
    expect(policy).toMatchObject({ idleLockMinutes: EXAMPLE.idleLockMinutes, profiles: [{ id: 'city-library' }] });
    expect(policy).not.toHaveProperty('idleMinutes');
    expect(problems).toEqual({ unknownSettings: ['idleMinutes', 'printerTray'] });
    expect(applyPolicy(userSettings(), policy, problems).managed.unknownSettings).toEqual(['idleMinutes', 'printerTray']);
  });

  it.each([
    // Inside a known setting an unknown field is a value this version cannot read whole: refused.
    [{ ...EXAMPLE, updates: { mode: 'off', channel: 'beta' } }, 'policy.unknown-field', 'updates.channel'],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], colour: 'red' }] }, 'policy.unknown-field', 'profiles[0].colour'],
    [{ ...EXAMPLE, profiles: [{ ...EXAMPLE.profiles[0], password: 'hunter2' }] }, 'policy.credential-field', 'profiles[0].password'],
    // A credential-looking name is refused even at the top level, where unknown names are set aside: a secret in a file every local user reads is said out loud.
    [{ ...EXAMPLE, apiKey: 'k' }, 'policy.credential-field', 'apiKey'],
    [{ ...EXAMPLE, partnerPassword: 'k' }, 'policy.credential-field', 'partnerPassword'],
    [{ ...EXAMPLE, pin: '1234' }, 'policy.plain-pin', 'pin'],
  ])('refuses an unknown field inside a setting, and any credential-looking one (%#)', (raw, reason, field) => {
    expect(check(raw)).toEqual({ problems: { ignored: { reason, params: { source: SOURCE, setting: field } } }, source: SOURCE });
  });
});

describe('applying the policy', () => {
  it('changes nothing without a policy', () => {
    const settings = userSettings();
    const outcome = applyPolicy(settings, undefined);
    expect(outcome.settings).toEqual({ ...settings, idleLockMinutes: 30 });
    expect(outcome.managed).toEqual({
      profiles: false, lockedProfileIds: [], idleLockMinutes: false, sandboxOffered: false, sandboxAvailable: true, profileEditing: true, updates: false, updateMode: 'off',
    });
    expect(outcome.sandboxOffered).toBe(true);
  });

  it('presets and locks the profiles it names, replacing the user\'s profile of the same id', () => {
    const { settings, managed } = applyPolicy(userSettings(), validPolicy());
    expect(settings.profiles.map((profile) => profile.id)).toEqual(['city-library', 'county']);
    expect(settings.profiles[0]).toEqual({ ...EXAMPLE.profiles[0], kind: 'partner' });
    expect(managed).toEqual({
      profiles: true, lockedProfileIds: ['city-library'], idleLockMinutes: true, sandboxOffered: true, sandboxAvailable: false, profileEditing: true, updates: true, updateMode: 'auto',
    });
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
    const { deskSettingsSchema } = await import('../../../../electron/main/settings/index.ts');
    expect(deskSettingsSchema.safeParse(applyPolicy(userSettings(), validPolicy()).settings).success).toBe(true);
  });
});

describe('refusing edits to locked values', () => {
  const outcome = applyPolicy(userSettings(), validPolicy());
  const reason = (refusal: ReturnType<typeof refusalFor>) => refusal?.reason;

  it('refuses editing or removing a preset profile, and adding the sandbox when it is not offered', () => {
    expect(reason(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'city-library', kind: 'partner' }, readdressed: true }))).toBe('policy.profile-locked');
    expect(reason(refusalFor(outcome, { kind: 'remove-profile', profileId: 'city-library' }))).toBe('policy.profile-locked-remove');
    expect(reason(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'sandbox', kind: 'sandbox' }, readdressed: true }))).toBe('policy.sandbox-off');
    expect(reason(refusalFor(outcome, { kind: 'idle-lock', minutes: 10 }))).toBe('policy.idle-lock-locked');
  });

  it('allows what the policy does not name', () => {
    expect(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'county', kind: 'partner' }, readdressed: true })).toBeUndefined();
    expect(refusalFor(outcome, { kind: 'remove-profile', profileId: 'county' })).toBeUndefined();
    const unmanaged = applyPolicy(userSettings(), undefined);
    expect(refusalFor(unmanaged, { kind: 'idle-lock', minutes: 10 })).toBeUndefined();
    expect(refusalFor(unmanaged, { kind: 'idle-lock', minutes: 30 })).toBeUndefined();
    expect(refusalFor(unmanaged, { kind: 'save-profile', profile: { id: 'sandbox', kind: 'sandbox' }, readdressed: true })).toBeUndefined();
  });
});

describe('an ignored policy fails closed', () => {
  const ignored = { reason: 'policy.wrong-owner', params: { source: SOURCE, owner: 1000, expected: 'root' } } as const;
  // Whatever came with it is not used: a refused source's content is never half applied.
  const outcome = applyPolicy(userSettings(), validPolicy({ idleLockMinutes: 240, sandboxOffered: true }), { ignored });

  it('turns profile editing, the sandbox and automatic updates off, and says why', () => {
    expect(outcome.managed).toEqual({
      profiles: false, lockedProfileIds: [], idleLockMinutes: false, sandboxOffered: true, sandboxAvailable: false, profileEditing: false,
      updates: true, updateMode: 'off', policyIgnored: ignored,
    });
    expect(outcome.sandboxOffered).toBe(false);
  });

  it('keeps the desk on its own partner connections and idle lock, without the sandbox', () => {
    expect(outcome.settings.profiles.map((profile) => profile.id)).toEqual(['city-library', 'county']);
    expect(outcome.settings.profiles[0]).toMatchObject({ name: 'My edit', baseUrl: 'https://elsewhere.example.com' });
    expect(outcome.settings.idleLockMinutes).toBe(30);
    // The desk was on the sandbox: it now asks for a connection instead.
    expect(outcome.settings.activeProfileId).toBeNull();
    const onCounty = applyPolicy({ ...userSettings(), activeProfileId: 'county' }, undefined, { ignored });
    expect(onCounty.settings.activeProfileId).toBe('county');
  });

  it('refuses adding, changing or removing any connection, and the sandbox', () => {
    expect(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'new-branch', kind: 'partner' }, readdressed: true })?.reason).toBe('policy.profiles-frozen');
    expect(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'county', kind: 'partner' }, readdressed: true })?.reason).toBe('policy.profiles-frozen');
    expect(refusalFor(outcome, { kind: 'remove-profile', profileId: 'county' })?.reason).toBe('policy.profiles-frozen');
    expect(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'sandbox', kind: 'sandbox' }, readdressed: true })?.reason).toBe('policy.sandbox-off');
    // The idle lock is the desk's own again, so staff may change it (up to the unmanaged 30 minutes).
    expect(refusalFor(outcome, { kind: 'idle-lock', minutes: 10 })).toBeUndefined();
  });
});

describe('IT forbids staff to add, re-address or remove connections (profileEditing: false)', () => {
  const outcome = applyPolicy(userSettings(), validPolicy({ profileEditing: false }));

  it('refuses a new connection, a new address or libraries, and a removal; allows a rename where it was, and the sandbox by its own rule', () => {
    expect(outcome.managed.profileEditing).toBe(false);
    expect(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'new-branch', kind: 'partner' }, readdressed: true })?.reason).toBe('policy.profiles-set-by-it');
    expect(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'county', kind: 'partner' }, readdressed: true })?.reason).toBe('policy.profiles-set-by-it');
    expect(refusalFor(outcome, { kind: 'remove-profile', profileId: 'county' })?.reason).toBe('policy.profiles-set-by-it');
    expect(refusalFor(outcome, { kind: 'save-profile', profile: { id: 'county', kind: 'partner' }, readdressed: false })).toBeUndefined();
  });
});

describe('the idle lock of a desk without a policy that sets it', () => {
  it('is at most 30 minutes, whatever settings.json says; IT may set up to 240', () => {
    expect(applyPolicy({ ...userSettings(), idleLockMinutes: 240 }, undefined).settings.idleLockMinutes).toBe(30);
    expect(applyPolicy({ ...userSettings(), idleLockMinutes: 240 }, { version: 1 }).settings.idleLockMinutes).toBe(30);
    expect(applyPolicy({ ...userSettings(), idleLockMinutes: 20 }, undefined).settings.idleLockMinutes).toBe(20);
    expect(applyPolicy(userSettings(), validPolicy({ idleLockMinutes: 240 })).settings.idleLockMinutes).toBe(240);
    expect(refusalFor(applyPolicy(userSettings(), undefined), { kind: 'idle-lock', minutes: 31 })?.reason).toBe('settings.idle-lock-unmanaged');
  });
});

describe('automatic updates this build refused', () => {
  it('leave the rest of the policy in force, with updates off and the reason shown', () => {
    const updatesRefused = { reason: 'updates.unverified-windows-build', params: {} } as const;
    const outcome = applyPolicy(userSettings(), validPolicy(), { updatesRefused });
    expect(outcome.managed).toMatchObject({ profiles: true, lockedProfileIds: ['city-library'], idleLockMinutes: true, profileEditing: true, updates: true, updateMode: 'off', updatesRefused });
    expect(outcome.settings.idleLockMinutes).toBe(3);
  });
});
