// A library of the connection as staff see it: "Riverside Public Library (101)", or
// "Library 7" when the profile gives it no name.
import { useI18n } from 'vue-i18n';
import { useSessionStore } from '../../stores/session.ts';

export function useLibraryName() {
  const { t } = useI18n();
  const session = useSessionStore();
  return (libraryId: number): string => {
    const name = session.libraries.find((l) => l.libraryId === libraryId)?.name;
    return name ? t('desk.libraryNamed', { name, id: libraryId }) : t('desk.libraryNumbered', { id: libraryId });
  };
}
