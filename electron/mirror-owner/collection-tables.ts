// What the Collection reads beside the records, kept on the mirror's file as titles are written:
// each title's words in the full-text index (`title_words`), the copies each library's
// entitlement rows hold of the columns the Collection filters and sorts on
// (collection-columns.ts), and the title and artist orders over those copies. Page by page, each
// title's write keeps them (titleWritten, titleRemoved). During a full run of titles ("bulk",
// remembered in mirror_state so a resumed run stays one) they are not kept page by page: the
// run's end builds the index once and refreshes the copies (finishBulk).
import type { MirrorFile } from './mirror-file.ts';
import { COLLECTION_ORDER_INDEXES } from './schema.ts';
import { COPY_FROM_TITLE, FLAGS_FROM_TITLE, COLLECTION_COLUMNS } from './collection-columns.ts';
import type { SyncState } from './sync-state.ts';

// FTS5's configuration for building the whole index at once, and its defaults (fts5.html#fts5_configuration_options).
const BUILD_HASH_SIZE = 4 * 1024 * 1024;
const BUILD_AUTOMERGE = 8;
const DEFAULT_HASH_SIZE = 1024 * 1024;
const DEFAULT_AUTOMERGE = 4;

/** What a title contributes to search and to its libraries' rows (words NULL: stored by schema 1, not computed yet). */
export interface TitleColumns { title: string | null; artist: string | null; format: string | null; year: number | null; kids: number; flags: number; words: string | null }

/** The columns compared, and copied when they change. */
const COPIED = ['title', 'artist', 'format', 'year', 'kids', 'flags', 'words'] as const;

export class CollectionTables {
  private readonly file: MirrorFile;
  private readonly runs: SyncState;

  constructor(file: MirrorFile, runs: SyncState) {
    this.file = file;
    this.runs = runs;
  }

  inBulk(): boolean {
    return this.file.query("SELECT 1 FROM mirror_state WHERE key = 'bulk'").get() !== undefined;
  }

  /** Inside a full run of titles' first transaction: its end builds the search index once (finishBulk). */
  beginBulk(): void {
    this.file.prepare("INSERT OR REPLACE INTO mirror_state (key, value) VALUES ('bulk', 1)").run();
  }

  /**
   * Inside a bulk run's first transaction: the Collection's title and artist orders are dropped,
   * and the run's end (finishBulk) builds them again from every row at once. Row by row, each
   * entitlement went to a random place in both, and each batch's commit rewrote most of their
   * pages: on a million titles, a third of a first fill from the library mirror. In between, the
   * Collection reads the same rows in the same order without them (SQLite sorts), and a fill cut
   * short leaves bulk on, so the next one's end builds them.
   */
  deferCollectionOrders(): void {
    if (!this.inBulk()) throw new Error('Only a bulk run builds the Collection\'s orders at its end.');
    for (const index of COLLECTION_ORDER_INDEXES) this.file.exec(`DROP INDEX IF EXISTS ${index.split(' ')[0]}`);
  }

