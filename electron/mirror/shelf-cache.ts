// The browser's in-memory indexes (shelf-index.ts, shelf-search.ts) for one mirror, in the
// process that reads it: one per library asked for, the last few kept. An index is one
// snapshot of the mirror; when another connection (the sync worker) commits, SQLite's
// `data_version` moves and the index is rebuilt on the next read — at most every few seconds
// while a sync is writing page after page, so staff browsing during a sync are not held up by
// rebuilds. Availability this process stores is patched into the index instead. After an
// upgrade from schema 1, the titles' search words are computed here in the background.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { CatalogMirror } from './mirror.ts';
import { SearchUpgrade } from './search-upgrade.ts';
import { FACETS_SQL, ShelfIndex, type Direction, type ShelfReader } from './shelf-index.ts';
import { ShelfSearch, type SearchTuning } from './shelf-search.ts';

const LIBRARIES_KEPT = 2;
/** While a sync is under way, an index this young is served even though the mirror has moved on. */
const REBUILD_AT_MOST_EVERY_MS = 3000;

/** The mirror changed under an index being read: build it again. */
export class StaleShelfError extends Error {}

export interface Shelf { index: ShelfIndex; search: ShelfSearch }

interface Entry extends Shelf { dataVersion: number; builtAt: number }

export class ShelfCache {
  private readonly mirror: CatalogMirror;
  private readonly db: DatabaseSync;
  private readonly entries = new Map<number, Entry>();
  private readonly upgrade: SearchUpgrade;
  private upgrading: Promise<void> | undefined;
  private readonly now: () => number;

  private readonly tuning: SearchTuning | undefined;
  private versionStatement: StatementSync | undefined;

  /** `tuning` is for tests that prove each way of searching on its own. */
  constructor(mirror: CatalogMirror, now: () => number = Date.now, tuning?: SearchTuning) {
    this.mirror = mirror;
    this.db = mirror.db;
    this.now = now;
    this.tuning = tuning;
    this.upgrade = new SearchUpgrade(mirror);
    mirror.onAvailabilityStored((libraryId, contentIds) => this.patchAvailability(libraryId, contentIds));
  }

  /** The library's index, fresh unless a sync is writing and the one held is younger than a few seconds. */
  shelf(libraryId: number, forceFresh = false): Shelf {
    this.continueUpgrade();
    const entry = this.entries.get(libraryId);
    if (entry) {
      this.entries.delete(libraryId);
      this.entries.set(libraryId, entry);
      if (entry.dataVersion === this.dataVersion()) return entry;
      if (!forceFresh && this.now() - entry.builtAt < REBUILD_AT_MOST_EVERY_MS && this.syncUnderWay()) return entry;
    }
    return this.build(libraryId);
  }

  /** Runs `read` on the library's index; when the index turns out stale mid-read, once more on a fresh one. */
  read<T>(libraryId: number, read: (shelf: Shelf) => T): T {
    try {
      return read(this.shelf(libraryId));
    } catch (error) {
      if (!(error instanceof StaleShelfError)) throw error;
      return read(this.shelf(libraryId, true));
    }
  }

  /** How far the background search upgrade is (0–1), or undefined when there is none. */
  upgradeProgress(): number | undefined {
    return this.upgrading ? this.upgrade.progress() : undefined;
  }

  private continueUpgrade(): void {
    if (this.upgrading || !this.upgrade.pending()) return;
    this.upgrading = this.upgrade.run()
      .catch(() => { /* a failed chunk rolled back; the next read starts again from the cursor */ })
      .finally(() => {
        this.upgrading = undefined;
        this.entries.clear(); // indexes built meanwhile lack the words computed since
      });
  }

  private dataVersion(): number {
    this.versionStatement ??= this.db.prepare('PRAGMA data_version');
    return Number((this.versionStatement.get() as { data_version: number }).data_version);
  }

  private syncUnderWay(): boolean {
    return this.db.prepare('SELECT 1 FROM sync_state WHERE in_progress = 1').get() !== undefined;
  }

  private build(libraryId: number): Entry {
    this.entries.delete(libraryId);
    const { rows, dataVersion } = this.snapshot(() => readRows(this.db, libraryId));
    const index = new ShelfIndex(libraryId, rows, this.reader(libraryId, dataVersion));
    const entry: Entry = { index, search: new ShelfSearch(index, this.db, this.tuning), dataVersion, builtAt: this.now() };
    if (this.entries.size >= LIBRARIES_KEPT) this.entries.delete(this.entries.keys().next().value as number);
    this.entries.set(libraryId, entry);
    return entry;
  }

