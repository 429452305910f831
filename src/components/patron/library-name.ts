// A library of the connection as staff see it: its name (IT's policy's, or the profile's), or
// "Library 7" when nobody gave it one (issue #35: libraries by name, the number for IT's pages).
import { useI18n } from 'vue-i18n';
import { useSessionStore } from '../../stores/session.ts';

export function useLibraryName() {
  const { t } = useI18n();
  const session = useSessionStore();
  return (libraryId: number): string => {
    const name = session.libraries.find((l) => l.libraryId === libraryId)?.name;
    return name ?? t('desk.libraryNumbered', { id: libraryId });
  };
}
