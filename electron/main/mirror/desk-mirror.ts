// The mirror as one connection holds it in main: the owner thread (mirror-client.ts) for every
// read and write, the sync engine (sync.ts) run on the connection's background client, one sync
// at a time, the 10-minute refresh, and availability read now for titles staff look at. Main
// holds no database: each method here sends requests and awaits answers.
import type { PartnerClient } from '../../node/partner/client.ts';
import { DeskError } from '../../shared/desk-error.ts';
import type { BrowseRow, CollectionPage, ServiceMismatch, SourceState, TitleContents, TitleDetail } from '../../shared/collection.ts';
import type { ContentId } from '../../shared/model.ts';
import { LibraryFillClient, type LibraryFillOptions } from './library-fill.ts';
import { MirrorClient } from './mirror-client.ts';
import type { BrowseQuery, LibraryFillResult, MirrorCounts, OwnerLogEntry } from '../../node/mirror-interface.ts';
import { refreshChangedAvailability, runSync, type SyncContext, type SyncProgress, type SyncRequest } from '../../node/sync/engine.ts';

export interface SyncStatus {
  sources: SourceState[];
  counts: MirrorCounts;
  /** The sync under way, or the mirror's own upkeep (an earlier mirror's upgrade). */
  running?: SyncProgress;
  /** What the service said beside each source's pages (`metadata.warnings`) in its last run, this session. */
  warnings: { source: string; warnings: string[] }[];
  /** A desk in a library: where its Collection comes from (the source LIBRARY_FILL_SOURCE says when and why not). */
  libraryMirror?: { server: string };
  /** What the service answered at odds with the question, this session, newest last (issue #34). */
  mismatches: { at: number; mismatch: ServiceMismatch }[];
}

export interface DeskMirrorOptions {
  databasePath: string;
  /** The connection's clients: staff's, for availability they are waiting for, the background's for sync and refresh. */
  staff: PartnerClient;
  background: PartnerClient;
  now?: () => number;
  /** The owner thread's entry (main passes the bundled one). */
  workerUrl?: URL | string;
  /** Free disk space the mirror leaves (the owner's default unless a test asks for more). */
  diskSpaceKeptFree?: number;
  /** A call the owner logs as slow from this long (its default unless a test asks for 0: every call). */
  slowCallMs?: number;
  /** Told the owner's entries for the app log (a slow call; the connection writes them). */
  onOwnerLog?: (entry: OwnerLogEntry) => void;
  /** Told each source's warnings as they come (the connection writes them to the app log). */
  onWarnings?: (source: string, warnings: string[]) => void;
  /** Told each answer the sync found at odds with its question (the connection writes it to the app log). */
  onMismatch?: (mismatch: ServiceMismatch) => void;
  /**
   * A desk in a library (IT's policy names the library mirror): the Collection is filled from it
   * and the partner is never asked for the catalog, entitlements or availability.
   */
  library?: LibraryFillOptions;
}

/** A source's warnings kept for the Sync view, at most (a page carries ten at most: normalize.ts). */
const WARNINGS_KEPT = 20;
/** Mismatches kept for the Sync view, the newest: the log has every one. */
const MISMATCHES_KEPT = 20;

export class DeskMirror {
  private readonly options: DeskMirrorOptions;
  private readonly mirror: MirrorClient;
  private readonly now: () => number;
  private running: Promise<SyncStatus> | undefined;
  private progress: SyncProgress | undefined;
  /** Jobs under way (a sync, a refresh, availability reads), so close() can wait for them. */
  private readonly jobs = new Set<Promise<unknown>>();
  /** Aborted by close(): every job stops, a sync records nothing (sync.ts, settle). */
  private readonly cancel = new AbortController();
  /** Each source's warnings in its last run. */
  private readonly warnings = new Map<string, string[]>();
  private readonly library: LibraryFillClient | undefined;
  private lastFill: LibraryFillResult | undefined;
  private readonly mismatches: { at: number; mismatch: ServiceMismatch }[] = [];

