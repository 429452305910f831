// The service's sync, for now: the partner client's bulk pulls, page by page, into the library
// mirror's store, on the desk's own recipe (electron/node/sync/engine.ts: the global catalog and each
// library's entitlements, full once and then deltas reaching back past the last success; every
// 10 minutes, Flex entitlements changed since the last refresh, their availability 50 ids a
// call). The pull is the desk's own (PartnerClient.bulkPages, partner/pull.ts): the client
// fetches each page's bytes (the signal reaching the request on the wire) and hands them to the
// store as they came — without asking for the next page ahead: the service's share of the budget
// spaces its requests a second or more apart, so fetching ahead gains nothing, and a leader killed
// mid-sync leaves its successor at most the one page it was storing to fetch again; the store reads them and answers with the
// page's next token. Sources are named and deltas paced as the desk's sync does it (its
// constants: sync.ts and mirror-interface.ts hold no database). Kept thin and in this one
// module: once the store implements the desk's PageStore (electron/node/mirror-interface.ts),
// the service runs the desk's sync engine (electron/node/sync/engine.ts) instead and this module goes.
import { setTimeout as pause } from 'node:timers/promises';
import type { Logger } from '../electron/node/logging/index.ts';
import type { BulkPull, PartnerClient } from '../electron/node/partner/client.ts';
import { DeskError } from '../electron/shared/desk-error.ts';
import { BATCH_LIMIT, CONTENT_INFO_BATCH } from '../electron/node/partner/limits.ts';
import { sourceName } from '../electron/node/mirror-interface.ts';
import { DELTA_MARGIN_MS, MODELS } from '../electron/node/sync/engine.ts';
import type { Country } from '../electron/shared/model.ts';
import type { LibraryMirrorStore, PageKind, StoredPage } from './store.ts';

export interface LibraryServed { libraryId: number; countries: Country[] }

export interface PartnerSyncContext {
  /** Its requests pass the service's share of the credential's budget; it honours Retry-After. */
  client: PartnerClient;
  store: LibraryMirrorStore;
  now: () => number;
  /** Aborts when this instance stops leading: the run stops before its next page. */
  signal: AbortSignal;
  log: Logger;
  pageSize: number;
}

/** What a source's pull asks for, from a stored cursor (`startToken`) and a delta's base (`since`). */
type Pull = (startToken: string | undefined, since: number | undefined) => BulkPull;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * One source, resumable: a run under way continues from its stored cursor (the page after the
 * last one stored); otherwise a delta from the last success less the margin, or a full run.
 * Answers each stored page's answer.
 */
async function syncSource(ctx: PartnerSyncContext, source: string, kind: PageKind, pull: Pull, firstSince?: number): Promise<StoredPage[]> {
  const { store, log, signal } = ctx;
  let state = await store.state(source);
  if (state.inProgress) {
    log.info('run-resumed', { source, page: state.pages + 1 });
  } else {
    const base = state.lastSuccessAt ?? firstSince;
    const since = base === undefined ? undefined : base - DELTA_MARGIN_MS;
    await store.beginRun(source, since, ctx.now());
    state = await store.state(source);
    log.info('run-started', { source, full: since === undefined, ...(since === undefined ? {} : { since: new Date(since).toISOString() }) });
  }
  const run = state.runStartedAt as number;
  const answers: StoredPage[] = [];
  let page = state.pages;
  /** A page's bytes to the store, as page `page + 1` of the run; its answer (with the next token) steers the pull. */
  const take = async (bytes: ArrayBuffer): Promise<StoredPage> => {
    signal.throwIfAborted();
    // A page that is not a page (bad-response) is refused before anything is written: the pull asks for it again, as the same page.
    const stored = await store.storePage(source, run, kind, bytes, page + 1);
    page++;
    answers.push(stored);
    log.info('page-stored', { source, page, count: stored.count, last: stored.next === undefined });
    for (const warning of stored.warnings ?? []) log.warn('page-warning', { source, page, warning });
    return stored;
  };
  try {
    // A run whose last page is stored (its cursor ends) only has its end left to do.
    if (page === 0 || state.nextToken !== undefined) {
      for await (const _stored of ctx.client.bulkPages(pull(state.nextToken, state.runSince), take, signal, { ahead: false })) { /* each page is stored in `take` */ }
    }
    signal.throwIfAborted();
    const removed = await store.finishRun(source, run, { full: state.runSince === undefined });
    // (Named so: the log drops any field called `titles`, lest a title's name reach it.)
    log.info('run-finished', { source, pages: page, removedTitles: removed.titles, removedEntitlements: removed.entitlements });
    return answers;
  } catch (error) {
    if (!signal.aborted) {
      await store.failRun(source, messageOf(error), error instanceof DeskError ? error.code : 'server', ctx.now()).catch(() => {});
      log.warn('run-failed', { source, page, message: messageOf(error) });
    }
    throw error;
  }
}

