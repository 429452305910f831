// The one contract between renderer and main: every method the renderer may call, the
// runtime schema of its argument, and its result type. The preload's bridge, the main
// registry, the Chromium test host and the renderer's typings all derive from METHODS, so a
// method or channel name is written here once and nowhere else.

import { z } from 'zod';
import { ACTION_OUTCOME_FILTERS, type ActionEntry } from './action-log.ts';
import { CONTENT_FLAGS, DIRECTIONS, SORT_KEYS, TITLE_LOOKUPS_AT_ONCE, type ServiceMismatch, type BrowseRow, type CollectionPage, type SourceState, type SyncProgress, type TitleContents, type TitleDetail } from './collection.ts';
import type { ErrorInfo, ErrorParams } from './errors.ts';
import type { Availability, Hold, Loan, PatronStatus, SearchPage } from './model.ts';
import { COUNTRIES, FORMATS, type Country } from './model.ts';
import type { Reason } from './reasons.ts';
import { baseUrlProblem, cardProblem, CONTROL_CHARS, INVISIBLE_CHARS } from './text-rules.ts';
import { contentIdOf, MAX_CONTENT_ID_LENGTH, type ContentId } from './content-id.ts';
import type { LibraryRules } from './card-rules.ts';
import type { StaffPermissions, StaffRole } from './staff.ts';

// ---- argument schemas ----
// A custom rule's message is a reason key (shared/reasons.ts): dispatch turns it into the
// refusal's reason, with the field it concerns.

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/**
 * A content id as main gave it to the renderer: a whole number, or a string the service gave
 * (an episode's), in its one form (content-id.ts: "123" becomes 123). Anything else names no
 * content and is refused before it could reach a path.
 */
const contentId = z.union([id, z.string().max(MAX_CONTENT_ID_LENGTH)]).transform((value, ctx): ContentId => {
  const parsed = contentIdOf(value);
  if (parsed === undefined) {
    ctx.addIssue({ code: 'custom', message: 'input.title-id' satisfies Reason });
    return z.NEVER;
  }
  return parsed;
});
/** Names and ids staff type: control and invisible direction characters would reach the logs and the action log. */
const plain = (max: number) => z.string().trim().min(1).max(max);
const text = (max: number) => plain(max).refine((value) => !CONTROL_CHARS.test(value) && !INVISIBLE_CHARS.test(value), {
  message: 'input.hidden-characters' satisfies Reason,
});
/** A title from the catalog, kept for the action log: direction marks can belong to it, line breaks and controls cannot. */
const titleText = z.string().max(500).transform((value) => value.replace(new RegExp(`${CONTROL_CHARS.source}+`, 'g'), ' ').trim());
const card = z.string().superRefine((value, ctx) => {
  const problem = cardProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}).transform((value) => value.trim());
/** Refused here, with a sentence that does not repeat it: the transport's own check would quote the whole address. */
const baseUrl = plain(500).superRefine((value, ctx) => {
  const problem = baseUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
/** Profile ids are made from names (settings/schema.ts): anything else names no profile, and must not be quoted back. */
const profileId = plain(40).refine((value) => /^[a-z0-9-]+$/.test(value), {
  message: 'input.no-such-profile-id' satisfies Reason,
});
/** Sent as the `ws-api` header: a version such as 2.1, or empty to leave the header out. */
const wsApi = z.string().trim().max(10).refine((value) => /^[A-Za-z0-9._-]*$/.test(value), {
  message: 'input.ws-api' satisfies Reason,
}).default('2.1');

const patronArgs = z.strictObject({ libraryId: id, card });

// ---- the shared desk: PINs and the action log's filters ----
/**
 * A PIN as typed at the lock screen; never a control character (they would reach nothing but a
 * hash, yet are no keyboard's). Its length and the other rules (shared/pin-rules.ts) are main's to
 * apply: a per-staff PIN IT hashed before the rules gets a sentence telling staff to ask IT.
 */
const pin = z.string().min(1).max(64).refine((value) => !CONTROL_CHARS.test(value), { message: 'input.hidden-characters' satisfies Reason });
/** A desk PIN chosen on the desk: shared by a whole desk, so at least 6 characters (and the rules main applies). */
const newDeskPin = z.string().min(6).max(64).refine((value) => !CONTROL_CHARS.test(value), { message: 'input.hidden-characters' satisfies Reason });
const moment = z.number().int().min(0).max(8_640_000_000_000_000);
const actionFilter = {
  /** The last characters of a card, as the log shows them (up to four). */
  cardEnding: z.string().trim().regex(/^[0-9A-Za-z]{1,4}$/, { message: 'input.card-ending' satisfies Reason }).optional(),
  staff: text(60).optional(),
  /** From this moment (ms since 1970), inclusive. */
  from: moment.optional(),
  /** Before this moment, exclusive. */
  to: moment.optional(),
  outcome: z.enum(ACTION_OUTCOME_FILTERS).optional(),
};
const titleArgs = z.strictObject({ libraryId: id, card, contentId, title: titleText.optional() });
const credentialsArgs = {
  username: text(200),
  password: z.string().min(1).max(1000),
};
const libraryRef = z.strictObject({ libraryId: id, name: z.string().trim().max(80).optional() });
const partnerProfileArgs = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/).optional(),
  name: text(80),
  baseUrl,
  libraries: z.array(libraryRef).min(1).max(20),
  wsApi,
  country: z.enum(COUNTRIES),
});