  constructor(options: DeskMirrorOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.mirror = new MirrorClient({
      databasePath: options.databasePath,
      ...(options.diskSpaceKeptFree === undefined ? {} : { diskSpaceKeptFree: options.diskSpaceKeptFree }),
      ...(options.slowCallMs === undefined ? {} : { slowCallMs: options.slowCallMs }),
    }, options.workerUrl, options.onOwnerLog);
    this.library = options.library ? new LibraryFillClient(options.library, this.mirror, this.now) : undefined;
  }

  /** Filled from the library mirror (a desk in a library), not from the partner. */
  get fromLibrary(): boolean {
    return this.library !== undefined;
  }

  async status(): Promise<SyncStatus> {
    const { sources, counts, upkeep } = await this.mirror.status();
    const running = this.running && this.progress ? this.progress : upkeep?.progress;
    const warnings = [...this.warnings].map(([source, said]) => ({ source, warnings: said }));
    return {
      sources, counts, ...(running ? { running } : {}), warnings, mismatches: [...this.mismatches],
      ...(this.library ? { libraryMirror: { server: this.library.server } } : {}),
    };
  }

  /** An answer at odds with its question, for the Sync view (the client's: content info; the sync's are noted as they come). */
  noteMismatch(mismatch: ServiceMismatch): void {
    this.mismatches.push({ at: this.now(), mismatch });
    if (this.mismatches.length > MISMATCHES_KEPT) this.mismatches.shift();
  }

  /** A second call while a run is under way joins it. A desk in a library fills from the library mirror instead. */
  syncNow(request: SyncRequest, onProgress: (p: SyncProgress) => void = () => {}): Promise<SyncStatus> {
    if (this.library) return this.fillFromLibrary();
    this.running ??= this.run((ctx) => runSync(ctx, request), onProgress).finally(() => {
      this.running = undefined;
      this.progress = undefined;
    });
    return this.running;
  }

  /** The 10-minute refresh: entitlements changed since the last run, their availability 50 ids a call. */
  refreshChanged(libraries: number[], onProgress: (p: SyncProgress) => void = () => {}): Promise<SyncStatus> {
    // A desk in a library: the library mirror's service refreshes availability; it comes with the next fill.
    if (this.library) return this.status();
    return this.run(async (ctx) => {
      for (const libraryId of libraries) await refreshChangedAvailability(ctx, libraryId);
    }, onProgress);
  }

  /** Availability now, for titles staff are looking at; stored with the time it was read. */
  async refreshAvailability(libraryId: number, contentIds: ContentId[], signal?: AbortSignal): Promise<BrowseRow[]> {
    // A desk in a library asks the partner nothing for its Collection: the rows as the library mirror last gave them.
    if (this.library) return this.mirror.rows(libraryId, contentIds, signal);
    return this.track((async () => {
      // Read now: this is what the Collection shows as read at this time (a kept answer would be older).
      const items = await this.options.staff.contentInfo(libraryId, contentIds, signal ? AbortSignal.any([this.cancel.signal, signal]) : this.cancel.signal, { fresh: true });
      const stored = await this.mirror.storeAvailability(libraryId, items, this.now());
      for (const { from, to, count } of stored.relabelled) this.sayMismatch({ kind: 'model', libraryId, asked: from, found: to, count, by: 'content-info' });
      return this.mirror.rows(libraryId, contentIds);
    })());
  }

  /**
   * What changed in the library mirror since the last fill, written into this desk's mirror (a
   * desk in a library). A failure keeps the Collection as it was and is recorded on the source.
   */
  async fillFromLibrary(): Promise<SyncStatus> {
    if (!this.library) throw new DeskError('invalid-input', 'This desk is not filled from a library mirror.');
    this.cancel.signal.throwIfAborted();
    this.lastFill = await this.track(this.library.fill());
    return this.status();
  }

  /** What the last fill from the library mirror read (a bench sizes the server by it). */
  get lastLibraryFill(): LibraryFillResult | undefined {
    return this.lastFill;
  }

  /** `signal`: a newer query took this one's place: the owner drops it if it has not run it yet. */
  browse(query: BrowseQuery, signal?: AbortSignal): Promise<CollectionPage> {
    return this.mirror.browse(query, signal);
  }

  /** null: the library holds no such title (the contract's answer). */
  async detail(libraryId: number, contentId: ContentId, signal?: AbortSignal): Promise<TitleDetail | null> {
    return (await this.mirror.title(libraryId, contentId, signal)) ?? null;
  }

