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
// Typed over every method name: a new method does not compile until it is placed here.
import type { MethodName } from '../shared/contract.ts';

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
  collectionRefreshAvailability: 'refused',
  syncStatus: 'refused',
  syncNow: 'refused',
  titleContents: 'refused',
};
