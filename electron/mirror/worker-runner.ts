// Starts a sync job on a worker thread, so parsing pages and writing SQLite never stall the
// main process (and with it the desk's IPC).
import { Worker } from 'node:worker_threads';
import { PartnerError } from '../partner/errors.ts';
import type { JobSpec } from './sync-job.ts';
import type { SyncProgress } from './sync.ts';

/** In development and tests the .ts file next to this one; main passes the bundled path. */
export const DEFAULT_WORKER_URL = new URL('./sync-worker.ts', import.meta.url);

export function runJobInWorker(workerUrl: URL | string, spec: JobSpec, onProgress: (p: SyncProgress) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: spec });
    let settled = false;
    worker.on('message', (message: { type: 'progress'; progress: SyncProgress } | { type: 'done' } | { type: 'error'; message: string }) => {
      if (message.type === 'progress') return onProgress(message.progress);
      settled = true;
      if (message.type === 'done') resolve();
      else reject(new PartnerError('server', message.message));
      void worker.terminate();
    });
    worker.on('error', (error) => { settled = true; reject(error); });
    worker.on('exit', (code) => {
      if (!settled) reject(new PartnerError('server', `The sync worker stopped unexpectedly (exit code ${code}).`));
    });
  });
}
