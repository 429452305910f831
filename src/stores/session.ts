// Which screen the desk shows, and everything about the connection, the staff shift and the
// preferences. Actions hand the contract's Result back so each form shows its own error.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type {
  AppInfo, ArgsOf, Preferences, ProfileView, Result, StaffSession,
} from '../../electron/shared/contract.ts';
import type { LibraryRules } from '../../electron/shared/card-rules.ts';
import type { StaffPermissions } from '../../electron/shared/staff.ts';
import type { ErrorInfo } from '../../electron/shared/errors.ts';
import { useGateway } from '../gateway/gateway.ts';
import { useLifecycle, type LockReason } from '../lifecycle.ts';

export type Screen = 'loading' | 'unavailable' | 'first-run' | 'shift-start' | 'locked' | 'desk';
export type { LockReason };

/** A library staff can pick; `country` is where its titles are rated (the sandbox names it per library; a partner profile has one). */
export interface DeskLibrary { libraryId: number; name?: string; demoCards: string[]; country?: string | undefined }

const DEFAULT_PREFERENCES: Preferences = { idleLockMinutes: 5, language: 'en' };
/** Nothing beyond the everyday work, whoever main says is on shift: what a locked desk may do. */
const NO_PERMISSIONS: StaffPermissions = { readLogByCard: false, exportLog: false, replaceLibraryMirrorPassword: false };