  /** What each search hit's title id stands for in the mirror (title-contents.ts). */
  titleContents(libraryId: number, titleIds: number[], signal?: AbortSignal): Promise<TitleContents[]> {
    return this.mirror.titleContents(libraryId, titleIds, signal);
  }

  /**
   * Hits the mirror cannot resolve yet, looked up now (contract: lookUpTitles): on the partner,
   * each title's page of the library's content (one small request, on the desk's client: staff
   * are waiting), filed into the mirror outside any run; a desk in a library fills from its
   * library mirror instead. Then each is resolved as titleContents resolves it; one still not
   * found after its page came is `not-found-by-id`.
   */
  async lookUpTitles(libraryId: number, titleIds: number[], signal?: AbortSignal): Promise<TitleContents[]> {
    const unresolved = (await this.mirror.titleContents(libraryId, titleIds)).filter((t) => 'unresolved' in t).map((t) => t.titleId);
    if (unresolved.length === 0) return this.mirror.titleContents(libraryId, titleIds);
    const asked = new Set<number>();
    if (this.library) {
      await this.fillFromLibrary().catch(() => undefined); // the fill's failure is on its source, for the Sync view
    } else {
      const stop = signal ? AbortSignal.any([signal, this.cancel.signal]) : this.cancel.signal;
      await this.track((async () => {
        for (const titleId of unresolved) {
          const page = await this.options.staff.libraryContentAround(libraryId, titleId, stop);
          await this.mirror.fileLibraryContent(libraryId, page, this.now());
          asked.add(titleId);
        }
      })());
    }
    const answers = await this.mirror.titleContents(libraryId, titleIds);
    return answers.map((t) => ('unresolved' in t && asked.has(t.titleId) ? { titleId: t.titleId, unresolved: 'not-found-by-id' } : t));
  }

  /** The mirror's own thread at work for a request of this connection (a simulated clock waits for it, tests/support/simulated-time.ts). */
  get ownerThread(): { busy: boolean; idle(): Promise<void> } {
    return this.mirror;
  }

  /**
   * Cancels what runs (a request on the wire is aborted; a sync records nothing and resumes
   * from its stored token on the next connection), waits for it to let go, then lets the
   * owner close the file.
   */
  async close(): Promise<void> {
    this.cancel.abort(DeskError.because('network', 'sync.cancelled'));
    // A fill from the library mirror runs in the owner: its close stops the fill at once (it ends
    // the fill's session; what was stored stays), instead of waiting for a first fill to finish.
    const closing = this.library ? this.mirror.close() : undefined;
    await Promise.allSettled([...this.jobs]);
    await (closing ?? this.mirror.close());
  }

  /** A mismatch the mirror's own work found: logged (the connection's), and kept for the Sync view. */
  private sayMismatch(mismatch: ServiceMismatch): void {
    this.options.onMismatch?.(mismatch);
    this.noteMismatch(mismatch);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.jobs.add(work);
    void work.finally(() => this.jobs.delete(work)).catch(() => {});
    return work;
  }

  private async run(job: (ctx: SyncContext) => Promise<unknown>, onProgress: (p: SyncProgress) => void): Promise<SyncStatus> {
    this.cancel.signal.throwIfAborted();
    // A source's warnings are those of its latest run: its first page or progress in this job clears the last run's.
    const touched = new Set<string>();
    const touch = (source: string): void => {
      if (!touched.has(source)) this.warnings.delete(source);
      touched.add(source);
    };
    const report = (p: SyncProgress): void => {
      touch(p.source);
      this.progress = p;
      onProgress(p);
    };
    const onMismatch = (mismatch: ServiceMismatch): void => this.sayMismatch(mismatch);
    const onWarnings = (source: string, said: string[]): void => {
      touch(source);
      this.warnings.set(source, [...new Set([...(this.warnings.get(source) ?? []), ...said])].slice(0, WARNINGS_KEPT));
      this.options.onWarnings?.(source, said);
    };
    await this.track(job({ client: this.options.background, store: this.mirror, now: this.now, signal: this.cancel.signal, onProgress: report, onWarnings, onMismatch }));
    return this.status();
  }
}
