// A mirror an earlier version wrote, brought up to this one by its owner a chunk of titles at a
// time, in id order, between the desk's requests: each title's record from the form it was kept
// in (title_records: as the service sent it, or normalised) to the compact one (title-record.ts),
// and — for a mirror from before schema 2 — its search words, into the full-text index and its
// libraries' rows. Each chunk is one transaction that also moves the cursor (mirror_state
// 'records_after'), so quitting half way resumes where it stopped; titles a sync writes meanwhile
// come converted and are skipped. Until it ends, a title's details are read from either form
// (stored-records.ts), and searching finds only titles with words; the Collection and the
// Sync view say how far it is. At its end the old table goes and the file is compacted once.
// A mirror of schema 6 gets its titles' content flags and models (schema 7, issue #34) the same way, read from
// each record and copied to its libraries' rows, from `mirror_state`'s `flags_after`; a title
// converted above gets them with its record.
import type { CatalogRecord } from '../shared/model.ts';
import type { MirrorDatabase } from './mirror-database.ts';
import type { Statement } from './mirror-file.ts';
import { decodeRecord, encodeRecord } from './title-record.ts';
import { contentFlagBits, modelBits, recordOf, wordsOf } from './title-row.ts';

/** Titles a chunk: the owner answers the desk between two chunks, so each is short. */
const CHUNK = 500;

interface Earlier {
  id: number; title: string | null; series: string | null; artist: string | null; format: string | null; year: number | null;
  isbn: string | null; upc: string | null; for_children: number; cover: string | null; countries: string; words: string | null;
  record: string | null; wire: number | null;
}

/** The parts of the mirror an upgrade works through: the file, the earlier records, and the compaction at its end. */
export type UpgradeParts = Pick<MirrorDatabase, 'file' | 'records' | 'maintenance'>;

export class MirrorUpgrade {
  private readonly mirror: UpgradeParts;
  /** Bytes the disk can spare beside the file, for compacting it at the end. */
  private readonly spare: () => number;
  private statements: {
    cursor: Statement; chunk: Statement; store: Statement; index: Statement; copy: Statement; drop: Statement; move: Statement; end: Statement;
    copyFlags: Statement;
  } | undefined;
  /** The flags' own pass reads no earlier table (title_records may be gone already). */
  private flagStatements: { chunk: Statement; flags: Statement; copy: Statement; move: Statement; end: Statement } | undefined;
  private idRange: { low: number | null; high: number | null } | undefined;

  constructor(mirror: UpgradeParts, spare: () => number) {
    this.mirror = mirror;
    this.spare = spare;
  }

  pending(): boolean {
    return this.cursor() !== undefined || this.flagsCursor() !== undefined;
  }

  /** Titles still lack their search words (a mirror from before schema 2): searching finds only the others. */
  searchWordsPending(): boolean {
    return this.mirror.file.query("SELECT 1 FROM mirror_state WHERE key = 'words_after'").get() !== undefined;
  }

  /** How far it is (0–1), by the share of title ids behind the cursor; undefined when done. */
  progress(): number | undefined {
    const cursor = this.cursor() ?? this.flagsCursor();
    if (cursor === undefined) return undefined;
    this.idRange ??= this.mirror.file.query('SELECT min(id) AS low, max(id) AS high FROM titles').get() as { low: number | null; high: number | null };
    const { low, high } = this.idRange;
    if (low === null || high === null || high <= low) return 0;
    return Math.max(0, Math.min(1, (cursor - low) / (high - low)));
  }

  /** One chunk; false once every title is converted (the end done too). */
  step(): boolean {
    if (this.cursor() === undefined && this.flagsCursor() !== undefined) return this.flagsStep();
    const s = this.prepared();
    const { file } = this.mirror;
    const more = file.transaction(() => {
      const after = this.cursor();
      if (after === undefined) return false;
      const titles = s.chunk.all(after, CHUNK) as unknown as Earlier[];
      for (const t of titles) {
        const record = t.record === null ? fromColumns(t) : recordOf(t.record, t.wire ?? 0, t.id);
        const words = t.words ?? wordsOf(record);
        // The title id as a fresh sync files it (the migration's reading of the earlier record takes only a JSON integer).
        const flags = contentFlagBits(record);
        s.store.run(encodeRecord(record, file.vocabulary), words, record.titleId ?? null, flags, modelBits(record.purchaseModels), t.id);
        if (t.words === null) {
          s.index.run(t.id, words);
          s.copy.run(words, t.id);
        }
        if (flags !== 0) s.copyFlags.run(flags, t.id);
        s.drop.run(t.id);
      }
      if (titles.length < CHUNK) {
        s.end.run();
        return false;
      }
      s.move.run((titles.at(-1) as Earlier).id);
      return true;
    });
    if (!more) this.finish();
    return more;
  }

