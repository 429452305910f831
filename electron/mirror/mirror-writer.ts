// Who writes the mirror. The sync runs in main, where the connection's client is (one token,
// one Retry-After gate, one request budget); what it fetches is written page by page by a
// writer. In the product the writer is a worker thread, so parsing into SQLite and building
// the search index never stall main's event loop (and with it the desk's IPC); in tests and
// in a crash-safety child it can be the mirror itself, in the same thread.
import { Worker, type MessagePort } from 'node:worker_threads';
import { PartnerError } from '../partner/errors.ts';
import { CatalogMirror } from './mirror.ts';
import { SearchUpgrade } from './search-upgrade.ts';
import { isHandedOver, type ForWriter, type HandedOver, type HandedOverItems } from './handed-over.ts';
import type { PackedTitles } from './title-row.ts';
import type { Entitlement, PurchaseModel } from '../shared/model.ts';

/** The mirror's methods a sync calls: its run state and its writes. */
export const WRITER_METHODS = [
  'state', 'allStates', 'beginRun', 'finishRun', 'failRun', 'applyGlobalPage', 'applyEntitlementPage',
  'applyLibraryContentPage', 'sweepTitles', 'sweepEntitlements', 'storeAvailability', 'inBulk', 'finishBulk',
] as const satisfies readonly (keyof CatalogMirror)[];
export type WriterMethod = (typeof WRITER_METHODS)[number];
/** Besides the mirror's own methods: one chunk of a schema-1 mirror's search words (search-upgrade.ts). */
export const UPGRADE_SEARCH_WORDS = 'upgradeSearchWords' as const;
type WriterCall = WriterMethod | typeof UPGRADE_SEARCH_WORDS;

export interface SearchWordsStep {
  /** Titles are still waiting for their words. */
  pending: boolean;
  /** How far it is (0–1). */
  progress?: number;
}

type Fn = (...args: never[]) => unknown;
/** Each write, answered now (in-thread) or later (worker). A sync awaits every call. */
export type MirrorWriter = {
  [K in Exclude<WriterMethod, 'applyGlobalPage' | 'applyEntitlementPage'>]: CatalogMirror[K] extends Fn
    ? (...args: Parameters<CatalogMirror[K]>) => ReturnType<CatalogMirror[K]> | Promise<ReturnType<CatalogMirror[K]>>
    : never;
} & {
  // As the mirror's, but the records may be a page the reader thread handed to this writer (handed-over.ts).
  applyGlobalPage(source: string, run: number, titles: ForWriter<PackedTitles>, nextToken: string | undefined): void | Promise<void>;
  applyEntitlementPage(
    source: string, run: number, libraryId: number, model: PurchaseModel, items: ForWriter<Entitlement[]>, nextToken: string | undefined,
  ): void | Promise<void>;
  upgradeSearchWords(): SearchWordsStep | Promise<SearchWordsStep>;
  close(): Promise<void>;
};

const isPage = (method: WriterCall): boolean => method.startsWith('apply');

/**
 * Runs one writer call on a mirror (the worker's, or a test's own connection). A sync sends the
 * next pages before the last one is stored; if a page fails, the pages sent after it are refused
 * too (until the sync's next other call), so no later page's token can be stored past a page
 * that was not: an interrupted run always resumes from its first missing page.
 */
function writerCall(mirror: CatalogMirror, upgrade: () => SearchUpgrade): (method: WriterCall, args: unknown[]) => unknown {
  let refusingPages = false;
  return (method, args) => {
    if (!isPage(method)) refusingPages = false;
    else if (refusingPages) throw new Error('An earlier page of this run was not stored, so this one was not either.');
    try {
      return run(method, args);
    } catch (error) {
      if (isPage(method)) refusingPages = true;
      throw error;
    }
  };

  function run(method: WriterCall, args: unknown[]): unknown {
    if (method === UPGRADE_SEARCH_WORDS) {
      const words = upgrade();
      if (!words.pending()) return { pending: false } satisfies SearchWordsStep;
      words.step();
      const progress = words.progress();
      return { pending: words.pending(), ...(progress === undefined ? {} : { progress }) } satisfies SearchWordsStep;
    }
    if (args.some(isHandedOver)) throw new Error('A page handed to a writer thread reached a writer with no reader thread.');
    return (mirror[method] as (...a: unknown[]) => unknown)(...args);
  }
}

const lazy = <T>(make: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};

/**
 * A writer in this thread, on a connection of its own: the Collection's index notices another
 * connection's commits (PRAGMA data_version), as it does the worker's in the product.
 */
export function inThreadWriter(databasePath: string): MirrorWriter {
  const mirror = new CatalogMirror(databasePath);
  const call = writerCall(mirror, lazy(() => new SearchUpgrade(mirror)));
  const writer = Object.fromEntries([...WRITER_METHODS, UPGRADE_SEARCH_WORDS].map((name) => [name, (...args: unknown[]) => call(name, args)]));
  return { ...writer, close: async () => mirror.close() } as MirrorWriter;
}

