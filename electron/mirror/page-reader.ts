// Reading a bulk page off the wire (the global catalog's, a library's entitlements'): decoding,
// JSON, the client's checks of every record, and the catalog's titles packed for the writer
// (title-row.ts). In the product this runs on a thread of its own (the sync worker's file in
// the role 'page-reader'), so main only fetches: parsing a million titles in main had made main
// the sync's narrowest step on a 2-core desk PC, and grown its young generation to 128 MiB,
// which no code can cap in Electron's main process (a worker's `resourceLimits` can). The
// reader answers in two steps: the page's token first, which confirms the token main has
// usually asked for the next page on already (a guess from the page's first bytes: client.ts,
// pull) or names the page to ask for, then the records. Beside a writer thread, the reader sends the records to the writer over a
// channel of their own and tells main only the page's number (handed-over.ts): main's young
// generation and its share of the CPU were the sync's largest left after parsing moved here,
// and most of both went on receiving, copying and collecting those pages.
import { TextDecoder } from 'node:util';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { PageRead, ReadPage } from '../partner/client.ts';
import { PartnerError } from '../partner/errors.ts';
import { pageMetadata, parseEntitlementPage, readGlobalContentPage } from '../partner/normalize.ts';
import { NOT_JSON } from '../partner/transport.ts';
import type { Page } from '../shared/model.ts';
import type { ForWriter, HandedOverItems } from './handed-over.ts';
import { DEFAULT_WRITER_URL, SYNC_THREAD_LIMITS } from './mirror-writer.ts';
import { packWireChanges } from './title-row.ts';

/** Step two, for each kind of page: every record checked as the client checks it, in the form the writer takes. */
const ITEMS_OF = {
  global: (body: unknown, text: string) => {
    const page = readGlobalContentPage(body, text); // each record checked as the client checks it, and kept as sent (title-row.ts)
    return { items: packWireChanges(page.items), count: page.items.length };
  },
  entitlements: (body: unknown) => {
    const page = parseEntitlementPage(body);
    return { items: page.items, count: page.items.length };
  },
} satisfies Record<string, (body: unknown, text: string) => { items: unknown; count: number }>;

export type PageKind = keyof typeof ITEMS_OF;
type ItemsOf<K extends PageKind> = ReturnType<(typeof ITEMS_OF)[K]>['items'];

/** A page's records as the writer takes them (or handed to it), and how many the page held. */
export interface ReadItems<K extends PageKind> { items: ForWriter<ItemsOf<K>>; count: number }

export interface PageReader {
  read<K extends PageKind>(kind: K, bytes: ArrayBuffer): Promise<ReadPage<ReadItems<K>>>;
  close(): Promise<void>;
}

/** One kind of page, read by `reader`, as the client's pulls take it. */
export const readingAs = <K extends PageKind>(reader: PageReader['read'], kind: K): PageRead<ReadItems<K>> => (bytes) => reader(kind, bytes);

type Head = Omit<Page<never>, 'items'>;

/** Step one: the bytes as text and JSON, and what the page says of the pull. Throws for a garbled answer. */
function readHead(bytes: ArrayBuffer, decoder: TextDecoder): { text: string; body: unknown; head: Head } {
  const text = decoder.decode(bytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new PartnerError('bad-response', NOT_JSON);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new PartnerError('bad-response', 'A page of a bulk list is not an object.');
  return { text, body, head: pageMetadata(body) };
}

/** The same reading on this thread: tests, and a mirror written in-thread. */
export function inThreadPageReader(): PageReader {
  const decoder = new TextDecoder();
  return {
    read: async <K extends PageKind>(kind: K, bytes: ArrayBuffer) => {
      const { text, body, head } = readHead(bytes, decoder);
      const items = Promise.resolve().then(() => ITEMS_OF[kind](body, text) as ReadItems<K>);
      items.catch(() => {}); // the sync awaits it; not an unhandled rejection meanwhile
      return { ...head, items };
    },
    close: async () => {},
  };
}

type ReaderReply =
  | { id: number; step: 'head'; head: Head } | { id: number; step: 'items'; read: ReadItems<PageKind> }
  | { id: number; step: 'head' | 'items'; error: { code: 'bad-response' | 'server'; message: string } };

interface Deferred<T> { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void }

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  promise.catch(() => {}); // awaited by whoever reads the page; not an unhandled rejection meanwhile
  return { promise, resolve, reject };
}

