// The Collection's in-memory indexes (collection-index.ts, collection-search.ts) of the mirror, held by
// its owner thread: one per library asked for, the last few kept. An index is one snapshot of
// the mirror; once the owner has written titles or entitlements since (the file's generation
// moved), the index is rebuilt on the next read — at most every few seconds while a sync is
// writing page after page, so staff browsing during a sync are not held up by rebuilds.
// Availability the owner stores is patched into the index instead.
import type { MirrorDatabase } from './mirror-database.ts';
import { CollectionIndex, type Direction, type CollectionReader } from './collection-index.ts';
import { readContentIdsInOrder, readRows, readWords } from './collection-reader.ts';
import { CollectionSearch, type SearchTuning } from './collection-search.ts';

const LIBRARIES_KEPT = 2;
/** While a sync is under way, an index this young is served even though the mirror has moved on. */
const REBUILD_AT_MOST_EVERY_MS = 3000;

/** The mirror changed under an index being read: build it again. */
export class StaleCollectionError extends Error {}

export interface LibraryCollection { index: CollectionIndex; search: CollectionSearch }

interface Entry extends LibraryCollection { generation: number; builtAt: number }

/** The parts of the mirror the Collection's indexes read: the file's queries and generation, whether a sync is under way, availability as it is stored. */
export type CollectionParts = Pick<MirrorDatabase, 'file' | 'runs' | 'availability'>;

export class CollectionCache {
  private readonly mirror: CollectionParts;
  private readonly entries = new Map<number, Entry>();
  private readonly now: () => number;
  private readonly tuning: SearchTuning | undefined;

  /** `tuning` is for tests that prove each way of searching on its own. */
  constructor(mirror: CollectionParts, now: () => number = Date.now, tuning?: SearchTuning) {
    this.mirror = mirror;
    this.now = now;
    this.tuning = tuning;
    mirror.availability.onStored((libraryId, contentIds) => this.patchAvailability(libraryId, contentIds));
  }

  /** The library's index, fresh unless a sync is writing and the one held is younger than a few seconds. */
  forLibrary(libraryId: number, forceFresh = false): LibraryCollection {
    const entry = this.entries.get(libraryId);
    if (entry) {
      this.entries.delete(libraryId);
      this.entries.set(libraryId, entry);
      if (entry.generation === this.mirror.file.generation) return entry;
      if (!forceFresh && this.now() - entry.builtAt < REBUILD_AT_MOST_EVERY_MS && this.mirror.runs.anyUnderWay()) return entry;
    }
    return this.build(libraryId);
  }

  /** Runs `read` on the library's index; when the index turns out stale mid-read, once more on a fresh one. */
  read<T>(libraryId: number, read: (collection: LibraryCollection) => T): T {
    try {
      return read(this.forLibrary(libraryId));
    } catch (error) {
      if (!(error instanceof StaleCollectionError)) throw error;
      return read(this.forLibrary(libraryId, true));
    }
  }

  private build(libraryId: number): Entry {
    this.entries.delete(libraryId);
    const { file } = this.mirror;
    const generation = file.generation;
    const rows = readRows(file, libraryId);
    const index = new CollectionIndex(libraryId, rows, this.reader(libraryId, generation));
    const entry: Entry = { index, search: new CollectionSearch(index, file, this.tuning), generation, builtAt: this.now() };
    if (this.entries.size >= LIBRARIES_KEPT) this.entries.delete(this.entries.keys().next().value as number);
    this.entries.set(libraryId, entry);
    return entry;
  }

  /** Later reads for the index, refused once the owner has written since it was built. */
  private reader(libraryId: number, generation: number): CollectionReader {
    const { file } = this.mirror;
    const sameSnapshot = <T>(read: () => T): T => {
      if (file.generation !== generation) throw new StaleCollectionError('the mirror changed since the index was built');
      return read(); // one statement each, and no write can come between two of the owner's own steps
    };
    return {
      contentIdsInOrder: (sort: 'title' | 'artist', direction: Direction) => sameSnapshot(() => readContentIdsInOrder(file, libraryId, sort, direction)),
      words: () => sameSnapshot(() => readWords(file, libraryId)),
    };
  }

  private patchAvailability(libraryId: number, contentIds: number[]): void {
    const entry = this.entries.get(libraryId);
    if (!entry || contentIds.length === 0) return;
    const ranks = this.mirror.file.query(`SELECT content_id AS id, avail FROM entitlements WHERE library_id = ? AND content_id IN (SELECT value FROM json_each(?))`)
      .all(libraryId, JSON.stringify(contentIds)) as { id: number; avail: number }[];
    const changes = ranks.map((r) => ({ row: entry.index.rowOf(r.id), rank: r.avail })).filter((c) => c.row >= 0);
    entry.search.patchFacets(entry.index.patchAvailability(changes));
  }
}
