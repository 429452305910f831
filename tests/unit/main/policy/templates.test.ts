// The files IT deploys (resources/policy/): the ADMX template with its English and French ADML,
// the sample .reg, the sample .mobileconfig and the sample Linux file. Each is read the way the
// app will meet it (the ADMX through what Group Policy writes into the registry for it, the
// profile through the managed preferences it becomes) and must give the documented policy, and
// each must carry every setting the policy's schema defines: a setting added to the schema
// without its place in every sample fails here.
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDWORD, formatMultiString, formatString } from 'native-reg';
import { Window } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APP_ID } from '../../../../electron-builder.config.ts';
import { BUNDLE_ID, checkedPolicy, loadMachinePolicy, policySchema, UPDATE_MODES, WINDOWS_POLICY_KEY, type Policy } from '../../../../electron/main/policy/index.ts';
import { PASSWORD_ENTRIES } from '../../../../electron/main/policy/library-mirror-policy.ts';
import { readWindowsPolicy, type RegistryReader, type RegistryValue } from '../../../../electron/main/policy/windows-source.ts';
import type { SourceRead } from '../../../../electron/main/policy/source.ts';
import { readLinuxPolicy } from '../../../../electron/main/policy/linux-source.ts';
import { readMacPolicy } from '../../../../electron/main/policy/macos-source.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';

const DIR = join(REPO_ROOT, 'resources', 'policy');
const read = (...path: string[]) => readFileSync(join(DIR, ...path), 'utf8');

const PROFILE = {
  id: 'city-library', name: 'City Library', kind: 'partner', baseUrl: 'https://partner.example.org',
  libraries: [{ libraryId: 4512, name: 'Main branch' }, { libraryId: 4513 }], country: 'US', wsApi: '2.1',
};
const STAFF_PINS = [
  { name: 'Ana Lopez', pinHash: '$scrypt$ln=16,r=8,p=1$k4QibT38vgJ+ahuSPwaq0A$oG8WlCHa+5im9SI2qJXBXxHt6Isxb21ReSWbzI1ybR4', role: 'manager' as const },
  { name: 'Jo Park', pinHash: '$scrypt$ln=16,r=8,p=1$8vONNuQRAdWL0iADuzaL7w$qRlEyp0hY1/t3SsLKd2vXYA8k0nDrNDWl4FSUIwrvJ0' },
];
/** Each OS's sample keeps the library mirror's CA where that OS's administrators alone can write. */
const CA_FILE = {
  windows: 'C:\\Program Files\\Lending Desk CA\\library-mirror-ca.pem',
  macos: '/Library/Application Support/Lending Desk/library-mirror-ca.pem',
  linux: '/etc/lending-desk/library-mirror-ca.pem',
};
const LIBRARY_MIRROR = { host: 'db.library.example.org', port: 5432, database: 'library_mirror', user: 'library_mirror_desk', caFile: CA_FILE.windows, passwordEntry: 'keychain' } as const;
/** The library's TLS inspection CA, by its SHA-256 fingerprint as openssl prints it. */
const INSPECTION_CA = 'A9:A1:DB:82:1A:8F:26:AA:90:01:DE:8C:56:33:85:09:9C:EA:88:38:72:8E:44:FD:88:F1:BD:8C:99:74:95:FB';
/** Each library's name, card rules and item barcodes (issue #35): a Codabar branch and a Luhn one. */
const LIBRARIES: Policy['libraries'] = [
  { libraryId: 4512, name: 'Main branch', cards: { prefix: '24512', checkDigit: 'codabar' }, items: { prefix: '34512', checkDigit: 'codabar' } },
  { libraryId: 4513, name: 'East branch', cards: { prefix: '4513', length: 10, checkDigit: 'luhn' }, items: { prefix: 'T4513', length: 12 } },
];
const DESK_PIN_NAMES = ['Ana Lopez', 'Jo Park'];
/** And the library server's CA, beside it. */
const SERVER_CA_FILE = {
  windows: 'C:\\Program Files\\Lending Desk CA\\library-server-ca.pem',
  macos: '/Library/Application Support/Lending Desk/library-server-ca.pem',
  linux: '/etc/lending-desk/library-server-ca.pem',
};
const LIBRARY_SERVER = {
  url: 'https://lending-server-1.library.example.org:8443', fallbackUrl: 'https://lending-server-2.library.example.org:8443', caFile: SERVER_CA_FILE.windows,
} as const;
const EXPECTED: Policy = {
  version: 1, profiles: [PROFILE] as Policy['profiles'], idleLockMinutes: 3, sandboxOffered: false,
  updates: { mode: 'auto', url: 'https://updates.library.example.org/lending-desk/' },
  staffPins: STAFF_PINS, actionLogRetentionDays: 14, actionLogTitles: false, profileEditing: false, entitlementFullPassDays: 3, catalogRefreshDays: 1,
  libraryMirror: LIBRARY_MIRROR, libraries: LIBRARIES, recentPatrons: 3, deskPinRole: 'desk', deskPinNames: DESK_PIN_NAMES,
  tlsInspectionCa: [INSPECTION_CA], actionLogTimeZone: 'America/Toronto', maxShiftHours: 10,
  libraryServer: LIBRARY_SERVER,
};
const withCaFile = (caFile: string, serverCaFile: string): Policy => ({ ...EXPECTED, libraryMirror: { ...LIBRARY_MIRROR, caFile }, libraryServer: { ...LIBRARY_SERVER, caFile: serverCaFile } });

