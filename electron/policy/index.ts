// Managed configuration: a read-only, machine-wide policy file that library IT uses to preset
// and lock connection profiles, the idle lock, the sandbox and updates. Credentials are never
// part of it; each PC's keychain holds them.
export { PolicySettings, type SettingsPort } from './policy-settings.ts';
export { applyPolicy, refusalFor, type ManagedSettings, type PolicyOutcome, type SettingsEdit } from './apply.ts';
export { loadPolicy, type LoadedPolicy, type LoadPolicyOptions } from './load.ts';
export { POLICY_FILE_ENV, policyFilePath, type PolicyLocationOptions } from './location.ts';
export { describePolicyIssue, POLICY_VERSION, policySchema, UPDATE_MODES, type Policy, type UpdateMode, type UpdatesPolicy } from './schema.ts';
