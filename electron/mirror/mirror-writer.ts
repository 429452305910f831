// Who writes the mirror. The sync runs in main, where the connection's client is (one token,
// one Retry-After gate, one request budget); what it fetches is written page by page by a
// writer. In the product the writer is a worker thread, so parsing into SQLite and building
// the search index never stall main's event loop (and with it the desk's IPC); in tests and
// in a crash-safety child it can be the mirror itself, in the same thread.
import { Worker } from 'node:worker_threads';
import { PartnerError } from '../partner/errors.ts';
import { CatalogMirror } from './mirror.ts';

/** The mirror's methods a sync calls: its run state and its writes. */
export const WRITER_METHODS = [
  'state', 'allStates', 'beginRun', 'finishRun', 'failRun', 'applyGlobalPage', 'applyEntitlementPage',
  'applyLibraryContentPage', 'sweepTitles', 'sweepEntitlements', 'storeAvailability',
] as const satisfies readonly (keyof CatalogMirror)[];
export type WriterMethod = (typeof WRITER_METHODS)[number];

type Fn = (...args: never[]) => unknown;
/** Each write, answered now (in-thread) or later (worker). A sync awaits every call. */
export type MirrorWriter = {
  [K in WriterMethod]: CatalogMirror[K] extends Fn
    ? (...args: Parameters<CatalogMirror[K]>) => ReturnType<CatalogMirror[K]> | Promise<ReturnType<CatalogMirror[K]>>
    : never;
} & { close(): Promise<void> };

/** The mirror as its own writer, in this thread. */
export function inThreadWriter(mirror: CatalogMirror): MirrorWriter {
  const writer = Object.fromEntries(WRITER_METHODS.map((name) => [name, (...args: unknown[]) => (mirror[name] as (...a: unknown[]) => unknown)(...args)]));
  return { ...writer, close: async () => {} } as MirrorWriter;
}

/** In development and tests the .ts file next to this one; main passes the bundled path. */
export const DEFAULT_WRITER_URL = new URL('./sync-worker.ts', import.meta.url);

export interface WriterRequest { id: number; method: WriterMethod; args: unknown[] }
export type WriterReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/** A worker thread that owns a write connection to the mirror and runs the calls sent to it, in order. */
export function workerWriter(databasePath: string, workerUrl: URL | string = DEFAULT_WRITER_URL): MirrorWriter {
  const worker = new Worker(workerUrl, { workerData: { databasePath } });
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
  const call = (method: WriterMethod, args: unknown[]): Promise<unknown> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, method, args } satisfies WriterRequest);
    });
  };
  const writer = Object.fromEntries(WRITER_METHODS.map((name) => [name, (...args: unknown[]) => call(name, args)]));
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

/** The worker side: serves calls on its own connection until terminated. */
export function serveWriter(port: { on(event: 'message', listener: (request: WriterRequest) => void): unknown; postMessage(reply: WriterReply): void }, databasePath: string): void {
  const mirror = new CatalogMirror(databasePath);
  port.on('message', ({ id, method, args }) => {
    if (!(WRITER_METHODS as readonly string[]).includes(method)) {
      port.postMessage({ id, ok: false, message: `Unknown mirror call ${String(method)}.` });
      return;
    }
    try {
      const value = (mirror[method] as (...a: unknown[]) => unknown)(...args);
      port.postMessage({ id, ok: true, value });
    } catch (error) {
      port.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
    }
  });
}
