// Managed configuration: a read-only machine policy that library IT uses to preset and lock
// connection profiles, the idle lock, the sandbox and updates, read only from places IT alone
// can write (the HKLM Policies key, macOS managed preferences, a root-owned file under /etc).
// Credentials are never part of it; each PC's keychain holds them.
export { PolicySettings, type SettingsPort } from './policy-settings.ts';
export { applyPolicy, refusalFor, type PolicyOutcome, type SettingsEdit } from './apply.ts';
export { checkedPolicy, loadMachinePolicy, type LoadMachinePolicyOptions, type MachinePolicy } from './load.ts';
export { logMachinePolicy } from './log.ts';
export { BUNDLE_ID, LINUX_POLICY_FILE, MACOS_POLICY_FILE, MAX_POLICY_BYTES, WINDOWS_POLICY_KEY } from './location.ts';
export { ignoredLine, updatesRefusedLine, type PolicyProblem, type PolicyProblems } from './problem.ts';
export { isAcceptableUpdateUrl, POLICY_VERSION, policyIssue, policySchema, UPDATE_MODES, type Policy, type UpdateMode, type UpdatesPolicy } from './schema.ts';
