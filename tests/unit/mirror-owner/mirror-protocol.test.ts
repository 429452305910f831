// The mirror's protocol (mirror-interface.ts) followed by a reader with nothing but the messages:
// the owner's thread started from its entry, requests posted to it, replies read back. No
// client code of the desk's is used, so what passes here is what any caller — or a second back
// end — can rely on: runs opened and resumed, pages numbered and stored in order with a head
// before their end, a garbled page refused and taken again, a page out of turn refused, a full
// run's end removing what it did not see with counts, a failure recorded, availability and the
// Collection's reads, and nothing after close.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MirrorReply, MirrorRequest } from '../../../electron/node/mirror-interface.ts';
import type { Run } from '../../../electron/node/sync/page-store.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import { tempDir } from './helpers.ts';

const OWNER = new URL('../../../electron/mirror-owner/mirror-worker.ts', import.meta.url);

let sandbox: SandboxHandle;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 900 });
  dir = tempDir();
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The owner's thread, and its replies to each request in the order they came. */
function ownerAt(databasePath: string) {
  const worker = new Worker(OWNER, { workerData: { databasePath } });
  const replies = new Map<number, MirrorReply[]>();
  const waiting = new Map<number, () => void>();
  worker.on('message', (reply: MirrorReply) => {
    replies.set(reply.id, [...(replies.get(reply.id) ?? []), reply]);
    if (reply.kind !== 'head') waiting.get(reply.id)?.();
  });
  let id = 0;
  /** Posts one request and resolves with every reply to it, its last one included. */
  const send = (call: MirrorRequest['call'], args: unknown[], transfer: ArrayBuffer[] = []): Promise<MirrorReply[]> => {
    const mine = ++id;
    return new Promise((resolve) => {
      waiting.set(mine, () => resolve(replies.get(mine) ?? []));
      worker.postMessage({ id: mine, call, args }, transfer);
    });
  };
  const answer = async <T>(call: MirrorRequest['call'], ...args: unknown[]): Promise<T> => {
    const last = (await send(call, args)).at(-1)!;
    if (last.kind !== 'answer') throw new Error(`${call} was refused: ${JSON.stringify(last)}`);
    return last.answer as T;
  };
  return { worker, send, answer };
}

/** Pages of a bulk list exactly as the service sends them, over HTTP. */
async function servicePages(path: string, limit: number): Promise<string[]> {
  const basic = Buffer.from(`${sandbox.username}:${sandbox.password}`).toString('base64');
  const { access_token: token } = await (await fetch(`${sandbox.url}/api/v1/get-token`, { method: 'POST', headers: { Authorization: `Basic ${basic}` } })).json() as { access_token: string };
  const pages: string[] = [];
  for (let startToken: string | undefined; ;) {
    const url = `${sandbox.url}/api/v1/${path}${path.includes('?') ? '&' : '?'}limit=${limit}${startToken ? `&startToken=${startToken}` : ''}`;
    const text = await (await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } })).text();
    pages.push(text);
    startToken = (JSON.parse(text) as { metadata?: { nextStartToken?: string } }).metadata?.nextStartToken;
    if (startToken === undefined) return pages;
  }
}

const bytes = (text: string): ArrayBuffer => new TextEncoder().encode(text).buffer as ArrayBuffer;
const nextOf = (text: string): string | undefined => (JSON.parse(text) as { metadata: { nextStartToken?: string } }).metadata.nextStartToken;

