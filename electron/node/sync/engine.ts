// The sync engine: pulls the global catalog, each library's entitlements (Instant and Flex)
// or its library content, and availability, into a page store (page-store.ts): the desk's mirror
// (its owner thread, through main's mirror client) or the library mirror in PostgreSQL (the
// library server). It runs where the partner client is — the desk's main, on the connection's
// background client (one token, one request budget, one Retry-After gate), or the library
// server's leader — and only fetches: each page's bytes go to the store as they came, and the
// store reads them once and answers with the page's next token (its head), then once the page
// is stored.
//
// Every source resumes from its stored page token; a full run removes what it did not see, a
// delta applies exactly what changed (the service's own removals and deactivations included).
// A failure keeps the last good data and records what went wrong and when. A cancelled sync
// (its signal aborted: the connection closed) records nothing, whatever it was doing: the
// request on the wire is aborted, and the run stays under way to resume from its last stored
// page. Which of the two it was is decided in one place (`settle`), from the signal alone.
import type { Logger } from '../logging/logger.ts';
import type { Bytes } from '../partner/bytes.ts';
import type { BulkPull, PartnerClient } from '../partner/client.ts';
import { DeskError } from '../../shared/desk-error.ts';
import { BATCH_LIMIT, CONTENT_INFO_BATCH } from '../partner/limits.ts';
import { SEARCH_INDEX_STEP, type ServiceMismatch, type SyncProgress } from '../../shared/collection.ts';
import type { ContentId, Country, PurchaseModel } from '../../shared/model.ts';
import { filesTitleRecords, sourceName, type AvailabilityStored, type PageHead, type PageStore, type PageStored, type RunEnd, type RunFailure, type SyncSource, type UnreadAvailability } from './page-store.ts';

export type { SyncProgress };

/** Deltas start this much before the last successful run, as real clients do, to miss nothing. */
export const DELTA_MARGIN_MS = 120_000;
/** Pages handed to the store and not yet stored, at most: the store reads and writes while the next page is fetched. */
const PAGES_AHEAD_OF_THE_STORE = 3;

export interface SyncRequest {
  countries: Country[];
  libraries: number[];
  source: 'global+entitlements' | 'library-content';
  full?: boolean;
  /**
   * Only the sources that say what the library holds (its entitlements, or its library content):
   * with `full`, the scheduled full entitlement pass, which drops what the service no longer
   * lists when no delta marked the removal. The global catalog is left as it is.
   */
  entitlementsOnly?: boolean;
  /** Records per page (BATCH_LIMIT, the most the service allows, unless a test asks for smaller pages). */
  pageSize?: number;
}

export interface SyncContext {
  /** The connection's background client: its requests pass the connection's request budget. */
  client: PartnerClient;
  store: PageStore;
  now: () => number;
  onProgress?: (progress: SyncProgress) => void;
  /** Aborted: the sync is cancelled, not failed. */
  signal: AbortSignal;
  /** What the service said beside a page (`metadata.warnings`, read with the page's head): for the Sync view and the log. */
  onWarnings?: (source: string, warnings: string[]) => void;
  /** An answer that disagrees with what was asked (a record's purchase model against the filter, a filter ignored): for the Sync view and the log. */
  onMismatch?: (mismatch: ServiceMismatch) => void;
  /**
   * Each page fetched only once the one before it is stored, and none asked for ahead: the
   * library server's way, whose share of the credential spaces its requests a second or more
   * apart (fetching ahead gains nothing), and whose leader, killed mid-sync, leaves its successor
   * at most the one page it was storing to fetch again. The desk overlaps fetching and storing.
   */
  onePageAtATime?: boolean;
  /** Each run's start, pages, end or failure (the library server's JSON-lines log; the desk's Sync view has them from the store). */
  log?: Logger;
}

export const MODELS: PurchaseModel[] = ['INSTANT', 'FLEX'];

/** Errors of the store itself (it could not keep a page): every other source would meet them too. */
const storeRefusals = new WeakSet<object>();

