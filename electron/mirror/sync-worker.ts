// Worker thread entry: runs one job and reports progress, then done or the error's message.
// Built as its own file (out/main/sync-worker.js) for Electron; Node runs the .ts directly.
import { parentPort, workerData } from 'node:worker_threads';
import { runJob, type JobSpec } from './sync-job.ts';

const port = parentPort;
if (!port) throw new Error('sync-worker must run as a worker thread');
runJob(workerData as JobSpec, (progress) => port.postMessage({ type: 'progress', progress }))
  .then(() => port.postMessage({ type: 'done' }))
  .catch((error: unknown) => port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
