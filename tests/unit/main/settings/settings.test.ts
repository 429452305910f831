// Desk settings through `conf` (the Electron-free base of electron-store) on a temporary
// directory: what is read back comes from the file on disk, not from memory.
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeskError } from '../../../../electron/shared/desk-error.ts';
import {
  defaultSettings,
  migrate,
  readSettingsFile,
  removeInterruptedWrites,
  Settings,
  SETTINGS_VERSION,
  type ConnectionProfile,
} from '../../../../electron/main/settings/index.ts';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'lending-desk-settings-')); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

function openStore(): Conf<Record<string, unknown>> {
  return new Conf<Record<string, unknown>>({ cwd: dir, projectName: 'lending-desk-test', deserialize: readSettingsFile });
}
const open = (): Settings => new Settings(openStore());
const filePath = (): string => join(dir, 'config.json');
const fileBytes = (): Buffer => readFileSync(filePath());
const writeFile = (content: unknown): void =>
  writeFileSync(filePath(), typeof content === 'string' ? content : JSON.stringify(content, undefined, '\t'));

const branch: ConnectionProfile = {
  id: 'main-branch',
  name: 'Main branch',
  kind: 'partner',
  baseUrl: 'https://partner.example.org/',
  libraries: [{ libraryId: 1204, name: 'Central' }, { libraryId: 1205 }],
  wsApi: '2.1',
  country: 'CA',
};

function refusal(action: () => unknown): DeskError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(DeskError);
    expect((error as DeskError).code).toBe('invalid-input');
    return error as DeskError;
  }
  throw new Error('expected the change to be refused');
}

describe('leftovers of a killed write (found by the crash-safety run)', () => {
  it('removes stale temporary files of interrupted atomic writes, keeps fresh ones and everything else', () => {
    const stale = join(dir, 'config.json.tmp-1795348800a1b2c3');
    const fresh = join(dir, 'config.json.tmp-1795348801d4e5f6');
    const other = join(dir, 'config.json.tmp-notours');
    for (const path of [stale, fresh, other]) writeFileSync(path, '{"half":');
    const old = new Date(Date.now() - 5 * 60_000);
    utimesSync(stale, old, old);
    utimesSync(other, old, old);
    open();
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(other)).toBe(true);
    expect(removeInterruptedWrites(join(dir, 'missing-folder', 'config.json'))).toBe(0);
  });
});