const none = z.undefined();

/**
 * How the renderer names a call it may cancel (cancelCalls): sent beside the arguments, never
 * inside them. Only reads heed it (a lookup, a search, availability, a Collection query).
 */
export interface CallOptions { callId?: string }
/** A call id: short, plain, the renderer's own. */
export const CALL_ID = /^[A-Za-z0-9_-]{1,64}$/;

// ---- result types ----

export type { ActionEntry, Country };
export type Language = 'en' | 'fr-CA';

export interface LibraryView { libraryId: number; name?: string }

export interface ProfileView {
  id: string;
  name: string;
  kind: 'sandbox' | 'partner';
  baseUrl: string;
  libraries: LibraryView[];
  wsApi: string;
  country: Country;
  hasCredentials: boolean;
  /**
   * The saved password: `for-other-address` when it was entered for another service address
   * than the profile's (an edited address, a re-added name): it is not sent, and staff are
   * asked to enter the password for this address.
   */
  credentials: 'saved' | 'missing' | 'for-other-address';
  /**
   * Its address or libraries are not what the desk recorded when staff saved it: settings.json was
   * edited outside the desk. It is refused, and staff are never asked its password (they remove it
   * and add it again).
   */
  changedOutside?: true;
}

export interface SandboxView {
  libraries: { libraryId: number; country: string; name: string; cards: string[] }[];
}

export interface AppInfo {
  version: string;
  /** `unconfigured` shows the first-run page. */
  mode: 'unconfigured' | 'sandbox' | 'partner';
  activeProfile?: ProfileView;
  /** Demo patrons, only while the sandbox is in use (training). */
  sandbox?: SandboxView;
  preferences: Preferences;
  session?: StaffSession;
  signIn: SignInView;
  /** Why the settings file was not used, when it was not. */
  settingsProblem?: { reason: Reason; params?: ErrorParams };
  /** What the machine-wide policy file decides; shown as "set by your library's IT". */
  managed?: ManagedView;
  /** Windows: installed for all users of the computer (MSI or per-machine): IT installs new versions, the desk never updates itself. */
  installedForAllUsers?: boolean;
  /** Each library's name, card rules and item barcodes from IT's policy (issue #35): the card field refuses what breaks them before any request. */
  libraryRules?: LibraryRules[];
  /** How many recent patrons' chips the card field keeps during a shift (IT's policy; 0: none). */
  recentPatrons?: number;
}

export interface ManagedView {
  profiles: boolean;
  /** Preset connections: staff cannot edit or remove them. */
  lockedProfileIds: string[];
  idleLockMinutes: boolean;
  sandboxOffered: boolean;
  /** Whether the sandbox may be chosen on this computer. */
  sandboxAvailable: boolean;
  /** Whether staff may add, re-address or remove connections (not where IT's policy forbids it, nor while a policy is refused). */
  profileEditing: boolean;
  updates: boolean;
  /** The update mode in force: `off` when the policy asked for `auto` and this build refused it. */
  updateMode: 'auto' | 'it-managed' | 'off';
  /** A machine policy exists but was refused (wrong owner, writable by users, malformed, too large, a setting with a value it may not have): nobody signs in. */
  policyIgnored?: Required<Pick<ErrorInfo, 'reason' | 'params'>>;
  /** Settings in the policy this version does not know: ignored (a newer template must not lock out an older desk), and listed for IT. */
  unknownSettings?: string[];
  /** Why this build refused the policy's `auto` updates. */
  updatesRefused?: Required<Pick<ErrorInfo, 'reason' | 'params'>>;
}

