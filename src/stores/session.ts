// Which screen the desk shows, and everything about the connection, the staff shift and the
// preferences. Actions hand the contract's Result back so each form shows its own error.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type {
  AppInfo, ArgsOf, EventPayloads, Preferences, ProfileView, Result, StaffSession,
} from '../../electron/shared/contract.ts';
import { deskApi, isSessionLocked } from '../api.ts';
import { clearLibraryData, clearPatronData } from './patron-data.ts';

export type Screen = 'loading' | 'unavailable' | 'first-run' | 'shift-start' | 'locked' | 'desk';
export type LockReason = EventPayloads['sessionLocked']['reason'];

export interface DeskLibrary { libraryId: number; name?: string; demoCards: string[] }

const DEFAULT_PREFERENCES: Preferences = { idleLockMinutes: 5, language: 'en' };

export const useSessionStore = defineStore('session', () => {
  const appInfo = ref<AppInfo>();
  const loadError = ref<string>();
  const profiles = ref<ProfileView[]>([]);
  const selectedLibraryId = ref<number>();
  /** Set while the lock screen shows; remembers who was on shift. */
  const lock = ref<{ reason: LockReason; staffName?: string }>();

  const profile = computed(() => appInfo.value?.activeProfile);
  const staffSession = computed(() => appInfo.value?.session);
  const preferences = computed(() => appInfo.value?.preferences ?? DEFAULT_PREFERENCES);
  const isSandbox = computed(() => appInfo.value?.mode === 'sandbox' || profile.value?.kind === 'sandbox');
  /** What the machine-wide policy file decides (nothing on an unmanaged desk). */
  const managed = computed(() => appInfo.value?.managed);
  const sandboxAvailable = computed(() => managed.value?.sandboxAvailable !== false);
  const isLockedProfile = (id: string): boolean => managed.value?.lockedProfileIds.includes(id) ?? false;

  const libraries = computed<DeskLibrary[]>(() => {
    const named = new Map((profile.value?.libraries ?? []).map((l) => [l.libraryId, l.name]));
    if (isSandbox.value && appInfo.value?.sandbox) {
      return appInfo.value.sandbox.libraries.map((l) => ({
        libraryId: l.libraryId, name: named.get(l.libraryId), demoCards: l.cards,
      }));
    }
    return (profile.value?.libraries ?? []).map((l) => ({ libraryId: l.libraryId, name: l.name, demoCards: [] }));
  });
  const selectedLibrary = computed(() => libraries.value.find((l) => l.libraryId === selectedLibraryId.value));

  const screen = computed<Screen>(() => {
    if (!appInfo.value) return loadError.value ? 'unavailable' : 'loading';
    if (appInfo.value.mode === 'unconfigured') return 'first-run';
    if (staffSession.value && !lock.value) return 'desk';
    return lock.value ? 'locked' : 'shift-start';
  });

  function applyAppInfo(info: AppInfo): void {
    const profileChanged = info.activeProfile?.id !== appInfo.value?.activeProfile?.id;
    appInfo.value = info;
    if (profileChanged) {
      clearPatronData();
      clearLibraryData();
    }
    if (!libraries.value.some((l) => l.libraryId === selectedLibraryId.value)) {
      selectedLibraryId.value = libraries.value[0]?.libraryId;
    }
  }

  /** Patron data leaves the screen first; only then does the lock screen show. */
  function showLocked(reason: LockReason): void {
    clearPatronData();
    lock.value = { reason, staffName: staffSession.value?.staffName ?? lock.value?.staffName };
    if (appInfo.value) appInfo.value = { ...appInfo.value, session: undefined };
  }

  /** Every call goes through here: main saying no shift is open means lock now. */
  async function call<T>(pending: Promise<Result<T>>): Promise<Result<T>> {
    const result = await pending;
    if (!result.ok && isSessionLocked(result.error)) showLocked('system');
    return result;
  }

  async function load(): Promise<void> {
    loadError.value = undefined;
    const result = await deskApi().appInfo();
    if (result.ok) applyAppInfo(result.value);
    else loadError.value = result.error.message;
  }

  async function applying(pending: Promise<Result<AppInfo>>): Promise<Result<AppInfo>> {
    const result = await call(pending);
    if (result.ok) applyAppInfo(result.value);
    return result;
  }

  const useSandbox = () => applying(deskApi().useSandbox());
  const savePartnerProfile = (args: ArgsOf<'savePartnerProfile'>) => applying(deskApi().savePartnerProfile(args));
  const testPartnerConnection = (args: ArgsOf<'testPartnerConnection'>) => call(deskApi().testPartnerConnection(args));

  async function startShift(staffName: string): Promise<Result<StaffSession>> {
    const result = await call(deskApi().startShift({ staffName }));
    if (result.ok && appInfo.value) {
      clearPatronData(); // a new shift starts on an empty desk
      appInfo.value = { ...appInfo.value, session: result.value };
      lock.value = undefined;
    }
    return result;
  }

  async function lockDesk(reason: 'idle' | 'staff'): Promise<Result<null>> {
    showLocked(reason);
    return deskApi().lockSession({ reason });
  }

  async function updatePreferences(changes: ArgsOf<'updatePreferences'>): Promise<Result<Preferences>> {
    const result = await call(deskApi().updatePreferences(changes));
    if (result.ok && appInfo.value) appInfo.value = { ...appInfo.value, preferences: result.value };
    return result;
  }

  async function loadProfiles(): Promise<Result<ProfileView[]>> {
    const result = await call(deskApi().listProfiles());
    if (result.ok) profiles.value = result.value;
    return result;
  }

  async function afterProfileChange<T>(pending: Promise<Result<T>>): Promise<Result<T>> {
    const result = await call(pending);
    if (result.ok) await loadProfiles();
    return result;
  }

  const activateProfile = (profileId: string) => afterProfileChange(applying(deskApi().activateProfile({ profileId })));
  const removeProfile = (profileId: string) => afterProfileChange(applying(deskApi().removeProfile({ profileId })));
  const replaceCredentials = (args: ArgsOf<'replaceCredentials'>) => afterProfileChange(deskApi().replaceCredentials(args));
  const forgetCredentials = (profileId: string) => afterProfileChange(deskApi().forgetCredentials({ profileId }));

  function selectLibrary(libraryId: number): void {
    if (libraryId === selectedLibraryId.value) return;
    clearLibraryData(); // a card belongs to one library; recent patrons remember theirs
    selectedLibraryId.value = libraryId;
  }

  return {
    appInfo, loadError, profiles, selectedLibraryId, lock,
    profile, staffSession, preferences, isSandbox, libraries, selectedLibrary, screen,
    managed, sandboxAvailable, isLockedProfile,
    load, call, showLocked, useSandbox, savePartnerProfile, testPartnerConnection, startShift,
    lockDesk, updatePreferences, loadProfiles, activateProfile, removeProfile, replaceCredentials,
    forgetCredentials, selectLibrary,
  };
});
