// The Windows policy read through reg.exe when native-reg cannot load. This machine has no
// Windows: reg.exe's output is written here byte for byte as reg.exe prints it (CRLF lines, a
// blank line first, `    name    TYPE    data`, DWORDs as 0x…, binary as upper-case hex,
// multi-string items between literal \0, a key's own line only when it holds values; Wine's
// reg.exe, which copies Windows', prints the same), and the values it reads back must be the
// very bytes native-reg's own encoders make, so both readers feed the policy the same input.
import { formatDWORD, formatMultiString, formatString } from 'native-reg';
import { describe, expect, it } from 'vitest';
import { loadMachinePolicy } from '../../../../electron/main/policy/index.ts';
import type { ProcessResult } from '../../../../electron/main/policy/macos-source.ts';
import { parseRegQuery, regExePath, regExeRegistry } from '../../../../electron/main/policy/reg-exe.ts';
import { windowsRegistry, type RegistryReaderName } from '../../../../electron/main/policy/windows-registry.ts';
import type { RegistryReader } from '../../../../electron/main/policy/windows-source.ts';

const KEY = 'SOFTWARE\\Policies\\Lending Desk';
const SOURCE = 'HKLM\\SOFTWARE\\Policies\\Lending Desk';
const REG = 'C:\\Windows\\System32\\reg.exe';
/** Where Windows says its system folder is (reg-exe.ts finds it from the modules Windows loaded). */
const SYSTEM = (): string => 'C:\\Windows\\System32';

/** Lines as reg.exe writes them: CRLF, after the blank line it starts with. */
const printed = (...lines: string[]): Buffer => Buffer.from(['', ...lines, ''].join('\r\n'), 'latin1');

/** `reg query HKLM\SOFTWARE\Policies`: its subkeys, one line each (Policies itself holds no value). */
const POLICIES = printed(
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Google',
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk',
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Microsoft',
);
const PROFILES_JSON = '[{"id":"ville","name":"Biblioth\\u00e8que de la Ville","baseUrl":"https://partner.example.org","libraries":[{"libraryId":4512,"name":"Succursale C\\u00f4te-des-Neiges"}],"country":"CA"}]';
const PROFILES = [{ id: 'ville', name: 'Bibliothèque de la Ville', baseUrl: 'https://partner.example.org', libraries: [{ libraryId: 4512, name: 'Succursale Côte-des-Neiges' }], country: 'CA', kind: 'partner', wsApi: '2.1' }];
/** `reg query "HKLM\SOFTWARE\Policies\Lending Desk" /s`. */
const FULL = printed(
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk',
  '    idleLockMinutes    REG_DWORD    0x3',
  '    sandboxOffered    REG_DWORD    0x0',
  `    profiles    REG_SZ    ${PROFILES_JSON}`,
  '',
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk\\updates',
  '    mode    REG_SZ    auto',
  '    url    REG_SZ    https://updates.example.org/desk/',
  '',
);

interface Call { file: string; args: string[] }
const ok = (stdout: Buffer): ProcessResult => ({ status: 0, stdout, stderr: Buffer.alloc(0) });
const failed = (status: number): ProcessResult => ({ status, stdout: Buffer.alloc(0), stderr: Buffer.from('ERROR: Access is denied.\r\n') });

/** reg.exe as recorded: the listing of Policies, then the key with /s. */
function regExe(key: Buffer | ProcessResult, policies: Buffer = POLICIES): { run: (file: string, args: string[]) => ProcessResult; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    run: (file, args) => {
      calls.push({ file, args });
      if (args[1] === 'HKLM\\SOFTWARE\\Policies') return ok(policies);
      return Buffer.isBuffer(key) ? ok(key) : key;
    },
  };
}

const cannotLoad = (): RegistryReader => { throw new Error('The specified module could not be found. \\\\?\\C:\\Program Files\\Lending Desk\\resources\\app.asar.unpacked\\node_modules\\native-reg\\prebuilds\\win32-x64\\node.napi.node'); };

function loadThroughRegExe(run: (file: string, args: string[]) => ProcessResult) {
  const chosen: Array<[RegistryReaderName, string | undefined]> = [];
  const registry = windowsRegistry({ native: cannotLoad, fallback: () => regExeRegistry(KEY, { run, systemDirectory: SYSTEM }), onChosen: (reader, why) => chosen.push([reader, why]) });
  return { machine: loadMachinePolicy({ platform: 'win32', registry, windowsPublisherVerified: true }), chosen };
}

