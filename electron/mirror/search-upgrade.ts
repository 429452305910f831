// A mirror written before schema 2 has titles without search words. Their words are computed
// here a chunk at a time, in id order, each chunk one transaction that also moves the cursor
// (mirror_state 'words_after'), so quitting half way resumes where it stopped; between chunks
// the owner goes on answering the desk. Titles a sync writes meanwhile come with their words
// and are skipped. Until it ends, searching finds only the titles done so far; the Collection
// says so with the progress. The Collection's indexes are made again once, at its end.
import type { StatementSync } from 'node:sqlite';
import type { MirrorDatabase } from './mirror-database.ts';
import { searchWords } from './search-text.ts';

/** Titles a chunk: the owner answers the desk between two chunks, so each is short. */
const CHUNK = 500;

export class SearchUpgrade {
  private readonly mirror: MirrorDatabase;
  private readonly statements: { cursor: StatementSync; chunk: StatementSync; setWords: StatementSync; index: StatementSync; copy: StatementSync; move: StatementSync; end: StatementSync };
  private idRange: { low: number | null; high: number | null } | undefined;

  constructor(mirror: MirrorDatabase) {
    this.mirror = mirror;
    const db = mirror.db;
    this.statements = {
      cursor: db.prepare("SELECT value FROM mirror_state WHERE key = 'words_after'"),
      chunk: db.prepare('SELECT id, title, series, artist, isbn, upc FROM titles WHERE id > ? AND words IS NULL ORDER BY id LIMIT ?'),
      setWords: db.prepare('UPDATE titles SET words = ? WHERE id = ?'),
      index: db.prepare('INSERT INTO title_words (rowid, words) VALUES (?, ?)'),
      copy: db.prepare('UPDATE entitlements SET words = ? WHERE content_id = ?'),
      move: db.prepare("UPDATE mirror_state SET value = ? WHERE key = 'words_after'"),
      end: db.prepare("DELETE FROM mirror_state WHERE key = 'words_after'"),
    };
  }

  pending(): boolean {
    return this.statements.cursor.get() !== undefined;
  }

  /** How far it is (0–1), by the share of title ids behind the cursor; undefined when done. */
  progress(): number | undefined {
    const cursor = this.statements.cursor.get() as { value: number } | undefined;
    if (!cursor) return undefined;
    this.idRange ??= this.mirror.db.prepare('SELECT min(id) AS low, max(id) AS high FROM titles').get() as { low: number | null; high: number | null };
    const { low, high } = this.idRange;
    if (low === null || high === null || high <= low) return 0;
    return Math.max(0, Math.min(1, (cursor.value - low) / (high - low)));
  }

  /** One chunk; false once every title has its words. */
  step(): boolean {
    const { cursor, chunk, setWords, index, copy, move, end } = this.statements;
    return this.mirror.transaction(() => {
      const after = cursor.get() as { value: number } | undefined;
      if (!after) return false;
      const titles = chunk.all(after.value, CHUNK) as { id: number; title: string | null; series: string | null; artist: string | null; isbn: string | null; upc: string | null }[];
      for (const t of titles) {
        const words = searchWords([t.title, t.series, t.artist, t.isbn, t.upc]);
        setWords.run(words, t.id);
        index.run(t.id, words);
        copy.run(words, t.id);
      }
      if (titles.length < CHUNK) {
        end.run();
        this.mirror.touch();
        return false;
      }
      move.run((titles.at(-1) as { id: number }).id);
      return true;
    });
  }

  /** Runs every chunk, giving the event loop a turn between them (the owner's requests go first); resolves when done. */
  async run(): Promise<void> {
    while (this.step()) await new Promise((resolve) => setImmediate(resolve));
  }
}