/**
 * A thread that reads pages: the bytes are moved to it, not copied. With `writer` (one end of a
 * channel whose other end a writer thread holds: workerWriter) it hands each page's records to
 * the writer and answers main with the page's number.
 */
export function workerPageReader(workerUrl: URL | string = DEFAULT_WRITER_URL, writer?: MessagePort): PageReader {
  const worker = new Worker(workerUrl, {
    workerData: { role: 'page-reader', writer }, transferList: writer ? [writer] : [], resourceLimits: SYNC_THREAD_LIMITS,
  });
  const pending = new Map<number, { head: Deferred<Head>; items: Deferred<ReadItems<PageKind>> }>();
  let nextId = 1;
  let stopped: Error | undefined;
  const failAll = (error: Error): void => {
    stopped ??= error;
    for (const { head, items } of pending.values()) {
      head.reject(error);
      items.reject(error);
    }
    pending.clear();
  };
  worker.on('message', (reply: ReaderReply) => {
    const page = pending.get(reply.id);
    if (!page) return;
    if ('error' in reply) {
      const error = new PartnerError(reply.error.code, reply.error.message);
      page.head.reject(error);
      page.items.reject(error);
      pending.delete(reply.id);
    } else if (reply.step === 'head') {
      page.head.resolve(reply.head);
    } else {
      page.items.resolve(reply.read);
      pending.delete(reply.id);
    }
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new PartnerError('server', `The catalog page reader stopped (exit code ${code}).`)));
  return {
    read: async <K extends PageKind>(kind: K, bytes: ArrayBuffer): Promise<ReadPage<ReadItems<K>>> => {
      if (stopped) throw stopped;
      const id = nextId++;
      const page = { head: deferred<Head>(), items: deferred<ReadItems<PageKind>>() };
      pending.set(id, page);
      worker.postMessage({ id, kind, bytes }, [bytes]);
      return { ...(await page.head.promise), items: page.items.promise as Promise<ReadItems<K>> };
    },
    close: async () => {
      if (stopped) return;
      await worker.terminate();
    },
  };
}

/** The worker side: reads each page sent to it, answering its head, then its records (handed to `writer` when there is one). */
export function servePageReader(
  port: { on(event: 'message', listener: (request: { id: number; kind: PageKind; bytes: ArrayBuffer }) => void): unknown; postMessage(reply: ReaderReply): void },
  writer?: { postMessage(items: HandedOverItems): void },
): void {
  const decoder = new TextDecoder();
  const failure = (error: unknown) => ({
    code: error instanceof PartnerError && error.code === 'bad-response' ? 'bad-response' as const : 'server' as const,
    message: error instanceof Error ? error.message : String(error),
  });
  port.on('message', ({ id, kind, bytes }) => {
    let read: { text: string; body: unknown; head: Head };
    try {
      read = readHead(bytes, decoder);
    } catch (error) {
      port.postMessage({ id, step: 'head', error: failure(error) });
      return;
    }
    port.postMessage({ id, step: 'head', head: read.head });
    try {
      if (!Object.hasOwn(ITEMS_OF, kind)) throw new Error(`No reading for pages of ${String(kind)}.`);
      const { items, count } = ITEMS_OF[kind](read.body, read.text);
      // To the writer first: once main hears of the page, its records are on their way there.
      if (writer) writer.postMessage({ page: id, items });
      port.postMessage({ id, step: 'items', read: { items: writer ? { handedOver: id } : items, count } });
    } catch (error) {
      port.postMessage({ id, step: 'items', error: failure(error) });
    }
  });
}
