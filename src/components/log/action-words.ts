// An action-log entry in the desk's language: its action, its outcome (words, never the code),
// its library (the profile's name for it, or "Library 101") and, for a reading or export of the
// log itself, the filter it used. One place, used by the log's table, today's actions on the
// patron panel and the exported CSV.
import { useI18n } from 'vue-i18n';
import type { CsvWords } from '../../../electron/shared/action-log-csv.ts';
import { CSV_COLUMNS } from '../../../electron/shared/action-log-csv.ts';
import type { ActionEntry, ActionFilter } from '../../../electron/shared/action-log.ts';
import { useDeskFormat } from '../../i18n/format.ts';

/** A reading or export of the log (no patron, no library, no title). */
export const isLogAudit = (entry: ActionEntry): boolean => entry.action === 'log-read' || entry.action === 'log-export';
/** An entry about the desk, not done for a patron: a reading or export of the log, a time zone change. */
const aboutTheDesk = (entry: ActionEntry): boolean => isLogAudit(entry) || entry.action === 'zone-change';

export function useActionWords() {
  const { t, te } = useI18n();
  const format = useDeskFormat();

  const action = (entry: ActionEntry): string => (te(`log.actions.${entry.action}`) ? t(`log.actions.${entry.action}`) : entry.action);

  function outcome(entry: ActionEntry): string {
    if (entry.outcome === 'ok') return entry.confirmedByReread ? t('log.okReread') : t('log.ok');
    // Nobody knows whether it took effect: not "refused" (issue #35).
    if (entry.outcome === 'unknown') return t('log.unknown');
    const key = `log.outcomes['${entry.outcome}']`;
    return t('log.failed', { code: te(key, 'en') ? t(key) : t("log.outcomes['error']") });
  }

  /** Who: the name, or "desk PIN" for a shift the shared desk PIN opened (with the name chosen from IT's list, if any). */
  const staff = (entry: ActionEntry): string => {
    if (!entry.deskPin) return entry.staff;
    return entry.staff ? t('log.staffWithDeskPin', { name: entry.staff }) : t('log.deskPin');
  };

  const library = (entry: ActionEntry): string => (aboutTheDesk(entry) ? '' : entry.libraryName
    ? t('desk.libraryNamed', { name: entry.libraryName, id: entry.libraryId })
    : t('desk.libraryNumbered', { id: entry.libraryId }));

  /** The filter a reading or export of the log used, in words ("No filter" when none). */
  function filter(used: ActionFilter = {}): string {
    const parts: string[] = [];
    if (used.cardEnding) parts.push(t('log.filterParts.cardEnding', { value: used.cardEnding }));
    if (used.staff) parts.push(t('log.filterParts.staff', { value: used.staff }));
    if (used.from !== undefined) parts.push(t('log.filterParts.from', { value: format.dateTime(used.from) }));
    if (used.to !== undefined) parts.push(t('log.filterParts.to', { value: format.dateTime(used.to) }));
    if (used.outcome) parts.push(t('log.filterParts.outcome', { value: used.outcome === 'ok' ? t('log.outcomeOk') : t('log.outcomeFailed') }));
    return parts.length === 0 ? t('log.filterNone') : t('log.filter', { list: parts.join(', ') });
  }

  /** A time zone change, from which zone to which. */
  const zoneChange = (zone: NonNullable<ActionEntry['zone']>): string => (zone.from ? t('log.zoneChange', { from: zone.from, to: zone.to }) : t('log.zoneFirstSeen', { to: zone.to }));

  /** What the Title column says: the title, for a reading of the log the filter it used, for a time zone change the zones. */
  const detail = (entry: ActionEntry): string | undefined => (isLogAudit(entry) ? filter(entry.filter) : entry.zone ? zoneChange(entry.zone) : undefined);

  /** The CSV's words, read when the export is made (the language may have changed since the dialog opened). */
  function csv(): CsvWords {
    return { columns: Object.fromEntries(CSV_COLUMNS.map((c) => [c, t(`log.csvColumns.${c}`)])) as CsvWords['columns'], action, outcome, library, detail, staff };
  }

  return { action, outcome, library, detail, staff, csv };
}