/** Every field the policy's schema defines, as paths (`updates.url`, `staffPins[].name`); a profile's fields are the settings schema's, and a list of profiles is one field here. */
function schemaPaths(schema: z.core.$ZodType, prefix = ''): string[] {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap();
  if (inner instanceof z.ZodObject) return Object.entries(inner.shape).flatMap(([name, field]) => [prefix + name, ...schemaPaths(field, `${prefix}${name}.`)]);
  if (inner instanceof z.ZodArray) return schemaPaths(inner.element, `${prefix.slice(0, -1)}[].`);
  return [];
}
/** The fields a source handed the parser, as the same paths. */
function givenPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => givenPaths(item, `${prefix.slice(0, -1)}[].`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, field]) => [prefix + name, ...givenPaths(field, `${prefix}${name}.`)]);
}
/** What the schema defines and the sample, as its source read it, leaves out. */
function missingFrom(read: SourceRead): string[] {
  expect(read.kind).toBe('found');
  const given = new Set(givenPaths(read.kind === 'found' ? read.raw : undefined));
  return [...new Set(schemaPaths(policySchema))].filter((path) => !given.has(path));
}

function xml(text: string): Document {
  const document = new new Window().DOMParser().parseFromString(text, 'application/xml') as unknown as Document;
  const error = document.querySelector('parsererror');
  if (error) throw new Error(`not well-formed XML: ${error.textContent}`);
  return document;
}
const all = (node: ParentNode, selector: string) => [...node.querySelectorAll(selector)];
const attr = (element: Element, name: string) => element.getAttribute(name) ?? '';

/** A registry stand-in over a map of key path → values (subkeys derived from the paths). */
function registryOf(keys: Map<string, RegistryValue[]>): RegistryReader {
  return {
    readKey(path) {
      const values = keys.get(path);
      const subkeys = [...keys.keys()].filter((key) => key.startsWith(`${path}\\`) && !key.slice(path.length + 1).includes('\\')).map((key) => key.slice(path.length + 1));
      return values === undefined && subkeys.length === 0 ? null : { values: values ?? [], subkeys };
    },
  };
}
/** Read as on a Windows computer installed on C: (where its CA file, under Program Files, counts as protected). */
const loadFromRegistry = (keys: Map<string, RegistryValue[]>) => loadMachinePolicy({ platform: 'win32', registry: registryOf(keys), windowsPublisherVerified: true, protectedPlaces: { windowsFolder: () => 'C:\\Windows' } });

