// The catalog refresh (issue #34, goal 3): a desk on its own keeps its copy current by itself.
// It runs the catalog's and the holdings' deltas — the global catalog (or each library's content)
// and each library's Instant and Flex entitlements, changed since the last run — every other day
// as the service's guidance suggests, or as often as IT's policy says (catalogRefreshDays). A
// desk that has never synced starts its first sync by itself. The 10-minute availability
// refresh goes on beside it, and a title newly entitled there comes with its record
// (engine.ts, readMissingRecords); staff can still sync at any time from the Sync page, which
// shows when the next refresh runs. A desk in a library is kept current by its library mirror.
import type { SourceState } from '../../shared/collection.ts';
import type { SyncStatusView } from '../../shared/contract.ts';
import type { Policy } from '../policy/schema.ts';
import { DAY_MS, daysRule, type DaysRule } from './days-rule.ts';

export const DEFAULT_CATALOG_REFRESH_DAYS = 2;

export const catalogRefreshRule = (policy: Pick<Policy, 'catalogRefreshDays'> | undefined): DaysRule =>
  daysRule(policy?.catalogRefreshDays, DEFAULT_CATALOG_REFRESH_DAYS);

/** The sources a sync runs: every one but the availability refresh's (which runs every 10 minutes on its own). */
const synced = (sources: readonly SourceState[]): SourceState[] => sources.filter((s) => !s.source.startsWith('availability:'));

/** The refresh as the Sync page shows it: when every source last succeeded (the oldest), and when the next refresh runs. */
export function catalogRefreshView(sources: readonly SourceState[], rule: DaysRule): SyncStatusView['catalogRefresh'] {
  const runs = synced(sources);
  const successes = runs.map((s) => s.lastSuccessAt);
  const lastAt = runs.length > 0 && successes.every((at) => at !== undefined) ? Math.min(...(successes as number[])) : undefined;
  return { ...rule, ...(lastAt === undefined ? {} : { lastAt, nextAt: lastAt + rule.everyDays * DAY_MS }) };
}

/**
 * Due when the desk has never synced (its first sync starts by itself) or the oldest source's
 * last success is older than the rule allows. A source that has not succeeded yet (a first sync
 * cut short, a library that failed) keeps it due: each check resumes it from its stored page,
 * and a check while a sync runs joins that sync (desk-mirror.ts), never a second one.
 */
export function catalogRefreshDue(sources: readonly SourceState[], rule: DaysRule, now: number): boolean {
  const view = catalogRefreshView(sources, rule);
  return view.nextAt === undefined || view.nextAt <= now;
}
