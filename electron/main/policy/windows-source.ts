// Windows: HKEY_LOCAL_MACHINE\SOFTWARE\Policies\Lending Desk, which only administrators (and
// Group Policy, Intune and other management running as SYSTEM) can write. The key maps onto the
// policy's fields one for one (resources/policy/windows/LendingDesk.admx writes it):
//
//   Lending Desk            idleLockMinutes  REG_DWORD     1–240
//                           sandboxOffered   REG_DWORD     0 or 1
//                           version          REG_DWORD     1 (optional)
//                           profiles         REG_SZ or REG_MULTI_SZ: a JSON list of profiles (the
//                                            lines of a multi-string are joined with line breaks)
//                           staffPins        REG_SZ or REG_MULTI_SZ: a JSON list of { name, pinHash }
//                           actionLogRetentionDays  REG_DWORD  0–365
//                           actionLogTitles  REG_DWORD     0 or 1
//                           profileEditing   REG_DWORD     0 or 1
//                           entitlementFullPassDays  REG_DWORD  1–90
//                           libraries        REG_SZ or REG_MULTI_SZ: a JSON list of { libraryId, name, cards, items }
//                           recentPatrons    REG_DWORD     0–10
//                           deskPinRole      REG_SZ        desk or manager
//                           deskPinNames     REG_MULTI_SZ  one name a line (a REG_SZ: one name)
//                           catalogRefreshDays  REG_DWORD  1–30
//   Lending Desk\updates    mode             REG_SZ        auto, it-managed or off
//                           url              REG_SZ        https://…
//   Lending Desk\libraryMirror  host, database, user, caFile, passwordEntry  REG_SZ
//   Lending Desk\libraryServer  url, fallbackUrl, caFile  REG_SZ
//                           port             REG_DWORD     1–65535
//
// Inside a subkey an empty REG_SZ is a field not set: the ADMX's optional text boxes (caFile,
// updates.url) left blank, whether the policy editor then writes an empty string or nothing.
//
// The registry has no true/false and no list of objects, so sandboxOffered is a DWORD and
// profiles is JSON, as Chrome writes its dictionary policies. A value or subkey this version does
// not know is read by name only (whatever its type: a newer ADMX may write types this one does not
// take) and set aside as an unknown setting. For known settings any other value type
// (REG_EXPAND_SZ could pull in a user's environment variables; REG_BINARY, REG_QWORD…) is
// refused, and the desk fails closed.
import { MAX_POLICY_BYTES, WINDOWS_POLICY_KEY, windowsSourceName } from './location.ts';
import { policyProblem, type PolicyProblem } from './problem.ts';
import { POLICY_SETTING_NAMES } from './schema.ts';
import { refused, type SourceRead } from './source.ts';

/** One value as the registry holds it: its REG_* type number (winnt.h) and its raw bytes. */
export interface RegistryValue { name: string; type: number; data: Buffer }

export interface RegistryReader {
  /** A key under HKLM (64-bit view): its values and subkey names, or null when it does not exist. */
  readKey(path: string): { values: RegistryValue[]; subkeys: string[] } | null;
}

export const REG_SZ = 1;
export const REG_DWORD = 4;
export const REG_MULTI_SZ = 7;
const TYPE_NAMES: Record<number, string> = {
  0: 'REG_NONE', 1: 'REG_SZ', 2: 'REG_EXPAND_SZ', 3: 'REG_BINARY', 4: 'REG_DWORD', 5: 'REG_DWORD_BIG_ENDIAN', 6: 'REG_LINK', 7: 'REG_MULTI_SZ', 11: 'REG_QWORD',
};

/** Top-level fields the registry cannot hold in their own type. */
const WRITTEN_AS_DWORD_BOOLEAN = new Set(['sandboxOffered', 'actionLogTitles', 'profileEditing']);
const WRITTEN_AS_JSON = new Set(['profiles', 'staffPins', 'libraries']);
/** Lists of names: a multi-string, one a line; a plain string is a list of one. */
const WRITTEN_AS_LINES = new Set(['deskPinNames']);
/** The policy nests one level (updates, libraryMirror); deeper subkeys are read as empty, and refused as unknown. */
const MAX_DEPTH = 2;

class Refusal extends Error {
  readonly problem: PolicyProblem;
  constructor(problem: PolicyProblem) {
    super(problem.reason);
    this.problem = problem;
  }
}

export function readWindowsPolicy(registry: RegistryReader): SourceRead {
  const source = windowsSourceName();
  const budget = { bytes: MAX_POLICY_BYTES };
  try {
    const top = readKey(registry, WINDOWS_POLICY_KEY);
    if (top === null) return { kind: 'absent' };
    return { kind: 'found', source, raw: treeToObject(registry, top, { keyPath: WINDOWS_POLICY_KEY, prefix: '', depth: 0 }, budget) };
  } catch (error) {
    if (error instanceof Refusal) return refused(source, error.problem);
    throw error;
  }
}

