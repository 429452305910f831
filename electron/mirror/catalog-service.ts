// The catalog mirror as one connection uses it: sync status and Sync now (one run at a time),
// the 10-minute refresh, the entitlements browser's queries, and availability read on demand.
// Reads are answered here, from main's read connection; every write goes through the writer
// (a worker thread in the product), and every request through the connection's clients.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { PartnerClient } from '../partner/client.ts';
import { CatalogMirror, type SourceState } from './mirror.ts';
import { inThreadWriter, workerWriter, type MirrorWriter } from './mirror-writer.ts';
import { workerPageReader, type PageReader } from './page-reader.ts';
import { browse, counts, detail, type BrowseQuery, type CatalogPage, type BrowseRow, type TitleDetail } from './queries.ts';
import { ShelfCache } from './shelf-cache.ts';
import { runJob, type SyncJob } from './sync-job.ts';
import { sourceNames, type SyncProgress, type SyncRequest } from './sync.ts';
import { titleContents } from './title-contents.ts';
import type { TitleContents } from '../shared/collection.ts';
import type { ContentId } from '../shared/content-id.ts';

export interface SyncStatus {
  sources: SourceState[];
  counts: ReturnType<typeof counts>;
  running?: SyncProgress;
  /** What the service said beside each source's pages (`metadata.warnings`) in its last run, this session. */
  warnings: { source: string; warnings: string[] }[];
}

export interface CatalogServiceOptions {
  databasePath: string;
  /** The connection's clients: the desk's for availability staff are waiting for, the background's for sync and refresh. */
  desk: PartnerClient;
  background: PartnerClient;
  now?: () => number;
  /** 'worker' in the product; 'in-thread' for tests that step through a run. */
  writer?: 'worker' | 'in-thread';
  workerUrl?: URL | string;
  /** Told each source's warnings as they come (the connection writes them to the app log). */
  onWarnings?: (source: string, warnings: string[]) => void;
}

export class CatalogService {
  private readonly options: CatalogServiceOptions;
  private readonly mirror: CatalogMirror;
  private writerInstance: MirrorWriter | undefined;
  /** Bulk pages (the catalog's, entitlements') read on a thread of their own, beside the writer's (page-reader.ts). */
  private readerInstance: PageReader | undefined;
  /** The reader's end of the channel to the writer thread, until a reader takes it. */
  private readerPort: MessagePort | undefined;
  private running: Promise<SyncStatus> | undefined;
  private progress: SyncProgress | undefined;
  /** Jobs under way (a sync, a refresh, availability reads), so close() can wait for them. */
  private readonly jobs = new Set<Promise<unknown>>();
  private readonly abort = new AbortController();
  /** The browser's in-memory index of each library, made on first browse. */
  private shelves: ShelfCache | undefined;
  /** Each source's warnings in its last run. */
  private readonly warnings = new Map<string, string[]>();

  constructor(options: CatalogServiceOptions) {
    this.options = options;
    this.mirror = new CatalogMirror(options.databasePath);
  }

  status(): SyncStatus {
    return {
      sources: this.mirror.allStates(), counts: counts(this.mirror.db), ...(this.running && this.progress ? { running: this.progress } : {}),
      warnings: [...this.warnings].map(([source, warnings]) => ({ source, warnings })),
    };
  }

  /** A second call while a run is under way joins it. */
  syncNow(request: SyncRequest, onProgress: (p: SyncProgress) => void = () => {}): Promise<SyncStatus> {
    this.running ??= this.run({ kind: 'sync', request }, onProgress).finally(() => {
      this.running = undefined;
      this.progress = undefined;
    });
    return this.running;
  }

  /** The 10-minute refresh: entitlements changed since the last run, their availability 50 ids a call. */
  refreshChanged(libraries: number[], onProgress: (p: SyncProgress) => void = () => {}): Promise<SyncStatus> {
    return this.run({ kind: 'refresh-changed', libraries }, onProgress);
  }

