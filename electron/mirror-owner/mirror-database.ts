// The mirror's file opened, and the parts that work on it, each over the file's narrow doors
// (mirror-file.ts: no part holds the handle). A part takes only the parts it needs (the page
// store: runs, pages, availability, the Collection's tables, maintenance; the Collection's reads:
// the file and the records), so what a module may do to the file is read from its constructor.
//
// - runs: each sync source's state, a run begun, moved, ended or failed (sync-state.ts);
// - pages: a page's titles and entitlements, and a full run's sweep (page-writes.ts);
// - availability: availability as read, and the Collection's index told (availability-writes.ts);
// - collection: the search index, each library's copies of its titles' columns, and the title and
//   artist orders, kept as titles are written or built once at a bulk run's end (collection-tables.ts);
// - records: a title's record, as this version keeps it or as an earlier one did (stored-records.ts);
// - maintenance: pages freed given back to the disk, the file compacted after an upgrade (maintenance.ts).
import { AvailabilityWrites } from './availability-writes.ts';
import { CollectionTables } from './collection-tables.ts';
import { Maintenance } from './maintenance.ts';
import { MirrorFile } from './mirror-file.ts';
import { PageWrites } from './page-writes.ts';
import { StoredRecords } from './stored-records.ts';
import { SyncState } from './sync-state.ts';

export class MirrorDatabase {
  readonly file: MirrorFile;
  readonly runs: SyncState;
  readonly records: StoredRecords;
  readonly collection: CollectionTables;
  readonly pages: PageWrites;
  readonly availability: AvailabilityWrites;
  readonly maintenance: Maintenance;

  /** `clock`: milliseconds, for the statements' tallies (mirror-file.ts). */
  constructor(path: string, clock?: () => number) {
    this.file = new MirrorFile(path, clock);
    this.runs = new SyncState(this.file);
    this.records = new StoredRecords(this.file);
    this.collection = new CollectionTables(this.file, this.runs);
    this.pages = new PageWrites(this.file, this.runs, this.records, this.collection);
    this.availability = new AvailabilityWrites(this.file);
    this.maintenance = new Maintenance(this.file);
  }

  close(): void {
    this.file.close();
  }
}
