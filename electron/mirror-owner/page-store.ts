// The page store on the mirror's file: the rules of mirror-interface.ts kept by its owner
// thread. Runs are opened (or resumed) per source; pages are read and stored strictly in their
// order, each with its run's cursor in one transaction; a full run's end removes what it did
// not see; a run that failed says why. Before a page grows the file, the disk must keep
// DISK_SPACE_KEPT_FREE beside it.
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { DeskError } from '../shared/desk-error.ts';
import type { SourceState } from '../shared/collection.ts';
import type { Availability, PurchaseModel } from '../shared/model.ts';
import type { Bytes } from '../node/partner/bytes.ts';
import type { MirrorDatabase } from './mirror-database.ts';
import { sourceName, type AvailabilityStored, type PageHead, type PageStored, type Run, type RunEnd, type RunFailure, type RunOpening, type RunRequest, type SyncSource } from '../node/sync/page-store.ts';
import { catalogChanges, readPage } from '../node/sync/page-reading.ts';
import type { MirrorUpgrade } from './mirror-upgrade.ts';

const MIB = 2 ** 20;

/**
 * Free space the mirror leaves on its disk: room for the operating system, the desk's own log
 * and settings, and SQLite's write-ahead log and the search index built at a full run's end,
 * which grow the file in steps the page check cannot see coming.
 */
export const DISK_SPACE_KEPT_FREE = 512 * MIB;

/** Bytes free for this process on the disk that holds `path`. */
export const freeBytesBeside = (path: string): number => {
  const stats = statfsSync(dirname(path));
  return Number(stats.bavail) * Number(stats.bsize);
};

export interface DiskSpace {
  free(): number;
  /** Bytes to leave free (DISK_SPACE_KEPT_FREE unless a test asks for more). */
  keep: number;
}

/** What the mirror may still take of its disk. */
export const spareOf = (disk: DiskSpace): number => disk.free() - disk.keep;


const writesTitles = (source: SyncSource): boolean => source.kind === 'global' || source.kind === 'library-content';

/** The parts of the mirror a page store works through. */
export type PageStoreParts = Pick<MirrorDatabase, 'file' | 'runs' | 'pages' | 'availability' | 'collection' | 'maintenance'>;

export class PageStoreOnFile {
  private readonly mirror: PageStoreParts;
  private readonly disk: DiskSpace;
  private readonly upgrade: MirrorUpgrade;
  private readonly openings = new Map<number, RunOpening>();
  private lastRun = 0;

  constructor(mirror: PageStoreParts, disk: DiskSpace, upgrade: MirrorUpgrade) {
    this.mirror = mirror;
    this.disk = disk;
    this.upgrade = upgrade;
  }

  states(): SourceState[] {
    return this.mirror.runs.allStates();
  }

  openRun(request: RunRequest): Run {
    const name = sourceName(request.source);
    const { file, runs, collection } = this.mirror;
    let state = runs.state(name);
    if (!state.inProgress) {
      file.transaction(() => {
        runs.beginRun(name, request.since, request.startedAt);
        // A full run of titles writes in bulk: the search index is built once at its end.
        if (writesTitles(request.source) && request.since === undefined) collection.beginBulk();
      });
      state = runs.state(name);
    }
    for (const [run, opening] of this.openings) if (opening.name === name) this.openings.delete(run);
    const run = ++this.lastRun;
    const runStartedAt = state.runStartedAt as number;
    this.openings.set(run, { source: request.source, name, runStartedAt, full: state.runSince === undefined, nextPage: 1, broken: false });
    return {
      run, source: name, itemsBefore: state.items, buildsAtEnd: writesTitles(request.source) && collection.inBulk(),
      ...(state.nextToken === undefined ? {} : { startToken: state.nextToken }), ...(state.runSince === undefined ? {} : { since: state.runSince }),
    };
  }

