// The on-behalf action log: every borrow, return, hold and hold removal staff make for a
// patron, and every reading and export of the log itself, kept on this desk for the retention
// period only (rules.ts), each entry sealed with a key from the OS keychain (entry-cipher.ts,
// log-key.ts) and chained to the one before. It holds nothing about the patron beyond the masked
// card and a keyed hash of the whole card (to show "today's actions for this patron"), and the
// title only while the policy allows. Opening it checks the chain against the keychain's head
// (chain-head.ts): a line removed, reordered or copied in, a file cut short or put back from an
// older copy is found, told to the app log (where) and shown to staff (that it was changed).
import { readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DESK_RECORDS, type DeskKeychain } from '../credentials/desk-keychain.ts';
import { maskCard } from '../../shared/card-mask.ts';
import type { ActionEntry, ActionFilter } from '../../shared/action-log.ts';
import { ActionLogFile, type ChainTail, type StoredAction } from './action-log-file.ts';
import { judgeChain, readHead, writeHead, type ChainChange, type ChainHead } from './chain-head.ts';
import { settleDayBoundary, type DayBoundary, type ZoneChange } from './day-boundary.ts';
import { cardMatch } from './entry-cipher.ts';
import { matchesFilter } from './filter.ts';
import type { LogKeySource } from './log-key.ts';

export type { ActionEntry, ActionFilter, ActionKind } from '../../shared/action-log.ts';
export { ActionLogFile, type StoredAction } from './action-log-file.ts';

/** What DeskService hands over: the whole card, which the log masks and hashes and never keeps. */
export interface ActionRecord extends Omit<ActionEntry, 'card'> { card: string }

export interface ActionLogOptions {
  path: string;
  key: LogKeySource;
  /** The keychain that holds where the log's chain ends (DESK_RECORDS.actionLogHead). */
  head: DeskKeychain;
  now?: () => number;
  /** Told once per start when the file was changed outside the desk, and where (for the app log). */
  onChanged?: (where: string[]) => void;
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
  private readonly keychain: DeskKeychain;
  private readonly now: () => number;
  private readonly onChanged: (where: string[]) => void;
  private opened: Promise<ActionLogFile> | undefined;
  /** What the keychain says about the chain: where it ends and whether it was found changed. */
  private head: ChainHead | undefined;
  /** Head writes in order: one append's head never overtakes the next's. */
  private headTurn: Promise<unknown> = Promise.resolve();

  constructor(options: ActionLogOptions) {
    this.path = options.path;
    this.key = options.key;
    this.keychain = options.head;
    this.now = options.now ?? Date.now;
    this.onChanged = options.onChanged ?? (() => {});
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
    const tail = file.append({ ...entry, cardMatch: cardMatch(file.keys, record.libraryId, card) });
    await this.settle(tail);
    return entry;
  }

  /** A reading or export of the log, as an entry of its own (no card, no title): who, when, which filter. */
  async recordAudit(entry: Omit<ActionEntry, 'card' | 'libraryId' | 'contentId' | 'outcome'>): Promise<void> {
    const file = await this.open();
    const tail = file.append({ ...entry, libraryId: 0, card: '', contentId: 0, outcome: 'ok', cardMatch: '' });
    await this.settle(tail);
  }

