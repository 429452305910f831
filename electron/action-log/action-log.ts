// The on-behalf action log: every borrow, return, hold and hold removal staff make for a
// patron, kept locally (one JSON line each, appended synchronously, so a crash loses at most
// the entry being written), viewable in the app and exportable as CSV. It holds nothing about
// the patron beyond the masked card.
import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { maskCard } from '../logging/redact.ts';

export type { ActionEntry, ActionKind } from '../shared/action-log.ts';
import type { ActionEntry } from '../shared/action-log.ts';

export interface ActionRecord extends Omit<ActionEntry, 'card'> { card: string }

const CSV_COLUMNS: (keyof ActionEntry)[] = ['time', 'staff', 'profile', 'libraryId', 'card', 'action', 'contentId', 'title', 'outcome', 'confirmedByReread'];

export class ActionLog {
  private readonly path: string;
  /** True once an append of ours went through whole: the file then ends with a newline. */
  private endKnownWhole = false;
  constructor(path: string) {
    this.path = path;
  }

  record(entry: ActionRecord): ActionEntry {
    const stored: ActionEntry = { ...entry, card: maskCard(entry.card) };
    mkdirSync(dirname(this.path), { recursive: true });
    // A process killed mid-append leaves a last line without its newline. Appending straight
    // after it would glue this entry onto the fragment, and the reader would skip the glued
    // line whole, losing a good entry along with the torn one. So the first append (and the
    // first after a failed one) ends a torn line before adding its own.
    const line = JSON.stringify(stored) + '\n';
    const text = this.endKnownWhole || endsWithNewline(this.path) ? line : '\n' + line;
    this.endKnownWhole = false;
    appendFileSync(this.path, text, { encoding: 'utf8', mode: 0o600 });
    this.endKnownWhole = true;
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

/** True when the file is missing, empty, or ends with a newline: nothing torn to end first. */
function endsWithNewline(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  try {
    const { size } = fstatSync(fd);
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/** Quotes when needed, and defuses text a spreadsheet would run as a formula. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
