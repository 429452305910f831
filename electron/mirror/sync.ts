// The sync engine: pulls the global catalog, each library's entitlements (Instant and Flex)
// or its library content, and availability, into the mirror. Every source resumes from its
// stored page token; a full run sweeps what it did not see, a delta applies exactly what
// changed (the service's own removals and deactivations included). A failure keeps the last
// good data and records what went wrong and when.
import type { PageRead, PartnerClient, ReadPage } from '../partner/client.ts';
import { PartnerError } from '../partner/errors.ts';
import { BATCH_LIMIT, CONTENT_INFO_BATCH } from '../partner/limits.ts';
import type { ContentId, Country, Page, PurchaseModel } from '../shared/model.ts';
import type { MirrorWriter } from './mirror-writer.ts';
import { readAhead } from './read-ahead.ts';
import { inThreadPageReader, readingAs, type PageKind, type PageReader, type ReadItems } from './page-reader.ts';

/** Deltas start this much before the last successful run, as real clients do, to miss nothing. */
export const DELTA_MARGIN_MS = 120_000;
export { CONTENT_INFO_BATCH };
/** Pages a run may have sent to the writer before waiting for the oldest to be stored. */
const PAGES_BEFORE_THE_WRITER = 3;
/** The refresh reads the entitlements delta in the largest pages the service allows, so the ids cost few calls. */
export const REFRESH_PAGE_SIZE = BATCH_LIMIT;

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
  pageSize?: number;
}

export type { SyncProgress } from '../shared/collection.ts';
import { SEARCH_INDEX_STEP, type SyncProgress } from '../shared/collection.ts';

/**
 * `client` is the connection's background client: its requests pass the connection's request
 * budget (the service's rate limit, desk first), its token and its Retry-After gate. `mirror`
 * is the writer (a worker thread in the product): every call is awaited.
 */
export interface SyncContext {
  client: PartnerClient;
  mirror: MirrorWriter;
  now: () => number;
  onProgress?: (progress: SyncProgress) => void;
  signal?: AbortSignal;
  /** Reads the pages of bulk pulls (a thread of their own in the product); this thread when absent. */
  readPages?: PageReader['read'];
  /** What the service says beside a page (`metadata.warnings`): shown on the Sync page and written to the log. */
  onWarnings?: (source: string, warnings: string[]) => void;
}

export const MODELS: PurchaseModel[] = ['INSTANT', 'FLEX'];
export const sourceNames = {
  global: 'global',
  entitlements: (libraryId: number, model: PurchaseModel) => `entitlements:${libraryId}:${model}`,
  libraryContent: (libraryId: number) => `library-content:${libraryId}`,
  availability: (libraryId: number) => `availability:${libraryId}`,
};

export async function runSync(ctx: SyncContext, request: SyncRequest): Promise<void> {
  const failures: string[] = [];
  const attempt = async (work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      failures.push(error instanceof Error ? error.message : String(error));
    }
  };
  // A run that ended between its last page and building the index (a crash) builds it now; a
  // mirror from schema 1 gets its titles' search words first, if the desk has not done it yet.
  if (await ctx.mirror.inBulk()) await ctx.mirror.finishBulk(await titleSources(ctx.mirror));
  await completeSearchUpgrade(ctx);
  if (request.source === 'global+entitlements') {
    if (!request.entitlementsOnly) await attempt(() => syncGlobal(ctx, request));
    for (const libraryId of request.libraries) {
      for (const model of MODELS) await attempt(() => syncEntitlements(ctx, request, libraryId, model));
    }
  } else {
    for (const libraryId of request.libraries) await attempt(() => syncLibraryContent(ctx, request, libraryId));
  }
  if (failures.length > 0) throw new PartnerError('server', `The sync did not complete: ${failures.join(' ')}`);
}

/**
 * A page as it waits for the writer: its items already in the form the writer takes (the
 * catalog's titles packed in one string), so no parsed page waits across scavenges to be
 * promoted into main's old space.
 */
interface PreparedPage<P> { items: P; count: number; next?: string; totalCount?: number; warnings?: string[] }

const preparedPage = <P>(items: P, count: number, { next, totalCount, warnings }: Omit<PreparedPage<unknown>, 'items' | 'count'>): PreparedPage<P> =>
  ({ items, count, ...(next === undefined ? {} : { next }), ...(totalCount === undefined ? {} : { totalCount }), ...(warnings?.length ? { warnings } : {}) });