describe('settings', () => {
  it('gives the defaults on an empty store: no connection yet, 5 minute idle lock, 1280x800', () => {
    const settings = open();
    expect(settings.read()).toEqual(defaultSettings());
    expect(settings.read()).toEqual({ version: SETTINGS_VERSION, profiles: [], activeProfileId: null, idleLockMinutes: 5, language: 'en', window: { width: 1280, height: 800, maximized: false } });
    expect(settings.lastLoadProblem).toBeUndefined();
  });

  it('persists changes to the file, read back by a new store', () => {
    const first = open();
    first.saveProfile(branch);
    first.setActiveProfile('main-branch');
    first.update({ idleLockMinutes: 12, language: 'fr-CA', window: { x: 10, y: -20, width: 1440, height: 900, maximized: true } });

    const reread = open().read();
    expect(reread.profiles).toEqual([branch]);
    expect(reread).toMatchObject({ activeProfileId: 'main-branch', idleLockMinutes: 12, language: 'fr-CA', window: { x: 10, y: -20, width: 1440, height: 900, maximized: true } });
    expect(JSON.parse(fileBytes().toString('utf8'))).toEqual(reread);
  });

  it('replaces a profile with the same id, trimming its name', () => {
    const settings = open();
    settings.saveProfile(branch);
    settings.saveProfile({ ...branch, name: '  Main branch (new)  ', libraries: [{ libraryId: 9 }] });
    const saved = open().read().profiles.filter((profile) => profile.id === 'main-branch');
    expect(saved).toEqual([{ ...branch, name: 'Main branch (new)', libraries: [{ libraryId: 9 }] }]);
  });

  it('accepts a partner on localhost over http, and a sandbox profile without address or libraries', () => {
    const settings = open();
    settings.saveProfile({ ...branch, id: 'local', baseUrl: 'http://127.0.0.1:8080/' });
    settings.saveProfile({ ...branch, id: 'local-name', baseUrl: 'http://localhost:8080' });
    settings.saveProfile({ ...branch, id: 'training', kind: 'sandbox', baseUrl: '', libraries: [] });
    expect(open().read().profiles.map((profile) => profile.id)).toEqual(['local', 'local-name', 'training']);
  });

  const badChanges: Array<[string, (settings: Settings) => unknown, RegExp]> = [
    ['idle lock of 0', (s) => s.update({ idleLockMinutes: 0 }), /^Idle lock must be a whole number of minutes from 1 to 240\.$/],
    ['idle lock of 241', (s) => s.update({ idleLockMinutes: 241 }), /Idle lock/],
    ['fractional idle lock', (s) => s.update({ idleLockMinutes: 2.5 }), /Idle lock/],
    ['unknown language', (s) => s.update({ language: 'de' as never }), /Language/],
    ['narrow window', (s) => s.update({ window: { width: 640, height: 800, maximized: false } }), /Window width/],
    ['short window', (s) => s.update({ window: { width: 1024, height: 500, maximized: false } }), /Window height/],
    ['unknown active profile', (s) => s.update({ activeProfileId: 'nowhere' }), /Active profile "nowhere"/],
    ['unknown setting', (s) => s.update({ theme: 'dark' } as never), /unknown field "theme"/],
    ['token among the settings', (s) => s.update({ token: 'abc' } as never), /cannot hold "token".*keychain/],
    ['profile id with capitals', (s) => s.saveProfile({ ...branch, id: 'Main' }), /Profile id/],
    ['empty profile name', (s) => s.saveProfile({ ...branch, name: '   ' }), /Profile name/],
    ['long profile name', (s) => s.saveProfile({ ...branch, name: 'n'.repeat(81) }), /Profile name/],
    ['plain http address', (s) => s.saveProfile({ ...branch, baseUrl: 'http://partner.example.org' }), /Service address/],
    ['address with a query', (s) => s.saveProfile({ ...branch, baseUrl: 'https://partner.example.org/?key=1' }), /Service address/],
    ['address with credentials', (s) => s.saveProfile({ ...branch, baseUrl: 'https://user:pw@partner.example.org/' }), /Service address/],
    ['not an address', (s) => s.saveProfile({ ...branch, baseUrl: 'partner.example.org' }), /Service address/],
    ['partner with no library', (s) => s.saveProfile({ ...branch, libraries: [] }), /at least one library/],
    ['21 libraries', (s) => s.saveProfile({ ...branch, libraries: Array.from({ length: 21 }, (_, i) => ({ libraryId: i + 1 })) }), /at most 20 libraries/],
    ['repeated library', (s) => s.saveProfile({ ...branch, libraries: [{ libraryId: 4 }, { libraryId: 4 }] }), /only once/],
    ['library id 0', (s) => s.saveProfile({ ...branch, libraries: [{ libraryId: 0 }] }), /Library id/],
    ['long library name', (s) => s.saveProfile({ ...branch, libraries: [{ libraryId: 1, name: 'x'.repeat(81) }] }), /Library name/],
    ['long ws-api', (s) => s.saveProfile({ ...branch, wsApi: '2.1.0.0.0.0.0' }), /ws-api/],
    ['unknown country', (s) => s.saveProfile({ ...branch, country: 'GB' as never }), /Country/],
    ['password in a profile', (s) => s.saveProfile({ ...branch, password: 'hunter22' } as never), /cannot hold "password".*keychain/],
    ['unknown profile made active', (s) => s.setActiveProfile('nowhere'), /no connection profile "nowhere"/],
  ];

  it.each(badChanges)('refuses %s, naming the field, and leaves the file byte for byte', (_label, change, message) => {
    const settings = open();
    settings.saveProfile(branch);
    const before = fileBytes();
    const error = refusal(() => change(settings));
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('hunter22');
    expect(fileBytes().equals(before)).toBe(true);
  });

  it('checks a profile without saving it', () => {
    const settings = open();
    settings.update({ idleLockMinutes: 9 });
    const before = fileBytes();
    expect(settings.validateProfile({ ...branch, name: ' Main branch ' })).toEqual(branch);
    expect(refusal(() => settings.validateProfile({ ...branch, baseUrl: 'ftp://x' })).message).toMatch(/Service address/);
    expect(fileBytes().equals(before)).toBe(true);
    expect(open().read().profiles).toEqual([]);
  });

  it('clears the active profile when it is removed, and keeps it when another one is', () => {
    const settings = open();
    settings.saveProfile(branch);
    settings.saveProfile({ ...branch, id: 'east' });
    settings.setActiveProfile('main-branch');
    expect(settings.removeProfile('east').activeProfileId).toBe('main-branch');
    expect(settings.removeProfile('main-branch').activeProfileId).toBeNull();
    expect(open().read()).toMatchObject({ activeProfileId: null, profiles: [] });
  });

  it('removing a profile that is not there changes nothing', () => {
    const settings = open();
    settings.saveProfile(branch);
    const before = fileBytes();
    expect(settings.removeProfile('nowhere').profiles).toEqual([branch]);
    expect(fileBytes().equals(before)).toBe(true);
  });
});