type Entered = Record<string, Record<string, string | string[] | number>>;
/** What the Group Policy editor writes when IT enables each policy with the values in docs/it-deployment.md. */
const ENTERED: Entered = {
  Profiles: { ProfilesJson: JSON.stringify([PROFILE], null, 2).split('\n') },
  StaffPins: { StaffPinsJson: JSON.stringify(STAFF_PINS, null, 2).split('\n') },
  ActionLogRetentionDays: { ActionLogRetentionDaysValue: 14 },
  EntitlementFullPassDays: { EntitlementFullPassDaysValue: 3 },
  TlsInspectionCa: { TlsInspectionCaFingerprints: [INSPECTION_CA] },
  ActionLogTimeZone: { ActionLogTimeZoneName: 'America/Toronto' },
  MaxShiftHours: { MaxShiftHoursValue: 10 },
  CatalogRefreshDays: { CatalogRefreshDaysValue: 1 },
  IdleLockMinutes: { IdleLockMinutesValue: 3 },
  Libraries: { LibrariesJson: JSON.stringify(LIBRARIES, null, 2).split('\n') },
  RecentPatrons: { RecentPatronsValue: 3 },
  DeskPinRole: { DeskPinRoleValue: 'desk' },
  DeskPinNames: { DeskPinNamesList: DESK_PIN_NAMES },
  Updates: { UpdatesMode: 'auto', UpdatesUrl: 'https://updates.library.example.org/lending-desk/' },
  LibraryMirror: {
    LibraryMirrorHost: LIBRARY_MIRROR.host, LibraryMirrorPort: LIBRARY_MIRROR.port, LibraryMirrorDatabase: LIBRARY_MIRROR.database,
    LibraryMirrorUser: LIBRARY_MIRROR.user, LibraryMirrorCaFile: CA_FILE.windows, LibraryMirrorPasswordEntry: LIBRARY_MIRROR.passwordEntry,
  },
  LibraryServer: { LibraryServerUrl: LIBRARY_SERVER.url, LibraryServerFallbackUrl: LIBRARY_SERVER.fallbackUrl, LibraryServerCaFile: SERVER_CA_FILE.windows },
};

