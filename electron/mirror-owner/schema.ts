// The mirror's tables, versioned with SQLite's user_version. A migration is a list of
// statements run in one transaction; the database never sits between two versions.
import type { DatabaseSync } from 'node:sqlite';
import { AVAILABILITY_RANK, COPY_FROM_TITLE, COLLECTION_COLUMNS } from './collection-columns.ts';

/**
 * The Collection's title and artist orders (schema 2), by name and definition: a first fill from
 * the library mirror builds them once at its end instead of entry by entry (collection-tables.ts,
 * deferCollectionOrders), as a migration would.
 */
export const COLLECTION_ORDER_INDEXES = [
  'entitlements_by_title ON entitlements (library_id, title COLLATE NOCASE, content_id)',
  'entitlements_by_artist ON entitlements (library_id, artist COLLATE NOCASE, content_id)',
] as const;

const MIGRATIONS: string[][] = [
  // 1: global records, the library's entitlements, availability with the time it was read,
  //    sync state per source, and an FTS5 index over what staff search by.
  [
    `CREATE TABLE titles (
       id INTEGER PRIMARY KEY,          -- content id: a TV series' titleId is not unique, its id is
       title TEXT, series TEXT, artist TEXT, format TEXT, year INTEGER, isbn TEXT, upc TEXT,
       for_children INTEGER NOT NULL DEFAULT 0, cover TEXT, countries TEXT NOT NULL DEFAULT '',
       seen_run INTEGER NOT NULL        -- the run that last saw it: a full run sweeps the rest
     )`,
    // The full record apart from the columns the browser filters and sorts on, so those rows
    // stay small and a filter over half a million titles reads few pages.
    `CREATE TABLE title_records (
       id INTEGER PRIMARY KEY REFERENCES titles (id) ON DELETE CASCADE,
       record TEXT NOT NULL             -- the normalised record as JSON, for the detail panel
     )`,
    'CREATE INDEX titles_by_title ON titles (title COLLATE NOCASE)',
    `CREATE VIRTUAL TABLE titles_fts USING fts5(title, series, artist, isbn, upc,
       content='titles', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
    `CREATE TRIGGER titles_ai AFTER INSERT ON titles BEGIN
       INSERT INTO titles_fts (rowid, title, series, artist, isbn, upc) VALUES (new.id, new.title, new.series, new.artist, new.isbn, new.upc);
     END`,
    `CREATE TRIGGER titles_ad AFTER DELETE ON titles BEGIN
       INSERT INTO titles_fts (titles_fts, rowid, title, series, artist, isbn, upc) VALUES ('delete', old.id, old.title, old.series, old.artist, old.isbn, old.upc);
     END`,
    `CREATE TRIGGER titles_au AFTER UPDATE OF title, series, artist, isbn, upc ON titles BEGIN
       INSERT INTO titles_fts (titles_fts, rowid, title, series, artist, isbn, upc) VALUES ('delete', old.id, old.title, old.series, old.artist, old.isbn, old.upc);
       INSERT INTO titles_fts (rowid, title, series, artist, isbn, upc) VALUES (new.id, new.title, new.series, new.artist, new.isbn, new.upc);
     END`,
    `CREATE TABLE entitlements (
       library_id INTEGER NOT NULL, content_id INTEGER NOT NULL,
       model TEXT NOT NULL CHECK (model IN ('INSTANT', 'FLEX')), active INTEGER NOT NULL,
       seen_run INTEGER NOT NULL,
       PRIMARY KEY (library_id, content_id)
     ) WITHOUT ROWID`,
    'CREATE INDEX entitlements_by_filter ON entitlements (library_id, model, active)',
    `CREATE TABLE availability (
       library_id INTEGER NOT NULL, content_id INTEGER NOT NULL,
       status TEXT, available_copies INTEGER, total_copies INTEGER, holds_queue_size INTEGER,
       read_at INTEGER NOT NULL,
       PRIMARY KEY (library_id, content_id)
     ) WITHOUT ROWID`,
    `CREATE TABLE sync_state (
       source TEXT PRIMARY KEY,         -- 'global', 'entitlements:101:FLEX', 'availability:101', 'library-content:101'
       in_progress INTEGER NOT NULL DEFAULT 0,
       next_token TEXT,                 -- where an interrupted run continues (NULL: from the start)
       run_since INTEGER,               -- the delta base of the run under way (NULL: full)
       run_started_at INTEGER,
       last_success_at INTEGER, last_attempt_at INTEGER, last_error TEXT,
       items INTEGER NOT NULL DEFAULT 0
     )`,
  ],
  // 2: the Collection at frame rate. Each library's entitlements carry copies of the columns the
  //    browser filters and sorts on (title, artist, format, year, children's, an availability
  //    rank), so a library is read in one pass and ordered by its own indexes. Search goes by
  //    `words` (search-text.ts: one normal form for what is stored and what staff type) in an
  //    FTS5 index over titles.words (external content: no second copy) with prefix indexes, kept
  //    by the write path instead of triggers so a full run can build it once at its end. The copies are filled here (plain SQL); the words
  //    of existing titles are computed afterwards in the background (search-upgrade.ts) from
  //    `mirror_state`'s `words_after`.
  [
    'DROP TRIGGER titles_ai',
    'DROP TRIGGER titles_ad',
    'DROP TRIGGER titles_au',
    'DROP TABLE titles_fts',
    'DROP INDEX titles_by_title',
    'DROP INDEX entitlements_by_filter',
    'ALTER TABLE titles ADD COLUMN words TEXT', // NULL until computed
    ...['title TEXT', 'artist TEXT', 'format TEXT', 'year INTEGER', 'kids INTEGER NOT NULL DEFAULT 0',
      'avail INTEGER NOT NULL DEFAULT 2', 'words TEXT'].map((column) => `ALTER TABLE entitlements ADD COLUMN ${column}`),
    // Prefix indexes for the word lengths search asks of it (collection-search.ts): 3 and 4 letters.
    `CREATE VIRTUAL TABLE title_words USING fts5(words, content='titles', content_rowid='id', tokenize='ascii', prefix='3 4')`,
    `CREATE TABLE mirror_state (
       key TEXT PRIMARY KEY,            -- 'words_after': titles above this id may still lack words; 'bulk': a full run builds the index at its end
       value INTEGER NOT NULL
     ) WITHOUT ROWID`,
    // Filled before the indexes exist: building an index once is far quicker than keeping it row by row.
    `UPDATE entitlements SET ${COLLECTION_COLUMNS} = ${COPY_FROM_TITLE('entitlements')}, avail = ${AVAILABILITY_RANK('entitlements')}`,
    ...COLLECTION_ORDER_INDEXES.map((index) => `CREATE INDEX ${index}`),
    'CREATE INDEX entitlements_by_content ON entitlements (content_id)',
    "INSERT INTO mirror_state (key, value) SELECT 'words_after', 0 WHERE EXISTS (SELECT 1 FROM titles)",
  ],
  // 3: a failed run keeps its error's code beside the English message, so staff read why in
  //    their language (the message stays for the log).
  ['ALTER TABLE sync_state ADD COLUMN last_error_code TEXT'],
  // 4: a global catalog record is stored as the service sent it and normalised when shown
  //    (title-row.ts); the records stored before stay normalised, and say so with 0.
  ['ALTER TABLE title_records ADD COLUMN wire INTEGER NOT NULL DEFAULT 0'],
  // 5: the search index keeps only which titles hold each word (detail=none), and no word
  //    counts per title (columnsize=0): search asks it for titles with words that begin so,
  //    never for phrases, positions or a rank. Built at a bulk run's end in 1.4-1.5 s on a
  //    million titles instead of 2.2. Rebuilt here from the stored words.
  [
    'DROP TABLE title_words',
    `CREATE VIRTUAL TABLE title_words USING fts5(words, content='titles', content_rowid='id', tokenize='ascii', prefix='3 4',
       detail=none, columnsize=0)`,
    'INSERT INTO title_words (rowid, words) SELECT id, words FROM titles WHERE words IS NOT NULL',
  ],
  // 6: a title's record is kept as the client's normalised record in a compact form
  //    (title-record.ts: no field names, numbers as varints, repeating strings named by number
  //    in `vocabulary`) in titles.record, and titles keep as columns only what SQL reads (the
  //    Collection's copies, the search words and the title id): about a fifth of the record as
  //    sent. The titles stored before are converted a chunk at a time by the owner
  //    (mirror-upgrade.ts), from `mirror_state`'s `records_after`; title_records goes once they
  //    all are. A failed run keeps the reason staff read (shared/reasons.ts) and its parameters
  //    beside its code.
  //    Issue #24 in the same step (no desk was released with either half): a content id that is
  //    a string (a series' episode in the published schema) gets an integer key of its own
  //    (content-keys.ts); each title files the titleId a search result names (title-contents.ts),
  //    indexed only where it is not the title's own key — where a title id is its content id,
  //    the primary key answers, and a bulk run writes no index entry for it (an index over every
  //    record cost a full ingest 15-35% here); each source keeps when its last full run
  //    succeeded and how many rows that run's sweep removed (the scheduled full entitlement pass,
  //    which finds removals no delta marks). The titles already stored get their title id from
  //    their earlier records, once, here, so search results resolve at once (before the records'
  //    conversion reaches them).
  [
    'ALTER TABLE sync_state ADD COLUMN last_error_reason TEXT',
    'ALTER TABLE sync_state ADD COLUMN last_error_params TEXT', // JSON
    'ALTER TABLE sync_state ADD COLUMN full_success_at INTEGER',
    'ALTER TABLE sync_state ADD COLUMN full_removed INTEGER',
    'CREATE TABLE vocabulary (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)',
    'CREATE TABLE content_keys (id TEXT PRIMARY KEY, rowid_key INTEGER NOT NULL UNIQUE) WITHOUT ROWID',
    'ALTER TABLE titles ADD COLUMN record BLOB', // NULL until converted
    'ALTER TABLE titles ADD COLUMN title_id INTEGER',
    `UPDATE titles SET title_id = (SELECT CASE WHEN json_type(r.record, '$.titleId') = 'integer' THEN json_extract(r.record, '$.titleId') END
       FROM title_records r WHERE r.id = titles.id)`,
    'CREATE INDEX titles_by_title_id ON titles (title_id) WHERE title_id != id',
    "INSERT INTO mirror_state (key, value) SELECT 'records_after', 0 WHERE EXISTS (SELECT 1 FROM titles)",
  ],
  // 7 (issue #34): the content flags the Collection filters on (title-row.ts: sample, explicit
  //    language, edited), on each title and copied to its libraries' rows as the other filtered
  //    columns are; the purchase models a title is sold under (its products' licences, as bits:
  //    a title sold one way only can be held that way only); which entitlement pull last listed
  //    a row (its filter), apart from the model the desk holds it under (the record's, where it
  //    says: a full run sweeps what its own pull no longer lists); and the holds queue position
  //    content info may give. The flags and models of titles stored before are read from their
  //    records by the owner a chunk at a time (mirror-upgrade.ts, from `mirror_state`'s `flags_after`).
  [
    'ALTER TABLE titles ADD COLUMN flags INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE titles ADD COLUMN models INTEGER NOT NULL DEFAULT 0',
    "ALTER TABLE entitlements ADD COLUMN listed_as TEXT CHECK (listed_as IN ('INSTANT', 'FLEX'))",
    'ALTER TABLE entitlements ADD COLUMN flags INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE availability ADD COLUMN holds_queue_position INTEGER',
    "INSERT INTO mirror_state (key, value) SELECT 'flags_after', -1 WHERE EXISTS (SELECT 1 FROM titles)",
  ],
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** `upTo` is for tests that need a mirror as an earlier version left it. */
export function migrate(db: DatabaseSync, upTo = SCHEMA_VERSION): void {
  const current = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if (current > SCHEMA_VERSION) {
    throw new Error(`The mirror was written by a newer Lending Desk (schema ${current}, this one knows ${SCHEMA_VERSION}).`);
  }
  for (let version = current; version < upTo; version++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const statement of MIGRATIONS[version] as string[]) db.exec(statement);
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