/** A page of records as the client parsed them (entitlements, library content): stored as they came. */
async function* asTheyCame<T>(pages: AsyncGenerator<Page<T>>): AsyncGenerator<PreparedPage<T[]>> {
  for await (const page of pages) {
    yield preparedPage(page.items, page.items.length, page);
  }
}

/** Pages read elsewhere (page-reader.ts), each once its records are ready, in order. */
async function* whenRead<K extends PageKind>(pages: AsyncGenerator<ReadPage<ReadItems<K>>>): AsyncGenerator<PreparedPage<ReadItems<K>['items']>> {
  for await (const page of pages) {
    const { items, count } = await page.items;
    yield preparedPage(items, count, page);
  }
}

/**
 * One source, resumable. `pages(startToken, since)` pulls, each page's items ready for the
 * writer as they arrive (asTheyCame, whenRead); `apply` stores them and the next token in one transaction; `sweep`
 * removes what a full run did not see. A source of titles (`titles`) writes a full run in bulk:
 * the search index is built once at its end.
 */
async function syncSource<P>(
  ctx: SyncContext, source: string, full: boolean | undefined, firstSince: number | undefined,
  pages: (startToken: string | undefined, since: number | undefined) => AsyncGenerator<PreparedPage<P>>,
  apply: (run: number, items: P, next: string | undefined) => unknown,
  sweep: (run: number) => unknown,
  titles = false,
): Promise<void> {
  const { mirror, now } = ctx;
  let state = await mirror.state(source);
  if (!state.inProgress) {
    const base = state.lastSuccessAt ?? firstSince;
    const since = full || base === undefined ? undefined : base - DELTA_MARGIN_MS;
    await mirror.beginRun(source, since, now(), titles);
    state = await mirror.state(source);
  }
  const run = state.runStartedAt as number;
  const started = now();
  let done = state.items;
  let total: number | undefined;
  // Pages sent to the writer and not yet stored. The service, the network, this thread (parsing,
  // preparing rows) and the writer thread all work at once; the writer stores pages in the order
  // sent, and refuses the rest of a run after a page it could not store (mirror-writer.ts).
  const writing: { stored: Promise<unknown>; items: number }[] = [];
  const oldestStored = async (): Promise<void> => {
    const page = writing.shift() as (typeof writing)[number];
    await page.stored;
    done += page.items;
    const seconds = (now() - started) / 1000;
    const rate = seconds > 0 ? (done - state.items) / seconds : undefined;
    ctx.onProgress?.({
      source, done, ...(total === undefined ? {} : { total }), ...(rate === undefined ? {} : { ratePerSecond: Math.round(rate) }),
      ...(total !== undefined && rate ? { etaSeconds: Math.max(0, Math.round((total - done) / rate)) } : {}),
    });
  };
  try {
    // The next page is on its way while the pages before it are prepared and stored. (The
    // connection's budget paces each request.)
    for await (const page of readAhead(pages(state.nextToken, state.runSince), (page) => page.next !== undefined, async () => {})) {
      ctx.signal?.throwIfAborted();
      const stored = Promise.resolve().then(() => apply(run, page.items, page.next));
      stored.catch(() => {}); // awaited in order below; not an unhandled rejection meanwhile
      writing.push({ stored, items: page.count });
      total ??= page.totalCount;
      if (page.warnings) ctx.onWarnings?.(source, page.warnings);
      while (writing.length >= PAGES_BEFORE_THE_WRITER) await oldestStored();
    }
    while (writing.length > 0) await oldestStored();
    const removed = state.runSince === undefined ? await sweep(run) : undefined;
    await mirror.finishRun(source, typeof removed === 'number' ? removed : undefined);
    if (titles && (await mirror.inBulk())) {
      ctx.onProgress?.({ source: SEARCH_INDEX_STEP, done }); // the titles the index is being built from
      await mirror.finishBulk(await titleSources(mirror));
    }
  } catch (error) {
    await Promise.allSettled(writing.map((page) => page.stored));
    // A cancelled run (the connection closed) is no failure: it resumes from its stored token.
    if (!ctx.signal?.aborted) await mirror.failRun(source, error instanceof Error ? error.message : String(error), now(), error instanceof PartnerError ? error.code : 'server');
    throw error;
  }
}

/** A mirror from schema 1 gets its titles' search words, a chunk per writer call, before the sync goes on. */
async function completeSearchUpgrade(ctx: SyncContext): Promise<void> {
  for (;;) {
    ctx.signal?.throwIfAborted();
    const step = await ctx.mirror.upgradeSearchWords();
    if (!step.pending) return;
    ctx.onProgress?.({ source: SEARCH_INDEX_STEP, done: Math.round((step.progress ?? 1) * 100), total: 100 });
  }
}