/** The library mirror IT's policy names (issue #25), as Settings shows it; never the password. */
export interface LibraryMirrorView {
  /** host:port/database */
  server: string;
  user: string;
  /** `settings`: the password may be typed in Settings; `keychain`: only IT's tooling sets it. */
  passwordEntry: 'keychain' | 'settings';
  passwordSaved: boolean;
}

/** A desk in a library (issue #31): the library server IT's policy names, and whether this desk is enrolled there. */
export interface LibraryServerView {
  /** The instances' host:port, as staff and IT read them. */
  server: string;
  enrolled: boolean;
  /** The workstation's id at the server, once enrolled (IT's list-desks names it). */
  workstationId?: string;
}

/** An entry of the library server's audit trail (issue #32), as a manager reads it: the card masked. */
export interface AuditTrailEntry {
  at: number;
  staffName?: string;
  staffRole?: string;
  workstationName?: string;
  /** lookup, borrow, return, place-hold, remove-hold, sign-in, sign-in-refused, sign-out, audit-read, audit-export, purge. */
  action: string;
  libraryId?: number;
  cardMasked?: string;
  contentId?: string;
  title?: string;
  /** sent, done, refused, not-done, unknown. */
  outcome: string;
}
export interface AuditTrailPage { entries: AuditTrailEntry[]; total: number }

export interface Preferences { idleLockMinutes: number; language: Language }

/** How staff unlock this desk, for the lock and shift-start screens. */
export interface SignInView {
  /** Per-staff PINs set by IT in the policy, the one desk PIN set on this desk, or staff accounts at the library server (issue #32). */
  method: 'staff-pins' | 'desk-pin' | 'library-server';
  /** False until a desk PIN is set (the desk then asks for one before the first shift), and while IT's policy is refused. */
  ready: boolean;
  /**
   * What setting or changing the desk PIN takes: IT's policy (not here), the partner password of a
   * connection set up before this shift, the current PIN (a sandbox-only desk), nothing (a
   * sandbox-only desk's first PIN), the next shift (every partner connection was added or
   * re-addressed in this one), or IT (nothing here can prove it).
   */
  deskPinNeeds: 'policy' | 'partner-password' | 'current-pin' | 'nothing' | 'next-shift' | 'it';
  /** False only on the first run: a locked desk that was ever set up shows its sign-in, never the first-run page. */
  setUp: boolean;
  /** IT's policy exists but was refused: nobody signs in until IT fixes it (managed.policyIgnored says which rule). */
  policyRefused?: true;
  /** The desk's sign-in record in the keychain was missing or not one it wrote: it waits to be set up again. */
  reestablish?: 'missing' | 'not-the-desks-own';
  /** Whether the partner password alone is enough (saved here) or the partner username is needed too (it will be tested against the service and saved). */
  partnerUsernameNeeded?: boolean;
  /** The connection whose partner password is asked for. */
  partnerProfile?: string;
  /** Seconds before another try is taken after too many wrong ones (0: now). */
  waitSeconds: number;
  /** With the desk PIN: the names staff may choose from (IT's policy); without them the desk PIN signs in with no name. */
  deskPinNames?: string[];
}
export interface StaffSession {
  /** The name as IT wrote it (per-staff PINs, or chosen from IT's list with the desk PIN); '' for the desk PIN alone. */
  staffName: string;
  startedAt: number;
  /** Issue #35: how this shift signed in, its role and what that lets it do (main's shift area decides; screens only read `may`). */
  signedInWith: 'staff-pin' | 'desk-pin' | 'library-server';
  role: StaffRole;
  may: StaffPermissions;
}

export interface PatronView {
  libraryId: number;
  status: PatronStatus;
  loans: Loan[];
  holds: Hold[];
  /** Parts that could not be loaded, with why; the rest is still shown. */
  problems: { part: 'status' | 'loans' | 'holds'; error: ErrorInfo }[];
}

