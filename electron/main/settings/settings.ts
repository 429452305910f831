// Non-secret desk settings over a conf-style store (electron-store in the app, conf in
// tests). Every change is validated as a whole before a single byte is written, and the
// store writes the file atomically, so the file is always either the old or the new state.
import { DeskError } from '../../shared/desk-error.ts';
import { defaultSettings, loadProblem, migrate, SETTINGS_VERSION, validateSettings, type LoadProblem } from './migrations.ts';
import type { ConnectionProfile, DeskSettings } from './schema.ts';
import { removeInterruptedWrites } from './store-file.ts';

export type { ConnectionProfile, DeskSettings, LibraryRef, WindowState } from './schema.ts';

/** What conf and electron-store both provide: reading `store` reads the file, assigning it writes it. */
export interface SettingsStore {
  store: Record<string, unknown>;
  /** The settings file (conf and electron-store have it); lets leftovers of a crash be tidied. */
  readonly path?: string;
}

export type SettingsPatch = Partial<Omit<DeskSettings, 'version' | 'profiles'>>;

export class Settings {
  readonly #store: SettingsStore;
  #lastLoadProblem: LoadProblem | undefined;

  constructor(store: SettingsStore) {
    this.#store = store;
    if (store.path) removeInterruptedWrites(store.path);
  }

  /** Why the last read fell back to defaults, if it did. */
  get lastLoadProblem(): LoadProblem | undefined {
    return this.#lastLoadProblem;
  }

  read(): DeskSettings {
    let raw: unknown;
    try {
      raw = this.#store.store;
    } catch (error) {
      // A store built without readSettingsFile throws on a damaged file; same outcome.
      this.#lastLoadProblem = loadProblem('settings-file.unreadable', { cause: error instanceof Error ? error.name : 'error' });
      return defaultSettings();
    }
    const { settings, problem } = migrate(raw);
    this.#lastLoadProblem = problem;
    return settings;
  }

  update(patch: SettingsPatch): DeskSettings {
    const current = this.read();
    // Profiles and the version are not the patch's to change, whatever a caller sends.
    return this.#write({ ...current, ...patch, version: SETTINGS_VERSION, profiles: current.profiles });
  }

  saveProfile(profile: ConnectionProfile): DeskSettings {
    return this.#write(this.#withProfile(profile));
  }

  /**
   * The check saveProfile makes, without writing: lets a caller refuse a bad profile before
   * it tests the connection or stores credentials for it. Returns the profile as it would be saved.
   */
  validateProfile(profile: ConnectionProfile): ConnectionProfile {
    const settings = validateSettings(this.#withProfile(profile));
    return settings.profiles.find((saved) => saved.id === profile.id) as ConnectionProfile;
  }

  #withProfile(profile: ConnectionProfile): DeskSettings {
    const current = this.read();
    const replaced = current.profiles.some((existing) => existing.id === profile?.id);
    const profiles = replaced
      ? current.profiles.map((existing) => (existing.id === profile.id ? profile : existing))
      : [...current.profiles, profile];
    return { ...current, profiles };
  }

  removeProfile(id: string): DeskSettings {
    const current = this.read();
    if (!current.profiles.some((profile) => profile.id === id)) return current;
    return this.#write({
      ...current,
      profiles: current.profiles.filter((profile) => profile.id !== id),
      activeProfileId: current.activeProfileId === id ? null : current.activeProfileId,
    });
  }

  setActiveProfile(id: string | null): DeskSettings {
    const current = this.read();
    if (id !== null && !current.profiles.some((profile) => profile.id === id)) {
      throw DeskError.because('invalid-input', 'profile.not-found', { id: String(id) });
    }
    return this.#write({ ...current, activeProfileId: id });
  }

  #write(candidate: unknown): DeskSettings {
    const settings = validateSettings(candidate);
    // A JSON round trip drops keys zod left as undefined, which the store would refuse.
    this.#store.store = JSON.parse(JSON.stringify(settings)) as Record<string, unknown>;
    this.#lastLoadProblem = undefined;
    return settings;
  }
}
