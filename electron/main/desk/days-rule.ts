// How often a scheduled sync of the desk runs (the full entitlement pass, the catalog refresh):
// IT's policy's number of days, or the product's default — and which, for the Sync page's badge.
export interface DaysRule { everyDays: number; setBy: 'policy' | 'default' }

export const DAY_MS = 86_400_000;

export const daysRule = (days: number | undefined, byDefault: number): DaysRule =>
  (days === undefined ? { everyDays: byDefault, setBy: 'default' } : { everyDays: days, setBy: 'policy' });