  /** Runs every chunk, giving the event loop a turn between them (the owner's requests go first); resolves when done. */
  async run(): Promise<void> {
    while (this.step()) await new Promise((resolve) => setImmediate(resolve));
  }

  private cursor(): number | undefined {
    return (this.mirror.file.query("SELECT value FROM mirror_state WHERE key = 'records_after'").get() as { value: number } | undefined)?.value;
  }

  private flagsCursor(): number | undefined {
    return (this.mirror.file.query("SELECT value FROM mirror_state WHERE key = 'flags_after'").get() as { value: number } | undefined)?.value;
  }

  /** One chunk of titles getting their content flags from their records (schema 7); false once done. */
  private flagsStep(): boolean {
    const db = this.mirror.file;
    const s = this.flagStatements ??= {
      chunk: db.prepare('SELECT id, record FROM titles WHERE id > ? AND record IS NOT NULL ORDER BY id LIMIT ?'),
      flags: db.prepare('UPDATE titles SET flags = ?, models = ? WHERE id = ?'),
      copy: db.prepare('UPDATE entitlements SET flags = ? WHERE content_id = ?'),
      move: db.prepare("UPDATE mirror_state SET value = ? WHERE key = 'flags_after'"),
      end: db.prepare("DELETE FROM mirror_state WHERE key = 'flags_after'"),
    };
    const more = db.transaction(() => {
      const after = this.flagsCursor();
      if (after === undefined) return false;
      const titles = s.chunk.all(after, CHUNK) as unknown as { id: number; record: Uint8Array }[];
      for (const t of titles) {
        const record = decodeRecord(t.record, db.keys.contentIdOf(t.id), db.vocabulary);
        const flags = contentFlagBits(record);
        const models = modelBits(record.purchaseModels);
        if (flags === 0 && models === 0) continue;
        s.flags.run(flags, models, t.id);
        if (flags !== 0) s.copy.run(flags, t.id);
      }
      if (titles.length < CHUNK) {
        s.end.run();
        return false;
      }
      s.move.run((titles.at(-1) as { id: number }).id);
      return true;
    });
    if (!more) {
      this.flagStatements = undefined;
      db.touch(); // the Collection's indexes read the flags again
    }
    return more;
  }

  private prepared(): NonNullable<MirrorUpgrade['statements']> {
    const db = this.mirror.file;
    this.statements ??= {
      cursor: db.prepare("SELECT value FROM mirror_state WHERE key = 'records_after'"),
      chunk: db.prepare(`SELECT t.id, t.title, t.series, t.artist, t.format, t.year, t.isbn, t.upc, t.for_children, t.cover, t.countries, t.words, r.record, r.wire
        FROM titles t LEFT JOIN title_records r ON r.id = t.id WHERE t.id > ? AND t.record IS NULL ORDER BY t.id LIMIT ?`),
      store: db.prepare("UPDATE titles SET record = ?, words = ?, title_id = ?, flags = ?, models = ?, series = NULL, isbn = NULL, upc = NULL, cover = NULL, countries = '' WHERE id = ?"),
      index: db.prepare('INSERT INTO title_words (rowid, words) VALUES (?, ?)'),
      copy: db.prepare('UPDATE entitlements SET words = ? WHERE content_id = ?'),
      drop: db.prepare('DELETE FROM title_records WHERE id = ?'),
      move: db.prepare("UPDATE mirror_state SET value = ? WHERE key = 'records_after'"),
      // Every title converted got its flags with its record: the flags' own pass is needed no more.
      end: db.prepare("DELETE FROM mirror_state WHERE key IN ('records_after', 'words_after', 'flags_after')"),
      copyFlags: db.prepare('UPDATE entitlements SET flags = ? WHERE content_id = ?'),
    };
    return this.statements;
  }

  /** Every title converted: the old table goes, the Collection's indexes are made again, and the freed space returns to the disk. */
  private finish(): void {
    this.statements = undefined;
    this.mirror.records.dropEarlier();
    this.mirror.file.touch();
    this.mirror.maintenance.compact(this.spare());
  }
}

/** A title an earlier mirror kept without a record (none should be): what its columns say. */
function fromColumns(t: Earlier): CatalogRecord {
  const countries = t.countries === '' ? [] : t.countries.split(',') as CatalogRecord['countries'];
  return {
    id: t.id, artists: t.artist ? [{ name: t.artist }] : [], genres: [], countries, purchaseModels: [], ratings: [], ppuPrices: [], segments: [], episodes: [],
    ...(t.title === null ? {} : { title: t.title }), ...(t.series === null ? {} : { series: t.series }), ...(t.format === null ? {} : { format: t.format as CatalogRecord['format'] }),
    ...(t.year === null ? {} : { year: t.year }), ...(t.isbn === null ? {} : { isbn: t.isbn }), ...(t.upc === null ? {} : { upc: t.upc }),
    ...(t.cover === null ? {} : { coverImageUrl: t.cover }), forChildren: t.for_children === 1,
  };
}
