// The mirror's file kept in shape on its disk: pages freed by removed titles given back, and the
// file rewritten once after an upgrade from an earlier version freed most of it. (The earlier
// version's records themselves go with the upgrade's end: stored-records.ts.)
import type { MirrorFile } from './mirror-file.ts';

export class Maintenance {
  private readonly file: MirrorFile;

  constructor(file: MirrorFile) {
    this.file = file;
  }

  /**
   * Gives the disk back what an upgrade freed (most of an earlier mirror's file): the file
   * rewritten once, and from then on in the mode that returns freed pages in steps (reclaim).
   * Only when the disk can spare a copy of the file beside it; the owner answers nothing while
   * it runs (once, at an upgrade's end).
   */
  compact(spare: number): boolean {
    const { pages, free, size } = this.pageCounts();
    if (free < pages / 4 || size > spare) return false;
    this.file.exec('PRAGMA auto_vacuum = INCREMENTAL');
    this.file.exec('VACUUM');
    this.file.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return true;
  }

  /** After a full run removed titles: the pages they held go back to the disk, when they are many (a file made by this version). */
  reclaim(): void {
    const { pages, free } = this.pageCounts();
    if (free > pages / 8) this.file.exec('PRAGMA incremental_vacuum');
  }

  /** Read by the pragmas' table forms: a statement kept prepared reads them when it runs (a bare PRAGMA may be read when prepared). */
  private pageCounts(): { pages: number; free: number; size: number } {
    const pages = Number(this.file.query('SELECT page_count FROM pragma_page_count()').get()?.page_count);
    const free = Number(this.file.query('SELECT freelist_count FROM pragma_freelist_count()').get()?.freelist_count);
    const size = pages * Number(this.file.query('SELECT page_size FROM pragma_page_size()').get()?.page_size);
    return { pages, free, size };
  }
}