describe('loading older, newer and damaged files', () => {
  const v1 = {
    profile: { name: 'Main branch', baseUrl: 'https://partner.example.org', libraryId: 1204, wsApi: '2.0', country: 'AU' },
    idleMinutes: 15,
    language: 'fr-CA',
  };

  it('migrates a version 1 file, and writes version 2 only on the next change', () => {
    writeFile(v1);
    const before = fileBytes();
    const settings = open();
    const migrated = settings.read();
    expect(settings.lastLoadProblem).toBeUndefined();
    expect(migrated).toEqual({
      version: 2,
      profiles: [{ id: 'partner', name: 'Main branch', kind: 'partner', baseUrl: 'https://partner.example.org', libraries: [{ libraryId: 1204 }], wsApi: '2.0', country: 'AU' }],
      activeProfileId: 'partner',
      idleLockMinutes: 15,
      language: 'fr-CA',
      window: { width: 1280, height: 800, maximized: false },
    });
    expect(fileBytes().equals(before)).toBe(true);

    settings.update({ idleLockMinutes: 20 });
    const written = JSON.parse(fileBytes().toString('utf8')) as Record<string, unknown>;
    expect(written).toEqual({ ...migrated, idleLockMinutes: 20 });
    expect(written).not.toHaveProperty('profile');
    expect(written).not.toHaveProperty('idleMinutes');
  });

  it('migrates a version 1 file without a profile', () => {
    expect(migrate({ version: 1, idleMinutes: 30 }).settings).toMatchObject({ profiles: [], activeProfileId: null, idleLockMinutes: 30 });
  });

  it('uses defaults for a file from a newer version, says so, and does not touch the file', () => {
    writeFile({ version: SETTINGS_VERSION + 1, profiles: [], somethingNew: true });
    const before = fileBytes();
    const settings = open();
    expect(settings.read()).toEqual(defaultSettings());
    expect(settings.lastLoadProblem?.message).toMatch(/newer Lending Desk \(settings version 3/);
    expect(fileBytes().equals(before)).toBe(true);
  });

  it('uses defaults for a file that is not JSON, and says so without quoting it', () => {
    writeFile('{"profiles": [{"id": "main", "name": "Main", "passw');
    const before = fileBytes();
    const settings = open();
    expect(settings.read()).toEqual(defaultSettings());
    expect(settings.lastLoadProblem?.message).toMatch(/not valid JSON/);
    expect(settings.lastLoadProblem?.message).not.toContain('passw');
    expect(fileBytes().equals(before)).toBe(true);

    // The next change replaces the damaged file with a valid one.
    settings.update({ idleLockMinutes: 7 });
    expect(open().read().idleLockMinutes).toBe(7);
    expect(settings.lastLoadProblem).toBeUndefined();
  });

  it('uses defaults for a file that breaks a rule, naming the rule', () => {
    writeFile({ version: 2, profiles: [], activeProfileId: null, idleLockMinutes: 999 });
    const settings = open();
    expect(settings.read()).toEqual(defaultSettings());
    expect(settings.lastLoadProblem?.message).toMatch(/Idle lock must be a whole number/);
  });

  it('refuses a file holding a password in a profile', () => {
    writeFile({ version: 2, profiles: [{ ...branch, password: 'hunter22' }], activeProfileId: 'main-branch' });
    const settings = open();
    expect(settings.read()).toEqual(defaultSettings());
    expect(settings.lastLoadProblem?.message).toMatch(/cannot hold "password"/);
    expect(settings.lastLoadProblem?.message).not.toContain('hunter22');
  });

  it('uses defaults when the store itself cannot be read', () => {
    const settings = new Settings({
      get store(): Record<string, unknown> { throw new SyntaxError('The config file is not valid JSON.'); },
      set store(_value: Record<string, unknown>) { throw new Error('not written in this test'); },
    });
    expect(settings.read()).toEqual(defaultSettings());
    expect(settings.lastLoadProblem?.message).toMatch(/could not be read/);
  });
});