  /** `read` inside one read transaction, with the data version it saw. */
  private snapshot<T>(read: () => T): { rows: T; dataVersion: number } {
    this.db.exec('BEGIN');
    try {
      this.db.prepare('SELECT 1 FROM sync_state LIMIT 1').get(); // the snapshot starts with a read
      const dataVersion = this.dataVersion();
      return { rows: read(), dataVersion };
    } finally {
      this.db.exec('COMMIT');
    }
  }

  /** Later reads for the index, refused when the mirror has moved past its snapshot. */
  private reader(libraryId: number, dataVersion: number): ShelfReader {
    const sameSnapshot = <T>(read: () => T): T => {
      const result = this.snapshot(read);
      if (result.dataVersion !== dataVersion) throw new StaleShelfError('the mirror changed since the index was built');
      return result.rows;
    };
    return {
      contentIdsInOrder: (sort: 'title' | 'artist', direction: Direction) => sameSnapshot(() => numbers(
        this.db.prepare(`SELECT group_concat(content_id) AS list FROM (SELECT content_id FROM entitlements WHERE library_id = ?
          ORDER BY ${sort} COLLATE NOCASE ${direction === 'desc' ? 'DESC' : 'ASC'}, content_id)`).get(libraryId) as { list: string | null })),
      words: () => sameSnapshot(() => (this.db.prepare(`SELECT group_concat(coalesce(words, ''), char(10) ORDER BY content_id) AS text
          FROM entitlements WHERE library_id = ?`).get(libraryId) as { text: string | null }).text ?? ''),
    };
  }

  private patchAvailability(libraryId: number, contentIds: number[]): void {
    const entry = this.entries.get(libraryId);
    if (!entry || contentIds.length === 0) return;
    const ranks = this.db.prepare(`SELECT content_id AS id, avail FROM entitlements WHERE library_id = ? AND content_id IN (SELECT value FROM json_each(?))`)
      .all(libraryId, JSON.stringify(contentIds)) as { id: number; avail: number }[];
    const changes = ranks.map((r) => ({ row: entry.index.rowOf(r.id), rank: r.avail })).filter((c) => c.row >= 0);
    entry.search.patchFacets(entry.index.patchAvailability(changes));
  }
}

/** The library's rows in content id order: ids, facet bytes and years, read as one text (one value per row is far cheaper than one object per row). */
function readRows(db: DatabaseSync, libraryId: number): { contentIds: Float64Array; facets: Uint8Array; years: Float64Array } {
  const answer = db.prepare(`SELECT count(*) AS n, group_concat(content_id || ' ' || (${FACETS_SQL}) || ' ' || coalesce(year, ''), ',' ORDER BY content_id) AS list
    FROM entitlements WHERE library_id = ?`).get(libraryId) as { n: number; list: string | null };
  const n = Number(answer.n);
  const contentIds = new Float64Array(n);
  const facets = new Uint8Array(n);
  const years = new Float64Array(n);
  const fields = [contentIds, facets, years];
  const numbers = new IntegerReader(answer.list ?? '');
  for (let row = 0; row < n; row++) {
    for (const field of fields) field[row] = numbers.next();
  }
  return { contentIds, facets, years };
}

function numbers(answer: { list: string | null }): Float64Array {
  const list = answer.list ?? '';
  const reader = new IntegerReader(list);
  const out = new Float64Array(list === '' ? 0 : reader.count(44) + 1);
  for (let i = 0; i < out.length; i++) out[i] = reader.next();
  return out;
}

/** Integers out of a list separated by spaces or commas, without a string per number; an empty one is NaN (NULL). */
class IntegerReader {
  private readonly text: string;
  private at = 0;

  constructor(text: string) {
    this.text = text;
  }

  count(separator: number): number {
    let n = 0;
    for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === separator) n++;
    return n;
  }

  next(): number {
    const text = this.text;
    let value = 0;
    let digits = 0;
    let sign = 1;
    for (; this.at < text.length; this.at++) {
      const c = text.charCodeAt(this.at);
      if (c === 32 || c === 44) break;
      if (c === 45) sign = -1;
      else {
        value = value * 10 + (c - 48);
        digits++;
      }
    }
    this.at++;
    return digits === 0 ? NaN : sign * value;
  }
}
