// The library server's sync, on its schedule: the desk's own sync engine
// (electron/node/sync/engine.ts) run into the library mirror's page store (page-store.ts) — the
// global catalog for the countries served and each library's Instant and Flex entitlements, full
// once and then deltas; every 10 minutes the spec's availability refresh for each library — on
// the leader's session, within the server's share of the credential's budget. Every source is
// tried and each failure recorded on its own source, as on a desk.
import { setTimeout as pause } from 'node:timers/promises';
import type { Logger } from '../electron/node/logging/index.ts';
import type { PartnerClient } from '../electron/node/partner/client.ts';
import { refreshChangedAvailability, runSync, type SyncContext } from '../electron/node/sync/engine.ts';
import type { PageStore } from '../electron/node/sync/page-store.ts';
import type { Country } from '../electron/shared/model.ts';

export interface LibraryServed { libraryId: number; countries: Country[] }

export interface ScheduleContext {
  /** Its requests pass the server's share of the credential's budget; it honours Retry-After. */
  client: PartnerClient;
  store: PageStore;
  now: () => number;
  /** Aborts when this instance stops leading: the run stops before its next page. */
  signal: AbortSignal;
  log: Logger;
  pageSize: number;
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
const engineContext = (ctx: ScheduleContext): SyncContext => ({
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

/** Syncs the catalog and refreshes availability on their schedules until the signal aborts (then throws its reason). */
export async function runSchedule(ctx: ScheduleContext, schedule: Schedule): Promise<never> {
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
