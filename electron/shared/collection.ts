// What the desk shows of the mirror (the Collection and Sync views): rows, a title's
// record, sync state and progress, and how staff may sort it. The mirror (electron/mirror-owner/)
// produces the rows; the contract, the mirror's interface and the renderer's store share these.
import type { ErrorCode, ErrorParams } from './errors.ts';
import type { Reason } from './reasons.ts';
import type { AvailabilityStatus, CatalogRecord, ContentId, Format, PurchaseModel } from './model.ts';

/**
 * The content flags the Collection filters on (issue #34), from the record: a sample (the service's
 * `demo`), explicit language (`profanity`), an edited version (`edited`). Children's titles have
 * their own filter; fixed layout is known only from a live search result.
 */
export const CONTENT_FLAGS = ['sample', 'profanity', 'edited'] as const;
export type ContentFlag = (typeof CONTENT_FLAGS)[number];

/** The Collection's sort columns: the contract checks a browse against this list, and the mirror and the store type with it. */
export const SORT_KEYS = ['title', 'artist', 'format', 'availability', 'year'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const DIRECTIONS = ['asc', 'desc'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export interface SourceState {
  source: string;
  inProgress: boolean;
  nextToken?: string;
  runSince?: number;
  runStartedAt?: number;
  lastSuccessAt?: number;
  lastAttemptAt?: number;
  /** English, for the log; staff read the sentence for `lastErrorReason`, or else for `lastErrorCode`. */
  lastError?: string;
  lastErrorCode?: ErrorCode;
  lastErrorReason?: Reason;
  lastErrorParams?: ErrorParams;
  items: number;
  /** When the source's last full run succeeded (a full run drops what the service no longer lists). */
  lastFullAt?: number;
  /** How many rows that run dropped as no longer listed (an entitlement source's removals no delta marked). */
  lastFullRemoved?: number;
}

/**
 * An answer of the service that disagrees with what the desk asked (issue #34: the spec leaves
 * its filters and answers open, so nothing is trusted), as the log and the Sync view show it:
 * - `model`: titles the library's entitlements listed under one purchase model (the filter
 *   asked) whose own record (`by`: the entitlement record, the catalog record's only licence, or
 *   content info for the library) says the other; the record wins.
 * - `filter-ignored`: titles both of a library's entitlement pulls listed (Instant and Flex): the
 *   service ignores the filter, and content info told their model instead.
 * - `content-info`: a content info answer about ids the desk did not ask (not used), and ids
 *   asked twice that it never answered (shown as unknown); `ids` a few of them, for the log.
 */
export type ServiceMismatch =
  | { kind: 'model'; libraryId: number; asked: PurchaseModel; found: PurchaseModel; count: number; by: 'record' | 'catalog' | 'content-info' }
  | { kind: 'filter-ignored'; libraryId: number; count: number }
  | { kind: 'content-info'; libraryId: number; unasked: number; unanswered: number; ids: string[] };

/** The step a sync reports besides its sources: building the search index. */
export const SEARCH_INDEX_STEP = 'search-index';
/** A desk in a library (issue #25): the source that fills its Collection from the library mirror; its last success is how old the Collection is. */
export const LIBRARY_FILL_SOURCE = 'library-mirror';
/** The mirror's own step, shown in the Sync view: a mirror an earlier version wrote, brought up to this one. */
export const MIRROR_UPGRADE_STEP = 'mirror-upgrade';

/**
 * `source` names what is being read, as SourceState.source does ('global',
 * 'entitlements:101:FLEX', 'availability:101', 'library-content:101'), or SEARCH_INDEX_STEP or
 * MIRROR_UPGRADE_STEP: the renderer words it in the desk's language.
 */
export interface SyncProgress { source: string; done: number; total?: number; ratePerSecond?: number; etaSeconds?: number }

export interface RowAvailability {
  status?: AvailabilityStatus;
  availableCopies?: number;
  totalCopies?: number;
  holdsQueueSize?: number;
  /** Where content info gives it (its shown example does not). */
  holdsQueuePosition?: number;
  readAt: number;
}

export interface BrowseRow {
  contentId: ContentId;
  title?: string;
  artist?: string;
  format?: Format;
  year?: number;
  coverImageUrl?: string;
  purchaseModel: PurchaseModel;
  active: boolean;
  availability?: RowAvailability;
  /** The content flags the title carries (absent: none). */
  flags?: ContentFlag[];
}

export interface TitleDetail {
  /** Undefined when the global record has not been mirrored (the entitlement arrived first). */
  record?: CatalogRecord;
  contentId: ContentId;
  purchaseModel: PurchaseModel;
  active: boolean;
  availability?: RowAvailability;
}

/** A content a search hit stands for, as the desk's mirror has it. */
export interface TitleContent {
  contentId: ContentId;
  title?: string;
  season?: number;
  episode?: number;
  /** Running time in seconds, where the record gives one. */
  seconds?: number;
  /** The library's entitlement, when the copy holds one (a newer one may not be synced yet). */
  purchaseModel?: PurchaseModel;
  active?: boolean;
}

/**
 * What a search hit's titleId stands for in the desk's mirror: its contents (one,
 * or a series' episodes), or why the desk cannot tell (no copy synced yet; the title not in it).
 * The desk never borrows by the titleId itself: on the service it may be another content's id.
 */
export type TitleContents =
  | { titleId: number; contents: TitleContent[] }
  | { titleId: number; unresolved: TitleUnresolved };

/**
 * Why a hit is not resolved: no run of titles has succeeded yet; the title is not in the copy;
 * or it was looked up on the service just now (lookUpTitles) and the library's list holds no
 * title under that number — an episode of a series may still be found by its own ids.
 */
export type TitleUnresolved = 'no-mirror' | 'not-in-mirror' | 'not-found-by-id';

/** Hits looked up on the service at once, at most: each costs one request of the credential's minute. */
export const TITLE_LOOKUPS_AT_ONCE = 5;

/** A page of the Collection browser. */
export interface CollectionPage {
  /** How many titles match; with `atLeast`, a search matched more than this and was not counted further (shown as "1,000+"). */
  total: number;
  rows: BrowseRow[];
  atLeast?: true;
  /** While titles copied by an earlier version of the desk get their search words (0–1): search finds only those done so far. */
  searchUpgrade?: number;
}
