// A first fill from the library mirror builds the Collection's title and artist orders once at
// its end (collection-tables.ts, deferCollectionOrders). Cut short, it leaves them to the next
// fill's end, and meanwhile the Collection reads the same rows in the same order without them.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContentIdsInOrder } from '../../../electron/mirror-owner/collection-reader.ts';
import { LIBRARY_FILL_SOURCE } from '../../../electron/node/mirror-interface.ts';
import { MirrorDatabase } from '../../../electron/mirror-owner/mirror-database.ts';
import { COLLECTION_ORDER_INDEXES } from '../../../electron/mirror-owner/schema.ts';
import { Rng } from '../../../electron/main/sandbox/random.ts';
import type { CatalogRecord } from '../../../electron/shared/model.ts';
import { tempDir } from './helpers.ts';

const LIBRARY = 7;
const TITLES = 300;
const WORDS = ['Zebra', 'apple', 'Éclair', 'mango', 'Apple', 'quince', 'Banana', 'zebra'];

/** Titles and artists that repeat and differ only in case, so the orders' tiebreak counts. */
function record(id: number, rng: Rng): CatalogRecord {
  const name = (): string => `${WORDS[rng.int(0, WORDS.length - 1)]} ${rng.int(0, 5)}`;
  const artist = name();
  return {
    id, title: name(), artist, artists: [{ name: artist }], genres: [], countries: ['US'], purchaseModels: ['INSTANT'],
    ratings: [], ppuPrices: [], segments: [], episodes: [], format: 'EBOOK',
  };
}

const indexNames = COLLECTION_ORDER_INDEXES.map((index) => index.split(' ')[0] as string);
const indexesOf = (mirror: MirrorDatabase): string[] =>
  (mirror.file.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'entitlements_by_%' ORDER BY name").all() as { name: string }[])
    .map((r) => r.name).filter((name) => indexNames.includes(name));
const orders = (mirror: MirrorDatabase): Float64Array[] =>
  (['title', 'artist'] as const).flatMap((sort) => (['asc', 'desc'] as const).map((direction) => readContentIdsInOrder(mirror.file, LIBRARY, sort, direction)));

/** Titles, then every other one entitled, written as a fill's batches write them (in one transaction each). */
function write(mirror: MirrorDatabase, records: CatalogRecord[]): void {
  mirror.file.transaction(() => {
    mirror.pages.applyGlobalPage(LIBRARY_FILL_SOURCE, 1, records.map((r) => ({ kind: 'upsert' as const, record: r })), undefined);
    mirror.pages.applyEntitlementPage(LIBRARY_FILL_SOURCE, 1, LIBRARY, 'INSTANT',
      records.filter((r) => (r.id as number) % 2 === 0).map((r) => ({ contentId: r.id, active: true, removed: false })), undefined);
  }, true);
}

describe("a first fill's Collection orders", () => {
  let dir: string;
  const rng = new Rng(25);
  const records = Array.from({ length: TITLES }, (_, i) => record(i + 1, rng));
  let expected: Float64Array[];

  beforeAll(() => {
    dir = tempDir();
    // The reference: the same rows written with both orders kept entry by entry.
    const kept = new MirrorDatabase(join(dir, 'kept.db'));
    kept.runs.beginRun(LIBRARY_FILL_SOURCE, 1, 1);
    write(kept, records);
    expect(indexesOf(kept)).toEqual(indexNames.toSorted());
    expected = orders(kept);
    kept.close();
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('cut short, shows the same orders without them, and the next fill\'s end builds them', () => {
    const path = join(dir, 'first.db');
    let mirror = new MirrorDatabase(path);
    mirror.file.transaction(() => {
      mirror.runs.beginRun(LIBRARY_FILL_SOURCE, undefined, 1);
      mirror.collection.beginBulk();
      mirror.collection.deferCollectionOrders();
    });
    write(mirror, records.slice(0, TITLES / 2));
    expect(indexesOf(mirror)).toEqual([]);
    mirror.close(); // the desk stopped mid-fill

    mirror = new MirrorDatabase(path);
    expect(mirror.collection.inBulk()).toBe(true);
    write(mirror, records.slice(TITLES / 2));
    expect(orders(mirror)).toEqual(expected); // SQLite sorts: the same rows, the same order
    mirror.runs.finishRun(LIBRARY_FILL_SOURCE, () => ({ titles: 0, entitlements: 0 }));
    expect(mirror.collection.finishBulk()).toBe(true);
    expect(indexesOf(mirror)).toEqual(indexNames.toSorted());
    expect(orders(mirror)).toEqual(expected);
    mirror.close();
  });

  it('are dropped only by a bulk run', () => {
    const mirror = new MirrorDatabase(join(dir, 'delta.db'));
    mirror.runs.beginRun(LIBRARY_FILL_SOURCE, 1, 1);
    expect(() => mirror.collection.deferCollectionOrders()).toThrow();
    expect(indexesOf(mirror)).toEqual(indexNames.toSorted());
    mirror.close();
  });
});
