// The desk's settings as DeskService sees them on a managed PC: every read has the policy
// laid over it (or, when the policy was ignored, the fail-closed rules), and every write the
// policy forbids is refused before anything is stored.
import { DeskError } from '../../shared/desk-error.ts';
import type { Settings, SettingsPatch } from '../settings/settings.ts';
import type { ConnectionProfile, DeskSettings } from '../settings/schema.ts';
import { applyPolicy, readdresses, refusalFor, type PolicyOutcome, type SettingsEdit } from './apply.ts';
import type { PolicyProblems } from './problem.ts';
import type { Policy } from './schema.ts';

/** The part of Settings that DeskService uses. */
export type SettingsPort = Pick<Settings, 'read' | 'update' | 'saveProfile' | 'removeProfile' | 'setActiveProfile' | 'validateProfile' | 'lastLoadProblem'>;

export class PolicySettings implements SettingsPort {
  readonly #inner: Settings;
  readonly #policy: Policy | undefined;
  readonly #problems: PolicyProblems;

  constructor(inner: Settings, policy: Policy | undefined, problems: PolicyProblems = {}) {
    this.#inner = inner;
    this.#policy = policy;
    this.#problems = problems;
  }

  get lastLoadProblem(): Settings['lastLoadProblem'] {
    return this.#inner.lastLoadProblem;
  }

  outcome(): PolicyOutcome {
    return applyPolicy(this.#inner.read(), this.#policy, this.#problems);
  }

  read(): DeskSettings {
    return this.outcome().settings;
  }

  update(patch: SettingsPatch): DeskSettings {
    if (patch.idleLockMinutes !== undefined) this.#refuse({ kind: 'idle-lock', minutes: patch.idleLockMinutes });
    this.#inner.update(patch);
    return this.read();
  }

  saveProfile(profile: ConnectionProfile): DeskSettings {
    this.#refuse({ kind: 'save-profile', profile, readdressed: readdresses(this.#inner.read().profiles, profile) });
    this.#inner.saveProfile(profile);
    return this.read();
  }

  validateProfile(profile: ConnectionProfile): ConnectionProfile {
    this.#refuse({ kind: 'save-profile', profile, readdressed: readdresses(this.#inner.read().profiles, profile) });
    return this.#inner.validateProfile(profile);
  }

  removeProfile(id: string): DeskSettings {
    this.#refuse({ kind: 'remove-profile', profileId: id });
    this.#inner.removeProfile(id);
    return this.read();
  }

  /** A preset profile lives in the policy, not the file: a copy is stored so the choice persists. */
  setActiveProfile(id: string | null): DeskSettings {
    const outcome = this.outcome();
    const preset = outcome.managed.lockedProfileIds.includes(id ?? '') ? outcome.settings.profiles.find((p) => p.id === id) : undefined;
    if (preset && !this.#inner.read().profiles.some((p) => p.id === id)) this.#inner.saveProfile(preset);
    if (id !== null && !outcome.settings.profiles.some((p) => p.id === id)) {
      throw DeskError.because('invalid-input', 'profile.not-found', { id });
    }
    this.#inner.setActiveProfile(id);
    return this.read();
  }

  #refuse(edit: SettingsEdit): void {
    const refusal = refusalFor(this.outcome(), edit);
    if (refusal) throw DeskError.because('invalid-input', refusal.reason, refusal.params);
  }
}
