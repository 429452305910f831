// What the action log may keep, from the machine policy: for how many days (actionLogRetentionDays)
// and whether titles (actionLogTitles, on unless IT turns it off: a desk settles "I never borrowed
// that" with them), and in which time zone its days are counted (actionLogTimeZone). A policy that
// was ignored gives the defaults, like every other setting the desk then runs on.
//
// Days are calendar days, the day of the action included: an entry made on day D is kept until the
// end of day D + N − 1. So 1, the default, keeps what was done for a patron only until the end of
// that day (the partner's licence asks partners to refrain from storing information about the
// service's users: docs/security.md); 7 keeps it until the end of the sixth day after; 0 keeps no
// log at all. The days are those of one zone that does not follow the machine's (day-boundary.ts):
// every cut-off is a moment in absolute time, so changing the machine's zone never moves it.
import type { Policy } from '../policy/schema.ts';
import { startOfDay, type DayBoundary } from './day-boundary.ts';

export const DEFAULT_RETENTION_DAYS = 1;
const DAY_MS = 86_400_000;

export interface LogRules {
  retentionDays: number;
  titles: boolean;
  /** IT's zone for the log's days; without it, the zone kept since the desk was set up. */
  timeZone?: string;
}

export function logRules(policy: Pick<Policy, 'actionLogRetentionDays' | 'actionLogTitles' | 'actionLogTimeZone'> | undefined): LogRules {
  return {
    retentionDays: policy?.actionLogRetentionDays ?? DEFAULT_RETENTION_DAYS, titles: policy?.actionLogTitles ?? true,
    ...(policy?.actionLogTimeZone === undefined ? {} : { timeZone: policy.actionLogTimeZone }),
  };
}

/** Entries made before this moment are past the calendar rule: the start of the oldest day still kept, in the boundary's zone. */
export function retentionCutoff(now: number, retentionDays: number, boundary: DayBoundary): number {
  return startOfDay(now, boundary.zone, -(Math.max(1, retentionDays) - 1));
}

/**
 * Whether an entry made at `time` is past keeping. Past the calendar rule, and, for an entry made
 * before the boundary's record was (re)made, older than the whole period in absolute time too: a
 * zone someone chose then never cuts a day short.
 */
export function retentionRule(now: number, retentionDays: number, boundary: DayBoundary): { expired(time: number): boolean; oldestKept: number } {
  const cutoff = retentionCutoff(now, retentionDays, boundary);
  const floor = now - Math.max(1, retentionDays) * DAY_MS;
  const expired = (time: number): boolean => time < cutoff && (time >= boundary.since || time < floor);
  // What can still be kept starts at the floor while entries from before the record may remain.
  return { expired, oldestKept: boundary.since > floor ? Math.min(cutoff, floor) : cutoff };
}

/** When the period next moves on: the next midnight in the boundary's zone. */
export function nextRetentionRun(now: number, boundary: DayBoundary): number {
  return startOfDay(now, boundary.zone, 1);
}
