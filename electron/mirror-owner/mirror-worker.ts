// The mirror owner's thread: answers main's requests (mirror-interface.ts) with a MirrorOwner.
// Built as out/main/mirror-worker.js for Electron (electron.vite.config.ts); Node runs the .ts.
// workerData: OwnerOptions.
import { parentPort, workerData } from 'node:worker_threads';
import type { MirrorReply, MirrorRequest, OwnerOptions } from '../node/mirror-interface.ts';
import { MirrorOwner } from './mirror-owner.ts';
import { yieldToMain } from './thread-priority.ts';

if (!parentPort) throw new Error('mirror-worker must run as a worker thread');
yieldToMain();
const port = parentPort;
const owner = new MirrorOwner(workerData as OwnerOptions);
port.on('message', (request: MirrorRequest) => owner.serve(request, (reply: MirrorReply) => port.postMessage(reply)));
