// Main's side of the mirror: the owner thread started, and every call of mirror-interface.ts
// sent to it as a message and answered as a promise. Nothing here opens the file or reads a
// page: main only sends requests and awaits answers. A page's bytes are moved to the owner, not
// copied. Should the thread stop (a crash, the process ending), every call waiting and every
// later one is refused with why. The owner's entries for the app log come beside the replies
// (a slow call) and go to `onLog`.
import { Worker } from 'node:worker_threads';
import { DeskError } from '../../shared/desk-error.ts';
import type { ErrorInfo } from '../../shared/errors.ts';
import type { AnswerOf, ArgsOf, MirrorCall, MirrorCancel, MirrorInterface, MirrorLog, MirrorReply, MirrorRequest, OwnerLogEntry, OwnerOptions } from '../../node/mirror-interface.ts';
import { transferables, type Bytes } from '../../node/partner/bytes.ts';
import type { PageHead, PageStored, StoringPage } from '../../node/sync/page-store.ts';

/** In development and tests the .ts file next to this one; main passes the bundled path. */
export const DEFAULT_OWNER_URL = new URL('../../mirror-owner/mirror-worker.ts', import.meta.url);

/**
 * The owner's thread: a young generation of 8 MiB. V8 would otherwise let a busy thread's grow
 * to 128 MiB (seen on a 24 GiB machine), memory the desk does not need for pages that live a
 * few milliseconds. The old generation is left to V8: any cap there doubled the collectors'
 * CPU and slowed the sync.
 */
export const OWNER_THREAD_LIMITS = { maxYoungGenerationSizeMb: 8 } as const;

interface Waiting {
  answer: (value: unknown) => void;
  refuse: (error: Error) => void;
  /** storePage's head, answered before its end. */
  head?: (head: PageHead) => void;
}

const errorOf = (info: ErrorInfo): DeskError => new DeskError(info.code, info.message, info.status, {
  ...(info.reason ? { reason: info.reason, params: info.params ?? {} } : {}),
  ...(info.serviceMessage ? { serviceMessage: info.serviceMessage } : {}),
});

export class MirrorClient implements MirrorInterface {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private lastId = 0;
  private stopped: Error | undefined;
  private whenIdle: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(options: OwnerOptions, workerUrl: URL | string = DEFAULT_OWNER_URL, onLog: (entry: OwnerLogEntry) => void = () => {}) {
    this.worker = new Worker(workerUrl, { workerData: options, resourceLimits: OWNER_THREAD_LIMITS });
    this.worker.on('message', (message: MirrorReply | MirrorLog) => (message.kind === 'log' ? onLog(message.entry) : this.take(message)));
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', (code) => this.stop(new DeskError('server', `The mirror's thread stopped (exit code ${code}).`)));
  }

  states = () => this.call('states', []);
  openRun = (...args: ArgsOf<'openRun'>) => this.call('openRun', args);
  finishRun = (...args: ArgsOf<'finishRun'>) => this.call('finishRun', args);
  failRun = (...args: ArgsOf<'failRun'>) => this.call('failRun', args);
  storeAvailability = (...args: ArgsOf<'storeAvailability'>) => this.call('storeAvailability', args);
  // The Collection's reads: a signal cancels one the owner has not begun (rule 7 of mirror-interface.ts).
  browse = (query: ArgsOf<'browse'>[0], signal?: AbortSignal) => this.call('browse', [query], [], undefined, signal);
  title = (libraryId: number, contentId: ArgsOf<'title'>[1], signal?: AbortSignal) => this.call('title', [libraryId, contentId], [], undefined, signal);
  rows = (libraryId: number, contentIds: ArgsOf<'rows'>[1], signal?: AbortSignal) => this.call('rows', [libraryId, contentIds], [], undefined, signal);
  titleContents = (libraryId: number, titleIds: number[], signal?: AbortSignal) => this.call('titleContents', [libraryId, titleIds], [], undefined, signal);
  fileLibraryContent = (...args: ArgsOf<'fileLibraryContent'>) => this.call('fileLibraryContent', args, transferables(args[1]));
  withoutRecord = (...args: ArgsOf<'withoutRecord'>) => this.call('withoutRecord', args);
  status = () => this.call('status', []);
  fillFromLibrary = (...args: ArgsOf<'fillFromLibrary'>) => this.call('fillFromLibrary', args);

  storePage(run: number, page: number, bytes: Bytes): StoringPage {
    let head!: (head: PageHead) => void;
    let refuseHead!: (error: Error) => void;
    const headAnswer = new Promise<PageHead>((resolve, reject) => { head = resolve; refuseHead = reject; });
    headAnswer.catch(() => {}); // the caller awaits it; not an unhandled rejection meanwhile
    const stored = this.call('storePage', [run, page, bytes], transferables(bytes), (value) => head(value)) as Promise<PageStored>;
    stored.catch((error: Error) => refuseHead(error)); // a page refused at its head is refused at its end too
    return { head: headAnswer, stored };
  }

  /** Some request is waiting for the owner's answer. */
  get busy(): boolean {
    return this.waiting.size > 0;
  }

  /** Resolves once no request is waiting for the owner's answer (a simulated clock waits for it as for a fetch). */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    if (!this.whenIdle) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => { resolve = r; });
      this.whenIdle = { promise, resolve };
    }
    return this.whenIdle.promise;
  }

  /** Lets the owner close its file, then ends its thread. */
  async close(): Promise<void> {
    if (this.stopped) return;
    await this.call('close', []).catch(() => {});
    await this.worker.terminate();
  }

  private call<K extends MirrorCall>(call: K, args: ArgsOf<K>, transfer: ArrayBuffer[] = [], head?: (head: PageHead) => void, signal?: AbortSignal): Promise<AnswerOf<K>> {
    if (this.stopped) return Promise.reject(this.stopped);
    if (signal?.aborted) return Promise.reject(signal.reason); // never sent: the owner spends nothing on it
    const id = ++this.lastId;
    return new Promise<AnswerOf<K>>((answer, refuse) => {
      this.waiting.set(id, { answer: answer as (value: unknown) => void, refuse, ...(head ? { head } : {}) });
      this.worker.postMessage({ id, call, args } as MirrorRequest, transfer);
      signal?.addEventListener('abort', () => {
        if (!this.waiting.delete(id)) return; // answered already
        this.worker.postMessage({ cancel: id } satisfies MirrorCancel);
        refuse(signal.reason);
        this.settleIdle();
      }, { once: true });
    });
  }

  private take(reply: MirrorReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    if (reply.kind === 'head') {
      waiting.head?.(reply.head);
      return;
    }
    this.waiting.delete(reply.id);
    if (reply.kind === 'answer') waiting.answer(reply.answer);
    else waiting.refuse(errorOf(reply.error));
    this.settleIdle();
  }

  private settleIdle(): void {
    if (this.busy || !this.whenIdle) return;
    this.whenIdle.resolve();
    this.whenIdle = undefined;
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const waiting of this.waiting.values()) waiting.refuse(this.stopped);
    this.waiting.clear();
    this.settleIdle();
  }
}