describe('the mirror protocol, followed message by message', () => {
  it('keeps every ordering rule of mirror-interface.ts', async () => {
    const owner = ownerAt(join(dir, 'protocol.db'));
    try {
      const catalog = await servicePages('global-contents', 200);
      expect(catalog.length).toBeGreaterThan(3);
      expect(await owner.answer('states')).toEqual([]);

      // Rule 2: a run opened; rule 3: pages in order, head before end.
      const first = await owner.answer<Run>('openRun', { source: { kind: 'global' }, startedAt: 1_000 });
      expect(first).toMatchObject({ source: 'global', itemsBefore: 0, buildsAtEnd: true });
      expect(first.startToken).toBeUndefined();
      const early = await owner.send('storePage', [first.run, 2, bytes(catalog[1]!)]);
      expect(early).toEqual([expect.objectContaining({ kind: 'refused', error: expect.objectContaining({ code: 'server' }) })]);
      const garbled = await owner.send('storePage', [first.run, 1, bytes(catalog[0]!.slice(0, 300))]);
      expect(garbled).toEqual([expect.objectContaining({ kind: 'refused', error: expect.objectContaining({ code: 'bad-response' }) })]);
      const page = bytes(catalog[0]!);
      const stored = await owner.send('storePage', [first.run, 1, page], [page]);
      expect(page.byteLength).toBe(0); // moved to the owner, not copied
      expect(stored.map((r) => r.kind)).toEqual(['head', 'answer']);
      expect(stored[0]).toMatchObject({ head: { next: nextOf(catalog[0]!), items: 200, totalCount: expect.any(Number) } });
      expect(stored[1]).toMatchObject({ answer: { items: 200 } });
      expect(await owner.answer('states')).toEqual([expect.objectContaining({ source: 'global', inProgress: true, nextToken: nextOf(catalog[0]!), items: 200 })]);

      // Opened again (a crash, a cancelled pull): the same run resumes from its cursor, and the first opening's pages are refused.
      const resumed = await owner.answer<Run>('openRun', { source: { kind: 'global' }, since: 5, startedAt: 2_000 });
      expect(resumed).toMatchObject({ source: 'global', startToken: nextOf(catalog[0]!), itemsBefore: 200 });
      expect(resumed.since).toBeUndefined(); // still the full run it was
      expect((await owner.send('storePage', [first.run, 2, bytes(catalog[1]!)])).at(-1)).toMatchObject({ kind: 'refused' });
      for (const [i, text] of catalog.slice(1).entries()) {
        expect((await owner.send('storePage', [resumed.run, i + 1, bytes(text)])).map((r) => r.kind)).toEqual(['head', 'answer']);
      }
      expect(await owner.answer('finishRun', resumed.run)).toEqual({ removed: { titles: 0, entitlements: 0 } });
      const titles = (await owner.answer<{ counts: { titles: number } }>('status')).counts.titles;
      expect(titles).toBe(catalog.reduce((n, text) => n + (JSON.parse(text) as { data: { contents: unknown[] } }).data.contents.length, 0));

      // Rule 4: a full run removes what it did not see, and says how much.
      const again = await owner.answer<Run>('openRun', { source: { kind: 'global' }, startedAt: 3_000 });
      const only = JSON.parse(catalog[0]!) as { metadata: { nextStartToken?: string } };
      delete only.metadata.nextStartToken;
      expect((await owner.send('storePage', [again.run, 1, bytes(JSON.stringify(only))])).map((r) => r.kind)).toEqual(['head', 'answer']);
      expect(await owner.answer('finishRun', again.run)).toEqual({ removed: { titles: titles - 200, entitlements: 0 } });
      // …and the source's state keeps when its last full run succeeded and what that run removed.
      expect((await owner.answer<{ source: string }[]>('states')).find((s) => s.source === 'global'))
        .toMatchObject({ lastSuccessAt: 3_000, lastFullAt: 3_000, lastFullRemoved: titles - 200 });

      // A library's entitlements, a failed run, availability and the Collection's reads.
      const entitlements = await servicePages('libraries/101/entitlements?purchaseModel=Instant', 500);
      const instant = await owner.answer<Run>('openRun', { source: { kind: 'entitlements', libraryId: 101, model: 'INSTANT' }, startedAt: 4_000 });
      for (const [i, text] of entitlements.entries()) await owner.send('storePage', [instant.run, i + 1, bytes(text)]);
      expect(await owner.answer('finishRun', instant.run)).toEqual({ removed: { titles: 0, entitlements: 0 } });
      const flex = await owner.answer<Run>('openRun', { source: { kind: 'entitlements', libraryId: 101, model: 'FLEX' }, startedAt: 5_000 });
      await owner.answer('failRun', flex.run, { code: 'rate-limited', message: 'HTTP 429' }, 6_000);
      expect((await owner.answer<{ source: string }[]>('states')).find((s) => s.source === 'entitlements:101:FLEX'))
        .toMatchObject({ inProgress: true, lastError: 'HTTP 429', lastErrorCode: 'rate-limited', lastAttemptAt: 6_000 });
      const page1 = await owner.answer<{ total: number; rows: { contentId: number; title?: string }[] }>('browse', { libraryId: 101, offset: 0, limit: 500 });
      expect(page1.total).toBe(entitlements.reduce((n, text) => n + (JSON.parse(text) as { entitlements: unknown[] }).entitlements.length, 0));
      // Rows of titles the last full run removed have no title; one that it kept has its record.
      const one = page1.rows.find((r) => r.title !== undefined);
      expect(page1.rows.some((r) => r.title === undefined)).toBe(true);
      await owner.answer('storeAvailability', 101, [{ contentId: one!.contentId, status: 'BORROW', availableCopies: 2, totalCopies: 3 }], 7_000);
      expect(await owner.answer('rows', 101, [one!.contentId])).toEqual([expect.objectContaining({
        contentId: one!.contentId, purchaseModel: 'INSTANT', availability: { status: 'BORROW', availableCopies: 2, totalCopies: 3, readAt: 7_000 },
      })]);
      expect(await owner.answer('title', 101, one!.contentId)).toMatchObject({ contentId: one!.contentId, record: { id: one!.contentId } });
      expect(await owner.answer('title', 101, 999_999)).toBeUndefined();

      // Titles named by content id, a string one (an episode's, in the published schema) as well as
      // whole numbers; the service's warnings come back with the page's head; a title id is resolved
      // to its contents; an availability answer the service left out stores nothing.
      const TITLE_ID = 987_654;
      const delta = await owner.answer<Run>('openRun', { source: { kind: 'global' }, since: 3_000, startedAt: 8_000 });
      const episodes = bytes(JSON.stringify({ metadata: { warnings: ['Some titles are being re-licensed.'] }, data: { contents: [2, 1].map((n) => ({
        id: `ep/${TITLE_ID}/${n}`, titleId: TITLE_ID, format: 'TELEVISION', title: `Episode ${n}`, seasonNumber: 1, episodeNumber: n, duration: '30m',
      })) } }));
      expect((await owner.send('storePage', [delta.run, 1, episodes]))[0]).toMatchObject({ kind: 'head', head: { items: 2, warnings: ['Some titles are being re-licensed.'] } });
      await owner.answer('finishRun', delta.run);
      const lent = await owner.answer<Run>('openRun', { source: { kind: 'entitlements', libraryId: 101, model: 'FLEX' }, since: 3_000, startedAt: 9_000 });
      await owner.send('storePage', [lent.run, 1, bytes(JSON.stringify({ metadata: {}, entitlements: [1, 2].map((n) => ({ contentId: `ep/${TITLE_ID}/${n}`, active: true })) }))]);
      await owner.answer('finishRun', lent.run);
      const episode = `ep/${TITLE_ID}/2`;
      await owner.answer('storeAvailability', 101, [{ contentId: episode, status: 'HOLD', availableCopies: 0, totalCopies: 1 }], 10_000);
      await owner.answer('storeAvailability', 101, [{ contentId: episode, unknown: true }], 11_000);
      expect(await owner.answer('rows', 101, [episode, 999_999])).toEqual([expect.objectContaining({
        contentId: episode, title: 'Episode 2', purchaseModel: 'FLEX', availability: { status: 'HOLD', availableCopies: 0, totalCopies: 1, readAt: 10_000 },
      })]);
      expect(await owner.answer('title', 101, episode)).toMatchObject({ contentId: episode, record: { id: episode, titleId: TITLE_ID, episode: 2 } });
      expect(await owner.answer('titleContents', 101, [TITLE_ID, 999_999])).toEqual([
        { titleId: TITLE_ID, contents: [1, 2].map((n) => ({ contentId: `ep/${TITLE_ID}/${n}`, title: `Episode ${n}`, season: 1, episode: n, seconds: 1800, purchaseModel: 'FLEX', active: true })) },
        { titleId: 999_999, unresolved: 'not-in-mirror' },
      ]);
      const browsed = await owner.answer<{ rows: { contentId: unknown }[] }>('browse', { libraryId: 101, text: 'episode', offset: 0, limit: 10 });
      expect(browsed.rows.map((r) => r.contentId)).toEqual([`ep/${TITLE_ID}/1`, episode]);

      // Rule 1: after close, nothing.
      await owner.answer('close');
      expect((await owner.send('states', [])).at(-1)).toMatchObject({ kind: 'refused', error: { message: 'The mirror was closed.' } });
    } finally {
      await owner.worker.terminate();
    }
  });

  it('rule 7: drops a Collection read main cancelled before the owner began it, and cancels nothing else', async () => {
    const owner = ownerAt(join(dir, 'cancel.db'));
    try {
      // Posted together (as main posts a read and, a moment later, its cancel): the owner reads every
      // message already sent before it serves the next request, so the second read never runs.
      const read = { libraryId: 101, offset: 0, limit: 10 };
      const first = owner.send('browse', [read]); // request 1
      const second = owner.send('browse', [read]); // request 2
      const states = owner.send('states', []); // request 3: not a Collection read
      owner.worker.postMessage({ cancel: 2 });
      owner.worker.postMessage({ cancel: 3 });
      expect((await first).at(-1)).toMatchObject({ kind: 'answer', answer: { total: 0, rows: [] } });
      expect(await second).toEqual([{ id: 2, kind: 'refused', error: expect.objectContaining({ reason: 'call.cancelled' }) }]);
      expect((await states).at(-1)).toMatchObject({ kind: 'answer', answer: [] });
      // A cancel for a read already answered, or never sent, changes nothing.
      owner.worker.postMessage({ cancel: 1 });
      owner.worker.postMessage({ cancel: 99 });
      expect((await owner.send('browse', [read])).at(-1)).toMatchObject({ kind: 'answer' });
    } finally {
      await owner.worker.terminate();
    }
  });
});