export type { BrowseRow, SourceState, TitleContents, TitleDetail };

export interface ActionOutcome<T> { value: T; confirmedByReread: boolean }

/** A card not known at one library, tried at another of the profile's: known there, not known, or not checked (why). */
export interface CardElsewhere { libraryId: number; known: boolean; error?: ErrorInfo }

/** The action log as staff see it: newest first; cards masked. */
export interface ActionPage {
  total: number;
  entries: ActionEntry[];
  /** Entries that could not be read (torn by a crash, altered, or written under another key): skipped and counted, never fatal. */
  skipped: number;
  /** The log was changed outside the desk (a line removed, reordered or copied in, cut short, an older copy): when it was found. The app log says where. */
  changedAt?: number;
}

/** What an export carries: every entry the filter matches, oldest first; the renderer writes the CSV in the desk's language. */
export interface ActionExport { fileName: string; entries: ActionEntry[]; skipped: number; changedAt?: number }

// ---- the methods ----

/** A method's argument schema and (type-only) result. */
interface Method<A extends z.ZodType, R> { args: A; result?: R }
/** Curried so the argument schema's type is inferred while the result type is named. */
const method = <R>() => <A extends z.ZodType>(args: A): Method<A, R> => ({ args });

export const METHODS = {
  appInfo: method<AppInfo>()(none),
  listProfiles: method<ProfileView[]>()(none),
  useSandbox: method<AppInfo>()(none),
  testPartnerConnection: method<{ tokenMs: number }>()(z.strictObject({
    baseUrl, wsApi, ...credentialsArgs,
  })),
  savePartnerProfile: method<AppInfo>()(z.strictObject({ profile: partnerProfileArgs, ...credentialsArgs })),
  replaceCredentials: method<ProfileView>()(z.strictObject({ profileId, ...credentialsArgs })),
  forgetCredentials: method<ProfileView>()(z.strictObject({ profileId })),
  activateProfile: method<AppInfo>()(z.strictObject({ profileId })),
  removeProfile: method<AppInfo>()(z.strictObject({ profileId })),
  updatePreferences: method<Preferences>()(z.strictObject({
    idleLockMinutes: z.number().int().min(1).max(240).optional(),
    language: z.enum(['en', 'fr-CA']).optional(),
  })),
  /**
   * Unlocks the desk: the name staff type and their PIN (per-staff from the policy), or the desk PIN
   * with, where IT's policy lists names, the one chosen (any other name is not recorded: "desk PIN").
   */
  startShift: method<StaffSession>()(z.strictObject({ staffName: text(60).optional(), pin })),
  /** Sets or changes the desk PIN, with what SignInView.deskPinNeeds says: the partner password (and username when none is saved) or the current PIN. */
  setDeskPin: method<AppInfo>()(z.strictObject({
    pin: newDeskPin,
    currentPin: pin.optional(),
    partnerUsername: text(200).optional(),
    partnerPassword: z.string().min(1).max(1000).optional(),
  })),
  lockSession: method<null>()(z.strictObject({ reason: z.enum(['idle', 'staff']) })),
  /** The renderer's heartbeat while someone uses the window: main's own idle lock counts it (idle-clock.ts). */
  reportActivity: method<null>()(none),
  /** Puts text staff asked for (a due-date slip, a card) on the system clipboard; the lock clears it if still there. */
  copyText: method<null>()(z.strictObject({ text: z.string().min(1).max(20_000), purpose: z.enum(['slip', 'card']) })),
  lookupPatron: method<PatronView>()(patronArgs),
  /** The card at every other library of the active profile, in parallel (`libraryId` is where it was not known). */
  findCardElsewhere: method<CardElsewhere[]>()(patronArgs),
  borrow: method<ActionOutcome<Loan>>()(titleArgs),
  returnTitle: method<ActionOutcome<null>>()(titleArgs),
  placeHold: method<ActionOutcome<Hold>>()(titleArgs),
  removeHold: method<ActionOutcome<null>>()(titleArgs),
  liveSearch: method<SearchPage>()(z.strictObject({
    libraryId: id,
    q: text(200),
    offset: z.number().int().min(0).max(10_000).default(0),
    limit: z.number().int().min(1).max(100).default(20),
    kidsMode: z.boolean().default(false),
    formats: z.array(z.enum(FORMATS)).max(6).optional(),
    purchaseModel: z.enum(['INSTANT', 'FLEX']).optional(),
  })),
  listActions: method<ActionPage>()(z.strictObject({
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(500).default(100),
    ...actionFilter,
  })),
  /** For managers only, with their PIN typed again (`pin`: main refuses without it). */
  exportActions: method<ActionExport>()(z.strictObject({ ...actionFilter, pin: pin.optional() }).default({})),
  /** Today's actions at this desk for the patron on screen (matched on the whole card, which the log keeps only as a keyed hash). */
  todaysActions: method<ActionEntry[]>()(patronArgs),
  collectionBrowse: method<CollectionPage>()(z.strictObject({
    libraryId: id,
    text: z.string().max(200).optional(),
    formats: z.array(z.enum(FORMATS)).max(6).optional(),
    model: z.enum(['INSTANT', 'FLEX']).optional(),
    active: z.boolean().optional(),
    availableNow: z.boolean().optional(),
    /** Issue #35: only titles with no copy free when last read (a hold waits). */
    noCopyFree: z.boolean().optional(),
    kids: z.boolean().optional(),
    /** Content flags a title must carry, and flags it must not (issue #34: samples, explicit language, edited versions). */
    flags: z.array(z.enum(CONTENT_FLAGS)).max(3).optional(),
    withoutFlags: z.array(z.enum(CONTENT_FLAGS)).max(3).optional(),
    sort: z.enum(SORT_KEYS).optional(),
    direction: z.enum(DIRECTIONS).optional(),
    offset: z.number().int().min(0).max(10_000_000).default(0),
    limit: z.number().int().min(1).max(500).default(100),
    /** A search's count in full however large (asked off the typing path); otherwise "1,000+". */
    exactCount: z.boolean().optional(),
  })),
  collectionTitle: method<TitleDetail | null>()(z.strictObject({ libraryId: id, contentId })),
  collectionLiveAvailability: method<BrowseRow[]>()(z.strictObject({ libraryId: id, contentIds: z.array(contentId).min(1).max(500) })),
  syncStatus: method<SyncStatusView>()(none),
  /** `entitlementsOnly` with `full`: the full entitlement pass (what the library holds, read whole; what the service no longer lists goes). */
  syncNow: method<SyncStatusView>()(z.strictObject({ full: z.boolean().default(false), entitlementsOnly: z.boolean().default(false) })),
  /** A desk in a library (issue #25): which library mirror IT's policy names, and whether its role's password is kept here; null on a desk on its own. */
  libraryMirror: method<LibraryMirrorView | null>()(none),
  /** Keeps the library mirror role's password in the keychain, where IT's policy lets it be typed in Settings (`passwordEntry: 'settings'`). */
  setLibraryMirrorPassword: method<LibraryMirrorView>()(z.strictObject({ password: z.string().min(1).max(1000) })),
  /** A desk in a library (issue #31): the library server IT's policy names and whether this desk is enrolled there; null on a desk on its own. */
  libraryServer: method<LibraryServerView | null>()(none),
  /** Trades IT's one-time enrolment code for this desk's workstation credentials, kept in the keychain. */
  enrolDesk: method<LibraryServerView>()(z.strictObject({ code: z.string().trim().min(4).max(64) })),
  /**
   * A manager reads the library server's audit trail (issue #32): the server checks the role and
   * records the read. One patron's entries by the whole card (with its library), and `export`
   * (every matching entry, for a CSV, with the manager's PIN again), are a manager's on the desk too.
   */
  readAuditTrail: method<AuditTrailPage>()(z.strictObject({
    from: moment.optional(), to: moment.optional(), staff: text(60).optional(),
    libraryId: id.optional(), card: card.optional(),
    offset: z.number().int().min(0).max(1_000_000).default(0), limit: z.number().int().min(1).max(500).default(50),
    export: z.boolean().optional(), pin: pin.optional(),
  }).refine((args) => args.card === undefined || args.libraryId !== undefined, { message: 'input.not-valid' satisfies Reason })),
  liveAvailability: method<Availability[]>()(z.strictObject({ libraryId: id, contentIds: z.array(contentId).min(1).max(500) })),
  /** What each search hit's titleId stands for in the desk's mirror: the content ids it may borrow (never the titleId itself). */
  titleContents: method<TitleContents[]>()(z.strictObject({ libraryId: id, titleIds: z.array(id).min(1).max(100) })),
  /** Calls whose answers the renderer no longer wants (a superseded lookup or query, issue #34): named by the call ids it gave them. */
  cancelCalls: method<null>()(z.strictObject({ callIds: z.array(z.string().regex(CALL_ID)).min(1).max(100) })),
  /**
   * Hits the desk's copy cannot resolve yet, looked up on the service now (a fresh desk during its
   * first sync; a title newer than the last sync): one small request each, then resolved as
   * titleContents resolves them. A desk in a library asks its library mirror instead.
   */
  lookUpTitles: method<TitleContents[]>()(z.strictObject({ libraryId: id, titleIds: z.array(id).min(1).max(TITLE_LOOKUPS_AT_ONCE) })),
} as const;


