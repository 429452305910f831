// Everything main may ask of the mirror, and every answer. The mirror (the desk's copy of its
// libraries' titles) has one owner: a worker thread (mirror-owner.ts) that holds its file for
// every read and write. Main holds no database handle; it sends the requests below and awaits
// their answers (mirror-client.ts). A second back end — a library system's shared PostgreSQL,
// filled by a headless service running the same sync engine — implements the same halves.
//
// Three parts:
// - PageStore (sync/page-store.ts): what the sync engine (sync/engine.ts) asks of wherever pages
//   are stored. The owner keeps it on the mirror's file; the library server keeps the same
//   interface in PostgreSQL (server/page-store.ts), filled by the same engine.
// - Collection: what the desk asks of its own Collection (the library's titles on the desk):
//   browse, a title's details, rows, what a search hit's title id stands for, the mirror's status.
// - LibraryFill (issue #25): where IT's policy names the library system's mirror in PostgreSQL,
//   the owner itself reads what changed there since the change sequence it last stored, and
//   writes it with the same writes a partner page's records take (library-fill.ts). Main only
//   hands over the settings and the password; the reading happens on the owner's thread.
//
// Titles and availability are named by content id (shared/content-id.ts: a whole number, or a
// string such as an episode's in the published schema) in every call and answer; how a back
// end files them is its own affair.
//
// The protocol's ordering rules:
// 1. Requests are answered in the order they were sent (fillFromLibrary aside: rule 6), each
//    once (storePage twice: its head, then its end). A request sent after close() is refused.
// 2.-4. The page store's rules (sync/page-store.ts, opening comment): runs opened or resumed
//    per source, pages stored strictly in order (a page's head answered before it is stored, a
//    garbled page refused at its head and sent again), finishRun and failRun. Here "stored"
//    means on disk: a page and its run's cursor in one SQLite transaction.
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
import type { BrowseRow, CollectionPage, ContentFlag, Direction, SortKey, SourceState, SyncProgress, TitleContents, TitleDetail } from '../shared/collection.ts';
import type { ErrorInfo } from '../shared/errors.ts';
import type { ContentId, Country, Format, PurchaseModel } from '../shared/model.ts';
import type { Bytes } from './partner/bytes.ts';
import type { LibraryMirrorTarget } from './library-mirror/desk-session.ts';
import type { Asked, Call, PageHead, PageStore, PageStoreCalls } from './sync/page-store.ts';

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


export interface CollectionCalls {
  browse: Call<[query: BrowseQuery], CollectionPage>;
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
  /**
   * A page of the library's content read on demand (a search hit the mirror cannot resolve yet:
   * partner/client.ts libraryContentAround), filed as a sync's page files it, outside any run: no
   * source's cursor or state moves, and a later full run keeps or removes its titles as it sees
   * them. `readAt` dates the rows. Answers how many records the page carried.
   */
  fileLibraryContent: Call<[libraryId: number, bytes: Bytes, readAt: number], number>;
  /** Of these titles of the library, those with an entitlement and no record (a title newly entitled: page-store.ts, TitleRecords). */
  withoutRecord: Call<[libraryId: number, contentIds: ContentId[]], ContentId[]>;
  status: Call<[], MirrorStatus>;
}

// ---- the library fill: what a desk in a library asks ----

/** Where the library mirror is (IT's policy, electron/main/policy/library-mirror-policy.ts). */
export type { LibraryMirrorTarget } from './library-mirror/desk-session.ts';

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

export { LIBRARY_FILL_SOURCE } from '../shared/collection.ts';

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
  /** A call at least this long is logged as slow (the owner's default, SLOW_CALL_MS, unless a test asks for 0: every call). */
  slowCallMs?: number;
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

/** One statement's share of a call: its shape (the SQL with every literal a placeholder: mirror-owner/query-trace.ts), how often it ran, for how long. */
export interface StatementTime { sql: string; runs: number; ms: number }

/** A call the owner took long over: its name and time and the statements that took it, never its arguments (mirror-owner/slow-calls.ts). */
export interface SlowCall {
  call: MirrorCall;
  ms: number;
  /** The slowest few, slowest first. */
  statements: StatementTime[];
  /** Slow calls of the same name since the last entry that were not logged on their own. */
  alsoSlow?: number;
}

/** An entry for main's app log: the owner has no log file of its own (as Signal Desktop's database worker posts its log lines). */
export interface OwnerLogEntry { event: 'mirror.slow-call'; fields: SlowCall }

/** Owner → main, beside the replies: an entry for the app log. */
export interface MirrorLog { kind: 'log'; entry: OwnerLogEntry }

export const MIRROR_CALLS: readonly MirrorCall[] = [
  'states', 'openRun', 'storePage', 'finishRun', 'failRun', 'storeAvailability', 'browse', 'title', 'rows', 'titleContents', 'fileLibraryContent', 'withoutRecord', 'status', 'fillFromLibrary', 'close',
];

export const isMirrorCall = (value: unknown): value is MirrorCall => (MIRROR_CALLS as readonly unknown[]).includes(value);