  /**
   * Step one of storing page `page`: read it (a garbled page is refused here, and the run still
   * waits for that number). Step two, `store`, writes it with the run's cursor.
   */
  readPage(run: number, page: number, bytes: Bytes): { head: PageHead; store: () => PageStored } {
    const opening = this.opening(run);
    if (opening.broken) throw new DeskError('server', 'An earlier page of this run was not stored, so this one was not either.');
    if (page !== opening.nextPage) throw new DeskError('server', `Page ${page} of the run came where page ${opening.nextPage} was expected.`);
    const read = readPage(opening.source, bytes);
    const store = (): PageStored => {
      let said: Omit<PageStored, 'items'> = {};
      try {
        this.checkDiskSpace();
        const { name, runStartedAt, source } = opening;
        const next = read.head.next;
        const { pages } = this.mirror;
        if (read.kind === 'titles') pages.applyGlobalPage(name, runStartedAt, catalogChanges(read.changes), next);
        else if (read.kind === 'library-content') pages.applyLibraryContentPage(name, runStartedAt, libraryOf(source), read.changes, next);
        else {
          const libraryId = libraryOf(source);
          const listedAs = source.kind === 'entitlements' ? source.model : 'FLEX';
          said = pages.applyEntitlementPage(name, runStartedAt, libraryId, listedAs, read.items, next, this.latestRunOf(libraryId, listedAs === 'FLEX' ? 'INSTANT' : 'FLEX'));
        }
      } catch (error) {
        opening.broken = true;
        throw error;
      }
      opening.nextPage++;
      return { items: read.head.items, ...said };
    };
    return { head: read.head, store };
  }

  finishRun(run: number): RunEnd {
    const opening = this.opening(run);
    if (opening.broken) throw new DeskError('server', 'A page of this run was not stored, so the run cannot end.');
    const { source, name, runStartedAt, full } = opening;
    const { runs, pages } = this.mirror;
    const removed = runs.finishRun(name, () => {
      if (!full) return { titles: 0, entitlements: 0 };
      switch (source.kind) {
        case 'global': return { titles: pages.sweepTitles(runStartedAt), entitlements: 0 };
        case 'entitlements': return { titles: 0, entitlements: pages.sweepEntitlements(source.libraryId, source.model, runStartedAt) };
        case 'library-content': return { titles: 0, entitlements: pages.sweepEntitlements(source.libraryId, undefined, runStartedAt) };
        case 'availability-refresh': return { titles: 0, entitlements: 0 };
      }
    });
    this.openings.delete(run);
    if (writesTitles(source)) this.finishTitles();
    return { removed };
  }

  failRun(run: number, failure: RunFailure, at: number): void {
    const opening = this.opening(run);
    this.openings.delete(run);
    this.mirror.runs.failRun(opening.name, failure, at);
  }

  /** A library content page read on demand, filed outside any run (mirror-interface.ts, fileLibraryContent). */
  fileLibraryContent(libraryId: number, bytes: Bytes, readAt: number): number {
    const read = readPage({ kind: 'library-content', libraryId }, bytes);
    if (read.kind !== 'library-content') throw new Error('A library content page read as another kind.');
    this.checkDiskSpace();
    this.mirror.pages.applyLibraryContentPage(undefined, readAt, libraryId, read.changes, undefined);
    return read.head.items;
  }

  storeAvailability(libraryId: number, items: Availability[], readAt: number): AvailabilityStored {
    return this.mirror.availability.store(libraryId, items, readAt);
  }

  /**
   * After a run of titles: a mirror from before schema 2 gets the rest of its titles' search
   * words now (the index is built from them); once no run of titles is left under way after a
   * bulk run, the search index is built once; the pages removed titles held go back to the disk.
   */
  finishTitles(): void {
    if (this.upgrade.searchWordsPending()) while (this.upgrade.step());
    this.mirror.collection.finishBulk();
    this.mirror.maintenance.reclaim();
  }

  /** When the library's latest run of the other model's entitlements started (what it listed carries that run). */
  private latestRunOf(libraryId: number, model: PurchaseModel): number | undefined {
    return this.mirror.runs.state(sourceName({ kind: 'entitlements', libraryId, model })).runStartedAt;
  }

  private opening(run: number): RunOpening {
    const opening = this.openings.get(run);
    if (!opening) throw new DeskError('server', 'This run is not open here: another opening of its source took it over, or it ended.');
    return opening;
  }

  private checkDiskSpace(): void {
    const free = this.disk.free();
    if (free < this.disk.keep) {
      throw DeskError.because('server', 'mirror.disk-full', { freeMiB: Math.floor(free / MIB), keptMiB: Math.ceil(this.disk.keep / MIB) });
    }
  }
}

function libraryOf(source: SyncSource): number {
  if (source.kind === 'global') throw new Error('The global catalog belongs to no library.');
  return source.libraryId;
}
