// Main's reasons (shared/reasons.ts) are flat keys that contain dots ('policy.wrong-owner'), kept
// under `reasons` in each locale. vue-i18n's t() reads every dot as a level of nesting, so
// t('reasons.policy.wrong-owner') finds nothing and shows the key; the sentence is taken from the
// locale's `reasons` table instead and formatted with its parameters.
import { useI18n } from 'vue-i18n';
import type { ErrorParams } from '../../electron/shared/errors.ts';
import type { Reason } from '../../electron/shared/reasons.ts';

export function useReasonText(): (notice: { reason: Reason; params?: ErrorParams | undefined }) => string {
  const { tm, rt } = useI18n();
  return ({ reason, params }) => {
    const message: unknown = (tm('reasons') as Record<string, unknown>)[reason];
    return typeof message === 'string' ? rt(message, { ...params }) : reason;
  };
}
