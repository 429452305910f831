// Reads the machine policy once at start from the one place this OS keeps it. No source is the
// normal case: an unmanaged desk on its own settings. A source that is there but refused (wrong
// owner, writable by users, unreadable, malformed, too large, a known setting with a value it may
// not have, a credential) is never half used: the desk fails closed — nobody signs in, connections
// cannot change (apply.ts) — and says "policy ignored: <why>" on the lock screen and in the log.
// A top-level setting this version does not know is not a refusal (Chrome's rule: a newer
// template must not lock out an older desk): it is set aside and listed in Settings and the log.
import { caFileRule } from './library-mirror-policy.ts';
import { unprotectedFileProblem, type ProtectedPlaces } from './protected-path.ts';
import { serverCaFileRule } from './library-server-policy.ts';
import { readLinuxPolicy, type LinuxSourceOptions } from './linux-source.ts';
import { readMacPolicy, type MacSourceOptions } from './macos-source.ts';
import type { PolicyProblems } from './problem.ts';
import { looksLikeCredential, POLICY_SETTING_NAMES, policyIssue, policySchema, type Policy } from './schema.ts';
import { policyProblem } from './problem.ts';
import type { SourceRead } from './source.ts';
import { autoUpdatesRefusal } from './updates-eligibility.ts';
import { windowsRegistry } from './windows-registry.ts';
import { readWindowsPolicy, type RegistryReader } from './windows-source.ts';

export interface MachinePolicy {
  /** The policy in force, when a source was found and accepted. */
  policy?: Policy;
  problems: PolicyProblems;
  /** The file or registry key it came from, when there is one. */
  source?: string;
  /** Windows: reg.exe read the registry, because native-reg could not load (and why). */
  readByRegExe?: { because: string };
}

export interface LoadMachinePolicyOptions {
  platform?: NodeJS.Platform;
  /** Windows: app-update.yml names a verified publisher (electron/main/app/updates.ts finds out). */
  windowsPublisherVerified?: boolean;
  /** Windows: installed for all users (MSI or per-machine): never updates itself (electron/main/app/install-kind.ts). */
  installedForAllUsers?: boolean;
  /** macOS: signed with a Developer ID (electron/main/app/build-info.ts). */
  macSigned?: boolean;
  /** Windows: the registry (native-reg's, or reg.exe's when native-reg cannot load, unless a test passes a stand-in). */
  registry?: RegistryReader;
  /** The app's own node_modules (electron/main/app/app-files.ts), where native-reg's binary is loaded from by absolute path. */
  nativeModules?: string;
  mac?: MacSourceOptions;
  linux?: LinuxSourceOptions;
  /** Where only administrators can write, for files the policy names (the library mirror's CA): protected-path.ts. */
  protectedPlaces?: ProtectedPlaces;
}

export function loadMachinePolicy(options: LoadMachinePolicyOptions = {}): MachinePolicy {
  const { platform = process.platform, windowsPublisherVerified = false, installedForAllUsers = false, macSigned = false } = options;
  let readByRegExe: MachinePolicy['readByRegExe'];
  const registry = options.registry ?? windowsRegistry({
    ...(options.nativeModules === undefined ? {} : { modules: options.nativeModules }),
    onChosen: (reader, why) => { if (reader === 'reg.exe') readByRegExe = { because: why ?? '' }; },
  });
  const checked = checkedPolicy(readSource(platform, { ...options, registry }), { platform, windowsPublisherVerified, installedForAllUsers, macSigned }, options.protectedPlaces);
  return readByRegExe ? { ...checked, readByRegExe } : checked;
}

function readSource(platform: NodeJS.Platform, options: LoadMachinePolicyOptions & { registry: RegistryReader }): SourceRead {
  if (platform === 'win32') return readWindowsPolicy(options.registry);
  if (platform === 'darwin') return readMacPolicy(options.mac);
  return readLinuxPolicy(options.linux);
}

export function checkedPolicy(read: SourceRead, build: Parameters<typeof autoUpdatesRefusal>[1], places: ProtectedPlaces = {}): MachinePolicy {
  if (read.kind === 'absent') return { problems: {} };
  if (read.kind === 'refused') return { problems: { ignored: read.problem }, source: read.source };
  const { known, unknown } = splitSettings(read.raw);
  const credential = unknown.find((name) => looksLikeCredential(name));
  if (credential !== undefined) {
    const reason = looksLikeCredential(credential) === 'pin' ? 'policy.plain-pin' : 'policy.credential-field';
    return { problems: { ignored: policyProblem(reason, { source: read.source, setting: credential }) }, source: read.source };
  }
  const parsed = policySchema.safeParse(known);
  if (!parsed.success) return { problems: { ignored: policyIssue(parsed.error, read.source) }, source: read.source };
  const caRule = caFileRule(parsed.data.libraryMirror, build.platform);
  if (caRule) return { problems: { ignored: policyProblem('policy.invalid-value', { source: read.source, setting: 'libraryMirror.caFile', rule: caRule }) }, source: read.source };
  const caFile = parsed.data.libraryMirror?.caFile;
  const unprotected = caFile === undefined ? undefined : unprotectedFileProblem(caFile, build.platform, places, { source: read.source, setting: 'libraryMirror.caFile' });
  if (unprotected) return { problems: { ignored: unprotected }, source: read.source };
  const serverCaRule = serverCaFileRule(parsed.data.libraryServer, build.platform);
  if (serverCaRule) return { problems: { ignored: policyProblem('policy.invalid-value', { source: read.source, setting: 'libraryServer.caFile', rule: serverCaRule }) }, source: read.source };
  const updatesRefused = autoUpdatesRefusal(parsed.data, build);
  const problems = { ...(updatesRefused ? { updatesRefused } : {}), ...(unknown.length > 0 ? { unknownSettings: unknown } : {}) };
  return { policy: parsed.data, problems, source: read.source };
}

/** The settings this version knows, and the names of those it does not (a non-object is left whole, for the schema to refuse). */
function splitSettings(raw: unknown): { known: unknown; unknown: string[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { known: raw, unknown: [] };
  const entries = Object.entries(raw);
  return {
    known: Object.fromEntries(entries.filter(([name]) => POLICY_SETTING_NAMES.includes(name))),
    unknown: entries.map(([name]) => name).filter((name) => !POLICY_SETTING_NAMES.includes(name)),
  };
}
