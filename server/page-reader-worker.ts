// The page reader's thread (page-reader.ts): a page's bytes in, what the leader writes out — its
// head, and its rows as COPY text ready to send — so decoding, parsing and building a page's rows
// never hold the event loop on which the library server answers desks.
import { parentPort } from 'node:worker_threads';
import { DeskError } from '../electron/shared/desk-error.ts';
import type { Bytes } from '../electron/node/partner/bytes.ts';
import { readPage } from '../electron/node/sync/page-reading.ts';
import type { SyncSource } from '../electron/node/sync/page-store.ts';
import { copyText } from './copy.ts';
import { entitlementCopyValues, libraryRowsOf, titleCopyValues } from './library-rows.ts';
import type { PageAsked, PageAnswer, ReadPage } from './page-reader.ts';

const encoder = new TextEncoder();

/** A page's head and rows, the titles' and entitlements' as COPY text. */
function read(source: SyncSource, bytes: Bytes): ReadPage {
  const page = readPage(source, bytes);
  const rows = libraryRowsOf(page, source);
  return {
    head: page.head,
    titlesCopy: rows.titles.length > 0 ? encoder.encode(copyText(rows.titles.map(titleCopyValues))) : undefined,
    libraryTitles: rows.libraryTitles,
    removedTitles: rows.removedTitles,
    entitlementsCopy: rows.entitlements.length > 0 ? encoder.encode(copyText(rows.entitlements.map(entitlementCopyValues))) : undefined,
    removedEntitlements: rows.removedEntitlements,
  };
}

parentPort?.on('message', ({ id, source, bytes }: PageAsked) => {
  let answer: PageAnswer;
  try {
    answer = { id, read: read(source, bytes) };
  } catch (error) {
    // A garbled page is the reader's DeskError('bad-response'): the engine asks for the page again.
    answer = error instanceof DeskError
      ? { id, error: { code: error.code, message: error.message, ...(error.status === undefined ? {} : { status: error.status }), detail: error.detail } }
      : { id, error: { message: error instanceof Error ? error.message : String(error) } };
  }
  const moved = answer.read ? [answer.read.titlesCopy?.buffer, answer.read.entitlementsCopy?.buffer].filter((b): b is ArrayBuffer => b !== undefined) : [];
  parentPort?.postMessage(answer, moved);
});
