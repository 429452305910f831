// The library server's sync, on its schedule: the desk's own sync engine
// (electron/node/sync/engine.ts) run into the library mirror's page store (page-store.ts) — the
// global catalog for the countries served and each library's Instant and Flex entitlements, full
// once and then deltas; every 10 minutes the spec's availability refresh for each library — on
// the leader's session, within the server's share of the credential's budget. Every source is
// tried and each failure recorded on its own source, as on a desk.
import { setTimeout as pause } from 'node:timers/promises';
import type { Logger } from '../electron/node/logging/index.ts';
import type { PartnerClient } from '../electron/node/partner/client.ts';
import { readUnreadAvailability, refreshChangedAvailability, runSync, type SyncContext } from '../electron/node/sync/engine.ts';
import type { PageStore, UnreadAvailability } from '../electron/node/sync/page-store.ts';
import type { Country } from '../electron/shared/model.ts';

export interface LibraryServed { libraryId: number; countries: Country[] }

export interface ScheduleContext {
  /** Its requests pass the server's share of the credential's budget; it honours Retry-After. */
  client: PartnerClient;
  store: PageStore & UnreadAvailability;
  now: () => number;
  /** Aborts when this instance stops leading: the run stops before its next page. */
  signal: AbortSignal;
  log: Logger;
  pageSize: number;
  /** Resolves when IT asks for a sync now (the server's sync-now command); a new promise each time. */
  syncRequested?: () => Promise<void>;
  /** Whether the first full sync was announced already (by this instance or one that led before), and the announcement kept. */
  firstFullSync?: { done(): Promise<boolean>; mark(summary: Record<string, unknown>): Promise<void> };
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

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The engine's context: one page at a time (a killed leader leaves its successor at most one page to fetch again), every run logged. */
const engineContext = (ctx: ScheduleContext): SyncContext & { store: PageStore & UnreadAvailability } => ({
  client: ctx.client, store: ctx.store, now: ctx.now, signal: ctx.signal, log: ctx.log, onePageAtATime: true,
});

/** The global catalog for the countries served, then each library's Instant and Flex entitlements: every source tried. */
export function syncCatalog(ctx: ScheduleContext, libraries: readonly LibraryServed[]): Promise<void> {
  return runSync(engineContext(ctx), {
    source: 'global+entitlements', pageSize: ctx.pageSize,
    countries: [...new Set(libraries.flatMap((l) => l.countries))], libraries: libraries.map((l) => l.libraryId),
  });
}

/** The spec's 10-minute recipe for one library (the engine's); answers how many titles were asked about. */
export async function refreshAvailability(ctx: ScheduleContext, libraryId: number): Promise<number> {
  const count = await refreshChangedAvailability(engineContext(ctx), libraryId);
  ctx.log.info('availability-refreshed', { libraryId, contentIds: count });
  return count;
}

/**
 * After a catalog sync: availability for every active Flex title of each library not read yet
 * (all of them after the first full sync, titles new to a library after the next), so a library
 * desk's Collection shows availability for every title; the 10-minute refresh keeps it current.
 */
export async function readEveryUnreadAvailability(ctx: ScheduleContext, libraries: readonly LibraryServed[]): Promise<void> {
  for (const { libraryId } of libraries) {
    const started = ctx.now();
    const count = await readUnreadAvailability(engineContext(ctx), libraryId);
    if (count > 0) ctx.log.info('availability-read', { libraryId, contentIds: count, seconds: Math.round((ctx.now() - started) / 1000) });
  }
}

/** Once per library mirror: the first full sync (catalog, entitlements, every Flex title's availability) is done, with what it holds. */
async function announceFirstFullSync(ctx: ScheduleContext, startedAt: number): Promise<void> {
  if (!ctx.firstFullSync || await ctx.firstFullSync.done()) return;
  const sources = await ctx.store.states();
  const summary = {
    seconds: Math.round((ctx.now() - startedAt) / 1000),
    sources: sources.filter((s) => !s.source.startsWith('availability:')).map((s) => ({ source: s.source, items: s.items })),
  };
  ctx.log.info('first-full-sync-done', summary);
  await ctx.firstFullSync.mark(summary);
}

/** Syncs the catalog and refreshes availability on their schedules until the signal aborts (then throws its reason). */
export async function runSchedule(ctx: ScheduleContext, schedule: Schedule): Promise<never> {
  const { signal, log } = ctx;
  const startedAt = ctx.now();
  let nextCatalog = ctx.now();
  let nextAvailability = ctx.now();
  for (;;) {
    signal.throwIfAborted();
    if (ctx.now() >= nextCatalog) {
      try {
        await syncCatalog(ctx, schedule.libraries);
        await readEveryUnreadAvailability(ctx, schedule.libraries);
        await announceFirstFullSync(ctx, startedAt);
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
    // Until the next run is due, or IT asks for a sync now (the server's sync-now command).
    const wake = new AbortController();
    void ctx.syncRequested?.().then(() => wake.abort());
    await pause(Math.max(0, Math.min(nextCatalog, nextAvailability) - ctx.now()), undefined, { signal: AbortSignal.any([signal, wake.signal]) }).catch(() => {});
    signal.throwIfAborted();
    if (wake.signal.aborted) {
      log.info('sync-requested', {});
      nextCatalog = ctx.now();
    }
  }
}