/**
 * The sync's threads (this writer, the page reader): a young generation of 8 MiB. V8 would
 * otherwise let a busy thread's grow to 128 MiB (seen on a 24 GiB machine), memory the desk
 * does not need for pages that live a few milliseconds. On a 1M-title sync, 8 instead of 16
 * lowered the peak RSS by 30-35 MiB, its time within the runs' spread (26.8-28.0 s). The old
 * generation is left to V8: any cap there doubled the collectors' CPU and slowed the sync 5 s.
 */
export const SYNC_THREAD_LIMITS = { maxYoungGenerationSizeMb: 8 } as const;

/** In development and tests the .ts file next to this one; main passes the bundled path. */
export const DEFAULT_WRITER_URL = new URL('./sync-worker.ts', import.meta.url);

export interface WriterRequest { id: number; method: WriterCall; args: unknown[] }
export type WriterReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/**
 * A worker thread that owns a write connection to the mirror and runs the calls sent to it, in
 * order. With `reader` (one end of a channel whose other end goes to workerPageReader) it also
 * takes the records of pages the reader hands over.
 */
export function workerWriter(databasePath: string, workerUrl: URL | string = DEFAULT_WRITER_URL, reader?: MessagePort): MirrorWriter {
  const worker = new Worker(workerUrl, {
    workerData: { databasePath, reader }, transferList: reader ? [reader] : [], resourceLimits: SYNC_THREAD_LIMITS,
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let stopped: Error | undefined;
  const failAll = (error: Error): void => {
    stopped = error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on('message', (reply: WriterReply) => {
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    if (reply.ok) call.resolve(reply.value);
    else call.reject(new PartnerError('server', reply.message));
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new PartnerError('server', `The catalog writer stopped (exit code ${code}).`)));
  const call = (method: WriterCall, args: unknown[]): Promise<unknown> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, method, args } satisfies WriterRequest);
    });
  };
  const writer = Object.fromEntries([...WRITER_METHODS, UPGRADE_SEARCH_WORDS].map((name) => [name, (...args: unknown[]) => call(name, args)]));
  return {
    ...writer,
    // Ends the thread after the call under way: each page is one transaction, so a write
    // never stops half applied, and an interrupted sync resumes from its stored token.
    close: async () => {
      if (stopped) return;
      await worker.terminate();
    },
  } as MirrorWriter;
}

/**
 * Pages are numbered in the order the reader reads them, and main names them in the order of
 * the pull, which is nearly the same: a page read again (a garbled answer, retried) comes after
 * the page ahead of it, asked for on its guessed token (client.ts, pull). A page still unnamed
 * this many pages after a later one was named will not be: it belonged to a sync that stopped,
 * or to a guess the pull dropped.
 */
const UNNAMED_PAGES_KEPT = 16;

/**
 * The worker side: serves calls on its own connection until terminated, in the order they came.
 * A page handed over by the reader (`reader`: its channel) can be named by main before its
 * records arrive, as the two come by different channels: the calls wait for them.
 */
export function serveWriter(
  port: { on(event: 'message', listener: (request: WriterRequest) => void): unknown; postMessage(reply: WriterReply): void },
  databasePath: string,
  reader?: { on(event: 'message', listener: (items: HandedOverItems) => void): unknown },
): void {
  const mirror = new CatalogMirror(databasePath);
  const call = writerCall(mirror, lazy(() => new SearchUpgrade(mirror)));
  const waiting: WriterRequest[] = [];
  const handedOver = new Map<number, unknown>();
  const answer = ({ id, method, args }: WriterRequest): void => {
    if (!(WRITER_METHODS as readonly string[]).includes(method) && method !== UPGRADE_SEARCH_WORDS) {
      port.postMessage({ id, ok: false, message: `Unknown mirror call ${String(method)}.` });
      return;
    }
    try {
      const value = call(method, args);
      port.postMessage({ id, ok: true, value });
    } catch (error) {
      port.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
    }
  };
  const serve = (): void => {
    while (waiting.length > 0) {
      const request = waiting[0] as WriterRequest;
      const at = reader && isPage(request.method) ? request.args.findIndex(isHandedOver) : -1;
      if (at >= 0) {
        const { handedOver: page } = request.args[at] as HandedOver;
        if (!handedOver.has(page)) return; // on its way from the reader
        request.args[at] = handedOver.get(page);
        handedOver.delete(page);
        for (const earlier of handedOver.keys()) if (earlier <= page - UNNAMED_PAGES_KEPT) handedOver.delete(earlier);
      }
      waiting.shift();
      answer(request);
    }
  };
  port.on('message', (request) => {
    waiting.push(request);
    serve();
  });
  reader?.on('message', ({ page, items }) => {
    handedOver.set(page, items);
    serve();
  });
}