/** The global catalog for the countries served, then each library's Instant and Flex entitlements. */
export async function syncCatalog(ctx: PartnerSyncContext, libraries: readonly LibraryServed[]): Promise<void> {
  const { pageSize } = ctx;
  const countries = [...new Set(libraries.flatMap((l) => l.countries))];
  await syncSource(ctx, sourceName({ kind: 'global' }), { kind: 'global' },
    (startToken, since) => ({ kind: 'global', countries, limit: pageSize, startToken, since }));
  for (const { libraryId } of libraries) {
    for (const model of MODELS) {
      await syncSource(ctx, sourceName({ kind: 'entitlements', libraryId, model }), { kind: 'entitlements', libraryId, model },
        (startToken, since) => ({ kind: 'entitlements', libraryId, purchaseModel: model, limit: pageSize, startToken, since }));
    }
  }
}

/**
 * The spec's 10-minute recipe: Flex entitlements changed since the last refresh (the first
 * refresh starts from the entitlements run that filled the mirror), their availability 50 ids a
 * call, stored with the time it was read. Answers how many titles were asked about.
 */
export async function refreshAvailability(ctx: PartnerSyncContext, libraryId: number): Promise<number> {
  const { client, store } = ctx;
  const baseline = (await store.state(sourceName({ kind: 'entitlements', libraryId, model: 'FLEX' }))).lastSuccessAt;
  if (baseline === undefined) return 0; // nothing to refresh before the library's first entitlements run
  const answers = await syncSource(ctx, sourceName({ kind: 'availability-refresh', libraryId }), { kind: 'entitlements', libraryId, model: 'FLEX' },
    (startToken, since) => ({ kind: 'entitlements', libraryId, purchaseModel: 'FLEX', limit: BATCH_LIMIT, startToken, since }),
    baseline);
  const changed = [...new Set(answers.flatMap((a) => a.contentIds ?? []))];
  for (let i = 0; i < changed.length; i += CONTENT_INFO_BATCH) {
    ctx.signal.throwIfAborted();
    const batch = changed.slice(i, i + CONTENT_INFO_BATCH);
    await store.storeAvailability(libraryId, await client.contentInfo(libraryId, batch, ctx.signal), ctx.now());
  }
  ctx.log.info('availability-refreshed', { libraryId, contentIds: changed.length });
  return changed.length;
}

export interface Schedule {
  libraries: readonly LibraryServed[];
  /** The catalog and entitlements, by delta after the first run. */
  catalogEveryMs: number;
  /** Flex availability (the spec says every 10 minutes). */
  availabilityEveryMs: number;
  /** After a failed catalog sync (the service down, a 5xx burst), the next try. */
  retryAfterFailureMs: number;
}

/** Syncs the catalog and refreshes availability on their schedules until the signal aborts (then throws its reason). */
export async function runSchedule(ctx: PartnerSyncContext, schedule: Schedule): Promise<never> {
  const { signal, log } = ctx;
  let nextCatalog = ctx.now();
  let nextAvailability = ctx.now();
  for (;;) {
    signal.throwIfAborted();
    if (ctx.now() >= nextCatalog) {
      try {
        await syncCatalog(ctx, schedule.libraries);
        nextCatalog = ctx.now() + schedule.catalogEveryMs;
      } catch (error) {
        signal.throwIfAborted();
        log.warn('catalog-sync-failed', { message: messageOf(error), retryInSeconds: schedule.retryAfterFailureMs / 1000 });
        nextCatalog = ctx.now() + schedule.retryAfterFailureMs;
      }
    }
    if (ctx.now() >= nextAvailability) {
      for (const { libraryId } of schedule.libraries) {
        try {
          await refreshAvailability(ctx, libraryId);
        } catch (error) {
          signal.throwIfAborted();
          log.warn('availability-refresh-failed', { libraryId, message: messageOf(error) });
        }
      }
      nextAvailability = ctx.now() + schedule.availabilityEveryMs;
    }
    await pause(Math.max(0, Math.min(nextCatalog, nextAvailability) - ctx.now()), undefined, { signal });
  }
}
