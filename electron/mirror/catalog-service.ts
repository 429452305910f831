// The catalog mirror as the desk uses it: sync status and Sync now (one run at a time, on a
// worker), the entitlements browser's queries, and availability read on demand.
import type { PartnerClient } from '../partner/client.ts';
import { CatalogMirror, type SourceState } from './mirror.ts';
import { browse, counts, detail, type BrowseQuery, type CatalogPage, type BrowseRow, type TitleDetail } from './queries.ts';
import { ShelfCache } from './shelf-cache.ts';
import { runJob, type ConnectionSpec, type JobSpec, type SyncJob } from './sync-job.ts';
import type { SyncProgress, SyncRequest } from './sync.ts';
import { DEFAULT_WORKER_URL, runJobInWorker } from './worker-runner.ts';

export interface SyncStatus {
  sources: SourceState[];
  counts: ReturnType<typeof counts>;
  running?: SyncProgress;
}

export interface CatalogServiceOptions {
  databasePath: string;
  /** Where the service is and who we are, read at the start of each job. */
  connection: () => Promise<ConnectionSpec>;
  /** The main process's client, for availability read while staff look at a title. */
  client: () => Promise<PartnerClient>;
  now?: () => number;
  /** 'worker' in the product; 'in-process' for tests that need to stop a run at a given point. */
  runner?: 'worker' | 'in-process';
  workerUrl?: URL | string;
  ratePerMinute?: number;
}

export class CatalogService {
  private readonly options: CatalogServiceOptions;
  private readonly mirror: CatalogMirror;
  private running: Promise<SyncStatus> | undefined;
  private progress: SyncProgress | undefined;
  /** The browser's in-memory index of each library, made on first browse. */
  private shelves: ShelfCache | undefined;

  constructor(options: CatalogServiceOptions) {
    this.options = options;
    this.mirror = new CatalogMirror(options.databasePath);
  }

  status(): SyncStatus {
    return { sources: this.mirror.allStates(), counts: counts(this.mirror.db), ...(this.running && this.progress ? { running: this.progress } : {}) };
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
  async refreshAvailability(libraryId: number, contentIds: number[]): Promise<BrowseRow[]> {
    const client = await this.options.client();
    const now = this.options.now ?? Date.now;
    this.mirror.storeAvailability(libraryId, await client.contentInfo(libraryId, contentIds), now());
    return contentIds.flatMap((id) => {
      const d = detail(this.mirror.db, libraryId, id);
      return d ? [{ contentId: id, purchaseModel: d.purchaseModel, active: d.active, ...(d.availability ? { availability: d.availability } : {}) }] : [];
    });
  }

  browse(query: BrowseQuery): CatalogPage {
    this.shelves ??= new ShelfCache(this.mirror, this.options.now);
    return browse(this.mirror.db, this.shelves, query);
  }

  detail(libraryId: number, contentId: number): TitleDetail | undefined {
    return detail(this.mirror.db, libraryId, contentId);
  }

  close(): void {
    this.mirror.close();
  }

  private async run(job: SyncJob, onProgress: (p: SyncProgress) => void): Promise<SyncStatus> {
    const spec: JobSpec = {
      databasePath: this.options.databasePath, connection: await this.options.connection(), job,
      ratePerMinute: this.options.ratePerMinute ?? 100,
    };
    const report = (p: SyncProgress): void => {
      this.progress = p;
      onProgress(p);
    };
    if (this.options.runner === 'in-process') await runJob(spec, report);
    else await runJobInWorker(this.options.workerUrl ?? DEFAULT_WORKER_URL, spec, report);
    return this.status();
  }
}