export type MethodName = keyof typeof METHODS;
export const METHOD_NAMES = Object.keys(METHODS) as MethodName[];

export type ArgsOf<M extends MethodName> = z.input<(typeof METHODS)[M]['args']>;
export type ParsedArgsOf<M extends MethodName> = z.output<(typeof METHODS)[M]['args']>;
export type ResultOf<M extends MethodName> = Exclude<(typeof METHODS)[M]['result'], undefined>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

// ---- events from main ----

export type { SyncProgress };

/** The mirror's state for the Sync page. */
export interface SyncStatusView {
  /** False until a connection is active. */
  available: boolean;
  sources: SourceState[];
  counts: { titles: number; entitlements: { libraryId: number; model: 'INSTANT' | 'FLEX'; active: number; total: number }[] };
  running?: SyncProgress;
  /** What the service said beside each source's pages in its last run (`metadata.warnings`), this session. */
  warnings: { source: string; warnings: string[] }[];
  /** What the service answered at odds with the desk's question this session (issue #34), the newest last; absent before any connection. */
  mismatches?: { at: number; mismatch: ServiceMismatch }[];
  /**
   * The full entitlement pass (issue #24): every `everyDays` (IT's policy, or the default week),
   * when it last ran over every library (`lastAt`), how many entitlements it removed as no longer
   * listed, and when it is next due.
   */
  fullPass: { everyDays: number; setBy: 'policy' | 'default'; lastAt?: number; nextAt?: number; removed?: number };
  /** The catalog refresh a desk on its own runs by itself (catalog-refresh.ts): its rule, the oldest source's last success, the next run. */
  catalogRefresh: { everyDays: number; setBy: 'policy' | 'default'; lastAt?: number; nextAt?: number };
  /**
   * A desk in a library (issue #25): its Collection comes from the library mirror named by IT's
   * policy (`server`: host:port/database), never from the partner; the source `library-mirror`
   * says when it was last filled and why the last attempt failed.
   */
  libraryMirror?: { server: string };
}

