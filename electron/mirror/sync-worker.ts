// Worker thread entry: the mirror's writer (mirror-writer.ts). Main runs the sync and sends
// each page here to be stored. Built as its own file (out/main/sync-worker.js) for Electron;
// Node runs the .ts directly.
import { parentPort, workerData } from 'node:worker_threads';
import { serveWriter } from './mirror-writer.ts';

if (!parentPort) throw new Error('sync-worker must run as a worker thread');
serveWriter(parentPort, (workerData as { databasePath: string }).databasePath);
