// The mirror's writer as a sync uses it: pages sent ahead of the one being stored are refused
// once a page fails, so no later page's token is stored past a page that was not; the writer
// thread answers the same as the in-thread one; and pages the reader thread hands the writer
// directly are stored in the order main names them, whichever arrives first.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { inThreadWriter, workerWriter, type MirrorWriter } from '../../../electron/mirror/mirror-writer.ts';
import { packCatalogChanges } from '../../../electron/mirror/title-row.ts';
import type { CatalogRecord } from '../../../electron/shared/model.ts';
import { tempDir } from './helpers.ts';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (id: number): CatalogRecord => ({
  id, title: `Title ${id}`, format: 'EBOOK', artists: [], genres: [], countries: ['US'], purchaseModels: ['INSTANT'], ratings: [], ppuPrices: [], segments: [], episodes: [],
});
const page = (from: number) => packCatalogChanges(Array.from({ length: 5 }, (_, i) => ({ kind: 'upsert' as const, record: record(from + i) })));

async function sendAhead(writer: MirrorWriter): Promise<{ outcomes: string[]; token: string | undefined; items: number }> {
  await writer.beginRun('global', undefined, 1_000, false);
  const run = (await writer.state('global')).runStartedAt as number;
  // Three pages sent at once; the second one breaks (an id no content can have: a comma would split a content-info query).
  const bad = packCatalogChanges([{ kind: 'upsert', record: { ...record(1), id: 'x,y' } }]);
  // As the sync sends them: each call made in turn, none waiting for the one before.
  const sent = [
    () => writer.applyGlobalPage('global', run, page(1), 't1'),
    () => writer.applyGlobalPage('global', run, bad, 't2'),
    () => writer.applyGlobalPage('global', run, page(11), 't3'),
  ].map((send) => Promise.resolve().then(send).then(() => 'stored', () => 'refused'));
  const outcomes = await Promise.all(sent);
  const state = await writer.state('global');
  return { outcomes, token: state.nextToken, items: state.items };
}

describe('the mirror writer', () => {
  for (const kind of ['in-thread', 'worker'] as const) {
    it(`${kind}: refuses the pages sent after one it could not store, so the run resumes from that one`, async () => {
      const writer = kind === 'worker' ? workerWriter(join(dir, `${kind}.db`)) : inThreadWriter(join(dir, `${kind}.db`));
      try {
        const { outcomes, token, items } = await sendAhead(writer);
        expect(outcomes).toEqual(['stored', 'refused', 'refused']);
        expect(token).toBe('t1'); // the resume point is the page that failed
        expect(items).toBe(5);
        // The sync's next call (it records the failure) lets pages through again.
        await writer.failRun('global', 'a page could not be stored', 2_000);
        const run = (await writer.state('global')).runStartedAt as number;
        await writer.applyGlobalPage('global', run, page(21), 't4');
        expect((await writer.state('global')).nextToken).toBe('t4');
      } finally {
        await writer.close();
      }
    });
  }

  /** A worker writer with a reader's channel (`reader`: this test's end), in a global run under way. */
  async function withHandedPages(name: string, use: (writer: MirrorWriter, reader: MessagePort, run: number) => Promise<void>): Promise<void> {
    const { port1: reader, port2 } = new MessageChannel();
    const writer = workerWriter(join(dir, `${name}.db`), undefined, port2);
    try {
      await writer.beginRun('global', undefined, 1_000, false);
      await use(writer, reader, (await writer.state('global')).runStartedAt as number);
    } finally {
      await writer.close();
      reader.close();
    }
  }

  it('worker: stores handed-over pages in the order main names them, waiting for titles that come after their name or out of order', () =>
    withHandedPages('handed', async (writer, reader, run) => {
      reader.postMessage({ page: 1, items: page(1) }); // a page of a sync that stopped: never named
      const stored = [writer.applyGlobalPage('global', run, { handedOver: 2 }, 't2'), writer.applyGlobalPage('global', run, { handedOver: 3 }, 't3')];
      // Named, not yet arrived: the calls after them wait too.
      expect(await Promise.race([writer.state('global'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 200))])).toBe('waiting');
      reader.postMessage({ page: 3, items: page(31) });
      reader.postMessage({ page: 2, items: page(21) });
      await Promise.all(stored);
      const state = await writer.state('global');
      expect(state.nextToken).toBe('t3');
      expect(state.items).toBe(10);
    }));

  it('worker: stores a page read again after the page ahead of it (a garbled answer retried while the next page, asked for on a guess, was read)', () =>
    withHandedPages('reread', async (writer, reader, run) => {
      // Read in this order: the page ahead (5), then the page before it once more (6); named in the pull's order.
      reader.postMessage({ page: 5, items: page(51) });
      reader.postMessage({ page: 6, items: page(41) });
      await Promise.all([writer.applyGlobalPage('global', run, { handedOver: 6 }, 't4'), writer.applyGlobalPage('global', run, { handedOver: 5 }, 't5')]);
      const state = await writer.state('global');
      expect(state.nextToken).toBe('t5');
      expect(state.items).toBe(10);
    }));

  it('in-thread: refuses a handed-over page, as there is no reader thread to hand it', async () => {
    const writer = inThreadWriter(join(dir, 'in-thread-handed.db'));
    try {
      await writer.beginRun('global', undefined, 1_000, false);
      const run = (await writer.state('global')).runStartedAt as number;
      expect(() => writer.applyGlobalPage('global', run, { handedOver: 1 }, 't1')).toThrow(/no reader thread/);
    } finally {
      await writer.close();
    }
  });
});
