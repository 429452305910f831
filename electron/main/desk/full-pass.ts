// The full entitlement pass (issue #24): the published schemas show no removal marker, so a
// delta may never say that the library stopped holding a title. A full run of the sources that
// say what a library holds (its entitlements, or its library content) drops whatever the service
// no longer lists (sync.ts sweeps what a full run did not see). It runs when the oldest such
// source's last full run is older than IT's policy allows (entitlementFullPassDays, a week
// unless IT says otherwise), and whenever staff ask from the Sync page.
import type { SourceState } from '../../shared/collection.ts';
import type { SyncStatusView } from '../../shared/contract.ts';
import type { Policy } from '../policy/schema.ts';
import { DAY_MS, daysRule, type DaysRule } from './days-rule.ts';

export const DEFAULT_FULL_PASS_DAYS = 7;

export type FullPassRule = DaysRule;

export const fullPassRule = (policy: Pick<Policy, 'entitlementFullPassDays'> | undefined): FullPassRule =>
  daysRule(policy?.entitlementFullPassDays, DEFAULT_FULL_PASS_DAYS);

/** The sources that say what a library holds: what the pass runs in full. */
const holding = (sources: readonly SourceState[]): SourceState[] =>
  sources.filter((s) => s.source.startsWith('entitlements:') || s.source.startsWith('library-content:'));

/** The pass as the Sync page shows it: when it last ran (the oldest source's), what it removed, when it is next due. */
export function fullPassView(sources: readonly SourceState[], rule: FullPassRule): SyncStatusView['fullPass'] {
  const held = holding(sources);
  const fulls = held.map((s) => s.lastFullAt);
  const lastAt = held.length > 0 && fulls.every((at) => at !== undefined) ? Math.min(...(fulls as number[])) : undefined;
  const removed = held.reduce((sum, s) => sum + (s.lastFullRemoved ?? 0), 0);
  return {
    ...rule,
    ...(lastAt === undefined ? {} : { lastAt, nextAt: lastAt + rule.everyDays * DAY_MS, removed }),
  };
}

/** Due once every holding source has been mirrored and the oldest full run among them is older than the rule allows. */
export function fullPassDue(sources: readonly SourceState[], rule: FullPassRule, now: number): boolean {
  const held = holding(sources);
  if (held.length === 0 || held.some((s) => s.lastSuccessAt === undefined)) return false;
  const view = fullPassView(sources, rule);
  return view.nextAt === undefined || view.nextAt <= now;
}