describe('reg.exe when native-reg cannot load', () => {
  it('reads the same policy native-reg would, by its absolute path in the 64-bit view', () => {
    const { run, calls } = regExe(FULL);
    const { machine, chosen } = loadThroughRegExe(run);
    expect(machine).toEqual({
      source: SOURCE, problems: {},
      policy: { version: 1, idleLockMinutes: 3, sandboxOffered: false, profiles: PROFILES, updates: { mode: 'auto', url: 'https://updates.example.org/desk/' } },
    });
    expect(chosen).toEqual([['reg.exe', expect.stringContaining('native-reg')]]);
    expect(calls).toEqual([
      { file: REG, args: ['query', 'HKLM\\SOFTWARE\\Policies', '/reg:64'] },
      { file: REG, args: ['query', `HKLM\\${KEY}`, '/s', '/reg:64'] },
    ]);
  });

  it('uses native-reg whenever it loads, and reg.exe never', () => {
    const native: RegistryReader = { readKey: () => null };
    const chosen: RegistryReaderName[] = [];
    const registry = windowsRegistry({ native: () => native, fallback: () => { throw new Error('reg.exe must not be used'); }, onChosen: (reader) => chosen.push(reader) });
    expect(loadMachinePolicy({ platform: 'win32', registry })).toEqual({ problems: {} });
    expect(chosen).toEqual(['native-reg']);
  });

  it('finds no key in the listing of Policies: an unmanaged desk, and nothing more is run', () => {
    const { run, calls } = regExe(FULL, printed('HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Microsoft'));
    expect(loadThroughRegExe(run).machine).toEqual({ problems: {} });
    expect(calls).toHaveLength(1);
  });

  it('finds the key whatever case it was written in (registry names ignore case)', () => {
    const { run } = regExe(printed('HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\lending desk', '    idleLockMinutes    REG_DWORD    0xa', ''), printed('HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\lending desk'));
    expect(loadThroughRegExe(run).machine.policy).toEqual({ version: 1, idleLockMinutes: 10 });
  });

  it('reads a key with no values of its own (reg.exe then prints only its subkeys); a subkey this version does not know, empty or not, is set aside as an unknown setting (#21)', () => {
    const { run } = regExe(printed(
      'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk\\updates',
      '    mode    REG_SZ    it-managed',
      '',
      'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk\\extras',
      '',
    ));
    expect(loadThroughRegExe(run).machine).toEqual({ source: SOURCE, problems: { unknownSettings: ['extras'] }, policy: { version: 1, updates: { mode: 'it-managed' } } });
  });

  it('takes the profile list from a REG_MULTI_SZ, its items joined by line breaks (what the ADMX multi-line box writes)', () => {
    const lines = JSON.stringify(JSON.parse(PROFILES_JSON), null, 2).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).split('\n');
    const { run } = regExe(printed('HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk', `    profiles    REG_MULTI_SZ    ${lines.join('\\0')}`, ''));
    expect(loadThroughRegExe(run).machine.policy?.profiles).toEqual(PROFILES);
  });

  it('refuses the value types the policy refuses, naming the type as native-reg\'s reading does', () => {
    for (const [line, type] of [
      ['    idleLockMinutes    REG_BINARY    03000000', 'REG_BINARY'],
      ['    idleLockMinutes    REG_QWORD    0x3', 'REG_QWORD'],
      ['    idleLockMinutes    REG_EXPAND_SZ    %LOCK%', 'REG_EXPAND_SZ'],
    ] as const) {
      const { run } = regExe(printed('HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk', line, ''));
      expect(loadThroughRegExe(run).machine.problems.ignored).toEqual({ reason: 'policy.registry-type', params: { source: SOURCE, setting: 'idleLockMinutes', type } });
    }
  });
});

