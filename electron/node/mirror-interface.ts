// Everything main may ask of the mirror, and every answer. The mirror (the desk's copy of its
// libraries' titles) has one owner: a worker thread (mirror-owner.ts) that holds its file for
// every read and write. Main holds no database handle; it sends the requests below and awaits
// their answers (mirror-client.ts). A second back end — a library system's shared PostgreSQL,
// filled by a headless service running the same sync engine — implements the same halves.
//
// Two halves, and a third way in for a desk in a library:
// - PageStore: what the sync engine (sync.ts) asks of wherever pages are stored. It names no
//   database concept: runs, numbered pages of bytes as the service sent them, a cursor, counts.
//   The engine depends on this half only.
// - Collection: what the desk asks of its own Collection (the library's titles on the desk):
//   browse, a title's details, rows, what a search hit's title id stands for, the mirror's status.
// - LibraryFill (issue #25): where IT's policy names the library system's mirror in PostgreSQL,
//   the owner itself reads what changed there since the change sequence it last stored, and
//   writes it with the same writes a partner page's records take (library-source.ts). Main only
//   hands over the settings and the password; the reading happens on the owner's thread.
//
// Titles and availability are named by content id (shared/content-id.ts: a whole number, or a
// string such as an episode's in the published schema) in every call and answer; how a back
// end files them is its own affair.
//
// The protocol's ordering rules:
// 1. Requests are answered in the order they were sent (fillFromLibrary aside: rule 6), each
//    once (storePage twice: its head, then its end). A request sent after close() is refused.
// 2. A run is opened per source (openRun). While a source has a run under way — in this life of
//    the store or an earlier one, cut short by a crash or a cancelled pull — openRun resumes it:
//    the same run, from the token after its last stored page. Only one run of a source is open
//    at a time; opening it again takes over (pages of the earlier opening are refused).
// 3. Pages of a run are numbered from 1 in the order of the pull and stored strictly in that
//    order. A page is answered first with its head (the next token, read from the page itself,
//    so the pull may ask for the next page while this one is stored), then with `stored` once it
//    and its run's cursor are on disk together: after a crash the run resumes from the first page
//    not stored. A page that cannot be read (not JSON, not a page) is refused at its head with
//    'bad-response' and the run still waits for that number: send it again. A page that cannot be
//    stored is refused at its end, and so is every later page of the run, until openRun.
// 4. finishRun, after the last page: a full run removes what it did not see and says how much;
//    the source's state then keeps when its last full run succeeded and what it removed
//    (SourceState.lastFullAt, lastFullRemoved).
//    failRun records why a run stopped; a cancelled pull records nothing (its run stays under way
//    and resumes). The engine decides which before it sends either.
// 5. A Collection read answers from what is stored when it is served; while a run is under way
//    a library's in-memory order may be up to a few seconds older than the last page (its rows
//    are read as stored), so staff browsing during a sync are not held up by rebuilds.
// 6. fillFromLibrary is answered when the fill ends, which may be after requests sent later:
//    while it waits on PostgreSQL the owner answers them (each batch of changes is written in one
//    transaction between two of them). One fill at a time: a second joins the first.
// 7. A Collection read may be cancelled (issue #34: a newer query took its place): main sends
//    `{ cancel: id }` and answers the caller itself at once; if the owner has not begun the read
//    yet, it drops it and answers it `call.cancelled`, spending no time on it. A read it has begun
//    runs to its end (its answer is dropped). Only Collection reads are ever cancelled.
import type { BrowseRow, CatalogPage, ContentFlag, Direction, SortKey, SourceState, SyncProgress, TitleContents, TitleDetail } from '../shared/collection.ts';
import type { ErrorInfo } from '../shared/errors.ts';
import type { Availability, ContentId, Country, Format, PurchaseModel } from '../shared/model.ts';

// ---- the page store: what the sync engine asks ----

/** What a run pulls: its kind of pages and where they go. */
export type SyncSource =
  | { kind: 'global' } // the service's global catalog
  | { kind: 'entitlements'; libraryId: number; model: PurchaseModel }
  | { kind: 'library-content'; libraryId: number } // records and entitlements in one pull
  /** Flex entitlements changed since the last refresh, stored as entitlements; their ids come back for availability. */
  | { kind: 'availability-refresh'; libraryId: number };

/** A source's name in the mirror's state and the Sync view ('global', 'entitlements:101:FLEX', 'library-content:101', 'availability:101'). */
export function sourceName(source: SyncSource): string {
  switch (source.kind) {
    case 'global': return 'global';
    case 'entitlements': return `entitlements:${source.libraryId}:${source.model}`;
    case 'library-content': return `library-content:${source.libraryId}`;
    case 'availability-refresh': return `availability:${source.libraryId}`;
  }
}