  /**
   * The end of bulk writing, once no run of titles is left under way: the search index built
   * from every title's words, and each library's copies refreshed where a title changed. One
   * transaction, so a crash in it leaves bulk on and the next end does it again.
   */
  finishBulk(): boolean {
    if (!this.inBulk() || this.runs.titlesUnderWay()) return false;
    this.file.transaction(() => {
      this.file.exec("INSERT INTO title_words (title_words) VALUES ('delete-all')");
      // Built with a 4 MiB term buffer and fewer merges, then back to FTS5's defaults for the
      // page-by-page writes: on a million titles 2.1 s instead of 5-6 s with schema 4's index
      // (1.4-1.5 s with schema 5's). A 16 MiB buffer took the same time (1.9-2.1 s) for 24 MiB
      // more peak RSS; 8 MiB, 2.2 s.
      this.ftsConfig(BUILD_HASH_SIZE, BUILD_AUTOMERGE);
      this.file.exec('INSERT INTO title_words (rowid, words) SELECT id, words FROM titles WHERE words IS NOT NULL');
      this.ftsConfig(DEFAULT_HASH_SIZE, DEFAULT_AUTOMERGE);
      this.file.exec(`UPDATE entitlements SET ${COLLECTION_COLUMNS} = ${COPY_FROM_TITLE('entitlements')}
        WHERE ${COLLECTION_COLUMNS} IS NOT ${COPY_FROM_TITLE('entitlements')}`);
      this.file.exec(`UPDATE entitlements SET flags = ${FLAGS_FROM_TITLE('entitlements')} WHERE flags IS NOT ${FLAGS_FROM_TITLE('entitlements')}`);
      for (const index of COLLECTION_ORDER_INDEXES) this.file.exec(`CREATE INDEX IF NOT EXISTS ${index}`); // after the copies: built once from them
      this.file.exec("DELETE FROM mirror_state WHERE key = 'bulk'");
    }, true);
    return true;
  }

  private ftsConfig(hashSize: number, automerge: number): void {
    // Literal values: with a bound value this statement failed ("SQL logic error") under node:sqlite.
    this.file.exec(`INSERT INTO title_words (title_words, rank) VALUES ('hashsize', ${Math.trunc(hashSize)})`);
    this.file.exec(`INSERT INTO title_words (title_words, rank) VALUES ('automerge', ${Math.trunc(automerge)})`);
  }

  /** What the title filed under `key` contributes now, before its write changes it (undefined: a new title). */
  columnsOf(key: number): TitleColumns | undefined {
    return this.file.query('SELECT title, artist, format, year, for_children AS kids, flags, words FROM titles WHERE id = ?').get(key) as TitleColumns | undefined;
  }

  /** Outside bulk, after a title's write: its words re-indexed, and its libraries' copies of what changed. */
  titleWritten(key: number, before: TitleColumns | undefined, now: TitleColumns): void {
    if (before?.words !== now.words) {
      // The index holds no copy of the words: removing the old entry takes the words it was made of.
      if (before?.words != null) this.file.prepare("INSERT INTO title_words (title_words, rowid, words) VALUES ('delete', ?, ?)").run(key, before.words);
      this.file.prepare('INSERT INTO title_words (rowid, words) VALUES (?, ?)').run(key, now.words);
    }
    // Only the copied columns that changed: an indexed column rewritten with its own value still costs its index entries.
    const changed = COPIED.filter((column) => !before || before[column] !== now[column]);
    if (changed.length > 0) {
      this.file.prepare(`UPDATE entitlements SET ${changed.map((column) => `${column} = ?`).join(', ')} WHERE content_id = ?`)
        .run(...changed.map((column) => now[column]), key);
    }
  }

  /** Outside bulk, before a title is deleted: its words out of the index, its libraries' copies emptied. */
  titleRemoved(key: number): void {
    this.file.prepare(`INSERT INTO title_words (title_words, rowid, words) SELECT 'delete', id, words FROM titles WHERE id = ? AND words IS NOT NULL`).run(key);
    this.file.prepare(`UPDATE entitlements SET ${COLLECTION_COLUMNS} = (NULL, NULL, NULL, NULL, 0, NULL), flags = 0 WHERE content_id = ?`).run(key);
  }

  /** Outside bulk, before a full run's sweep deletes the titles it did not see (seen before `run`): the same for each. */
  titlesSwept(run: number): void {
    this.file.prepare(`INSERT INTO title_words (title_words, rowid, words) SELECT 'delete', id, words FROM titles WHERE seen_run < ? AND words IS NOT NULL`).run(run);
    this.file.prepare(`UPDATE entitlements SET ${COLLECTION_COLUMNS} = (NULL, NULL, NULL, NULL, 0, NULL), flags = 0
        WHERE content_id IN (SELECT id FROM titles WHERE seen_run < ?)`).run(run);
  }
}
