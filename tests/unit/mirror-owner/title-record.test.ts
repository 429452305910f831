// A title's record as the mirror keeps it (title-record.ts): every record the service sends,
// normalised by the client, reads back exactly as it was — the catalog's and a library's
// content over HTTP, and records with every awkward value a field can hold — with the mirror's
// vocabulary or without room in it; the Collection's row reads the cover alone.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MirrorDatabase } from '../../../electron/mirror-owner/mirror-database.ts';
import { coverOf, decodeRecord, encodeRecord, type Vocabulary } from '../../../electron/mirror-owner/title-record.ts';
import { titleRow } from '../../../electron/mirror-owner/title-row.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import type { CatalogRecord } from '../../../electron/shared/model.ts';
import { clientOf, tempDir } from './helpers.ts';

let sandbox: SandboxHandle;
beforeAll(async () => { sandbox = await startSandbox({ catalogSize: 2000 }); });
afterAll(async () => { await sandbox.close(); });

function vocabulary(room = Infinity): Vocabulary & { size(): number } {
  const ids = new Map<string, number>();
  const texts = [''];
  return {
    idOf: (text) => ids.get(text) ?? (texts.length > room ? 0 : (ids.set(text, texts.length), texts.push(text) - 1)),
    textOf: (id) => texts[id] as string,
    size: () => texts.length - 1,
  };
}

/** What the desk gets across IPC: the record as JSON (undefined fields gone). */
const asSent = (record: CatalogRecord): unknown => JSON.parse(JSON.stringify(record));
const again = (record: CatalogRecord, words: Vocabulary = vocabulary()): CatalogRecord => decodeRecord(encodeRecord(record, words), record.id, words);

const base = (id: number): CatalogRecord => ({
  id, artists: [], genres: [], countries: [], purchaseModels: [], ratings: [], ppuPrices: [], segments: [], episodes: [],
});

describe('a record as the mirror keeps it', () => {
  it('reads back exactly the client\'s normalised record, for every record of the global catalog and of each library\'s content', async () => {
    const words = vocabulary();
    const client = clientOf(sandbox);
    let records = 0;
    for await (const page of client.globalContentPages({ limit: 500 })) {
      for (const change of page.items) {
        if (change.kind !== 'upsert') continue;
        expect(asSent(again(change.record, words)), `title ${change.record.id}`).toEqual(asSent(change.record));
        records++;
      }
    }
    for (const { libraryId } of sandbox.libraries) {
      for await (const page of client.libraryContentPages(libraryId, { limit: 500 })) {
        for (const change of page.items) {
          if (change.kind !== 'upsert') continue;
          const { active: _a, purchaseModel: _m, price: _p, ...record } = change.title;
          expect(asSent(again(record, words)), `library ${libraryId} title ${record.id}`).toEqual(asSent(record));
          records++;
        }
      }
    }
    expect(records).toBeGreaterThan(4000);
    expect(words.size()).toBeGreaterThan(10); // publishers, genres, languages, roles, address prefixes…
    expect(words.size()).toBeLessThan(records / 5);
  });

  it('keeps every awkward value: other scripts, long texts, odd numbers, no versus false, an artist of its own, a full vocabulary', () => {
    const long = 'Ünïcødé 📚 '.repeat(3000); // past every short-length form, with surrogate pairs
    const record: CatalogRecord = {
      ...base(42), titleId: 7, format: 'TELEVISION', title: 'L’Été — 東京物語 🎬', subtitle: '', series: 'x'.repeat(200), seriesNumber: -3,
      season: 0, episode: 2 ** 52, year: -44, pages: 1e21, duration: '1:02:03', synopsis: long, isbn: '978-2-07-036002-X',
      language: 'FRENCH', subtitleLanguage: 'Ελληνικά', artist: 'Someone Else', publisher: 'Éditions du Fleuve', audience: 'Mature',
      lexile: '650L', atosBookLevel: '8.9', interestLevel: 'UG (9-12)', forChildren: false, fiction: true, edited: false,
      url: 'no-slash-at-all', coverImageUrl: 'https://covers.example/a/b/c.jpg?size=%20big',
      artists: [{ name: 'Ana Lima', role: 'AUTHOR', formalName: 'Lima, Ana' }, { name: 'Bo' }, { name: 'Cy', formalName: 'Cy' }],
      genres: ['Fiction', 'Fiction', 'Mystery'], countries: ['NZ', 'US'], purchaseModels: ['FLEX', 'INSTANT'],
      ratings: [{ country: 'US', value: 'TV-MA' }], ppuPrices: [{ country: 'CA', price: 3.84 }, { country: 'US', price: 0.1 + 0.2 }],
      segments: [{ number: 1, name: 'Overture', seconds: 183 }, { name: 'Untimed' }, {}],
      episodes: [{ titleId: 100, season: 1, episode: 1, title: 'Pilot', synopsis: 'It begins.' }, { episode: 2 }],
    };
    expect(asSent(again(record))).toEqual(asSent(record));
    expect(asSent(again(record, vocabulary(0)))).toEqual(asSent(record)); // no room: every repeating string written out
    const plain = base(1);
    expect(again(plain)).toEqual(plain);
    expect(again({ ...base(2), artists: [{ name: 'Same' }], artist: 'Same' })).toEqual({ ...base(2), artists: [{ name: 'Same' }], artist: 'Same' });
    expect(again({ ...base(3), forChildren: true })).toEqual({ ...base(3), forChildren: true });
  });

  it('gives a row its cover without reading the rest, and files a title by what the Collection sorts and searches', () => {
    const words = vocabulary();
    const record: CatalogRecord = { ...base(9), title: "L'Étranger", series: 'Folio', isbn: '978-2-07-036002-4', artists: [{ name: 'Albert Camus' }], coverImageUrl: 'https://covers.example/9.jpg', year: 1942 };
    const row = titleRow(record, words);
    expect(coverOf(row.record, words)).toBe('https://covers.example/9.jpg');
    expect(coverOf(titleRow(base(10), words).record, words)).toBeUndefined();
    expect(row).toMatchObject({ id: 9, title: "L'Étranger", artist: 'Albert Camus', year: 1942, kids: 0 });
    expect(row.words.split(' ')).toEqual(expect.arrayContaining(['l', 'etranger', 'letranger', 'folio', 'albert', 'camus', '9782070360024']));
  });

  it('refuses bytes that end too soon, rather than reading a record that is not there', () => {
    const words = vocabulary();
    const bytes = encodeRecord({ ...base(5), title: 'Complete', synopsis: 'A long enough text to cut.' }, words);
    expect(() => decodeRecord(bytes.subarray(0, bytes.length - 5), 5, words)).toThrow(/ends too soon/);
  });

  it('forgets a word added by a write that rolled back, so a record naming it later still reads back once the file is opened again', () => {
    const dir = tempDir();
    try {
      const path = join(dir, 'mirror.db');
      const first = new MirrorDatabase(path);
      // A page whose write fails after its records were encoded (a disk that filled up under the transaction).
      expect(() => first.file.transaction(() => {
        encodeRecord({ ...base(1), publisher: 'Éditions Nouvelles' }, first.file.vocabulary);
        throw new Error('disk I/O error');
      })).toThrow(/disk/);
      first.runs.beginRun('global', undefined, 1);
      first.pages.applyGlobalPage('global', 1, [{ kind: 'upsert', record: { ...base(2), title: 'Later', publisher: 'Éditions Nouvelles' } }], undefined);
      first.close();
      const again = new MirrorDatabase(path);
      expect(again.records.record(2)).toMatchObject({ id: 2, title: 'Later', publisher: 'Éditions Nouvelles' });
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