export interface RunRequest {
  source: SyncSource;
  /** A delta: changes since this time (epoch ms). Absent: a full run, which removes at its end what it did not see. */
  since?: number;
  /** When this run started (epoch ms): its success is dated from it. */
  startedAt: number;
}

/** An open run, as openRun answers it. */
export interface Run {
  /** Names this opening of the run in every later call. */
  run: number;
  source: string;
  /** Where the pull starts: the token after the last stored page (absent: the first page). */
  startToken?: string;
  /** The delta base of this run (absent: full); a resumed run keeps its own. */
  since?: number;
  /** Items stored by this run before this opening. */
  itemsBefore: number;
  /** Its end builds what takes a while (the search index after a full run of titles): the engine says so. */
  buildsAtEnd: boolean;
}

/** What a page says of the pull, read by the store from the page itself. */
export interface PageHead {
  next?: string;
  totalCount?: number;
  /** Records the page carried (removals included). */
  items: number;
  /** An availability-refresh page: the entitled titles it changed (not those it removed). */
  changedContentIds?: ContentId[];
  /** What the service said beside the page (`metadata.warnings`), for the Sync view and the log. */
  warnings?: string[];
}

export interface PageStored {
  items: number;
  /** An entitlements page: titles whose own record gave another purchase model than the pull's filter (it won), by which record. */
  disagreements?: { found: PurchaseModel; by: 'record' | 'catalog'; count: number }[];
  /** An entitlements page: titles the library's other pull listed too, in its latest run, with no record to tell the model (the filter was ignored). */
  unsettled?: ContentId[];
}

/** What storing availability changed beyond it: entitlements whose model content info gave otherwise (content info's own word wins). */
export interface AvailabilityStored {
  relabelled: { from: PurchaseModel; to: PurchaseModel; count: number }[];
}

export interface RunEnd {
  /** What a full run removed for not having seen it (0 after a delta). */
  removed: { titles: number; entitlements: number };
}

/** Why a run stopped, for the Sync view (the code, a reason the locale words) and the log (the English message). */
export type RunFailure = Pick<ErrorInfo, 'code' | 'message' | 'reason' | 'params'>;

/** A page on its way into the store: its head, then its end (rule 3). */
export interface StoringPage {
  head: Promise<PageHead>;
  stored: Promise<PageStored>;
}

// ---- the Collection: what the desk asks ----

export interface BrowseQuery {
  libraryId: number;
  text?: string;
  formats?: Format[];
  model?: PurchaseModel;
  active?: boolean;
  availableNow?: boolean;
  /** No copy free when last read: a hold would wait (issue #35). */
  noCopyFree?: boolean;
  kids?: boolean;
  /** Content flags a title must carry, and flags it must not (issue #34). */
  flags?: ContentFlag[];
  withoutFlags?: ContentFlag[];
  sort?: SortKey;
  direction?: Direction;
  offset: number;
  limit: number;
  /** A search's exact count however large (off the typing path); otherwise it stops above the cap ("1,000+"). */
  exactCount?: boolean;
}

export interface MirrorCounts {
  titles: number;
  entitlements: { libraryId: number; model: PurchaseModel; active: number; total: number }[];
}

/** The mirror's own work on an existing file (an upgrade from an earlier version), while it goes on. */
export interface MirrorUpkeep {
  progress: SyncProgress;
}

export interface MirrorStatus {
  sources: SourceState[];
  counts: MirrorCounts;
  upkeep?: MirrorUpkeep;
}

// ---- the calls, as one map: the protocol's messages and both halves derive from it ----

interface Call<A extends unknown[], R> { args: A; answer: R }

export interface PageStoreCalls {
  /** Every source's state. */
  states: Call<[], SourceState[]>;
  /** Opens a run of the source, or resumes the one under way (rule 2). */
  openRun: Call<[request: RunRequest], Run>;
  /** Page `page` (from 1) of the run, as the service sent it; `bytes` is moved, not copied (rule 3). */
  storePage: Call<[run: number, page: number, bytes: ArrayBuffer], PageStored>;
  finishRun: Call<[run: number], RunEnd>;
  failRun: Call<[run: number, failure: RunFailure, at: number], void>;
  /** Availability as the service gave it at `readAt`, for these of the library's titles (an `unknown` answer stores nothing). */
  storeAvailability: Call<[libraryId: number, items: Availability[], readAt: number], AvailabilityStored>;
}

