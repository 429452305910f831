// A title's record as the mirror keeps it: the compact form (title-record.ts) in `titles.record`,
// or — for a title an earlier version wrote, until the upgrade converts it (mirror-upgrade.ts) —
// the form it was kept in then, in `title_records`. That table goes once every record in it is
// converted; a file whose upgrade has no cursor left (a new file's empty table) loses it at once.
import type { CatalogRecord } from '../shared/model.ts';
import type { MirrorFile } from './mirror-file.ts';
import { decodeRecord } from './title-record.ts';
import { recordOf } from './title-row.ts';

export class StoredRecords {
  private readonly file: MirrorFile;
  /** Records of a mirror before schema 6 are still there, not all converted yet. */
  private earlier: boolean;

  constructor(file: MirrorFile) {
    this.file = file;
    this.earlier = file.query("SELECT 1 FROM sqlite_schema WHERE name = 'title_records'").get() !== undefined;
    if (this.earlier && file.query("SELECT 1 FROM mirror_state WHERE key = 'records_after'").get() === undefined) this.dropEarlier();
  }

  /** The record of the title filed under `key`, as its details show it (converted, or still as an earlier mirror kept it), its id the content id. */
  record(key: number): CatalogRecord | undefined {
    const row = this.file.query('SELECT record FROM titles WHERE id = ?').get(key) as { record: Uint8Array | null } | undefined;
    if (!row) return undefined;
    if (row.record) return decodeRecord(row.record, this.file.keys.contentIdOf(key), this.file.vocabulary);
    if (!this.earlier) return undefined;
    // An earlier mirror filed only whole-number ids, each its own key.
    const earlier = this.file.query('SELECT record, wire FROM title_records WHERE id = ?').get(key) as { record: string; wire: number } | undefined;
    return earlier ? recordOf(earlier.record, earlier.wire, key) : undefined;
  }

  /** Inside a title's write: the record just written replaces any earlier form of it. */
  written(key: number): void {
    if (this.earlier) this.file.prepare('DELETE FROM title_records WHERE id = ?').run(key);
  }

  /** Every record of an earlier mirror is converted: its table goes. */
  dropEarlier(): void {
    this.file.exec('DROP TABLE IF EXISTS title_records');
    this.earlier = false;
  }
}