export async function runSync(ctx: SyncContext, request: SyncRequest): Promise<void> {
  const failures: unknown[] = [];
  const attempt = async (work: () => Promise<unknown>): Promise<void> => {
    try {
      await work();
    } catch (error) {
      if (ctx.signal.aborted || storeRefusals.has(error as object)) throw error;
      failures.push(error);
    }
  };
  const limit = request.pageSize ?? BATCH_LIMIT;
  if (request.source === 'global+entitlements') {
    if (!request.entitlementsOnly) {
      await attempt(() => syncSource(ctx, { kind: 'global' }, request.full, undefined,
        (startToken, since) => ({ kind: 'global', countries: request.countries, limit, startToken, since })));
    }
    for (const libraryId of request.libraries) {
      const unsettled = new Set<ContentId>();
      for (const model of MODELS) {
        await attempt(async () => {
          const end = await syncSource(ctx, { kind: 'entitlements', libraryId, model }, request.full, undefined,
            (startToken, since) => ({ kind: 'entitlements', libraryId, purchaseModel: model, limit, startToken, since }));
          reportModels(ctx, libraryId, model, end.disagreements);
          for (const id of end.unsettled) unsettled.add(id);
        });
      }
      // Both pulls listed these, and nothing on the records said which model: the service ignores
      // the filter (the spec does not name it). Content info gives each one's model for the library.
      if (unsettled.size > 0) {
        ctx.onMismatch?.({ kind: 'filter-ignored', libraryId, count: unsettled.size });
        await attempt(() => readAvailability(ctx, libraryId, [...unsettled]));
      }
    }
  } else {
    for (const libraryId of request.libraries) {
      await attempt(() => syncSource(ctx, { kind: 'library-content', libraryId }, request.full, undefined,
        (startToken, since) => ({ kind: 'library-content', libraryId, limit, startToken, since })));
    }
  }
  if (failures.length > 0) throw allOf(failures);
}

/**
 * The spec's 10-minute recipe: the Flex entitlements delta since the last successful refresh
 * (Instant titles are always available while active), its content ids to content info 50 a
 * call, the answers stored with the time they were read.
 */
export async function refreshChangedAvailability(ctx: SyncContext, libraryId: number): Promise<number> {
  const changed = new Set<ContentId>();
  // The first refresh starts from the entitlements run that filled the mirror, not from zero:
  // availability of unchanged titles is read when staff look at them.
  const baseline = (await ctx.store.states()).find((s) => s.source === sourceName({ kind: 'entitlements', libraryId, model: 'FLEX' }))?.lastSuccessAt;
  const end = await syncSource(ctx, { kind: 'availability-refresh', libraryId }, false, baseline,
    // In the largest pages the service allows, so the changed ids cost few calls.
    (startToken, since) => ({ kind: 'entitlements', libraryId, purchaseModel: 'FLEX', limit: BATCH_LIMIT, startToken, since }),
    (head) => { for (const id of head.changedContentIds ?? []) changed.add(id); });
  reportModels(ctx, libraryId, 'FLEX', end.disagreements);
  // The unsettled are among the changed: content info, read for all of them, gives their model too.
  if (end.unsettled.length > 0) ctx.onMismatch?.({ kind: 'filter-ignored', libraryId, count: end.unsettled.length });
  await readAvailability(ctx, libraryId, [...changed]);
  await readMissingRecords(ctx, libraryId, [...changed]);
  return changed.size;
}

/** Records read per refresh at most, one request each; the rest come with the next catalog delta. */
export const RECORDS_READ_PER_REFRESH = 50;

/**
 * The records of titles newly entitled that the store holds no record for (page-store.ts,
 * TitleRecords), each read as one page of the library's content starting just before its id.
 * A store that does not file records one at a time is left as it is.
 */
async function readMissingRecords(ctx: SyncContext, libraryId: number, contentIds: ContentId[]): Promise<void> {
  const { store } = ctx;
  if (contentIds.length === 0 || !filesTitleRecords(store)) return;
  const missing = (await store.withoutRecord(libraryId, contentIds)).filter((id): id is number => typeof id === 'number');
  for (const contentId of missing.slice(0, RECORDS_READ_PER_REFRESH)) {
    ctx.signal.throwIfAborted();
    const page = await ctx.client.libraryContentAround(libraryId, contentId, ctx.signal);
    await store.fileLibraryContent(libraryId, page, ctx.now());
  }
  if (missing.length > 0) ctx.log?.info('records-read', { libraryId, missing: missing.length, read: Math.min(missing.length, RECORDS_READ_PER_REFRESH) });
}

/**
 * Availability for every active Flex title of the library never read yet (the library server's,
 * after a full sync), 50 ids a call. Resumable: a title read is not unread any more, so a pass
 * cut short goes on where it stopped. A title the service leaves out of its answer stays unread
 * and is not asked again in this pass. Answers how many titles were asked about.
 */
export async function readUnreadAvailability(ctx: SyncContext & { store: PageStore & UnreadAvailability }, libraryId: number): Promise<number> {
  let asked = 0;
  let after: string | undefined;
  for (;;) {
    ctx.signal.throwIfAborted();
    const ids = await ctx.store.unreadAvailability(libraryId, after, UNREAD_PAGE);
    if (ids.length === 0) return asked;
    await readAvailability(ctx, libraryId, ids);
    asked += ids.length;
    after = String(ids.at(-1));
    if (ids.length < UNREAD_PAGE) return asked;
  }
}