export interface CollectionCalls {
  browse: Call<[query: BrowseQuery], CatalogPage>;
  /** A title's details as the library holds it; undefined when the library has no such title. */
  title: Call<[libraryId: number, contentId: ContentId], TitleDetail | undefined>;
  /** The rows of these titles of the library, in this order (those it does not hold left out). */
  rows: Call<[libraryId: number, contentIds: ContentId[]], BrowseRow[]>;
  /**
   * What each search hit's title id stands for: the contents filed under it (a title's own, or
   * a series' episodes) with the library's entitlement where it has one — or why not (no run of
   * titles has succeeded yet; the title is not in the mirror). A title id is never a content id.
   */
  titleContents: Call<[libraryId: number, titleIds: number[]], TitleContents[]>;
  status: Call<[], MirrorStatus>;
}

// ---- the library fill: what a desk in a library asks ----

/** Where the library mirror is (IT's policy, electron/main/policy/library-mirror-policy.ts). */
export interface LibraryMirrorTarget {
  host: string;
  port: number;
  database: string;
  /** The desks' read-only role. */
  user: string;
  /** The CA that issued the server's certificate (absent: the system's trusted CAs). */
  caFile?: string;
}

export interface LibraryFillRequest {
  target: LibraryMirrorTarget;
  /** The role's password, from the keychain (main reads it for each fill: IT may change it); absent when none is kept there. */
  password?: string;
  /** The desk's libraries (their entitlements and availability), and the countries its profile serves (titles). */
  libraries: number[];
  countries: Country[];
  startedAt: number;
  /** Changes read per batch (DEFAULT_CHANGES_LIMIT unless a test asks for smaller). */
  batchSize?: number;
}

export interface LibraryFillResult {
  /** The change sequence stored: the next fill asks for what changed after it. */
  through: number;
  /** Changes read and written by this fill. */
  changes: number;
  /** The first fill of this mirror (it built the search index at its end). */
  first: boolean;
  /** Bytes read from PostgreSQL's connection by this fill (TLS records included): what a fill costs the network, for IT's sizing. */
  bytesRead: number;
}

export { LIBRARY_SOURCE } from '../shared/collection.ts';

export interface LibraryFillCalls {
  fillFromLibrary: Call<[request: LibraryFillRequest], LibraryFillResult>;
}

export interface MirrorCalls extends PageStoreCalls, CollectionCalls, LibraryFillCalls {
  /** The last request: the owner lets its file go. */
  close: Call<[], void>;
}

export type MirrorCall = keyof MirrorCalls;
export type ArgsOf<K extends MirrorCall> = MirrorCalls[K]['args'];
export type AnswerOf<K extends MirrorCall> = MirrorCalls[K]['answer'];

type Asked<C> = { [K in keyof C]: C[K] extends Call<infer A, infer R> ? (...args: A) => Promise<R> : never };

/** The sync engine's half. */
export type PageStore = Omit<Asked<PageStoreCalls>, 'storePage'> & {
  storePage(run: number, page: number, bytes: ArrayBuffer): StoringPage;
};

/** The desk's half: each read may be cancelled by a signal (rule 7). */
export type Collection = { [K in keyof CollectionCalls]: CollectionCalls[K] extends Call<infer A, infer R> ? (...args: [...A, signal?: AbortSignal]) => Promise<R> : never }
  & { close(): Promise<void> };

/** A desk in a library's way in. */
export type LibraryFill = Asked<LibraryFillCalls>;

/** Everything, as main holds the mirror. */
export type MirrorInterface = PageStore & Collection & LibraryFill;

// ---- the messages ----

/** What the owner's thread is started with (its workerData). */
export interface OwnerOptions {
  databasePath: string;
  /** Free disk space the mirror leaves (the owner's default, DISK_SPACE_KEPT_FREE, unless a test asks for more). */
  diskSpaceKeptFree?: number;
}

/** Main → owner. `id` numbers requests; answers carry it back. */
export type MirrorRequest = { [K in MirrorCall]: { id: number; call: K; args: ArgsOf<K> } }[MirrorCall];

/** Owner → main: a storePage's head, any request's answer, or its refusal. */
/** Main → owner: a read main no longer wants (rule 7). */
export interface MirrorCancel { cancel: number }

/** The Collection's reads: the only requests ever cancelled (rule 7). */
export const CANCELLABLE_CALLS: readonly MirrorCall[] = ['browse', 'title', 'rows', 'titleContents'];

export type MirrorReply =
  | { id: number; kind: 'head'; head: PageHead }
  | { id: number; kind: 'answer'; answer: AnswerOf<MirrorCall> }
  | { id: number; kind: 'refused'; error: ErrorInfo };

export const MIRROR_CALLS: readonly MirrorCall[] = [
  'states', 'openRun', 'storePage', 'finishRun', 'failRun', 'storeAvailability', 'browse', 'title', 'rows', 'titleContents', 'status', 'fillFromLibrary', 'close',
];

export const isMirrorCall = (value: unknown): value is MirrorCall => (MIRROR_CALLS as readonly unknown[]).includes(value);
