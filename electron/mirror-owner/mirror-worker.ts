// The mirror owner's thread: answers main's requests (mirror-interface.ts) with a MirrorOwner, and
// posts main the owner's entries for the app log (a slow call: slow-calls.ts) beside the replies.
// Built as out/main/mirror-worker.js for Electron (electron.vite.config.ts); Node runs the .ts.
// workerData: OwnerOptions.
//
// Requests wait in a queue and are served one per turn of the thread's event loop, so that every
// message already sent is read before the next request runs: a Collection read main has cancelled
// meanwhile (a newer query took its place, rule 7) is dropped before it costs the owner anything.
import { parentPort, workerData } from 'node:worker_threads';
import { DeskError } from '../shared/desk-error.ts';
import { CANCELLABLE_CALLS, type MirrorCancel, type MirrorLog, type MirrorReply, type MirrorRequest, type OwnerOptions } from '../node/mirror-interface.ts';
import { MirrorOwner } from './mirror-owner.ts';
import { yieldToMain } from './thread-priority.ts';

if (!parentPort) throw new Error('mirror-worker must run as a worker thread');
yieldToMain();
const port = parentPort;
const owner = new MirrorOwner(workerData as OwnerOptions, { log: (entry) => port.postMessage({ kind: 'log', entry } satisfies MirrorLog) });
const reply = (message: MirrorReply): void => port.postMessage(message);
const queue: MirrorRequest[] = [];
let scheduled = false;

function serveNext(): void {
  scheduled = false;
  const request = queue.shift();
  if (request) owner.serve(request, reply);
  if (queue.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(serveNext);
}

port.on('message', (message: MirrorRequest | MirrorCancel) => {
  if ('cancel' in message) {
    const at = queue.findIndex((request) => request.id === message.cancel && CANCELLABLE_CALLS.includes(request.call));
    if (at >= 0) {
      const [dropped] = queue.splice(at, 1) as [MirrorRequest];
      reply({ id: dropped.id, kind: 'refused', error: DeskError.because('network', 'call.cancelled').toInfo() });
    }
    return;
  }
  queue.push(message);
  schedule();
});
