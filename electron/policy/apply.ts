// Lays the policy over the desk's own settings. It is applied every time settings are read, so
// the policy always wins: a value staff changed before the policy arrived (or edited into
// settings.json by hand) is simply overridden, and nothing the user saves can loosen a lock.
import type { ConnectionProfile, DeskSettings } from '../settings/schema.ts';
import type { Policy, UpdatesPolicy } from './schema.ts';

/** Which settings the policy decides: the app shows these as "managed by your library's IT". */
export interface ManagedSettings {
  profiles: boolean;
  /** Ids of the preset profiles; staff cannot edit or remove these. */
  lockedProfileIds: string[];
  idleLockMinutes: boolean;
  /** The policy decides whether the sandbox is offered (the answer is `sandboxOffered` beside this). */
  sandboxOffered: boolean;
  updates: boolean;
}

export interface PolicyOutcome {
  settings: DeskSettings;
  managed: ManagedSettings;
  /** Whether the first-run page and Settings may offer the sandbox. */
  sandboxOffered: boolean;
  /** Without a policy there is no update server, so nothing is checked. */
  updates: UpdatesPolicy;
}

const UNMANAGED: ManagedSettings = { profiles: false, lockedProfileIds: [], idleLockMinutes: false, sandboxOffered: false, updates: false };

export function applyPolicy(settings: DeskSettings, policy: Policy | undefined): PolicyOutcome {
  if (policy === undefined) {
    return { settings, managed: { ...UNMANAGED, lockedProfileIds: [] }, sandboxOffered: true, updates: { mode: 'off' } };
  }
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
      idleLockMinutes: policy.idleLockMinutes ?? settings.idleLockMinutes,
    },
    managed: {
      profiles: preset.length > 0,
      lockedProfileIds: [...presetIds],
      idleLockMinutes: policy.idleLockMinutes !== undefined,
      sandboxOffered: policy.sandboxOffered !== undefined,
      updates: policy.updates !== undefined,
    },
    sandboxOffered,
    updates: policy.updates ?? { mode: 'off' },
  };
}

/** A change staff asked for, as DeskService sees it before saving. */
export type SettingsEdit =
  | { kind: 'save-profile'; profile: Pick<ConnectionProfile, 'id' | 'kind'> }
  | { kind: 'remove-profile'; profileId: string }
  | { kind: 'idle-lock'; minutes: number };

/**
 * Why the policy refuses this edit, in words for staff, or undefined when it is allowed.
 * DeskService turns a refusal into an `invalid-input` error before anything is written.
 */
export function refusalFor(outcome: Pick<PolicyOutcome, 'managed' | 'sandboxOffered'>, edit: SettingsEdit): string | undefined {
  const { managed } = outcome;
  switch (edit.kind) {
    case 'save-profile':
      if (managed.lockedProfileIds.includes(edit.profile.id)) return 'This connection is set by your library\'s IT (policy file) and cannot be changed here.';
      if (edit.profile.kind === 'sandbox' && !outcome.sandboxOffered) return 'The sandbox is turned off on this computer by your library\'s IT.';
      return undefined;
    case 'remove-profile':
      return managed.lockedProfileIds.includes(edit.profileId) ? 'This connection is set by your library\'s IT (policy file) and cannot be removed.' : undefined;
    case 'idle-lock':
      return managed.idleLockMinutes ? 'The idle lock is set by your library\'s IT (policy file) and cannot be changed here.' : undefined;
  }
}