  /** Availability now, for titles staff are looking at; stored with the time it was read. */
  async refreshAvailability(libraryId: number, contentIds: ContentId[]): Promise<BrowseRow[]> {
    const now = this.options.now ?? Date.now;
    const items = await this.track(this.options.desk.contentInfo(libraryId, contentIds));
    // Stored through this process's connection, not the writer: the Collection's index patches
    // what this process stores in place, where another connection's commit would rebuild it.
    this.mirror.storeAvailability(libraryId, items, now());
    return contentIds.flatMap((id) => {
      const d = this.detail(libraryId, id);
      return d ? [{ contentId: id, purchaseModel: d.purchaseModel, active: d.active, ...(d.availability ? { availability: d.availability } : {}) }] : [];
    });
  }

  browse(query: BrowseQuery): CatalogPage {
    this.shelves ??= new ShelfCache(this.mirror, this.options.now);
    const page = browse(this.mirror.db, this.shelves, query);
    return { ...page, rows: page.rows.map((row) => ({ ...row, contentId: this.mirror.keys.contentIdOf(row.contentId as number) })) };
  }

  detail(libraryId: number, contentId: ContentId): TitleDetail | undefined {
    const key = this.mirror.keys.keyOf(contentId);
    const found = key === undefined ? undefined : detail(this.mirror.db, libraryId, key);
    return found && { ...found, contentId, ...(found.record ? { record: { ...found.record, id: contentId } } : {}) };
  }

  /**
   * What each search hit's titleId stands for in this copy of the catalog (title-contents.ts);
   * `no-mirror` until a catalog run (global or library content) has succeeded once.
   */
  titleContents(libraryId: number, titleIds: readonly number[]): TitleContents[] {
    const synced = this.mirror.allStates().some((s) => (s.source === sourceNames.global || s.source.startsWith('library-content:')) && s.lastSuccessAt !== undefined);
    return titleIds.map((titleId): TitleContents => {
      const contents = titleContents(this.mirror.db, this.mirror.keys, libraryId, titleId);
      if (contents.length > 0) return { titleId, contents };
      return { titleId, unresolved: synced ? 'not-in-mirror' : 'no-mirror' };
    });
  }

  /**
   * Cancels what runs (a sync stops before its next page and resumes from its stored token on
   * the next connection), waits for it to let go, then closes the writer and the mirror.
   */
  async close(): Promise<void> {
    this.abort.abort(new Error('The connection was closed.'));
    await Promise.allSettled([...this.jobs]);
    await Promise.all([this.writerInstance?.close(), this.readerInstance?.close()]);
    this.readerPort?.close();
    this.writerInstance = undefined;
    this.readerInstance = undefined;
    this.readerPort = undefined;
    this.mirror.close();
  }

  private writer(): MirrorWriter {
    if (this.writerInstance) return this.writerInstance;
    if (this.options.writer === 'in-thread') {
      this.writerInstance = inThreadWriter(this.options.databasePath);
    } else {
      // The writer thread holds one end of the channel from the start; the reader, made when a
      // sync first needs it (the 10-minute refresh does not), takes the other.
      const { port1, port2 } = new MessageChannel();
      this.writerInstance = workerWriter(this.options.databasePath, this.options.workerUrl, port2);
      this.readerPort = port1;
    }
    return this.writerInstance;
  }

  /** In-thread writing reads pages in this thread too (the sync's default). */
  private pageReader(): PageReader | undefined {
    if (this.options.writer === 'in-thread') return undefined;
    if (!this.readerInstance) {
      this.writer();
      this.readerInstance = workerPageReader(this.options.workerUrl, this.readerPort);
      this.readerPort = undefined;
    }
    return this.readerInstance;
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.jobs.add(work);
    void work.finally(() => this.jobs.delete(work)).catch(() => {});
    return work;
  }

  private async run(job: SyncJob, onProgress: (p: SyncProgress) => void): Promise<SyncStatus> {
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
    const onWarnings = (source: string, warnings: string[]): void => {
      touch(source);
      this.warnings.set(source, [...new Set([...(this.warnings.get(source) ?? []), ...warnings])].slice(0, 20));
      this.options.onWarnings?.(source, warnings);
    };
    this.abort.signal.throwIfAborted();
    const reader = this.pageReader();
    await this.track(runJob({
      client: this.options.background, mirror: this.writer(), now: this.options.now ?? Date.now, signal: this.abort.signal, onWarnings,
      ...(reader ? { readPages: reader.read } : {}),
    }, job, report));
    return this.status();
  }
}
