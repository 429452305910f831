// What the action log may keep, from the machine policy: for how many days (actionLogRetentionDays)
// and whether titles (actionLogTitles, on unless IT turns it off: a desk settles "I never borrowed
// that" with them). A policy that was ignored gives the defaults, like every other setting the desk
// then runs on.
//
// Days are calendar days in the desk's local time, the day of the action included: an entry made
// on day D is kept until the end of day D + N − 1. So 1, the default, keeps what was done for a
// patron only until the end of that day (the partner's licence asks partners to refrain from
// storing information about the service's users: docs/security.md); 7 keeps it until the end of
// the sixth day after; 0 keeps no log at all.
import type { Policy } from '../policy/schema.ts';

export const DEFAULT_RETENTION_DAYS = 1;

export interface LogRules { retentionDays: number; titles: boolean }

export function logRules(policy: Pick<Policy, 'actionLogRetentionDays' | 'actionLogTitles'> | undefined): LogRules {
  return { retentionDays: policy?.actionLogRetentionDays ?? DEFAULT_RETENTION_DAYS, titles: policy?.actionLogTitles ?? true };
}

/** The start of the local day `days` days from `now`'s (negative: before), whatever the clock change between. */
function startOfDay(now: number, days = 0): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  day.setDate(day.getDate() + days);
  return day.getTime();
}

/** Entries made before this moment are past the retention period: the start of the oldest day still kept. */
export function retentionCutoff(now: number, retentionDays: number): number {
  return startOfDay(now, -(Math.max(1, retentionDays) - 1));
}

/** When the period next moves on: the next local midnight. */
export function nextRetentionRun(now: number): number {
  return startOfDay(now, 1);
}