describe('where reg.exe cannot read either: the desk fails closed', () => {
  it('a key it may not read', () => {
    const { run } = regExe(failed(1));
    expect(loadThroughRegExe(run).machine.problems.ignored).toEqual({ reason: 'policy.unreadable', params: { source: SOURCE, code: `reg.exe could not read HKLM\\${KEY} (exit code 1)` } });
  });

  it('reg.exe blocked or missing (AppLocker, "Prevent access to registry editing tools")', () => {
    const run = (): ProcessResult => ({ status: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), error: Object.assign(new Error('spawnSync C:\\Windows\\System32\\reg.exe EACCES'), { code: 'EACCES' }) });
    expect(loadThroughRegExe(run).machine.problems.ignored).toEqual({ reason: 'policy.unreadable', params: { source: SOURCE, code: 'reg.exe could not run (EACCES)' } });
  });

  it('a character outside ASCII, which reg.exe writes in a code page the app cannot know', () => {
    // "Bibliothèque" as reg.exe writes it on a French-Canadian desk (OEM code page 863: è is 0x8A).
    const oem = Buffer.concat([printed('HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk').subarray(0, -2), Buffer.from('\r\n    profiles    REG_SZ    [{"name":"Biblioth', 'latin1'), Buffer.from([0x8a]), Buffer.from('que"}]\r\n\r\n', 'latin1')]);
    const { run } = regExe(oem);
    const ignored = loadThroughRegExe(run).machine.problems.ignored;
    expect(ignored).toMatchObject({ reason: 'policy.unreadable', params: { source: SOURCE } });
    expect(ignored?.params.code).toMatch(/outside ASCII.*\\u escape/);
  });

  it('a line that is neither a key nor a value', () => {
    const { run } = regExe(printed('HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk', '    idleLockMinutes    0x00000100    0x3', ''));
    expect(loadThroughRegExe(run).machine.problems.ignored).toMatchObject({ reason: 'policy.unreadable' });
  });

  it('a system folder that is not an absolute path: reg.exe is not looked for elsewhere', () => {
    expect(regExePath('C:\\Windows\\System32')).toBe(REG);
    expect(() => regExePath('Windows\\System32')).toThrow(/not an absolute path/);
    const { run, calls } = regExe(FULL);
    const registry = windowsRegistry({ native: cannotLoad, fallback: () => regExeRegistry(KEY, { run, systemDirectory: () => '.\\fake' }) });
    expect(loadMachinePolicy({ platform: 'win32', registry }).problems.ignored).toMatchObject({ reason: 'policy.unreadable' });
    expect(calls).toEqual([]);
  });
});

describe('parseRegQuery', () => {
  it('gives back the bytes native-reg\'s encoders make for the same values', () => {
    const keys = parseRegQuery(printed(
      'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk',
      '    count    REG_DWORD    0xffffffff',
      '    name    REG_SZ    Main branch, desk 2 ',
      '    empty    REG_SZ    ',
      '    lines    REG_MULTI_SZ    one\\0two\\0\\0four',
      '    none    REG_MULTI_SZ    ',
      '',
    ), KEY);
    const values = Object.fromEntries(keys.get(KEY.toLowerCase())!.values.map((v) => [v.name, v]));
    expect(values.count).toEqual({ name: 'count', type: 4, data: Buffer.from(formatDWORD(0xffffffff)) });
    expect(values.name).toEqual({ name: 'name', type: 1, data: Buffer.from(formatString('Main branch, desk 2 ')) });
    expect(values.empty).toEqual({ name: 'empty', type: 1, data: Buffer.from(formatString('')) });
    expect(values.lines).toEqual({ name: 'lines', type: 7, data: Buffer.from(formatMultiString(['one', 'two', '', 'four'])) });
    expect(values.none?.data).toEqual(Buffer.from([0, 0]));
  });

  it('reads a string over a line break as one value with \\n in it', () => {
    const keys = parseRegQuery(printed('HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Lending Desk', '    profiles    REG_SZ    [', '  {"id": "ville"}', ']', ''), KEY);
    expect(keys.get(KEY.toLowerCase())!.values[0]!.data).toEqual(Buffer.from(formatString('[\n  {"id": "ville"}\n]')));
  });

  it('lists subkeys under their parent, in the case they were written', () => {
    const keys = parseRegQuery(FULL, KEY);
    expect(keys.get(KEY.toLowerCase())?.subkeys).toEqual(['updates']);
    expect(keys.get(`${KEY}\\updates`.toLowerCase())?.values.map((v) => v.name)).toEqual(['mode', 'url']);
  });
});
