// An action-log entry in the desk's language: its action, its outcome (words, never the code)
// and its library (the profile's name for it, or "Library 101"). One place, used by the log's
// table, today's actions on the patron panel and the exported CSV.
import { useI18n } from 'vue-i18n';
import type { CsvWords } from '../../../electron/shared/action-log-csv.ts';
import { CSV_COLUMNS } from '../../../electron/shared/action-log-csv.ts';
import type { ActionEntry } from '../../../electron/shared/action-log.ts';

export function useActionWords() {
  const { t, te } = useI18n();

  const action = (entry: ActionEntry): string => (te(`log.actions.${entry.action}`) ? t(`log.actions.${entry.action}`) : entry.action);

  function outcome(entry: ActionEntry): string {
    if (entry.outcome === 'ok') return entry.confirmedByReread ? t('log.okReread') : t('log.ok');
    const key = `log.outcomes['${entry.outcome}']`;
    return t('log.failed', { code: te(key, 'en') ? t(key) : t("log.outcomes['error']") });
  }

  const library = (entry: ActionEntry): string => (entry.libraryName
    ? t('desk.libraryNamed', { name: entry.libraryName, id: entry.libraryId })
    : t('desk.libraryNumbered', { id: entry.libraryId }));

  /** The CSV's words, read when the export is made (the language may have changed since the dialog opened). */
  function csv(): CsvWords {
    return { columns: Object.fromEntries(CSV_COLUMNS.map((c) => [c, t(`log.csvColumns.${c}`)])) as CsvWords['columns'], action, outcome, library };
  }

  return { action, outcome, library, csv };
}