/** Unread titles asked for at a time: ten content-info calls' worth. */
const UNREAD_PAGE = CONTENT_INFO_BATCH * 10;

/** Content info for these ids, 50 a call (each call passes the connection's budget). */
export async function readAvailability(ctx: SyncContext, libraryId: number, contentIds: ContentId[]): Promise<void> {
  // Titles content info gave another model than the mirror held: said once for the whole read, not per call.
  const relabelled = new Map<string, { from: PurchaseModel; to: PurchaseModel; count: number }>();
  try {
    await readAvailabilityInBatches(ctx, libraryId, contentIds, (stored) => {
      for (const r of stored.relabelled) {
        const tally = relabelled.get(`${r.from} ${r.to}`) ?? { ...r, count: 0 };
        tally.count += r.count;
        relabelled.set(`${r.from} ${r.to}`, tally);
      }
    });
  } finally {
    for (const { from, to, count } of relabelled.values()) ctx.onMismatch?.({ kind: 'model', libraryId, asked: from, found: to, count, by: 'content-info' });
  }
}

async function readAvailabilityInBatches(ctx: SyncContext, libraryId: number, contentIds: ContentId[], onStored: (stored: AvailabilityStored) => void): Promise<void> {
  for (let i = 0; i < contentIds.length; i += CONTENT_INFO_BATCH) {
    const batch = contentIds.slice(i, i + CONTENT_INFO_BATCH);
    const items = await ctx.client.contentInfo(libraryId, batch, ctx.signal);
    ctx.signal.throwIfAborted();
    onStored(await ctx.store.storeAvailability(libraryId, items, ctx.now()));
    ctx.onProgress?.({ source: sourceName({ kind: 'availability-refresh', libraryId }), done: Math.min(i + CONTENT_INFO_BATCH, contentIds.length), total: contentIds.length });
  }
}

/** Titles an entitlement pull of `asked` listed whose own record said another model (it won): one report per model and record. */
function reportModels(ctx: SyncContext, libraryId: number, asked: PurchaseModel, disagreements: SourceEnd['disagreements']): void {
  for (const { found, by, count } of disagreements) ctx.onMismatch?.({ kind: 'model', libraryId, asked, found, count, by });
}

/** A source's run as it ended, with what its pages' records said against the filter asked (entitlements). */
interface SourceEnd extends RunEnd {
  disagreements: NonNullable<PageStored['disagreements']>;
  unsettled: ContentId[];
}

/**
 * One source, resumable: its run opened (or resumed) in the store, its pages pulled from the
 * run's token and handed to the store in order, at most PAGES_AHEAD_OF_THE_STORE of them not
 * yet stored, then the run finished — or failed, or (cancelled) left to resume.
 */
