// Settings files written by earlier versions are brought forward by a numbered list of pure
// steps, each from version N to N+1. The file itself is only rewritten when the user next
// changes something, so an older app reading a newer file never destroys it.
import { DeskError } from '../../shared/desk-error.ts';
import type { ErrorParams } from '../../shared/errors.ts';
import { isReason, reasonText, type Reason } from '../../shared/reasons.ts';
import { deskSettingsSchema, describeIssue, DEFAULT_WINDOW, reasonOfIssue, type DeskSettings } from './schema.ts';

type RawSettings = Record<string, unknown>;
type Migration = (settings: RawSettings) => RawSettings;

/**
 * Version 1 held one connection as `profile` ({ name, baseUrl, libraryId, wsApi?, country? })
 * and the idle lock as `idleMinutes`. Version 2 holds a list of profiles, each with a list of
 * libraries, the active profile's id, and `idleLockMinutes`.
 */
function v1ToV2(v1: RawSettings): RawSettings {
  const { profile, idleMinutes, ...rest } = v1;
  const v2: RawSettings = { ...rest, profiles: [], activeProfileId: null };
  if (idleMinutes !== undefined) v2.idleLockMinutes = idleMinutes;
  if (typeof profile === 'object' && profile !== null) {
    const { libraryId, libraryName, ...connection } = profile as RawSettings;
    const migrated: RawSettings = {
      id: 'partner',
      kind: 'partner',
      wsApi: '2.1',
      country: 'US',
      ...connection,
      libraries: libraryId === undefined ? [] : [libraryName === undefined ? { libraryId } : { libraryId, name: libraryName }],
    };
    v2.profiles = [migrated];
    v2.activeProfileId = migrated.id;
  }
  return v2;
}

/** MIGRATIONS[i] takes a file from version i + 1 to version i + 2. */
const MIGRATIONS: readonly Migration[] = [v1ToV2];

export const SETTINGS_VERSION: number = MIGRATIONS.length + 1;

/** A store's reader puts this key in place of a file it could not parse (see store-file.ts). */
export const UNREADABLE_FILE_KEY = '__lendingDeskUnreadableFile';

/** First start: no connection yet, so the app shows its first-run choice (sandbox or partner). */
export function defaultSettings(): DeskSettings {
  return {
    version: SETTINGS_VERSION,
    profiles: [],
    activeProfileId: null,
    idleLockMinutes: 5,
    language: 'en',
    window: { ...DEFAULT_WINDOW },
  };
}

const USING_DEFAULTS = 'Default settings are in use; the file is left as it is until a setting is changed.';

/** Why the settings file was not used: a reason the renderer words, and the English for the log. */
export interface LoadProblem {
  reason: Reason;
  params: ErrorParams;
  message: string;
}

export function loadProblem(reason: Reason, params: ErrorParams = {}, detail?: string): LoadProblem {
  return { reason, params, message: `${detail ?? reasonText(reason, params)} ${USING_DEFAULTS}` };
}

export function migrate(raw: unknown): { settings: DeskSettings; problem?: LoadProblem } {
  const fallBack = (reason: Reason, params: ErrorParams = {}, detail?: string): { settings: DeskSettings; problem: LoadProblem } => ({
    settings: defaultSettings(), problem: loadProblem(reason, params, detail),
  });

  if (raw === undefined || raw === null) return { settings: defaultSettings() };
  if (typeof raw !== 'object' || Array.isArray(raw)) return fallBack('settings-file.not-object');
  const file = raw as RawSettings;
  const unreadable = file[UNREADABLE_FILE_KEY];
  if (typeof unreadable === 'string') return fallBack(isReason(unreadable) ? unreadable : 'settings-file.not-json');
  if (Object.keys(file).length === 0) return { settings: defaultSettings() };

  // The first format carried no version number.
  const version = file.version ?? 1;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return fallBack('settings-file.no-version');
  if (version > SETTINGS_VERSION) return fallBack('settings-file.newer', { version, supported: SETTINGS_VERSION });

  let current: RawSettings = { ...file };
  try {
    for (let from = version; from < SETTINGS_VERSION; from += 1) {
      const step = MIGRATIONS[from - 1] as Migration;
      current = { ...step(current), version: from + 1 };
    }
  } catch {
    return fallBack('settings-file.not-migrated', { version });
  }

  const parsed = deskSettingsSchema.safeParse(current);
  if (!parsed.success) return fallBack(reasonOfIssue(parsed.error), {}, `The settings file is not valid: ${describeIssue(parsed.error)}`);
  return { settings: parsed.data };
}

/** Validates a whole candidate before anything is written. */
export function validateSettings(candidate: unknown): DeskSettings {
  const parsed = deskSettingsSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new DeskError('invalid-input', describeIssue(parsed.error), undefined, { reason: reasonOfIssue(parsed.error), params: {} });
  }
  return parsed.data;
}