describe('the ADMX template', () => {
  const admx = xml(read('windows', 'LendingDesk.admx'));
  const policies = all(admx, 'policy');

  it('writes only under the policy key, every value a field the app knows, every field covered', () => {
    const written = new Set<string>();
    for (const policy of policies) {
      const key = attr(policy, 'key');
      expect([WINDOWS_POLICY_KEY, `${WINDOWS_POLICY_KEY}\\updates`, `${WINDOWS_POLICY_KEY}\\libraryMirror`, `${WINDOWS_POLICY_KEY}\\libraryServer`]).toContain(key);
      expect(attr(policy, 'class')).toBe('Machine');
      const prefix = key === WINDOWS_POLICY_KEY ? '' : `${key.slice(WINDOWS_POLICY_KEY.length + 1)}.`;
      for (const element of [policy, ...all(policy, 'elements > *')]) if (attr(element, 'valueName')) written.add(prefix + attr(element, 'valueName'));
    }
    expect([...written].sort()).toEqual([
      'actionLogRetentionDays', 'actionLogTimeZone', 'actionLogTitles', 'catalogRefreshDays', 'deskPinNames', 'deskPinRole',
      'entitlementFullPassDays', 'idleLockMinutes', 'libraries', 'libraryMirror.caFile', 'libraryMirror.database', 'libraryMirror.host',
      'libraryMirror.passwordEntry', 'libraryMirror.port', 'libraryMirror.user', 'libraryServer.caFile', 'libraryServer.fallbackUrl',
      'libraryServer.url', 'maxShiftHours', 'profileEditing', 'profiles', 'recentPatrons', 'sandboxOffered', 'staffPins', 'tlsInspectionCa',
      'updates.mode', 'updates.url',
    ]);
  });

  it('offers the full entitlement pass range the app accepts (1 to 90 days)', () => {
    const days = admx.querySelector('decimal[valueName="entitlementFullPassDays"]') as Element;
    expect([attr(days, 'minValue'), attr(days, 'maxValue')]).toEqual(['1', '90']);
    const found = (entitlementFullPassDays: number) => checkedPolicy({ kind: 'found', source: 's', raw: { entitlementFullPassDays } }, { platform: 'win32', windowsPublisherVerified: true }).problems;
    expect([found(1), found(90)]).toEqual([{}, {}]);
    expect([found(0).ignored?.reason, found(91).ignored?.reason]).toEqual(['policy.invalid-value', 'policy.invalid-value']);
  });

  it('offers exactly the roles and recent-patron range the app accepts (issue #35)', () => {
    expect(all(admx, 'enum[valueName="deskPinRole"] item value string').map((node) => node.textContent)).toEqual(['desk', 'manager']);
    const recent = admx.querySelector('decimal[valueName="recentPatrons"]') as Element;
    expect([attr(recent, 'minValue'), attr(recent, 'maxValue')]).toEqual(['0', '10']);
    const found = (raw: Record<string, unknown>) => checkedPolicy({ kind: 'found', source: 's', raw }, { platform: 'win32', windowsPublisherVerified: true }).problems;
    expect([found({ recentPatrons: 0 }), found({ recentPatrons: 10 }), found({ deskPinRole: 'manager' })]).toEqual([{}, {}, {}]);
    expect([found({ recentPatrons: 11 }).ignored?.reason, found({ deskPinRole: 'boss' }).ignored?.reason]).toEqual(['policy.invalid-value', 'policy.invalid-value']);
  });

  it('offers the catalog refresh range the app accepts (1 to 30 days)', () => {
    const days = admx.querySelector('decimal[valueName="catalogRefreshDays"]') as Element;
    expect([attr(days, 'minValue'), attr(days, 'maxValue')]).toEqual(['1', '30']);
    const found = (catalogRefreshDays: number) => checkedPolicy({ kind: 'found', source: 's', raw: { catalogRefreshDays } }, { platform: 'win32', windowsPublisherVerified: true }).problems;
    expect([found(1), found(30)]).toEqual([{}, {}]);
    expect([found(0).ignored?.reason, found(31).ignored?.reason]).toEqual(['policy.invalid-value', 'policy.invalid-value']);
  });

  it('offers exactly the update modes and idle-lock range the app accepts', () => {
    const modes = all(admx, 'enum[valueName="mode"] item value string').map((node) => node.textContent);
    expect(modes.sort()).toEqual([...UPDATE_MODES].sort());
    const minutes = admx.querySelector('decimal[valueName="idleLockMinutes"]') as Element;
    expect([attr(minutes, 'minValue'), attr(minutes, 'maxValue')]).toEqual(['1', '240']);
    const found = (idleLockMinutes: number) => checkedPolicy({ kind: 'found', source: 's', raw: { idleLockMinutes } }, { platform: 'win32', windowsPublisherVerified: true }).problems;
    expect([found(1), found(240)]).toEqual([{}, {}]);
    expect([found(0).ignored?.reason, found(241).ignored?.reason]).toEqual(['policy.invalid-value', 'policy.invalid-value']);
  });

  /** The registry as Group Policy leaves it with every policy enabled as `entered` says (an element it leaves out is not written), and the on/off ones disabled. */
  function groupPolicyRegistry(entered: Entered): Map<string, RegistryValue[]> {
    const keys = new Map<string, RegistryValue[]>();
    const write = (key: string, value: RegistryValue) => keys.set(key, [...(keys.get(key) ?? []), value]);
    for (const policy of policies) {
      const key = attr(policy, 'key');
      if (policy.querySelector('disabledValue')) {
        // An on/off policy (the sandbox, titles in the action log, staff changing connections) set to Disabled: its disabledValue.
        write(key, { name: attr(policy, 'valueName'), type: 4, data: formatDWORD(Number(attr(policy.querySelector('disabledValue decimal') as Element, 'value'))) });
        continue;
      }
      for (const element of all(policy, 'elements > *')) {
        const given = entered[attr(policy, 'name')] ?? {};
        const value = given[attr(element, 'id')];
        if (!(attr(element, 'id') in given)) {
          expect(attr(element, 'required'), `${attr(policy, 'name')}/${attr(element, 'id')} is required`).not.toBe('true');
          continue;
        }
        const name = attr(element, 'valueName');
        if (element.tagName === 'multiText') write(key, { name, type: 7, data: formatMultiString(value as string[]) });
        else if (element.tagName === 'decimal') write(key, { name, type: 4, data: formatDWORD(value as number) });
        else if (element.tagName === 'enum' || element.tagName === 'text') write(key, { name, type: 1, data: formatString(value as string) });
        else throw new Error(`no registry mapping for <${element.tagName}>`);
      }
    }
    return keys;
  }

  it('gives the documented policy through the registry values Group Policy writes for it', () => {
    expect(loadFromRegistry(groupPolicyRegistry(ENTERED))).toEqual({ policy: EXPECTED, problems: {}, source: `HKLM\\${WINDOWS_POLICY_KEY}` });
  });

  it('carries every setting the schema defines (but version, which the registry may leave out)', () => {
    expect(missingFrom(readWindowsPolicy(registryOf(groupPolicyRegistry(ENTERED))))).toEqual(['version']);
  });

  it('offers the library mirror\'s fields as the app accepts them, its CA file left out when the box is left blank', () => {
    const port = admx.querySelector('decimal[valueName="port"]') as Element;
    expect([attr(port, 'minValue'), attr(port, 'maxValue')]).toEqual(['1', '65535']);
    expect(all(admx, 'enum[valueName="passwordEntry"] item value string').map((node) => node.textContent)).toEqual([...PASSWORD_ENTRIES]);
    const { caFile: _caFile, ...mirrorWithoutCa } = LIBRARY_MIRROR;
    const { LibraryMirrorCaFile: _entered, ...enteredWithoutCa } = ENTERED.LibraryMirror as Record<string, string | number>;
    // A blank optional text box: whether the editor then writes an empty string or no value, the CA file is not set.
    for (const blank of [{ LibraryMirrorCaFile: '' }, {}] as Record<string, string>[]) {
      expect(loadFromRegistry(groupPolicyRegistry({ ...ENTERED, LibraryMirror: { ...enteredWithoutCa, ...blank } })).policy).toEqual({ ...EXPECTED, libraryMirror: mirrorWithoutCa });
    }
  });

  it.each(['en-US', 'fr-CA'])('has every string and presentation in its %s ADML, of the revision the ADMX asks for', (language) => {
    const adml = xml(read('windows', language, 'LendingDesk.adml'));
    const required = attr(admx.querySelector('resources') as Element, 'minRequiredRevision');
    expect(attr(adml.documentElement, 'revision')).toBe(required);
    expect(attr(admx.documentElement, 'revision')).toBe(required);
    const strings = new Set(all(adml, 'stringTable string').map((node) => attr(node, 'id')));
    const source = read('windows', 'LendingDesk.admx');
    const referenced = [...source.matchAll(/\$\(string\.(\w+)\)/g)].map((match) => match[1] as string);
    expect(referenced.filter((id) => !strings.has(id))).toEqual([]);
    expect([...strings].filter((id) => !referenced.includes(id))).toEqual([]);
    for (const policy of policies.filter((p) => attr(p, 'presentation'))) {
      const id = attr(policy, 'presentation').replace(/^\$\(presentation\.(\w+)\)$/, '$1');
      const presentation = adml.querySelector(`presentation[id="${id}"]`);
      expect(presentation, `presentation ${id}`).not.toBeNull();
      const refs = all(presentation as Element, '[refId]').map((node) => attr(node, 'refId')).sort();
      expect(refs).toEqual(all(policy, 'elements > *').map((node) => attr(node, 'id')).sort());
    }
  });
});

