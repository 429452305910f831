// The patron's monthly allowance of Instant borrows, as every part of the desk that offers an
// Instant borrow needs it: used up or not, and the day it comes back (the first of next
// month, in the desk's language), so a refusal can be told before the attempt.
import { computed } from 'vue';
import { useI18n } from 'vue-i18n';
import type { PatronStatus } from '../../../electron/shared/model.ts';
import { firstOfNextMonth, isCount, useDeskFormat } from '../../i18n/format.ts';
import { usePatronStore } from '../../stores/patron.ts';

/** No Instant borrow left this month (an allowance the service did not send is not used up). */
export function allowanceUsedUp(status: PatronStatus | undefined): boolean {
  return isCount(status?.borrowsRemaining) && status.borrowsRemaining <= 0;
}

export function useAllowance() {
  const { t } = useI18n();
  const format = useDeskFormat();
  const patron = usePatronStore();
  const status = computed(() => patron.view?.status);
  /** The patron on screen has no Instant borrow left this month. */
  const usedUp = computed(() => allowanceUsedUp(status.value));
  /** "April 1" / "1er avril". */
  const resetDate = (now = Date.now()) => t('allowance.resetDate', { month: format.monthName(firstOfNextMonth(now)) });
  /** The allowance in one line, what it means for Instant and Flex titles, and whether it is used up; undefined when the service gave neither number. */
  const line = computed(() => {
    const { borrowsRemaining: remaining, borrowsAllowedPerMonth: allowed } = status.value ?? {};
    if (isCount(remaining) && remaining <= 0) {
      const date = resetDate();
      return {
        text: isCount(allowed) ? t('patron.noneLeftOf', { allowed: format.number(allowed), date }) : t('patron.noneLeft', { date }),
        meaning: t('patron.noneLeftMeaning', { date }),
        empty: true,
      };
    }
    const meaning = t('patron.allowanceMeaning');
    if (isCount(remaining) && isCount(allowed)) return { text: t('patron.allowance', { remaining: format.number(remaining), allowed: format.number(allowed) }, allowed), meaning, empty: false };
    if (isCount(remaining)) return { text: t('patron.remaining', { remaining: format.number(remaining) }, remaining), meaning, empty: false };
    if (isCount(allowed)) return { text: t('patron.allowed', { allowed: format.number(allowed) }, allowed), meaning, empty: false };
    return undefined;
  });
  return { status, usedUp, resetDate, line };
}