  /** When the log was found changed outside the desk and where (kept until the retention period has passed since). */
  async changed(): Promise<ChainChange | undefined> {
    await this.open();
    return this.head?.changed;
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

  /**
   * Drops what is past keeping (`expired`, rules.ts), and every title when titles are no longer
   * allowed. What is kept starts a new chain (the keychain learns it first), so a purge never looks
   * like an edit; a change found earlier stays shown until it is itself past keeping.
   */
  async purge(rules: { expired: (time: number) => boolean; titles: boolean }): Promise<PurgeResult> {
    const file = await this.open();
    let titlesRemoved = 0;
    const { removed, unreadable, tail } = await file.rewrite((entry) => {
      if (rules.expired(entry.time)) return undefined;
      if (rules.titles || entry.title === undefined) return entry;
      titlesRemoved += 1;
      const { title: _dropped, ...withoutTitle } = entry;
      return withoutTitle;
    }, async (next) => this.writeHead({ ...this.current(), next }));
    const { changed } = this.current();
    const stillShown = changed && !rules.expired(changed.at) ? { changed } : {};
    if (tail) await this.writeHead({ ...tail, ...stillShown });
    else if (changed && !stillShown.changed) await this.writeHead({ ...this.current(), changed: undefined });
    return { removed, unreadable, titlesRemoved, setAsideRemoved: this.removeSetAside(rules.expired) };
  }

  /**
   * The zone this log's days are counted in (IT's, or the one kept since set-up), and a change of
   * the machine's zone since the desk last looked (day-boundary.ts).
   */
  dayBoundary(policyZone: string | undefined, machineZone: string): Promise<{ boundary: DayBoundary; change?: ZoneChange }> {
    return settleDayBoundary({ keychain: this.keychain, policyZone, machineZone, now: this.now(), hadLog: sizeOf(this.path) > 0 });
  }

  /** Keeps no log (retention 0): the file, its head and anything set aside go, without needing the key. */
  async erase(): Promise<number> {
    rmSync(this.path, { force: true });
    await this.keychain.remove(DESK_RECORDS.actionLogHead);
    this.head = undefined;
    this.opened = undefined;
    return this.removeSetAside(() => true);
  }

  private async openOnce(): Promise<ActionLogFile> {
    const { key, created } = await this.key.get();
    // A new key cannot read what an old one sealed (the keychain entry was deleted, or the
    // keychain replaced): the old file is set aside, never mixed with new entries, and goes
    // when the retention period has passed since. Its chain goes with it.
    if (created && sizeOf(this.path) > 0) {
      renameSync(this.path, `${this.path}${SET_ASIDE}${this.now()}`);
      await this.keychain.remove(DESK_RECORDS.actionLogHead);
    }
    const file = new ActionLogFile(this.path, key);
    await this.checkChain(file);
    return file;
  }

  /**
   * The file's chain against the keychain's head, once per start. A change found is kept in the
   * head (sticky) and told to the app log; the head then follows the file as it is, so what is
   * appended next chains on. A file an earlier version wrote (no chain, no head yet) is chained
   * as it stands: the upgrade, not an edit.
   */
  private async checkChain(file: ActionLogFile): Promise<void> {
    const head = await readHead(this.keychain);
    const walk = file.walk();
    const hasLines = walk.macs.length + walk.unchained > 0;
    const { where, legacy } = judgeChain(walk, head, hasLines);
    this.head = head;
    if (legacy) {
      await file.rewrite((entry) => entry, async (next) => this.writeHead({ ...walk.tail, next }));
      await this.writeHead(file.walk().tail);
      return;
    }
    if (where.length > 0) {
      this.onChanged(where);
      const changed = head?.changed && head.changed.where.join('\n') === where.join('\n') ? head.changed : { at: this.now(), where };
      // The head follows the file from here, so what is appended next chains on; the change stays shown.
      await this.writeHead({ ...(hasLines || !head ? walk.tail : head), changed });
      return;
    }
    if (head && hasLines && (head.next || head.epoch !== walk.tail.epoch || head.count !== walk.tail.count)) {
      await this.writeHead({ ...walk.tail, ...(head.changed ? { changed: head.changed } : {}) });
    }
  }

  /** The keychain learns where the chain now ends (a crash between the append and this is the one case the check allows: a chain longer than the head). */
  private async settle(tail: ChainTail): Promise<void> {
    await this.writeHead({ ...tail, ...(this.head?.changed ? { changed: this.head.changed } : {}) });
  }

  private current(): ChainHead {
    return this.head ?? { epoch: '', count: 0, mac: '' };
  }

  private writeHead(head: ChainHead): Promise<void> {
    const next = this.headTurn.then(async () => {
      await writeHead(this.keychain, head);
      this.head = head;
    });
    this.headTurn = next.catch(() => undefined);
    return next;
  }

  private removeSetAside(expired: (time: number) => boolean): number {
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
      if (Number.isFinite(setAsideAt) && !expired(setAsideAt)) continue;
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
