// A stand-in for window.lendingDesk: every contract method is a vi.fn answering a Result, and
// `emit` plays an event from main. Tests override single methods with mockResolvedValueOnce.
import { flushPromises, mount, type DOMWrapper, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { vi, type Mock } from 'vitest';
import type {
  AppInfo, EventName, EventPayloads, LendingDeskApi, MethodName, PatronView, ProfileView, Result, StaffSession, SyncStatusView,
} from '../../../electron/shared/contract.ts';
import type { ErrorInfo } from '../../../electron/shared/errors.ts';
import { METHOD_NAMES } from '../../../electron/shared/contract.ts';
import App from '../../../src/App.vue';
import { createDeskI18n } from '../../../src/i18n/index.ts';

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
/** A refusal with main's English message only (for the log: staff never see it). */
export const fail = (code: string, message: string, detail: Partial<ErrorInfo> = {}): Result<never> => ({ ok: false, error: { code, message, ...detail } as ErrorInfo });
/** A refusal in the service's own words, as main passes them on (the English message for the log, the words apart). */
export const serviceFail = (code: string, words: string): Result<never> => fail(code, words, { serviceMessage: words });

export const SANDBOX_PROFILE: ProfileView = {
  id: 'sandbox', name: 'Built-in sandbox', kind: 'sandbox', baseUrl: 'http://127.0.0.1:4000',
  libraries: [{ libraryId: 101 }, { libraryId: 202 }], wsApi: '2.1', country: 'US', hasCredentials: true, credentials: 'saved',
};
export const PARTNER_PROFILE: ProfileView = {
  id: 'metro', name: 'Metro Library', kind: 'partner', baseUrl: 'https://partner.example.org',
  libraries: [{ libraryId: 7, name: 'Central' }, { libraryId: 8 }], wsApi: '2.1', country: 'CA', hasCredentials: true, credentials: 'saved',
};

/** A shift as main describes it: a member of staff with their own PIN, desk staff unless a test says `manager` (issue #35). */
export function staffSession(staffName: string, role: 'desk' | 'manager' = 'desk', startedAt = 1_700_000_000_000): StaffSession {
  const manager = role === 'manager';
  return { staffName, startedAt, signedInWith: 'staff-pin', role, may: { readLogByCard: manager, exportLog: manager, replaceLibraryMirrorPassword: manager } };
}

/** A desk whose PIN is set (the usual case): sign in with a name and the desk PIN. */
export const DESK_PIN_SIGN_IN: AppInfo['signIn'] = { method: 'desk-pin', ready: true, deskPinNeeds: 'current-pin', waitSeconds: 0, setUp: true };

export function unconfigured(): AppInfo {
  return { version: '0.1.0', mode: 'unconfigured', preferences: { idleLockMinutes: 5, language: 'en' }, signIn: { ...DESK_PIN_SIGN_IN, ready: false, deskPinNeeds: 'nothing', setUp: false } };
}
export function sandboxInfo(withSession = true): AppInfo {
  return {
    version: '0.1.0', mode: 'sandbox', activeProfile: SANDBOX_PROFILE,
    sandbox: { libraries: [
      { libraryId: 101, country: 'US', name: 'Riverside Public Library', cards: ['0012345', '0098765'] },
      { libraryId: 202, country: 'CA', name: 'Maple Valley Library', cards: ['CA-5555'] },
    ] },
    preferences: { idleLockMinutes: 5, language: 'en' },
    signIn: { ...DESK_PIN_SIGN_IN },
    // IT keeps six recent patrons at this desk (none by default: issue #35).
    recentPatrons: 6,
    ...(withSession ? { session: staffSession('JD') } : {}),
  };
}
export function partnerInfo(withSession = true): AppInfo {
  return {
    version: '0.1.0', mode: 'partner', activeProfile: PARTNER_PROFILE,
    preferences: { idleLockMinutes: 5, language: 'en' },
    signIn: { ...DESK_PIN_SIGN_IN, deskPinNeeds: 'partner-password', partnerProfile: 'Metro Library', partnerUsernameNeeded: false },
    ...(withSession ? { session: staffSession('AB') } : {}),
  };
}

export const PATRON: PatronView = {
  libraryId: 101,
  status: { borrowsRemaining: 3, borrowsAllowedPerMonth: 5, currentlyBorrowed: 2 },
  loans: [
    { contentId: 11, title: 'The River Road', format: 'EBOOK', dueAt: Date.UTC(2026, 2, 14, 12) },
    { contentId: 12, format: 'MUSIC' },
  ],
  holds: [
    { contentId: 21, title: 'Night Garden', status: 'WAITING', queuePosition: 4 },
    { contentId: 22, title: 'Stone Harbour', status: 'RESERVED', reserveUntil: Date.UTC(2026, 3, 2, 12), queuePosition: 0 },
  ],
  problems: [],
};

/** A sync page's status: nothing synced unless a test says otherwise. */
export function syncView(extra: Partial<SyncStatusView> = {}): SyncStatusView {
  return { available: true, sources: [], counts: { titles: 0, entitlements: [] }, warnings: [], fullPass: { everyDays: 7, setBy: 'default' }, catalogRefresh: { everyDays: 2, setBy: 'default' }, ...extra };
}

type FakeDesk = { [M in MethodName]: Mock<LendingDeskApi[M]> } & {
  on: Mock<LendingDeskApi['on']>;
  /** The call ids requests named themselves by, in order (the gateway's scopes: issue #34). */
  callIds: { method: MethodName; callId: string }[];
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void;
};

export function installFakeDesk(info: AppInfo): FakeDesk {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const fake = {
    appInfo: vi.fn(async () => ok(info)),
    listProfiles: vi.fn(async () => ok([SANDBOX_PROFILE, PARTNER_PROFILE])),
    useSandbox: vi.fn(async () => ok(sandboxInfo(false))),
    testPartnerConnection: vi.fn(async () => ok({ tokenMs: 42 })),
    savePartnerProfile: vi.fn(async () => ok(partnerInfo(false))),
    replaceCredentials: vi.fn(async () => ok(PARTNER_PROFILE)),
    forgetCredentials: vi.fn(async () => ok({ ...PARTNER_PROFILE, hasCredentials: false })),
    activateProfile: vi.fn(async () => ok(partnerInfo())),
    removeProfile: vi.fn(async () => ok(sandboxInfo())),
    updatePreferences: vi.fn(async (args) => ok({ idleLockMinutes: 5, language: 'en' as const, ...args })),
    // The desk PIN alone signs in as "desk PIN"; a name (per-staff PINs, or IT's list) as that member of staff.
    startShift: vi.fn(async (args) => ok(args.staffName
      ? staffSession(args.staffName, 'desk', 1_700_000_100_000)
      : { ...staffSession('', 'desk', 1_700_000_100_000), signedInWith: 'desk-pin' as const })),
    setDeskPin: vi.fn(async () => ok({ ...info, signIn: { ...info.signIn, ready: true } })),
    todaysActions: vi.fn(async () => ok([])),
    lockSession: vi.fn(async () => ok(null)),
    reportActivity: vi.fn(async () => ok(null)),
    lookupPatron: vi.fn(async () => ok(PATRON)),
    findCardElsewhere: vi.fn(async () => ok([])),
    borrow: vi.fn(),
    returnTitle: vi.fn(),
    placeHold: vi.fn(),
    removeHold: vi.fn(),
    liveSearch: vi.fn(),
    liveAvailability: vi.fn(async () => ok([])),
    listActions: vi.fn(async () => ok({ total: 0, entries: [], skipped: 0 })),
    exportActions: vi.fn(async () => ok({ fileName: 'lending-desk-actions-2026-03-01.csv', entries: [], skipped: 0 })),
    collectionBrowse: vi.fn(async () => ok({ total: 0, rows: [] })),
    collectionTitle: vi.fn(async () => ok(null)),
    collectionLiveAvailability: vi.fn(async () => ok([])),
    syncStatus: vi.fn(async () => ok(syncView())),
    syncNow: vi.fn(async () => ok(syncView())),
    // The desk's copy knows every title the fake search finds, each as one content of the same number (the spec's reading).
    // A desk on its own unless a test says otherwise (a desk in a library: issue #25).
    libraryMirror: vi.fn(async () => ok(null)),
    setLibraryMirrorPassword: vi.fn(),
    titleContents: vi.fn(async ({ titleIds }: { titleIds: number[] }) => ok(titleIds.map((titleId) => ({ titleId, contents: [{ contentId: titleId }] })))),
    cancelCalls: vi.fn(async () => ok(null)),
    readAuditTrail: vi.fn(async () => ok({ entries: [], total: 0 })),
    lookUpTitles: vi.fn(async ({ titleIds }: { titleIds: number[] }) => ok(titleIds.map((titleId) => ({ titleId, contents: [{ contentId: titleId }] })))),
    on: vi.fn((event: EventName, listener: (payload: never) => void) => {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    }),
    emit(event: EventName, payload: unknown) {
      for (const listener of listeners.get(event) ?? []) (listener as (p: unknown) => void)(payload);
    },
  } as unknown as FakeDesk;
  // The window's bridge: each method hands its argument to the mock (the assertions above read
  // calls as the contract's arguments); the call options a request names itself by (issue #34:
  // a call id main can cancel it by) are kept beside, in `callIds`.
  const bridge: Record<string, unknown> = { on: fake.on };
  for (const name of METHOD_NAMES) {
    bridge[name] = (args?: unknown, call?: { callId?: string }) => {
      if (call?.callId) fake.callIds.push({ method: name, callId: call.callId });
      return (fake[name] as (args?: unknown) => unknown)(args);
    };
  }
  fake.callIds = [];
  window.lendingDesk = bridge as unknown as LendingDeskApi;
  return fake;
}

let mounted: VueWrapper | undefined;

/** Mounts the whole app on a fake desk, attached to the document so focus is real. */
export async function mountApp(info: AppInfo) {
  // The previous test's app goes first: its document listeners (shortcuts, dialogs) would answer too.
  mounted?.unmount();
  mounted = undefined;
  const desk = installFakeDesk(info);
  const pinia = createPinia();
  setActivePinia(pinia);
  document.body.innerHTML = '<div id="root"></div>';
  const wrapper = mount(App, { attachTo: '#root', global: { plugins: [pinia, createDeskI18n()] } });
  mounted = wrapper;
  await flushPromises();
  return { wrapper, desk };
}

export function buttonNamed(wrapper: VueWrapper, name: string): DOMWrapper<HTMLButtonElement> {
  const found = wrapper.findAll<HTMLButtonElement>('button').find((b) => (b.attributes('aria-label') ?? b.text().trim()) === name);
  if (!found) throw new Error(`No button named "${name}"`);
  return found;
}

/** The input a <label> with exactly this text points at (what getByLabel would find). */
export function inputLabelled(name: string): HTMLInputElement | HTMLSelectElement {
  const label = [...document.querySelectorAll('label')].find((l) => l.textContent?.trim() === name || l.querySelector('span')?.textContent?.trim() === name);
  if (!label) throw new Error(`No label "${name}"`);
  const control = label.htmlFor ? document.getElementById(label.htmlFor) : label.querySelector('input, select');
  if (!control) throw new Error(`Label "${name}" points at nothing`);
  return control as HTMLInputElement | HTMLSelectElement;
}

/** The text of every non-empty live region with this role, as a screen reader would hear it. */
export function announced(role: 'alert' | 'status'): string[] {
  return [...document.querySelectorAll(`[role="${role}"]`)].map((e) => e.textContent?.trim() ?? '').filter((text) => text !== '');
}
