// The Windows policy key through reg.exe, when native-reg cannot load (its binary missing or
// blocked): `reg query` on the 64-bit view (/reg:64), the one Group Policy writes. Only when
// neither can read does the desk fail closed (windows-registry.ts).
//
// reg.exe prints values as text, and turns them back into the bytes RegQueryValueEx gives
// native-reg, so the policy is read by the same rules either way. What its text carries exactly:
// DWORDs and QWORDs (hex), binary data (hex), the value and key names Lending Desk uses, and
// ASCII strings. What it cannot, so the fallback refuses the policy rather than guess:
//   - characters outside ASCII. reg.exe writes the console's code page (an OEM one such as 850
//     or 863 on a French desk), which the app cannot know; a profile's JSON can carry them as
//     \u escapes ("Biblioth\u00e8que"), which are ASCII and read exactly.
//   - a multi-string item holding the two characters \0, which reg.exe also prints between items.
//   - a string holding a blank line (a line break reads back as \n; a blank line ends the value).
// It is run by its absolute path in the system folder as Windows itself reports it: the folder
// the process's ntdll.dll was loaded from (Windows always loads it from there, by its own list of
// known DLLs). Never %SystemRoot%: that is an environment variable, which a desk user can set for
// the programs they start, with a reg.exe of their own at the path it names (issue #33). Nor PATH.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { ProcessResult } from './macos-source.ts';
import { REG_DWORD, REG_MULTI_SZ, REG_SZ, type RegistryReader, type RegistryValue } from './windows-source.ts';

export type RunRegExe = (file: string, args: string[]) => ProcessResult;

const runRegExe: RunRegExe = (file, args) => {
  const result = spawnSync(file, args, { timeout: 10_000, maxBuffer: 4 * 1024 * 1024, windowsHide: true });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, error: result.error };
};

/** What Node's diagnostic report says of the process: the libraries loaded, by the paths Windows gives. */
interface ProcessReport { sharedObjects?: unknown }

/**
 * Windows' system folder (C:\Windows\System32 on most machines), from where this process's
 * ntdll.dll was loaded, as Windows lists the modules it loaded. Throws when none is listed.
 */
export function windowsSystemDirectory(report: () => ProcessReport = () => process.report.getReport() as ProcessReport): string {
  const loaded = report().sharedObjects;
  const ntdll = Array.isArray(loaded) ? loaded.find((file): file is string => typeof file === 'string' && path.win32.basename(file).toLowerCase() === 'ntdll.dll') : undefined;
  if (ntdll === undefined || !/^[A-Za-z]:\\/.test(ntdll)) throw new RegExeError('Windows did not say where its system folder is (no ntdll.dll among the loaded modules)');
  return path.win32.dirname(ntdll);
}

/** reg.exe in the system folder, by its absolute path. */
export function regExePath(systemDirectory: string): string {
  if (!/^[A-Za-z]:\\/.test(systemDirectory)) throw new RegExeError(`the system folder is not an absolute path (${systemDirectory})`);
  return path.win32.join(systemDirectory, 'reg.exe');
}

/** reg.exe could not give the key exactly; `code` names why (it ends up in "policy unreadable"). */
export class RegExeError extends Error {
  readonly code: string;
  constructor(code: string) {
    super(code);
    this.code = code;
  }
}

const TYPES: Record<string, number> = {
  REG_NONE: 0, REG_SZ: 1, REG_EXPAND_SZ: 2, REG_BINARY: 3, REG_DWORD: 4, REG_DWORD_BIG_ENDIAN: 5, REG_LINK: 6, REG_MULTI_SZ: 7,
  REG_RESOURCE_LIST: 8, REG_FULL_RESOURCE_DESCRIPTOR: 9, REG_RESOURCE_REQUIREMENTS_LIST: 10, REG_QWORD: 11,
};
const HKLM = 'HKEY_LOCAL_MACHINE\\';
/** `    name    REG_TYPE    data`: the first type word found is the type (names Lending Desk reads hold none). */
const VALUE_LINE = /^ {4}(.*?) {4}(REG_[A-Z_]+)(?: {4}(.*))?$/;

export interface RegKey { values: RegistryValue[]; subkeys: string[] }

const utf16 = (text: string): Buffer => Buffer.from(text, 'utf16le');

/** A value's text as reg.exe printed it, back to the bytes the registry holds (as native-reg reads them). */
function valueBytes(type: number, text: string, where: string): Buffer {
  switch (type) {
    case REG_DWORD:
    case 11: {
      if (!/^0x[0-9a-fA-F]+$/.test(text)) throw new RegExeError(`reg.exe printed ${where} as ${JSON.stringify(text.slice(0, 40))}`);
      const bytes = Buffer.alloc(type === REG_DWORD ? 4 : 8);
      if (type === REG_DWORD) bytes.writeUInt32LE(Number.parseInt(text, 16));
      else bytes.writeBigUInt64LE(BigInt(text));
      return bytes;
    }
    case REG_SZ:
    case 2:
      return utf16(`${text}\0`);
    case REG_MULTI_SZ:
      // Items between literal \0 pairs; none at all for an empty multi-string.
      return utf16(`${text === '' ? '' : text.split('\\0').map((item) => `${item}\0`).join('')}\0`);
    default:
      // REG_BINARY and the rest: hex bytes (refused by the policy reader whatever they hold).
      if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) throw new RegExeError(`reg.exe printed ${where} as ${JSON.stringify(text.slice(0, 40))}`);
      return Buffer.from(text, 'hex');
  }
}

