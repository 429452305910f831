// Reads the pages the leader stores on a thread of its own (page-reader-worker.ts): a page of 500
// records takes tens of milliseconds to decode, parse and make into COPY text, and on the event
// loop that answers desks every staff call arriving meanwhile would wait behind it (bench:fleet
// saw the server's loop held for 100-300 ms a page on a busy machine while it synced). The thread
// reads pages in the order they come, so their writes keep that order. One thread a process,
// started when first needed; it never keeps the process alive.
import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../electron/shared/errors.ts';
import { DeskError, type ErrorDetail } from '../electron/shared/desk-error.ts';
import { transferables, type Bytes } from '../electron/node/partner/bytes.ts';
import type { PageHead, SyncSource } from '../electron/node/sync/page-store.ts';
import type { LibraryRows } from './library-rows.ts';

/** A page as the leader writes it: its head, and its rows (the titles' and entitlements' as COPY text). */
export interface ReadPage extends Pick<LibraryRows, 'libraryTitles' | 'removedTitles' | 'removedEntitlements'> {
  head: PageHead;
  titlesCopy: Uint8Array | undefined;
  entitlementsCopy: Uint8Array | undefined;
}

export interface PageAsked { id: number; source: SyncSource; bytes: Bytes }
export interface PageAnswer {
  id: number;
  read?: ReadPage;
  error?: { code?: ErrorCode; message: string; status?: number; detail?: ErrorDetail };
}

class PageReader {
  private worker: Worker | undefined;
  private lastId = 0;
  private readonly waiting = new Map<number, { resolve: (read: ReadPage) => void; reject: (error: Error) => void }>();

  /** The page's head and rows; its bytes are moved to the reader's thread, not copied. */
  read(source: SyncSource, bytes: Bytes): Promise<ReadPage> {
    const worker = this.started();
    const id = ++this.lastId;
    return new Promise<ReadPage>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref(); // a page being read keeps the process up, as any pending I/O does
      worker.postMessage({ id, source, bytes } satisfies PageAsked, transferables(bytes));
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./page-reader-worker.ts', import.meta.url));
    worker.unref();
    worker.on('message', ({ id, read, error }: PageAnswer) => {
      const asked = this.waiting.get(id);
      this.waiting.delete(id);
      if (this.waiting.size === 0) worker.unref();
      if (!asked) return;
      if (read) asked.resolve(read);
      else if (error?.code) asked.reject(new DeskError(error.code, error.message, error.status, error.detail));
      else asked.reject(new Error(error?.message ?? 'The page could not be read.'));
    });
    // The thread failed (out of memory, a bug): every page it held is refused, and the next read starts a new one.
    const lost = (why: Error): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const asked of this.waiting.values()) asked.reject(why);
      this.waiting.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`The page reader's thread stopped (exit code ${code}).`)));
    this.worker = worker;
    return worker;
  }
}

/** The process's page reader. */
export const pageReader = new PageReader();
