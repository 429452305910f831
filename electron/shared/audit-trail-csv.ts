// The library server's audit trail as a CSV a manager exports (issue #32), in the desk's language:
// the same cells as the action log's (a byte order mark for Excel, local times with their offset,
// formulas defused), over the server's entries.
import { csvCell, localOffsetMinutes, localTimeWithOffset, UTF8_BOM } from './action-log-csv.ts';
import type { AuditTrailEntry } from './contract.ts';

export const AUDIT_CSV_COLUMNS = ['time', 'staff', 'role', 'workstation', 'library', 'card', 'action', 'title', 'contentId', 'outcome'] as const;
export type AuditCsvColumn = (typeof AUDIT_CSV_COLUMNS)[number];

export interface AuditCsvWords {
  columns: Record<AuditCsvColumn, string>;
  role(entry: AuditTrailEntry): string;
  library(entry: AuditTrailEntry): string;
  action(entry: AuditTrailEntry): string;
  outcome(entry: AuditTrailEntry): string;
}

export function auditTrailCsv(entries: readonly AuditTrailEntry[], words: AuditCsvWords, offsetMinutes: (ms: number) => number = localOffsetMinutes): string {
  const cells = (entry: AuditTrailEntry): Record<AuditCsvColumn, string> => ({
    time: localTimeWithOffset(entry.at, offsetMinutes(entry.at)),
    staff: entry.staffName ?? '',
    role: words.role(entry),
    workstation: entry.workstationName ?? '',
    library: words.library(entry),
    card: entry.cardMasked ?? '',
    action: words.action(entry),
    title: entry.title ?? '',
    contentId: entry.contentId ?? '',
    outcome: words.outcome(entry),
  });
  const rows = [
    AUDIT_CSV_COLUMNS.map((column) => csvCell(words.columns[column])),
    ...entries.map((entry) => {
      const row = cells(entry);
      return AUDIT_CSV_COLUMNS.map((column) => csvCell(row[column]));
    }),
  ];
  return UTF8_BOM + rows.map((row) => row.join(',')).join('\r\n') + '\r\n';
}