/**
 * `reg query <key> /s` output, by key path under HKLM in lower case (the registry's names ignore
 * case, as native-reg's lookups do); subkeys keep the case they were written in. reg.exe prints
 * the queried key's own line only when it holds values, so `root` is there from the start.
 */
export function parseRegQuery(output: Buffer, root: string): Map<string, RegKey> {
  const nonAscii = output.findIndex((byte) => byte > 0x7f);
  if (nonAscii >= 0) {
    const line = output.subarray(0, nonAscii).toString('latin1').split(/\r?\n/).at(-1) ?? '';
    throw new RegExeError(`reg.exe printed a character outside ASCII, which it cannot show exactly (near ${JSON.stringify(line.trim().slice(0, 60))}); write it as a \\u escape in the JSON, or make native-reg loadable`);
  }
  const keys = new Map<string, RegKey>();
  const keyAt = (keyPath: string): RegKey => {
    let key = keys.get(keyPath.toLowerCase());
    if (!key) {
      key = { values: [], subkeys: [] };
      keys.set(keyPath.toLowerCase(), key);
      const cut = keyPath.lastIndexOf('\\');
      if (cut > 0) {
        const parent = keys.get(keyPath.slice(0, cut).toLowerCase());
        if (parent && !parent.subkeys.includes(keyPath.slice(cut + 1))) parent.subkeys.push(keyPath.slice(cut + 1));
      }
    }
    return key;
  };
  let current: RegKey | undefined = keyAt(root);
  let currentPath = root;
  /** The string value being read, while its text may still go on over the next lines. */
  let open: { value: RegistryValue; lines: string[] } | undefined;
  const close = (): void => {
    if (open) open.value.data = utf16(`${open.lines.join('\n')}\0`);
    open = undefined;
  };
  for (const line of output.toString('latin1').split(/\r?\n/)) {
    if (line === '') {
      close();
      continue;
    }
    if (line.startsWith(HKLM)) {
      close();
      currentPath = line.slice(HKLM.length);
      current = keyAt(currentPath);
      continue;
    }
    const match = VALUE_LINE.exec(line);
    if (match && current) {
      close();
      const [, name = '', typeName = '', text = ''] = match;
      const type = TYPES[typeName];
      if (type === undefined) throw new RegExeError(`reg.exe printed ${currentPath}\\${name} with a type it does not name: ${typeName}`);
      const value: RegistryValue = { name, type, data: valueBytes(type, text, `${currentPath}\\${name}`) };
      current.values.push(value);
      if (type === REG_SZ || type === 2) open = { value, lines: [text] };
      continue;
    }
    if (open) {
      open.lines.push(line); // a string value's text, over a line break
      continue;
    }
    throw new RegExeError(`reg.exe printed a line that is neither a key nor a value: ${JSON.stringify(line.slice(0, 60))}`);
  }
  close();
  return keys;
}

/**
 * A RegistryReader over reg.exe for one key and what is under it (`root`, e.g. the policy key):
 * whether it exists is read from its parent's listing (readable by every user, and free of
 * reg.exe's localised messages), then the key whole with /s, once.
 */
export function regExeRegistry(root: string, options: { run?: RunRegExe; systemDirectory?: () => string } = {}): RegistryReader {
  const { run = runRegExe, systemDirectory = () => windowsSystemDirectory() } = options;
  let tree: Map<string, RegKey> | null | undefined;
  const query = (keyPath: string, recursive: boolean): Buffer => {
    const result = run(regExePath(systemDirectory()), ['query', `HKLM\\${keyPath}`, ...(recursive ? ['/s'] : []), '/reg:64']);
    if (result.error) throw new RegExeError(`reg.exe could not run (${(result.error as NodeJS.ErrnoException).code ?? result.error.message})`);
    if (result.status !== 0) throw new RegExeError(`reg.exe could not read HKLM\\${keyPath} (exit code ${String(result.status)})`);
    return result.stdout;
  };
  const load = (): Map<string, RegKey> | null => {
    // Only our key's line is looked for: other vendors' keys beside it may hold any character.
    const listing = query(root.slice(0, root.lastIndexOf('\\')), false).toString('latin1').toLowerCase().split(/\r?\n/);
    if (!listing.includes(`${HKLM}${root}`.toLowerCase())) return null;
    return parseRegQuery(query(root, true), root);
  };
  return {
    readKey(keyPath) {
      if (keyPath !== root && !keyPath.startsWith(`${root}\\`)) throw new RegExeError(`reg.exe reads only HKLM\\${root} here`);
      if (tree === undefined) tree = load();
      if (tree === null) return null;
      const key = tree.get(keyPath.toLowerCase());
      return key ? { values: key.values, subkeys: [...key.subkeys] } : null;
    },
  };
}
