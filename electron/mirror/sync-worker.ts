// Worker thread entry, in one of two roles: the mirror's writer (mirror-writer.ts: main runs the
// sync and sends each page here to be stored), or the page reader of bulk pulls (page-reader.ts:
// main fetches each page and moves its bytes here to be read). One file for both, built as
// out/main/sync-worker.js for Electron; Node runs the .ts directly.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { serveWriter } from './mirror-writer.ts';
import { servePageReader } from './page-reader.ts';

if (!parentPort) throw new Error('sync-worker must run as a worker thread');
// `writer` / `reader`: the two ends of the channel that carries read pages' records between them.
const role = workerData as { role: 'page-reader'; writer?: MessagePort } | { databasePath: string; reader?: MessagePort };
if ('role' in role) servePageReader(parentPort, role.writer);
else serveWriter(parentPort, role.databasePath, role.reader);
