// The action log's filters as staff fill them in, and as the contract takes them: calendar days
// become moments in the desk's time zone (from the start of the first day to the start of the
// day after the last), and empty fields are left out.
import type { ActionFilter, ActionOutcomeFilter } from '../../../electron/shared/action-log.ts';

export interface FilterForm { cardEnding: string; staff: string; from: string; to: string; outcome: ActionOutcomeFilter | '' }

export const emptyFilterForm = (): FilterForm => ({ cardEnding: '', staff: '', from: '', to: '', outcome: '' });

function dayStart(day: string, after = 0): number | undefined {
  const [y, m, d] = day.split('-').map(Number);
  return y && m && d ? new Date(y, m - 1, d + after).getTime() : undefined;
}

export function filterOf(form: FilterForm): ActionFilter {
  const from = form.from ? dayStart(form.from) : undefined;
  const to = form.to ? dayStart(form.to, 1) : undefined;
  return {
    ...(form.cardEnding.trim() ? { cardEnding: form.cardEnding.trim() } : {}),
    ...(form.staff.trim() ? { staff: form.staff.trim() } : {}),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    ...(form.outcome ? { outcome: form.outcome } : {}),
  };
}
