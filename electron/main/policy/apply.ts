// Lays the policy over the desk's own settings. It is applied every time settings are read, so
// the policy always wins: a value staff changed before the policy arrived (or edited into
// settings.json by hand) is simply overridden, and nothing the user saves can loosen a lock.
// A policy that exists but was refused fails closed here: staff cannot add, change or remove
// connections, the sandbox is off and automatic updates are off, until IT fixes the policy (and
// DeskService lets nobody sign in). Without a policy that sets it, the idle lock is at most 30
// minutes, whatever settings.json says: only IT may leave a shared desk open longer.
import type { ManagedView } from '../../shared/contract.ts';
import type { ConnectionProfile, DeskSettings } from '../settings/schema.ts';
import { policyProblem, type PolicyProblem, type PolicyProblems } from './problem.ts';
import type { Policy } from './schema.ts';
import { profileFingerprint } from '../settings/profile-fingerprint.ts';

/** The longest idle lock staff (or an edited settings.json) may set; IT's policy may set up to 240. */
export const UNMANAGED_MAX_IDLE_LOCK_MINUTES = 30;

export interface PolicyOutcome {
  settings: DeskSettings;
  /** What the policy decides, as Settings shows it ("set by your library's IT", "policy ignored: …"). */
  managed: ManagedView;
  /** Whether the first-run page and Settings may offer the sandbox. */
  sandboxOffered: boolean;
}

/** An ignored policy acts as this one, with profile editing frozen on top. */
const FAIL_CLOSED: Policy = { version: 1, sandboxOffered: false, updates: { mode: 'off' } };

export function applyPolicy(settings: DeskSettings, policy: Policy | undefined, problems: PolicyProblems = {}): PolicyOutcome {
  if (problems.ignored) {
    const closed = layOver(settings, FAIL_CLOSED);
    return { ...closed, managed: { ...closed.managed, profileEditing: false, policyIgnored: problems.ignored } };
  }
  if (policy === undefined) {
    return {
      settings: { ...settings, idleLockMinutes: Math.min(settings.idleLockMinutes, UNMANAGED_MAX_IDLE_LOCK_MINUTES) },
      managed: { profiles: false, lockedProfileIds: [], idleLockMinutes: false, sandboxOffered: false, sandboxAvailable: true, profileEditing: true, updates: false, updateMode: 'off' },
      sandboxOffered: true,
    };
  }
  const laid = layOver(settings, policy);
  const unknown = problems.unknownSettings ? { unknownSettings: [...problems.unknownSettings] } : {};
  if (!problems.updatesRefused) return { ...laid, managed: { ...laid.managed, ...unknown } };
  return { ...laid, managed: { ...laid.managed, ...unknown, updateMode: 'off', updatesRefused: problems.updatesRefused } };
}

function layOver(settings: DeskSettings, policy: Policy): PolicyOutcome {
  const sandboxOffered = policy.sandboxOffered ?? true;
  const preset: ConnectionProfile[] = (policy.profiles ?? []).map((profile) => ({ ...profile, libraries: profile.libraries.map((library) => ({ ...library })) }));
  const presetIds = new Set(preset.map((profile) => profile.id));
  // Preset profiles first, in the policy's order; then the desk's own, minus any the preset
  // replaces (same id) and minus the sandbox when it is not offered.
  const own = settings.profiles.filter((profile) => !presetIds.has(profile.id) && (sandboxOffered || profile.kind !== 'sandbox'));
  const profiles = [...preset, ...own];

  let activeProfileId = settings.activeProfileId;
  if (activeProfileId !== null && !profiles.some((profile) => profile.id === activeProfileId)) activeProfileId = null;
  // A managed desk opens on its preset connection instead of the first-run choice.
  if (activeProfileId === null && preset.length > 0) activeProfileId = (preset[0] as ConnectionProfile).id;

  return {
    settings: {
      ...settings,
      profiles,
      activeProfileId,
      idleLockMinutes: policy.idleLockMinutes ?? Math.min(settings.idleLockMinutes, UNMANAGED_MAX_IDLE_LOCK_MINUTES),
    },
    managed: {
      profiles: preset.length > 0,
      lockedProfileIds: [...presetIds],
      idleLockMinutes: policy.idleLockMinutes !== undefined,
      sandboxOffered: policy.sandboxOffered !== undefined,
      sandboxAvailable: sandboxOffered,
      profileEditing: policy.profileEditing ?? true,
      updates: policy.updates !== undefined,
      updateMode: policy.updates?.mode ?? 'off',
    },
    sandboxOffered,
  };
}

/** A change staff asked for, as DeskService sees it before saving. */
export type SettingsEdit =
  /** `readdressed`: a new profile, or one whose address or libraries change. */
  | { kind: 'save-profile'; profile: Pick<ConnectionProfile, 'id' | 'kind'>; readdressed: boolean }
  | { kind: 'remove-profile'; profileId: string }
  | { kind: 'idle-lock'; minutes: number };

/** Whether saving `profile` adds a connection or changes where one sends (its address or libraries). */
export function readdresses(current: readonly ConnectionProfile[], profile: ConnectionProfile): boolean {
  const before = current.find((existing) => existing.id === profile.id);
  return before === undefined || profileFingerprint(before) !== profileFingerprint(profile);
}

/**
 * Why the policy refuses this edit, as a reason staff read in their language, or undefined when
 * it is allowed. PolicySettings turns a refusal into an `invalid-input` error before anything is written.
 */
export function refusalFor(outcome: Pick<PolicyOutcome, 'managed' | 'sandboxOffered'>, edit: SettingsEdit): PolicyProblem | undefined {
  const { managed } = outcome;
  switch (edit.kind) {
    case 'save-profile':
      if (edit.profile.kind === 'sandbox' && !outcome.sandboxOffered) return policyProblem('policy.sandbox-off', {});
      if (managed.lockedProfileIds.includes(edit.profile.id)) return policyProblem('policy.profile-locked', {});
      if (managed.policyIgnored) return policyProblem('policy.profiles-frozen', {});
      // The sandbox is governed by sandboxOffered; a partner connection renamed where it was stays allowed.
      return managed.profileEditing || edit.profile.kind === 'sandbox' || !edit.readdressed ? undefined : policyProblem('policy.profiles-set-by-it', {});
    case 'remove-profile':
      if (managed.lockedProfileIds.includes(edit.profileId)) return policyProblem('policy.profile-locked-remove', {});
      if (managed.policyIgnored) return policyProblem('policy.profiles-frozen', {});
      return managed.profileEditing ? undefined : policyProblem('policy.profiles-set-by-it', {});
    case 'idle-lock':
      if (managed.idleLockMinutes) return policyProblem('policy.idle-lock-locked', {});
      return edit.minutes > UNMANAGED_MAX_IDLE_LOCK_MINUTES ? policyProblem('settings.idle-lock-unmanaged', {}) : undefined;
  }
}