/** Pages of `kind` read by the context's reader, or in this thread. */
const reading = <K extends PageKind>(ctx: SyncContext, kind: K): PageRead<ReadItems<K>> => readingAs(ctx.readPages ?? inThreadPageReader().read, kind);

/** Sources that write titles: bulk ends when none of them has a run left under way. */
async function titleSources(mirror: MirrorWriter): Promise<string[]> {
  return (await mirror.allStates()).map((s) => s.source).filter((s) => s === sourceNames.global || s.startsWith('library-content:'));
}

function syncGlobal(ctx: SyncContext, request: SyncRequest): Promise<void> {
  const source = sourceNames.global;
  return syncSource(ctx, source, request.full, undefined,
    // Fetched here, read and packed by the page reader (which hands the titles to a writer thread); the writer adds the search words (title-row.ts).
    (startToken, since) => whenRead(ctx.client.globalContentPagesReadBy(reading(ctx, 'global'),
      { countries: request.countries, limit: request.pageSize ?? BATCH_LIMIT, startToken, since })),
    (run, titles, next) => ctx.mirror.applyGlobalPage(source, run, titles, next),
    (run) => ctx.mirror.sweepTitles(run), true);
}

function syncEntitlements(ctx: SyncContext, request: SyncRequest, libraryId: number, model: PurchaseModel): Promise<void> {
  const source = sourceNames.entitlements(libraryId, model);
  return syncSource(ctx, source, request.full, undefined,
    // Read by the page reader too: main only fetches (and, with a writer thread, never holds the records).
    (startToken, since) => whenRead(ctx.client.entitlementPagesReadBy(reading(ctx, 'entitlements'), libraryId,
      { purchaseModel: model, limit: request.pageSize ?? BATCH_LIMIT, startToken, since })),
    (run, items, next) => ctx.mirror.applyEntitlementPage(source, run, libraryId, model, items, next),
    (run) => ctx.mirror.sweepEntitlements(libraryId, model, run));
}

function syncLibraryContent(ctx: SyncContext, request: SyncRequest, libraryId: number): Promise<void> {
  const source = sourceNames.libraryContent(libraryId);
  return syncSource(ctx, source, request.full, undefined,
    (startToken, since) => asTheyCame(ctx.client.libraryContentPages(libraryId, { limit: request.pageSize ?? BATCH_LIMIT, startToken, since })),
    (run, items, next) => ctx.mirror.applyLibraryContentPage(source, run, libraryId, items, next),
    (run) => ctx.mirror.sweepEntitlements(libraryId, undefined, run), true);
}

/**
 * The spec's 10-minute recipe: the entitlements delta since the last successful refresh
 * (Flex only; Instant titles are always available while active), its content ids to content
 * info 50 a call, the answers stored with the time they were read.
 */
export async function refreshChangedAvailability(ctx: SyncContext, libraryId: number): Promise<number> {
  const source = sourceNames.availability(libraryId);
  const changed = new Set<ContentId>();
  // The first refresh starts from the entitlements run that filled the mirror, not from zero:
  // availability of unchanged titles is read when staff look at them.
  const baseline = (await ctx.mirror.state(sourceNames.entitlements(libraryId, 'FLEX'))).lastSuccessAt;
  await syncSource(ctx, source, false, baseline,
    (startToken, since) => asTheyCame(ctx.client.entitlementPages(libraryId, { purchaseModel: 'FLEX', startToken, since, limit: REFRESH_PAGE_SIZE })),
    (run, items, next) => {
      for (const e of items) if (!e.removed) changed.add(e.contentId);
      return ctx.mirror.applyEntitlementPage(source, run, libraryId, 'FLEX', items, next);
    },
    () => {});
  await readAvailability(ctx, libraryId, [...changed]);
  return changed.size;
}

/** Content info for these ids, 50 a call (each call passes the connection's budget). */
export async function readAvailability(ctx: SyncContext, libraryId: number, contentIds: ContentId[]): Promise<void> {
  for (let i = 0; i < contentIds.length; i += CONTENT_INFO_BATCH) {
    ctx.signal?.throwIfAborted();
    const batch = contentIds.slice(i, i + CONTENT_INFO_BATCH);
    await ctx.mirror.storeAvailability(libraryId, await ctx.client.contentInfo(libraryId, batch), ctx.now());
    ctx.onProgress?.({ source: sourceNames.availability(libraryId), done: Math.min(i + CONTENT_INFO_BATCH, contentIds.length), total: contentIds.length });
  }
}