describe('the sample .reg file', () => {
  /** The lines the sample uses: [key] sections, "name"="string", "name"=dword:hex and "name"=hex(7):… (a multi-string, UTF-16LE bytes). */
  function parseReg(text: string): Map<string, RegistryValue[]> {
    const keys = new Map<string, RegistryValue[]>();
    let key = '';
    for (const line of text.split(/\r\n/)) {
      const section = /^\[HKEY_LOCAL_MACHINE\\(.+)\]$/.exec(line);
      if (section) { key = section[1] as string; keys.set(key, []); continue; }
      const string = /^"([^"]+)"="((?:[^"\\]|\\.)*)"$/.exec(line);
      const dword = /^"([^"]+)"=dword:([0-9a-f]{8})$/.exec(line);
      const multi = /^"([^"]+)"=hex\(7\):((?:[0-9a-f]{2},?)+)$/.exec(line);
      if (multi) keys.get(key)?.push({ name: multi[1] as string, type: 7, data: Buffer.from((multi[2] as string).replaceAll(',', ''), 'hex') });
      else if (string) keys.get(key)?.push({ name: string[1] as string, type: 1, data: formatString((string[2] as string).replace(/\\(.)/g, '$1')) });
      else if (dword) keys.get(key)?.push({ name: dword[1] as string, type: 4, data: formatDWORD(parseInt(dword[2] as string, 16)) });
      else expect(line === '' || line.startsWith(';') || line === 'Windows Registry Editor Version 5.00', `unexpected line ${line}`).toBe(true);
    }
    return keys;
  }

  it('gives the documented policy', () => {
    expect(loadFromRegistry(parseReg(read('windows', 'lending-desk-policy.reg'))).policy).toEqual(EXPECTED);
  });

  it('carries every setting the schema defines (but version, which the registry may leave out)', () => {
    expect(missingFrom(readWindowsPolicy(registryOf(parseReg(read('windows', 'lending-desk-policy.reg')))))).toEqual(['version']);
  });
});

