// The on-behalf action log: every borrow, return, hold and hold removal staff make for a
// patron, kept on this desk for the retention period only (rules.ts), each entry sealed with a
// key from the OS keychain (entry-cipher.ts, log-key.ts). It holds nothing about the patron
// beyond the masked card and a keyed hash of the whole card (to show "today's actions for
// this patron"), and the title only while the policy allows.
import { readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { maskCard } from '../shared/card-mask.ts';
import type { ActionEntry, ActionFilter } from '../shared/action-log.ts';
import { ActionLogFile, type StoredAction } from './action-log-file.ts';
import { cardMatch } from './entry-cipher.ts';
import { matchesFilter } from './filter.ts';
import type { LogKeySource } from './log-key.ts';

export type { ActionEntry, ActionFilter, ActionKind } from '../shared/action-log.ts';
export { ActionLogFile, type StoredAction } from './action-log-file.ts';

/** What DeskService hands over: the whole card, which the log masks and hashes and never keeps. */
export interface ActionRecord extends Omit<ActionEntry, 'card'> { card: string }

export interface ActionLogOptions {
  path: string;
  key: LogKeySource;
  now?: () => number;
}

export interface PurgeResult {
  /** Entries past the retention period. */
  removed: number;
  /** Lines that could not be read (torn, altered, another key): they cannot be dated, and go. */
  unreadable: number;
  /** Entries whose title went because the policy no longer allows titles. */
  titlesRemoved: number;
  /** Files set aside when the key was lost, past the retention period. */
  setAsideRemoved: number;
}

const SET_ASIDE = '.unreadable-';

export class ActionLog {
  readonly path: string;
  private readonly key: LogKeySource;
  private readonly now: () => number;
  private opened: Promise<ActionLogFile> | undefined;

  constructor(options: ActionLogOptions) {
    this.path = options.path;
    this.key = options.key;
    this.now = options.now ?? Date.now;
  }

  /** The file under its key; refuses (keychain-unavailable) when the key cannot be had. A failure is tried again next time. */
  open(): Promise<ActionLogFile> {
    this.opened ??= this.openOnce().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }

  async record(record: ActionRecord): Promise<ActionEntry> {
    const file = await this.open();
    const { card, ...rest } = record;
    const entry: ActionEntry = { ...rest, card: maskCard(card) };
    file.append({ ...entry, cardMatch: cardMatch(file.keys, record.libraryId, card) });
    return entry;
  }

  /** Newest first, filtered, one page. */
  async page(filter: ActionFilter, offset: number, limit: number): Promise<{ total: number; entries: ActionEntry[]; skipped: number }> {
    const { entries, skipped } = await this.matching(filter);
    entries.reverse();
    return { total: entries.length, entries: entries.slice(offset, offset + limit), skipped };
  }

  /** Oldest first, every entry the filter matches (the export). */
  async matching(filter: ActionFilter): Promise<{ entries: ActionEntry[]; skipped: number }> {
    const { entries, skipped } = (await this.open()).read();
    return { entries: entries.filter((entry) => matchesFilter(entry, filter)).map(shown), skipped };
  }

  /** This patron's actions (the whole card at this library) from `since`, oldest first. */
  async forPatron(libraryId: number, card: string, since: number): Promise<ActionEntry[]> {
    const file = await this.open();
    const match = cardMatch(file.keys, libraryId, card);
    return file.read().entries.filter((entry) => entry.cardMatch === match && entry.libraryId === libraryId && entry.time >= since).map(shown);
  }

  /** Drops what is past `before`, and every title when titles are no longer allowed. */
  async purge(rules: { before: number; titles: boolean }): Promise<PurgeResult> {
    const file = await this.open();
    let titlesRemoved = 0;
    const { removed, unreadable } = file.rewrite((entry) => {
      if (entry.time < rules.before) return undefined;
      if (rules.titles || entry.title === undefined) return entry;
      titlesRemoved += 1;
      const { title: _dropped, ...withoutTitle } = entry;
      return withoutTitle;
    });
    return { removed, unreadable, titlesRemoved, setAsideRemoved: this.removeSetAside(rules.before) };
  }

  /** Keeps no log (retention 0): the file and anything set aside go, without needing the key. */
  erase(): number {
    rmSync(this.path, { force: true });
    return this.removeSetAside(Number.POSITIVE_INFINITY);
  }

  private async openOnce(): Promise<ActionLogFile> {
    const { key, created } = await this.key.get();
    // A new key cannot read what an old one sealed (the keychain entry was deleted, or the
    // keychain replaced): the old file is set aside, never mixed with new entries, and goes
    // when the retention period has passed since.
    if (created && sizeOf(this.path) > 0) renameSync(this.path, `${this.path}${SET_ASIDE}${this.now()}`);
    return new ActionLogFile(this.path, key);
  }

  private removeSetAside(before: number): number {
    const prefix = basename(this.path) + SET_ASIDE;
    let removed = 0;
    let names: string[];
    try {
      names = readdirSync(dirname(this.path));
    } catch {
      return 0;
    }
    for (const name of names) {
      if (!name.startsWith(prefix)) continue;
      const setAsideAt = Number(name.slice(prefix.length));
      if (Number.isFinite(setAsideAt) && setAsideAt >= before) continue;
      rmSync(join(dirname(this.path), name), { force: true });
      removed += 1;
    }
    return removed;
  }
}

function shown(entry: StoredAction): ActionEntry {
  const { cardMatch: _hash, ...visible } = entry;
  return visible;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
