// A connection profile as staff see it named: the built-in sandbox's name is main's (and
// reserved), so the desk says it in its own language; a partner profile keeps the name staff gave it.
import { useI18n } from 'vue-i18n';
import type { ProfileView } from '../../../electron/shared/contract.ts';

export function useProfileName(): (profile: Pick<ProfileView, 'kind' | 'name'>) => string {
  const { t } = useI18n();
  return (profile) => (profile.kind === 'sandbox' ? t('settings.kinds.sandbox') : profile.name);
}
