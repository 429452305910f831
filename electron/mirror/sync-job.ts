// One sync job, the same whether it runs in a worker thread (the product: off the main
// process's event loop) or in-process (tests, where it is driven step by step).
import { PartnerClient } from '../partner/client.ts';
import { CatalogMirror } from './mirror.ts';
import { RateLimiter } from './rate-limiter.ts';
import { readAvailability, refreshChangedAvailability, runSync, type SyncProgress, type SyncRequest } from './sync.ts';

export interface ConnectionSpec {
  baseUrl: string;
  username: string;
  password: string;
  wsApi: string;
}

export type SyncJob =
  | { kind: 'sync'; request: SyncRequest }
  | { kind: 'refresh-changed'; libraries: number[] }
  | { kind: 'read-availability'; libraryId: number; contentIds: number[] };

export interface JobSpec {
  databasePath: string;
  connection: ConnectionSpec;
  job: SyncJob;
  /** Requests a minute for the whole job (the service allows about 100). */
  ratePerMinute: number;
}

export async function runJob(spec: JobSpec, onProgress: (p: SyncProgress) => void, signal?: AbortSignal): Promise<void> {
  const { baseUrl, username, password, wsApi } = spec.connection;
  const client = new PartnerClient({ baseUrl, wsApi, credentials: { username, password } });
  const mirror = new CatalogMirror(spec.databasePath);
  const ctx = { client, mirror, limiter: new RateLimiter(spec.ratePerMinute), now: Date.now, onProgress, ...(signal ? { signal } : {}) };
  try {
    const { job } = spec;
    if (job.kind === 'sync') await runSync(ctx, job.request);
    else if (job.kind === 'refresh-changed') for (const libraryId of job.libraries) await refreshChangedAvailability(ctx, libraryId);
    else await readAvailability(ctx, job.libraryId, job.contentIds);
  } finally {
    mirror.close();
  }
}
