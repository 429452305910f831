// The page store: what the sync engine (engine.ts) asks of wherever pages are stored — the
// desk's mirror, in SQLite on its owner thread (electron/mirror-owner/page-store.ts, reached from
// main through the mirror's messages: electron/node/mirror-interface.ts), or the library mirror,
// in PostgreSQL on the library server (server/page-store.ts). It names no database concept:
// runs, numbered pages of bytes as the service sent them, a cursor, counts. The engine depends on
// this file alone for its store, and the same engine fills both (tests/unit/node/sync/ runs its
// tests against both stores).
//
// The rules every page store keeps (the mirror's protocol repeats them as its rules 2 to 4):
// - A run is opened per source (openRun). While a source has a run under way — in this life of
//   the store or an earlier one, cut short by a crash or a cancelled pull — openRun resumes it:
//   the same run, from the token after its last stored page. Only one run of a source is open
//   at a time; opening it again takes over (pages of the earlier opening are refused).
// - Pages of a run are numbered from 1 in the order of the pull and stored strictly in that
//   order. A page is answered first with its head (the next token, read from the page itself,
//   so the pull may ask for the next page while this one is stored), then with `stored` once it
//   and its run's cursor are kept together: after a crash the run resumes from the first page
//   not stored. A page that cannot be read (not JSON, not a page) is refused at its head with
//   'bad-response' and the run still waits for that number: send it again. A page that cannot be
//   stored is refused at its end, and so is every later page of the run, until openRun.
// - finishRun, after the last page: a full run removes what it did not see and says how much;
//   the source's state then keeps when its last full run succeeded and what it removed
//   (SourceState.lastFullAt, lastFullRemoved). failRun records why a run stopped; a cancelled
//   pull records nothing (its run stays under way and resumes). The engine decides which before
//   it sends either.
import type { Bytes } from '../partner/bytes.ts';
import type { SourceState } from '../../shared/collection.ts';
import type { ErrorInfo } from '../../shared/errors.ts';
import type { Availability, ContentId, PurchaseModel } from '../../shared/model.ts';

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

/** A page on its way into the store: its head, then its end (the second rule above). */
export interface StoringPage {
  head: Promise<PageHead>;
  stored: Promise<PageStored>;
}

/** One call: its arguments and its answer (the mirror's messages derive from such maps too). */
export interface Call<A extends unknown[], R> { args: A; answer: R }

/** A map of calls, each as an async method. */
export type Asked<C> = { [K in keyof C]: C[K] extends Call<infer A, infer R> ? (...args: A) => Promise<R> : never };

export interface PageStoreCalls {
  /** Every source's state. */
  states: Call<[], SourceState[]>;
  /** Opens a run of the source, or resumes the one under way (the first rule above). */
  openRun: Call<[request: RunRequest], Run>;
  /** Page `page` (from 1) of the run, as the service sent it; `bytes` is moved, not copied (the second rule above). */
  storePage: Call<[run: number, page: number, bytes: Bytes], PageStored>;
  finishRun: Call<[run: number], RunEnd>;
  failRun: Call<[run: number, failure: RunFailure, at: number], void>;
  /** Availability as the service gave it at `readAt`, for these of the library's titles (an `unknown` answer stores nothing). */
  storeAvailability: Call<[libraryId: number, items: Availability[], readAt: number], AvailabilityStored>;
}

/**
 * A store that can say which of a library's titles have never had their availability read: the
 * library server's, which reads every entitled Flex title's once after a full sync (then the
 * 10-minute changes), so a library desk's Collection shows availability for every title.
 */
export interface UnreadAvailability {
  /** Up to `limit` of the library's active Flex titles with no availability read, in content id order, after `after` (keyset paging). */
  unreadAvailability(libraryId: number, after: string | undefined, limit: number): Promise<ContentId[]>;
}

/**
 * A store that files a title's record read on its own: the desk's mirror. A Flex title newly
 * entitled comes to the 10-minute refresh as a bare entitlement (an id, no title, cover or link);
 * its record is read there and then (a page of the library's content starting just before it),
 * so the Collection never shows it bare until the next catalog delta. The library server's
 * titles come with its own catalog deltas.
 */
export interface TitleRecords {
  /** Of these titles of the library, those the store holds an entitlement for but no record. */
  withoutRecord(libraryId: number, contentIds: ContentId[]): Promise<ContentId[]>;
  /** A page of the library's content read on demand, filed outside any run; answers its records. */
  fileLibraryContent(libraryId: number, bytes: Bytes, readAt: number): Promise<number>;
}

export const filesTitleRecords = (store: object): store is TitleRecords => 'withoutRecord' in store && 'fileLibraryContent' in store;

/** The page store as the engine holds it. */
export type PageStore = Omit<Asked<PageStoreCalls>, 'storePage'> & {
  storePage(run: number, page: number, bytes: Bytes): StoringPage;
};

/** An opening of a run in this life of a store (rule 2), as both stores keep it. */
export interface RunOpening {
  source: SyncSource;
  name: string;
  /** The run's start (epoch ms): its identity in the store's cursor and in every row it writes. */
  runStartedAt: number;
  full: boolean;
  nextPage: number;
  /** A page of this opening could not be stored: the rest are refused. */
  broken: boolean;
}
