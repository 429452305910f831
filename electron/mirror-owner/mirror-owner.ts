// The mirror's owner: the one holder of its file (node:sqlite) for every read and write — the
// pages a sync hands over, availability, the Collection's queries and in-memory indexes, the
// schema's migrations and the upgrade of a mirror an earlier version wrote. It runs on a worker
// thread of its own (mirror-worker.ts) and answers the requests of mirror-interface.ts in the
// order they come, one at a time; between them it carries on with that upgrade, a chunk at a
// time. Main never waits on its work, only for its answers. Every call is timed, and a slow one
// is told to main for its app log (slow-calls.ts).
import { MIRROR_UPGRADE_STEP, SEARCH_INDEX_STEP } from '../shared/collection.ts';
import type { ErrorInfo } from '../shared/errors.ts';
import { DeskError } from '../shared/desk-error.ts';
import { LibraryFillOnFile } from './library-fill.ts';
import { MirrorDatabase } from './mirror-database.ts';
import type { AnswerOf, MirrorReply, MirrorRequest, MirrorStatus, OwnerLogEntry, OwnerOptions } from '../node/mirror-interface.ts';
import { MirrorUpgrade } from './mirror-upgrade.ts';
import { DISK_SPACE_KEPT_FREE, freeBytesBeside, PageStoreOnFile, spareOf } from './page-store.ts';
import { browse, counts, detail, rowsOf, withoutRecord } from './queries.ts';
import { CollectionCache } from './collection-cache.ts';
import { CallTimer } from './slow-calls.ts';
import { titleContents } from './title-contents.ts';

/** What the owner's thread hands its owner beside the options: where log entries go, and (for a test) the clock calls are timed by. */
export interface OwnerHooks {
  log?: (entry: OwnerLogEntry) => void;
  /** Milliseconds (performance.now unless a test gives its own). */
  clock?: () => number;
}

export class MirrorOwner {
  private readonly mirror: MirrorDatabase;
  private readonly calls: CallTimer;
  private readonly upgrade: MirrorUpgrade;
  private readonly store: PageStoreOnFile;
  private readonly collections: CollectionCache;
  /** A desk in a library: its fills from the library mirror (rule 6). */
  private readonly library: LibraryFillOnFile;
  private upgrading: Promise<void> | undefined;
  private closed = false;

  constructor(options: OwnerOptions, hooks: OwnerHooks = {}) {
    const { databasePath } = options;
    this.mirror = new MirrorDatabase(databasePath, hooks.clock);
    this.calls = new CallTimer(this.mirror.file.trace, hooks.log ?? (() => {}), options.slowCallMs);
    const keep = options.diskSpaceKeptFree ?? DISK_SPACE_KEPT_FREE;
    const free = databasePath === ':memory:' ? () => Number.MAX_SAFE_INTEGER : () => freeBytesBeside(databasePath);
    const disk = { free, keep };
    this.upgrade = new MirrorUpgrade(this.mirror, () => spareOf(disk));
    this.store = new PageStoreOnFile(this.mirror, disk, this.upgrade);
    this.collections = new CollectionCache(this.mirror);
    this.library = new LibraryFillOnFile(this.mirror, this.store);
    this.continueUpgrade();
  }

  /** Answers one request (storePage: its head first, then its end), through `reply`; timed, the answer's sending included. */
  serve(request: MirrorRequest, reply: (message: MirrorReply) => void): void {
    this.calls.time(request.call, () => this.serveNow(request, reply));
  }

  /** One request's work. (A fill's batches and an upgrade's chunks run in turns of their own between calls: no call's time.) */
  private serveNow(request: MirrorRequest, reply: (message: MirrorReply) => void): void {
    const { id } = request;
    const answer = (value: AnswerOf<typeof request.call>) => reply({ id, kind: 'answer', answer: value });
    try {
      if (this.closed) throw new DeskError('server', 'The mirror was closed.');
      if (request.call === 'storePage') {
        const [run, page, bytes] = request.args;
        const read = this.store.readPage(run, page, bytes);
        reply({ id, kind: 'head', head: read.head });
        answer(read.store());
        return;
      }
      if (request.call === 'fillFromLibrary') {
        // Answered when it ends (rule 6); requests that come meanwhile are answered as they come.
        this.library.fill(...request.args).then(answer, (error: unknown) => reply({ id, kind: 'refused', error: refusal(error) }));
        return;
      }
      if (request.call === 'close') {
        void this.closeAfterFill().then(() => answer(undefined), (error: unknown) => reply({ id, kind: 'refused', error: refusal(error) }));
        return;
      }
      answer(this.answer(request));
    } catch (error) {
      reply({ id, kind: 'refused', error: refusal(error) });
    }
  }

  private answer(request: Exclude<MirrorRequest, { call: 'storePage' | 'fillFromLibrary' | 'close' }>): AnswerOf<typeof request.call> {
    switch (request.call) {
      case 'states': return this.store.states();
      case 'openRun': return this.store.openRun(...request.args);
      case 'finishRun': return this.store.finishRun(...request.args);
      case 'failRun': return this.store.failRun(...request.args);
      case 'storeAvailability': return this.store.storeAvailability(...request.args);
      case 'browse': return browse(this.mirror, this.collections, request.args[0], this.searchWordsProgress());
      case 'title': return detail(this.mirror, ...request.args);
      case 'rows': return rowsOf(this.mirror, ...request.args);
      case 'titleContents': return titleContents(this.mirror, ...request.args);
      case 'fileLibraryContent': return this.store.fileLibraryContent(...request.args);
      case 'withoutRecord': return withoutRecord(this.mirror.file, ...request.args);
      case 'status': return this.status();
    }
  }

  private status(): MirrorStatus {
    const progress = this.upgrading ? this.upgrade.progress() : undefined;
    // Titles getting their search words say so as the search index; any other upgrade as the mirror's.
    const step = this.upgrade.searchWordsPending() ? SEARCH_INDEX_STEP : MIRROR_UPGRADE_STEP;
    return {
      sources: this.store.states(), counts: counts(this.mirror.file),
      ...(progress === undefined ? {} : { upkeep: { progress: { source: step, done: Math.round(progress * 100), total: 100 } } }),
    };
  }

  /** How far an earlier mirror's titles are getting their search words (0–1), while they are. */
  private searchWordsProgress(): number | undefined {
    return this.upgrading && this.upgrade.searchWordsPending() ? this.upgrade.progress() : undefined;
  }

  private continueUpgrade(): void {
    if (this.upgrading || !this.upgrade.pending()) return;
    this.upgrading = this.upgrade.run()
      .catch(() => { /* a failed chunk rolled back; the next start goes on from the cursor */ })
      .finally(() => { this.upgrading = undefined; });
  }

  /** A fill under way ends first (its batch committed or rolled back), then the file is let go. */
  private async closeAfterFill(): Promise<void> {
    this.closed = true;
    await this.library.close();
    this.mirror.close();
  }
}

function refusal(error: unknown): ErrorInfo {
  if (error instanceof DeskError) return error.toInfo();
  return { code: 'server', message: error instanceof Error ? error.message : String(error) };
}
