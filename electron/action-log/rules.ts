// What the action log may keep, from the machine policy: how many days (actionLogRetentionDays,
// 30 unless IT says otherwise; 0 keeps no log at all) and whether titles (actionLogTitles, on
// unless IT turns it off: a desk settles "I never borrowed that" with them). A policy that was
// ignored gives the defaults, like every other setting the desk then runs on.
import type { Policy } from '../policy/schema.ts';

export const DEFAULT_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

export interface LogRules { retentionDays: number; titles: boolean }

export function logRules(policy: Pick<Policy, 'actionLogRetentionDays' | 'actionLogTitles'> | undefined): LogRules {
  return { retentionDays: policy?.actionLogRetentionDays ?? DEFAULT_RETENTION_DAYS, titles: policy?.actionLogTitles ?? true };
}

/** Entries older than this moment are past the retention period. */
export function retentionCutoff(now: number, retentionDays: number): number {
  return now - retentionDays * DAY_MS;
}