export const useSessionStore = defineStore('session', () => {
  const gateway = useGateway();
  const lifecycle = useLifecycle();
  const appInfo = ref<AppInfo>();
  const loadError = ref<ErrorInfo>();
  const profiles = ref<ProfileView[]>([]);
  const selectedLibraryId = ref<number>();
  /** Set while the lock screen shows; remembers who was on shift. */
  const lock = ref<{ reason: LockReason; staffName?: string; deskPin?: boolean }>();

  const profile = computed(() => appInfo.value?.activeProfile);
  const staffSession = computed(() => appInfo.value?.session);
  /** How staff unlock this desk (per-staff PINs or the desk PIN), and what a desk PIN change takes. */
  const signIn = computed(() => appInfo.value?.signIn);
  const preferences = computed(() => appInfo.value?.preferences ?? DEFAULT_PREFERENCES);
  const isSandbox = computed(() => appInfo.value?.mode === 'sandbox' || profile.value?.kind === 'sandbox');
  /** What the machine-wide policy file decides (nothing on an unmanaged desk). */
  const managed = computed(() => appInfo.value?.managed);
  const sandboxAvailable = computed(() => managed.value?.sandboxAvailable !== false);
  const isLockedProfile = (id: string): boolean => managed.value?.lockedProfileIds.includes(id) ?? false;

  /** What the member of staff on shift may do beyond the everyday work, as main says (issue #35): screens read this, never a role. */
  const may = computed<StaffPermissions>(() => staffSession.value?.may ?? NO_PERMISSIONS);
  /** Each library's card rules and item barcodes from IT's policy: the card field refuses what breaks them before any request. */
  const libraryRules = computed<LibraryRules[]>(() => appInfo.value?.libraryRules ?? []);
  /** How many recent patrons' chips the card field keeps (IT's policy; none by default). */
  const recentPatrons = computed(() => appInfo.value?.recentPatrons ?? 0);

  const libraries = computed<DeskLibrary[]>(() => {
    // IT's name for a library first, then the profile's (issue #35: libraries by name, not number).
    const policyNames = new Map(libraryRules.value.filter((l) => l.name).map((l) => [l.libraryId, l.name]));
    const named = new Map((profile.value?.libraries ?? []).map((l) => [l.libraryId, policyNames.get(l.libraryId) ?? l.name]));
    if (isSandbox.value && appInfo.value?.sandbox) {
      return appInfo.value.sandbox.libraries.map((l) => ({
        libraryId: l.libraryId, name: named.get(l.libraryId), demoCards: l.cards, country: l.country,
      }));
    }
    return (profile.value?.libraries ?? []).map((l) => ({ libraryId: l.libraryId, name: named.get(l.libraryId), demoCards: [], country: profile.value?.country }));
  });
  const selectedLibrary = computed(() => libraries.value.find((l) => l.libraryId === selectedLibraryId.value));

  const screen = computed<Screen>(() => {
    if (!appInfo.value) return loadError.value ? 'unavailable' : 'loading';
    // A desk that was ever set up shows its sign-in while locked, whatever settings.json names:
    // main answers the first-run methods only before the first shift.
    const lockedSetUpDesk = appInfo.value.signIn.setUp && !staffSession.value;
    if (appInfo.value.mode === 'unconfigured' && !lockedSetUpDesk) return 'first-run';
    if (staffSession.value && !lock.value) return 'desk';
    return lock.value ? 'locked' : 'shift-start';
  });

  function applyAppInfo(info: AppInfo): void {
    const profileChanged = info.activeProfile?.id !== appInfo.value?.activeProfile?.id;
    appInfo.value = info;
    if (!libraries.value.some((l) => l.libraryId === selectedLibraryId.value)) {
      selectedLibraryId.value = libraries.value[0]?.libraryId;
    }
    if (profileChanged) lifecycle.publish({ type: 'connectionChanged', profileId: info.activeProfile?.id });
  }

  /** Whoever locks (idle timer, Lock button, main), the lock screen shows once; the first reason stays. */
  lifecycle.on('deskLocked', (event) => {
    if (event.type !== 'deskLocked' || lock.value) return;
    lock.value = { reason: event.reason, staffName: staffSession.value?.staffName, deskPin: staffSession.value?.signedInWith === 'desk-pin' };
    if (!appInfo.value?.session) return;
    appInfo.value = { ...appInfo.value, session: undefined };
    // Main drops the shift when the desk locks, so the shift is over too.
    lifecycle.publish({ type: 'shiftEnded' });
  });

  /** The lock screen shows; every store holding patron data clears itself on the event first. */
  function showLocked(reason: LockReason): void {
    lifecycle.publish({ type: 'deskLocked', reason });
  }

  async function load(): Promise<void> {
    loadError.value = undefined;
    const result = await gateway.call('appInfo');
    if (result.ok) applyAppInfo(result.value);
    else loadError.value = result.error;
  }

  async function applying(pending: Promise<Result<AppInfo>>): Promise<Result<AppInfo>> {
    const result = await pending;
    if (result.ok) applyAppInfo(result.value);
    return result;
  }

  const useSandbox = () => applying(gateway.call('useSandbox'));
  const savePartnerProfile = (args: ArgsOf<'savePartnerProfile'>) => applying(gateway.call('savePartnerProfile', args));
  const testPartnerConnection = (args: ArgsOf<'testPartnerConnection'>) => gateway.call('testPartnerConnection', args);

  /** Signs in; the app's description is read again (a locked desk is given no demo patrons), with the shift just opened. */
  async function startShift(staffName: string | undefined, pin: string): Promise<Result<StaffSession>> {
    const result = await gateway.call('startShift', { ...(staffName ? { staffName } : {}), pin });
    if (result.ok && appInfo.value) {
      const info = await gateway.call('appInfo');
      applyAppInfo({ ...(info.ok ? info.value : appInfo.value), session: result.value });
      lock.value = undefined;
    }
    return result;
  }

  const setDeskPin = (args: ArgsOf<'setDeskPin'>) => applying(gateway.call('setDeskPin', args));

  /** Trades IT's one-time code for this desk's place at the library server; the app's description is read again. */
  async function enrolDesk(code: string): Promise<Result<unknown>> {
    const result = await gateway.call('enrolDesk', { code });
    if (result.ok) await load();
    return result;
  }
  /** The library server this desk's policy names, and whether the desk is enrolled there (null: none). */
  const libraryServer = () => gateway.call('libraryServer');

  async function lockDesk(reason: 'idle' | 'staff'): Promise<Result<null>> {
    showLocked(reason);
    return gateway.call('lockSession', { reason });
  }

  async function updatePreferences(changes: ArgsOf<'updatePreferences'>): Promise<Result<Preferences>> {
    const result = await gateway.call('updatePreferences', changes);
    if (result.ok && appInfo.value) appInfo.value = { ...appInfo.value, preferences: result.value };
    return result;
  }

  async function loadProfiles(): Promise<Result<ProfileView[]>> {
    const result = await gateway.call('listProfiles');
    if (result.ok) profiles.value = result.value;
    return result;
  }

  async function afterProfileChange<T>(pending: Promise<Result<T>>): Promise<Result<T>> {
    const result = await pending;
    if (result.ok) await loadProfiles();
    return result;
  }

  const activateProfile = (profileId: string) => afterProfileChange(applying(gateway.call('activateProfile', { profileId })));
  const removeProfile = (profileId: string) => afterProfileChange(applying(gateway.call('removeProfile', { profileId })));
  const replaceCredentials = (args: ArgsOf<'replaceCredentials'>) => afterProfileChange(gateway.call('replaceCredentials', args));
  const forgetCredentials = (profileId: string) => afterProfileChange(gateway.call('forgetCredentials', { profileId }));

  function selectLibrary(libraryId: number): void {
    if (libraryId === selectedLibraryId.value) return;
    selectedLibraryId.value = libraryId;
    lifecycle.publish({ type: 'libraryChanged', libraryId }); // a card belongs to one library; recent patrons remember theirs
  }

  return {
    appInfo, loadError, profiles, selectedLibraryId, lock,
    profile, staffSession, may, libraryRules, recentPatrons, signIn, preferences, isSandbox, libraries, selectedLibrary, screen,
    managed, sandboxAvailable, isLockedProfile,
    load, showLocked, useSandbox, savePartnerProfile, testPartnerConnection, startShift, setDeskPin, enrolDesk, libraryServer,
    lockDesk, updatePreferences, loadProfiles, activateProfile, removeProfile, replaceCredentials,
    forgetCredentials, selectLibrary,
  };
});
