// The on-behalf action log: every borrow, return, hold and hold removal staff make for a
// patron, kept locally (one JSON line each, appended synchronously, so a crash loses at most
// the entry being written), viewable in the app and exportable as CSV. It holds nothing about
// the patron beyond the masked card.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { maskCard } from '../logging/redact.ts';

export type ActionKind = 'borrow' | 'return' | 'place-hold' | 'remove-hold';

export interface ActionEntry {
  time: number;
  staff: string;
  profile: string;
  libraryId: number;
  /** Masked: the last four characters only. */
  card: string;
  action: ActionKind;
  contentId: number;
  title?: string;
  /** `ok`, or the error code staff saw. */
  outcome: string;
  /** True when a lost answer was settled by re-reading the patron's account. */
  confirmedByReread?: boolean;
}

export interface ActionRecord extends Omit<ActionEntry, 'card'> { card: string }

const CSV_COLUMNS: (keyof ActionEntry)[] = ['time', 'staff', 'profile', 'libraryId', 'card', 'action', 'contentId', 'title', 'outcome', 'confirmedByReread'];

export class ActionLog {
  private readonly path: string;
  constructor(path: string) {
    this.path = path;
  }

  record(entry: ActionRecord): ActionEntry {
    const stored: ActionEntry = { ...entry, card: maskCard(entry.card) };
    mkdirSync(dirname(this.path), { recursive: true });
    appendFileSync(this.path, JSON.stringify(stored) + '\n', { encoding: 'utf8', mode: 0o600 });
    return stored;
  }

  /** Newest first. A line torn by a crash is skipped, not fatal. */
  list(offset = 0, limit = 100): { total: number; entries: ActionEntry[] } {
    const all = this.readAll();
    all.reverse();
    return { total: all.length, entries: all.slice(offset, offset + limit) };
  }

  /** Oldest first, as a spreadsheet expects; times in ISO 8601 UTC. */
  toCsv(): string {
    const rows = this.readAll().map((entry) => CSV_COLUMNS.map((column) => {
      const value = entry[column];
      return csvCell(column === 'time' && typeof value === 'number' ? new Date(value).toISOString() : value);
    }).join(','));
    return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
  }

  private readAll(): ActionEntry[] {
    if (!existsSync(this.path)) return [];
    return readFileSync(this.path, 'utf8').split('\n').flatMap((line) => {
      if (line.trim() === '') return [];
      try {
        return [JSON.parse(line) as ActionEntry];
      } catch {
        return [];
      }
    });
  }
}

/** Quotes when needed, and defuses text a spreadsheet would run as a formula. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
