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
import { ShelfIndex, type Direction, type ShelfReader } from './shelf-index.ts';
import { readContentIdsInOrder, readRows, readWords } from './shelf-reader.ts';
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
      contentIdsInOrder: (sort: 'title' | 'artist', direction: Direction) => sameSnapshot(() => readContentIdsInOrder(this.db, libraryId, sort, direction)),
      words: () => sameSnapshot(() => readWords(this.db, libraryId)),
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