type KeyContents = NonNullable<ReturnType<RegistryReader['readKey']>>;

function readKey(registry: RegistryReader, path: string): KeyContents | null {
  try {
    return registry.readKey(path);
  } catch (error) {
    // Access denied or a broken hive: the policy is there but unusable.
    const code = (error as { code?: unknown }).code;
    throw new Refusal(policyProblem('policy.unreadable', { source: `HKLM\\${path}`, code: typeof code === 'string' ? code : error instanceof Error ? error.message : String(error) }));
  }
}

/** Where a key is: its path under HKLM, its field name in the policy (`updates`), its depth. */
interface KeyPlace { keyPath: string; prefix: string; depth: number }

function treeToObject(registry: RegistryReader, key: KeyContents, place: KeyPlace, budget: { bytes: number }): Record<string, unknown> {
  const { keyPath, prefix, depth } = place;
  const result: Record<string, unknown> = {};
  for (const value of key.values) {
    budget.bytes -= value.data.length;
    if (budget.bytes < 0) throw new Refusal(policyProblem('policy.too-large', { source: windowsSourceName(), limit: MAX_POLICY_BYTES / 1024 }));
    const name = value.name === '' ? '(Default)' : value.name;
    if (depth > 0 && value.type === REG_SZ && utf16(value.data) === '') continue;
    // Named only: load.ts sets it aside (or refuses it, if it looks like a credential).
    if (depth === 0 && !POLICY_SETTING_NAMES.includes(name)) result[name] = null;
    else result[name] = valueToField(value, depth === 0 ? name : undefined, `HKLM\\${keyPath}`, prefix ? `${prefix}.${name}` : name);
  }
  for (const subkey of key.subkeys) {
    const field = prefix ? `${prefix}.${subkey}` : subkey;
    if (Object.hasOwn(result, subkey)) {
      throw new Refusal(policyProblem('policy.invalid-value', { source: windowsSourceName(), setting: field, rule: 'It is both a value and a subkey; keep one.' }));
    }
    const subkeyPath = `${keyPath}\\${subkey}`;
    if (depth === 0 && !POLICY_SETTING_NAMES.includes(subkey)) {
      result[subkey] = null;
      continue;
    }
    const contents = depth + 1 < MAX_DEPTH ? readKey(registry, subkeyPath) : null;
    // Group Policy deletes a disabled policy's values but may leave its key: an empty key says nothing.
    if (contents !== null && contents.values.length === 0 && contents.subkeys.length === 0) continue;
    result[subkey] = contents === null ? {} : treeToObject(registry, contents, { keyPath: subkeyPath, prefix: field, depth: depth + 1 }, budget);
  }
  return result;
}

function valueToField(value: RegistryValue, topLevelName: string | undefined, keySource: string, field: string): unknown {
  switch (value.type) {
    case REG_DWORD: {
      if (value.data.length !== 4) break;
      const number = value.data.readUInt32LE(0);
      // Any other number is kept, for the schema to refuse with its own words.
      if (topLevelName !== undefined && WRITTEN_AS_DWORD_BOOLEAN.has(topLevelName) && (number === 0 || number === 1)) return number === 1;
      return number;
    }
    case REG_SZ: {
      const text = utf16(value.data);
      if (topLevelName !== undefined && WRITTEN_AS_LINES.has(topLevelName)) return [text];
      return topLevelName !== undefined && WRITTEN_AS_JSON.has(topLevelName) ? json(text, keySource, field) : text;
    }
    case REG_MULTI_SZ: {
      const lines = utf16(value.data).split('\0');
      // A multi-string ends with an empty string (its double terminator).
      while (lines.length > 0 && lines.at(-1) === '') lines.pop();
      return topLevelName !== undefined && WRITTEN_AS_JSON.has(topLevelName) ? json(lines.join('\n'), keySource, field) : lines;
    }
  }
  throw new Refusal(policyProblem('policy.registry-type', { source: keySource, setting: field, type: TYPE_NAMES[value.type] ?? `type ${value.type}` }));
}

/** Registry strings are UTF-16LE, normally with a terminating NUL. */
function utf16(data: Buffer): string {
  const text = data.toString('utf16le');
  return text.endsWith('\0') ? text.slice(0, -1) : text;
}

function json(text: string, keySource: string, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Refusal(policyProblem('policy.not-json', { source: `${keySource}\\${field}`, detail: error instanceof Error ? error.message : String(error) }));
  }
}
