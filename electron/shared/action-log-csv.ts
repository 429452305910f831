// The action log as a CSV file for a spreadsheet, in the desk's language: the renderer passes
// the words (column names, actions, outcomes, library names) from its locale files. Every cell
// is quoted; a cell that starts like a formula (=, +, -, @, tab, carriage return) is defused
// with a leading apostrophe so Excel, LibreOffice and Sheets show it as text instead of running
// it; the file starts with a UTF-8 byte order mark so Excel reads accents right; times are the
// desk's local time with its offset (2026-03-10T09:05:00-05:00), readable by people and parsers.
import type { ActionEntry } from './action-log.ts';

export const CSV_COLUMNS = ['time', 'staff', 'osUser', 'profile', 'library', 'card', 'action', 'title', 'contentId', 'outcome'] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

export interface CsvWords {
  columns: Record<CsvColumn, string>;
  action(entry: ActionEntry): string;
  outcome(entry: ActionEntry): string;
  library(entry: ActionEntry): string;
  /** What stands in the title's place for a reading or export of the log (its filter), if anything. */
  detail?(entry: ActionEntry): string | undefined;
  /** Who, in the desk's language ("desk PIN" for a shift the shared desk PIN opened); the name as kept otherwise. */
  staff?(entry: ActionEntry): string;
}

export const UTF8_BOM = '\ufeff';
const FORMULA_START = /^[=+\-@\t\r]/;

/** Minutes east of UTC at that moment, as the desk's clock sees it (the renderer's time zone). */
export const localOffsetMinutes = (ms: number): number => -new Date(ms).getTimezoneOffset();

export function defuseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvCell(text: string): string {
  return `"${defuseFormula(text).replace(/"/g, '""')}"`;
}

export function localTimeWithOffset(ms: number, offsetMinutes: number): string {
  const wall = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const minutes = Math.abs(offsetMinutes);
  return `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export function actionsCsv(entries: readonly ActionEntry[], words: CsvWords, offsetMinutes: (ms: number) => number = localOffsetMinutes): string {
  const cells = (entry: ActionEntry): Record<CsvColumn, string> => ({
    time: localTimeWithOffset(entry.time, offsetMinutes(entry.time)),
    staff: words.staff?.(entry) ?? entry.staff,
    osUser: entry.osUser ?? '',
    profile: entry.profile,
    library: words.library(entry),
    card: entry.card,
    action: words.action(entry),
    title: entry.title ?? words.detail?.(entry) ?? '',
    contentId: entry.contentId === 0 ? '' : String(entry.contentId), // 0: a reading or export of the log, which names no title
    outcome: words.outcome(entry),
  });
  const rows = [
    CSV_COLUMNS.map((column) => csvCell(words.columns[column])),
    ...entries.map((entry) => {
      const row = cells(entry);
      return CSV_COLUMNS.map((column) => csvCell(row[column]));
    }),
  ];
  return UTF8_BOM + rows.map((row) => row.join(',')).join('\r\n') + '\r\n';
}