export type { CollectionPage };
export interface EventPayloads {
  /** `shift-length`: the shift reached IT's longest (policy maxShiftHours, 12 hours without it). */
  /** `server`: the library server ended the shift (its length, or IT ended it). */
  sessionLocked: { reason: 'idle' | 'staff' | 'system' | 'shift-length' | 'server' };
  syncProgress: SyncProgress;
  /** The library server expects a staff call to wait this long for its turn (the credential's limit is reached). */
  serviceWait: { seconds: number };
}
export type EventName = keyof EventPayloads;
export const EVENT_NAMES: EventName[] = ['sessionLocked', 'syncProgress', 'serviceWait'];

export const channelOf = (name: MethodName | EventName): string => `lending-desk:${name}`;

// ---- the renderer's view: window.lendingDesk ----

type ArgList<M extends MethodName> = undefined extends ArgsOf<M> ? [args?: ArgsOf<M>, call?: CallOptions] : [args: ArgsOf<M>, call?: CallOptions];
export type LendingDeskApi = { [M in MethodName]: (...args: ArgList<M>) => Promise<Result<ResultOf<M>>> } & {
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
};

/** What main (or the test host) implements: arguments arrive already parsed; a cancellable read gets its call's options. */
export type DeskHandlers = { [M in MethodName]: (args: ParsedArgsOf<M>, call?: CallOptions) => Promise<ResultOf<M>> };
