// One sync job: a full or delta sync, the 10-minute refresh of changed titles, or availability
// read for given titles. It runs in main on the connection's background client and hands every
// page to a writer (mirror-writer.ts).
import type { PartnerClient } from '../partner/client.ts';
import type { ContentId } from '../shared/content-id.ts';
import type { MirrorWriter } from './mirror-writer.ts';
import { readAvailability, refreshChangedAvailability, runSync, type SyncProgress, type SyncRequest } from './sync.ts';

export type SyncJob =
  | { kind: 'sync'; request: SyncRequest }
  | { kind: 'refresh-changed'; libraries: number[] }
  | { kind: 'read-availability'; libraryId: number; contentIds: ContentId[] };

export interface JobContext {
  client: PartnerClient;
  mirror: MirrorWriter;
  now: () => number;
  signal?: AbortSignal;
  onWarnings?: (source: string, warnings: string[]) => void;
}

export async function runJob(context: JobContext, job: SyncJob, onProgress: (p: SyncProgress) => void): Promise<void> {
  const ctx = { ...context, onProgress };
  if (job.kind === 'sync') await runSync(ctx, job.request);
  else if (job.kind === 'refresh-changed') for (const libraryId of job.libraries) await refreshChangedAvailability(ctx, libraryId);
  else await readAvailability(ctx, job.libraryId, job.contentIds);
}