describe('the sample configuration profile', () => {
  /** An XML plist as JSON would carry it (what plutil -convert json prints). */
  function plistValue(node: Element): unknown {
    switch (node.tagName) {
      case 'dict': {
        const children = [...node.children];
        const entries: [string, unknown][] = [];
        for (let index = 0; index < children.length; index += 2) entries.push([children[index]?.textContent ?? '', plistValue(children[index + 1] as Element)]);
        return Object.fromEntries(entries);
      }
      case 'array': return [...node.children].map(plistValue);
      case 'string': return node.textContent;
      case 'integer': return Number.parseInt(node.textContent ?? '', 10);
      case 'true': return true;
      case 'false': return false;
      default: throw new Error(`no JSON form for <${node.tagName}>`);
    }
  }
  const profile = plistValue(xml(read('macos', 'lending-desk.mobileconfig')).querySelector('plist > dict') as Element) as Record<string, unknown>;
  const payloads = profile.PayloadContent as Record<string, unknown>[];

  it('installs computer-wide, for the app\'s bundle id', () => {
    expect(BUNDLE_ID).toBe(APP_ID);
    expect(profile).toMatchObject({ PayloadType: 'Configuration', PayloadScope: 'System', PayloadVersion: 1 });
    expect(payloads.map((payload) => payload.PayloadType)).toEqual([BUNDLE_ID]);
    const uuids = [profile.PayloadUUID, ...payloads.map((payload) => payload.PayloadUUID)];
    for (const uuid of uuids) expect(uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(new Set(uuids).size).toBe(uuids.length);
  });

  let root: string | undefined;
  afterEach(() => { if (root) rmSync(root, { recursive: true, force: true }); root = undefined; });

  it('gives the documented policy as the managed preferences it becomes, with every setting the schema defines', () => {
    root = mkdtempSync(join(tmpdir(), 'policy-mobileconfig-'));
    chmodSync(root, 0o755);
    const path = join(root, `${BUNDLE_ID}.plist`);
    copyFileSync(join(DIR, 'macos', 'lending-desk.mobileconfig'), path);
    chmodSync(path, 0o644);
    // plutil's part: the payload's keys, Payload bookkeeping included, as JSON.
    const toJson = () => ({ ok: true as const, json: Buffer.from(JSON.stringify(payloads[0])) });
    expect(loadMachinePolicy({ platform: 'darwin', macSigned: true, mac: { path, trustRoot: root, toJson } })).toEqual({ policy: withCaFile(CA_FILE.macos, SERVER_CA_FILE.macos), problems: {}, source: path });
    expect(missingFrom(readMacPolicy({ path, trustRoot: root, toJson }))).toEqual([]);
  });
});

describe('the example in docs/it-deployment.md', () => {
  it('is a policy the desk takes whole, with every setting the schema defines', () => {
    const text = readFileSync(join(REPO_ROOT, 'docs', 'it-deployment.md'), 'utf8');
    const example = /As JSON, with every field:\s*```json\n([\s\S]*?)\n```/.exec(text)?.[1];
    expect(example).toBeDefined();
    const raw = JSON.parse(example!) as unknown;
    const found: SourceRead = { kind: 'found', source: 'docs/it-deployment.md', raw };
    expect(checkedPolicy(found, { platform: 'darwin', windowsPublisherVerified: false, macSigned: true }).problems).toEqual({});
    expect(missingFrom(found)).toEqual([]);
  });
});

describe('the sample Linux file', () => {
  let root: string | undefined;
  afterEach(() => { if (root) rmSync(root, { recursive: true, force: true }); root = undefined; });

  it('gives the documented policy with every setting the schema defines, updates left to IT (Linux refuses auto, so no update server)', () => {
    root = mkdtempSync(join(tmpdir(), 'policy-sample-'));
    chmodSync(root, 0o755);
    const path = join(root, 'policy.json');
    copyFileSync(join(DIR, 'linux', 'policy.json'), path);
    chmodSync(path, 0o644);
    expect(loadMachinePolicy({ platform: 'linux', linux: { path, trustRoot: root } })).toEqual({ policy: { ...withCaFile(CA_FILE.linux, SERVER_CA_FILE.linux), updates: { mode: 'it-managed' } }, problems: {}, source: path });
    expect(missingFrom(readLinuxPolicy({ path, trustRoot: root }))).toEqual(['updates.url']);
  });
});