async function syncSource(
  ctx: SyncContext, source: SyncSource, full: boolean | undefined, firstSince: number | undefined,
  pull: (startToken: string | undefined, since: number | undefined) => BulkPull,
  onHead?: (head: PageHead) => void,
): Promise<SourceEnd> {
  const { store, now, signal } = ctx;
  const name = sourceName(source);
  const state = (await store.states()).find((s) => s.source === name);
  const base = state?.lastSuccessAt ?? firstSince;
  const since = full || base === undefined ? undefined : base - DELTA_MARGIN_MS;
  signal.throwIfAborted();
  const run = await store.openRun({ source, ...(since === undefined ? {} : { since }), startedAt: now() });
  const started = now();
  let done = run.itemsBefore;
  let total: number | undefined;
  let page = 0;
  const pagesAhead = ctx.onePageAtATime ? 1 : PAGES_AHEAD_OF_THE_STORE;
  // A run resumed after its last page was stored (its cursor ended, the end not yet done) only has its end left.
  const onlyEndLeft = run.itemsBefore > 0 && run.startToken === undefined;
  ctx.log?.info(run.itemsBefore > 0 ? 'run-resumed' : 'run-started', {
    source: name, full: run.since === undefined, ...(run.since === undefined ? {} : { since: new Date(run.since).toISOString() }),
    ...(run.itemsBefore > 0 ? { itemsBefore: run.itemsBefore } : {}),
  });
  const storing: Promise<PageStored>[] = [];
  const disagreements = new Map<string, NonNullable<PageStored['disagreements']>[number]>();
  const unsettled: ContentId[] = [];
  /** Progress as each page is stored (they are, in order), whether or not the pull is waiting for the store. */
  const report = (stored: PageStored, number: number, last: boolean): void => {
    for (const d of stored.disagreements ?? []) {
      const tally = disagreements.get(`${d.found} ${d.by}`) ?? { ...d, count: 0 };
      tally.count += d.count;
      disagreements.set(`${d.found} ${d.by}`, tally);
    }
    unsettled.push(...(stored.unsettled ?? []));
    done += stored.items;
    ctx.log?.info('page-stored', { source: name, page: number, count: stored.items, last });
    const seconds = (now() - started) / 1000;
    const rate = seconds > 0 ? (done - run.itemsBefore) / seconds : undefined;
    ctx.onProgress?.({
      source: name, done, ...(total === undefined ? {} : { total }), ...(rate === undefined ? {} : { ratePerSecond: Math.round(rate) }),
      ...(total !== undefined && rate ? { etaSeconds: Math.max(0, Math.round((total - done) / rate)) } : {}),
    });
  };
  /** The oldest page handed over, stored; a refusal there is the store's own (a page refused at its head never waits here). */
  const oldestStored = async (): Promise<void> => {
    try {
      await storing.shift();
    } catch (error) {
      storeRefusals.add(error as object);
      throw error;
    }
  };
  const take = async (bytes: Bytes): Promise<PageHead> => {
    while (storing.length >= pagesAhead) await oldestStored();
    const number = page + 1;
    const handed = store.storePage(run.run, number, bytes);
    let last = false;
    const stored = handed.stored.then((answer) => {
      report(answer, number, last);
      return answer;
    });
    stored.catch(() => {}); // awaited in order; not an unhandled rejection meanwhile
    const head = await handed.head; // a garbled page is refused here: the pull asks for it again, as the same page
    page++;
    last = head.next === undefined;
    storing.push(stored);
    if (ctx.onePageAtATime) await oldestStored();
    total ??= head.totalCount;
    if (head.warnings) {
      ctx.onWarnings?.(name, head.warnings);
      for (const warning of head.warnings) ctx.log?.warn('page-warning', { source: name, page, warning });
    }
    onHead?.(head);
    return head;
  };
  try {
    if (!onlyEndLeft) {
      for await (const _head of ctx.client.bulkPages(pull(run.startToken, run.since), take, signal, { ahead: !ctx.onePageAtATime })) { /* each page is handed on in `take` */ }
    }
    while (storing.length > 0) await oldestStored();
    if (run.buildsAtEnd) ctx.onProgress?.({ source: SEARCH_INDEX_STEP, done });
    const end = await store.finishRun(run.run);
    // (Named so: the log drops any field called `titles`, lest a title's name reach it.)
    ctx.log?.info('run-finished', { source: name, pages: page, removedTitles: end.removed.titles, removedEntitlements: end.removed.entitlements });
    return { ...end, disagreements: [...disagreements.values()], unsettled };
  } catch (error) {
    // A page the store refused to keep stops the run before any page after it (which the store
    // refuses for that reason): that refusal is what went wrong.
    const earlier = (await Promise.allSettled(storing)).find((s) => s.status === 'rejected');
    if (earlier) storeRefusals.add(earlier.reason as object);
    const cause: unknown = earlier ? earlier.reason : error;
    await settle(ctx, run.run, cause);
    ctx.log?.warn('run-failed', { source: name, page, message: cause instanceof Error ? cause.message : String(cause) });
    throw cause;
  }
}

/**
 * The one place a stopped run is judged: cancelled (the signal is aborted) records nothing and
 * throws the cancellation; anything else is recorded as the run's failure. Nothing is awaited
 * between the look at the signal and the request that records, so a cancellation that comes
 * after that look finds the failure already decided, and one that comes before is never
 * recorded.
 */
async function settle(ctx: SyncContext, run: number, error: unknown): Promise<void> {
  ctx.signal.throwIfAborted();
  await ctx.store.failRun(run, failureOf(error), ctx.now());
}

function failureOf(error: unknown): RunFailure {
  if (error instanceof DeskError) {
    const { reason, params, serviceMessage } = error.detail;
    // The message is English, for the log: the service's own words (kept apart from the desk's sentence) belong there too.
    const message = serviceMessage === undefined ? error.message : `${error.message} The service said: "${serviceMessage}"`;
    return { code: error.code, message, ...(reason ? { reason, ...(params ? { params } : {}) } : {}) };
  }
  return { code: 'server', message: error instanceof Error ? error.message : String(error) };
}

/** The sources' failures as one: the first one's code and reason (what staff read), every message (the log). */
function allOf(failures: unknown[]): DeskError {
  const first = failures[0];
  const message = `The sync did not complete: ${failures.map((f) => (f instanceof Error ? f.message : String(f))).join(' ')}`;
  return first instanceof DeskError ? new DeskError(first.code, message, first.status, first.detail) : new DeskError('server', message);
}
