// What the contract answers while the desk is locked (no shift open). Everything that touches a
// patron, the catalog, the action log and its export, connection profiles, credentials, the
// idle lock's minutes or the clipboard refuses with `session-locked`; open are only the sign-in
// itself, locking, the desk PIN (which asks for its own proof and counts wrong tries like a
// sign-in), the app's description (no patron data in it while locked) and the renderer's
// activity heartbeat (it only keeps an open shift open). The language alone
// may be changed (a bilingual desk signs in in its own language: nothing about a patron in it).
// The first-run methods answer while no connection is set up on a desk nobody set up yet: nothing
// about any patron is reachable then, and setting up a partner connection proves itself with the
// partner password. On a desk that was set up, a settings.json edited to name no connection opens
// nothing: staff sign in first.
// This table is the desk's one lock check: DeskService exposes each contract method only through
// gateWhileLocked, so no area checks the shift itself and no method can forget to. Typed over
// every method name: a new method does not compile until it is placed here; one missing all the
// same is refused while locked, and fails tests/unit/main/desk/lock-gate.test.ts.
import { METHOD_NAMES, type CallOptions, type DeskHandlers, type MethodName } from '../../shared/contract.ts';
import { DeskError } from '../../shared/desk-error.ts';
import { countsAsActivity } from './idle-clock.ts';

export type WhileLocked = 'open' | 'before-any-connection' | 'language-only' | 'refused';

export const WHILE_LOCKED: Readonly<Record<MethodName, WhileLocked>> = {
  appInfo: 'open',
  startShift: 'open',
  lockSession: 'open',
  reportActivity: 'open',
  setDeskPin: 'open',
  useSandbox: 'before-any-connection',
  testPartnerConnection: 'before-any-connection',
  savePartnerProfile: 'before-any-connection',
  listProfiles: 'refused',
  replaceCredentials: 'refused',
  forgetCredentials: 'refused',
  libraryMirror: 'refused',
  setLibraryMirrorPassword: 'refused',
  // Which server, and whether this desk is enrolled: nothing about a patron. Enrolment proves itself
  // with IT's one-time code, and is what a desk in a library needs before anyone can sign in.
  libraryServer: 'open',
  enrolDesk: 'open',
  readAuditTrail: 'refused',
  activateProfile: 'refused',
  removeProfile: 'refused',
  updatePreferences: 'language-only',
  copyText: 'refused',
  lookupPatron: 'refused',
  findCardElsewhere: 'refused',
  borrow: 'refused',
  returnTitle: 'refused',
  placeHold: 'refused',
  removeHold: 'refused',
  liveSearch: 'refused',
  liveAvailability: 'refused',
  listActions: 'refused',
  exportActions: 'refused',
  todaysActions: 'refused',
  collectionBrowse: 'refused',
  collectionTitle: 'refused',
  collectionLiveAvailability: 'refused',
  syncStatus: 'refused',
  syncNow: 'refused',
  titleContents: 'refused',
  // Cancelling only stops calls the renderer made; a locked desk has none it wants an answer to.
  cancelCalls: 'open',
  lookUpTitles: 'refused',
};

/** What the gate asks of the desk. */
export interface LockState {
  onShift(): boolean;
  /** No connection is active on a desk nobody set up yet: the first-run methods answer. */
  firstRunOpen(): Promise<boolean>;
  /** A call staff made on shift (idle-clock.ts): main's own idle lock counts it. */
  activity(): void;
}

/**
 * Every contract method behind the one check, whoever calls it (the IPC registry, the test host, a
 * bench). On shift the method starts in the same turn as the check: nothing can lock the desk
 * between them.
 */
export function gateWhileLocked(handlers: DeskHandlers, state: LockState): DeskHandlers {
  const gated: Partial<Record<MethodName, (args: unknown, call?: CallOptions) => Promise<unknown>>> = {};
  for (const name of METHOD_NAMES) {
    const handler = handlers[name] as (args: unknown, call?: CallOptions) => Promise<unknown>;
    const rule: WhileLocked | undefined = WHILE_LOCKED[name];
    const activity = countsAsActivity(name);
    gated[name] = async (args, call) => {
      if (rule !== 'open' && !state.onShift()) await admitWhileLocked(name, rule, args, state);
      if (activity) state.activity();
      return call === undefined ? handler(args) : handler(args, call);
    };
  }
  return gated as DeskHandlers;
}

async function admitWhileLocked(method: MethodName, rule: WhileLocked | undefined, args: unknown, state: LockState): Promise<void> {
  // The first-run methods answer while locked only on a desk nobody set up yet: on one that was,
  // a settings.json edited to name no connection must not let anyone add one (or re-address one).
  if (rule === 'before-any-connection' && (await state.firstRunOpen())) return;
  if (rule === 'language-only' && Object.entries(args as Record<string, unknown>).every(([key, value]) => key === 'language' || value === undefined)) return;
  throw new DeskError('session-locked', `${method}: the desk is locked.`, undefined, { reason: 'session.locked', params: {} });
}
