// Searching the Collection for what staff actually type: accents or none, straight or curly
// apostrophes, an ISBN with or without hyphens, one letter, other scripts — each finds the
// title staff expect, by the walk and by the full-text index alike. And what an attacker types:
// nothing of it reaches SQLite as FTS5 syntax, and no string makes a search fail.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MirrorDatabase } from '../../../electron/mirror-owner/mirror-database.ts';
import { browse } from '../../../electron/mirror-owner/queries.ts';
import { ftsMatch, queryWords, searchWords } from '../../../electron/mirror-owner/search-text.ts';
import { CollectionCache } from '../../../electron/mirror-owner/collection-cache.ts';
import type { SearchTuning } from '../../../electron/mirror-owner/collection-search.ts';
import { Rng } from '../../../electron/main/sandbox/random.ts';
import type { CatalogRecord } from '../../../electron/shared/model.ts';
import { integrityOf, openFile, tempDir } from './helpers.ts';

const LIBRARY = 7;
const TITLES: Partial<CatalogRecord>[] = [
  { title: 'Les Misérables', artist: 'Victor Hugo' },
  { title: "L'Été indien", artist: 'Zoé Lévesque' },
  { title: "Farah's Garden", artist: 'Amelia Stone' },
  { title: 'The Long Walk', artist: "Liam O'Brien" },
  { title: 'Straße der Ölbäume', artist: 'Jürgen Weiß' },
  { title: 'Encyclopædia of Œuvres', artist: 'Anne Marie' },
  { title: 'Hyphenated Book', isbn: '978-1-4028-9462-6', artist: 'Jean-Luc Picard' },
  { title: 'Plain Book', isbn: '9780306406157' },
  { title: 'Zebra Crossing' },
  { title: 'Война и мир', artist: 'Лев Толстой' },
  { title: 'Ἰλιάς', artist: 'Ὅμηρος' },
  { title: '東京物語' },
  { title: 'AND OR NOT NEAR', series: 'Column: title' },
  { title: 'J.R.R. Tolkien Reader' },
];

const record = (id: number, fields: Partial<CatalogRecord>): CatalogRecord => ({
  id, artists: [], genres: [], countries: ['US'], purchaseModels: ['INSTANT'], ratings: [], ppuPrices: [], segments: [], episodes: [], format: 'EBOOK', ...fields,
});

let dir: string;
let mirror: MirrorDatabase;
const TUNINGS: Record<string, SearchTuning> = {
  'the walk': { walkFirst: Infinity, longWord: Infinity, indexedWord: Infinity, fewMatches: 0, manyForAWalk: Infinity },
  'the full-text index': { walkFirst: 0, longWord: 0, indexedWord: 0, fewMatches: Infinity, manyForAWalk: Infinity },
};
let collections: Record<string, CollectionCache>;

beforeAll(() => {
  dir = tempDir();
  mirror = new MirrorDatabase(join(dir, 'mirror.db'));
  mirror.runs.beginRun('global', undefined, 1);
  // Page by page, not in bulk: the index is kept as a delta keeps it.
  mirror.pages.applyGlobalPage('global', 1, TITLES.map((fields, i) => ({ kind: 'upsert' as const, record: record(i + 1, fields) })), undefined);
  mirror.runs.finishRun('global', () => ({ titles: 0, entitlements: 0 }));
  mirror.runs.beginRun('entitlements', undefined, 1);
  mirror.pages.applyEntitlementPage('entitlements', 1, LIBRARY, 'INSTANT', TITLES.map((_, i) => ({ contentId: i + 1, active: true, removed: false })), undefined);
  mirror.runs.finishRun('entitlements', () => ({ titles: 0, entitlements: 0 }));
  collections = Object.fromEntries(Object.entries(TUNINGS).map(([name, tuning]) => [name, new CollectionCache(mirror, Date.now, tuning)]));
});

afterAll(() => {
  mirror.close();
  rmSync(dir, { recursive: true, force: true });
});

function titlesFound(text: string): Record<string, string[]> {
  return Object.fromEntries(Object.entries(collections).map(([name, cache]) => [
    name, browse(mirror, cache, { libraryId: LIBRARY, text, offset: 0, limit: 100, exactCount: true }).rows.map((r) => r.title ?? ''),
  ]));
}

function expectFound(text: string, title: string): void {
  for (const [way, titles] of Object.entries(titlesFound(text))) expect(titles, `"${text}" by ${way}`).toContain(title);
}

function expectNotFound(text: string, title: string): void {
  for (const [way, titles] of Object.entries(titlesFound(text))) expect(titles, `"${text}" by ${way}`).not.toContain(title);
}

describe('searching for what staff type', () => {
  it('accents: typed with, without, or in capitals', () => {
    for (const text of ['miserables', 'misérables', 'MISÉRABLES', 'les mis', 'Mise']) expectFound(text, 'Les Misérables');
    for (const text of ['lévesque', 'levesque', 'zoe']) expectFound(text, "L'Été indien");
    for (const text of ['strasse', 'straße', 'olbaume', 'Ölbäume', 'weiss']) expectFound(text, 'Straße der Ölbäume');
    for (const text of ['encyclopaedia', 'encyclopædia', 'oeuvres', 'œuvres']) expectFound(text, 'Encyclopædia of Œuvres');
  });

  it("apostrophes: straight or curly, typed or left out, and the word after one alone", () => {
    for (const text of ['ete', 'été', "l'été", 'l’été', 'lete', 'L’ÉTÉ INDIEN']) expectFound(text, "L'Été indien");
    for (const text of ['farah', "farah's", 'farah’s', 'farahs', "farah's gar"]) expectFound(text, "Farah's Garden");
    for (const text of ['obrien', "o'brien", 'O’Brien', 'brien']) expectFound(text, 'The Long Walk');
  });

  it('an ISBN with or without its hyphens, whole or as its beginning; hyphenated names either way', () => {
    for (const text of ['978-1-4028-9462-6', '9781402894626', '978-1-4028', '97814028', '978140']) expectFound(text, 'Hyphenated Book');
    for (const text of ['9780306406157', '978-0-306-40615-7', '978-0-30']) expectFound(text, 'Plain Book');
    for (const text of ['jean-luc', 'jeanluc', 'jean luc', 'luc picard']) expectFound(text, 'Hyphenated Book');
    for (const text of ['j.r.r.', 'jrr', 'tolkien']) expectFound(text, 'J.R.R. Tolkien Reader');
  });

  it('a single letter finds the titles with a word beginning with it, and only those', () => {
    const byLetter = titlesFound('z');
    for (const titles of Object.values(byLetter)) {
      expect(titles).toContain('Zebra Crossing');
      expect(titles).toContain("L'Été indien"); // Zoé Lévesque
      expect(titles).not.toContain('Les Misérables');
    }
  });

  it('other scripts, accents in them included', () => {
    for (const text of ['война', 'вой', 'мир', 'толстой', 'ВОЙНА И МИР']) expectFound(text, 'Война и мир');
    for (const text of ['ιλιας', 'Ἰλιάς', 'ιλ', 'ομηρος']) expectFound(text, 'Ἰλιάς');
    for (const text of ['東京', '東京物語']) expectFound(text, '東京物語');
  });

  it('a word must begin one of the title\'s words: the same first letters are not enough', () => {
    for (const text of ['gardez', 'farahx', 'miserablez', 'войнб', 'ιλιαδ', '東京駅', '97814029']) {
      expectNotFound(text, { gardez: "Farah's Garden", farahx: "Farah's Garden", miserablez: 'Les Misérables', войнб: 'Война и мир', ιλιαδ: 'Ἰλιάς', 東京駅: '東京物語', 97814029: 'Hyphenated Book' }[text] as string);
    }
    expectNotFound('arden', "Farah's Garden"); // inside a word, not at its start
  });

  it('words that are FTS5 operators are searched as words', () => {
    for (const text of ['and', 'or not', 'NEAR', 'column title', 'title:']) expectFound(text, 'AND OR NOT NEAR');
  });
});

describe('what an attacker types', () => {
  const HOSTILE = ['"', '""', '*', 'a*', '"a" OR "b"', 'a OR b', 'NOT a', '-a', '^a', 'title:a', 'words:gar', '(', ')', '{a b}', 'NEAR(a b, 2)',
    "'; DROP TABLE titles; --", 'a" OR 1=1 --', '\u0000', '\u202Egar', 'ga\u200Br', '%', '_', '\\', 'x'.repeat(5000), '🙂', '\uD800'];

  it('never reaches SQLite as syntax: every match query is quoted words of letters and digits', () => {
    const random = new Rng(15);
    const alphabet = [...'"*^:(){}[]-+,.\'`~!@#$%&=|\\/?<>;_ \t\n', 'AND', 'OR', 'NOT', 'NEAR', 'é', 'ß', 'ж', '東', '🙂', '\u0301', '\uD800', 'a', 'Z', '9'];
    const generated = Array.from({ length: 3000 }, () => Array.from({ length: random.int(1, 24) }, () => random.pick(alphabet)).join(''));
    for (const text of [...HOSTILE, ...generated]) {
      const words = queryWords(text);
      if (words.length === 0) continue;
      expect(ftsMatch(words), JSON.stringify(text)).toMatch(/^"[\p{L}\p{N}]+"\*( AND "[\p{L}\p{N}]+"\*)*$/u);
    }
  });

  it('no string makes a search fail, by either way; the mirror is intact afterwards', () => {
    for (const cache of Object.values(collections)) {
      for (const text of HOSTILE) {
        expect(() => browse(mirror, cache, { libraryId: LIBRARY, text, offset: 0, limit: 100, exactCount: true }), JSON.stringify(text)).not.toThrow();
      }
    }
    const file = openFile(join(dir, 'mirror.db'));
    expect(integrityOf(file)).toBe('ok');
    expect((file.prepare('SELECT count(*) AS n FROM titles').get() as { n: number }).n).toBe(TITLES.length);
    file.close();
  });

  it('syntax characters are spaces to search: the same titles as the words alone', () => {
    expect(titlesFound('"farah" OR (garden*)')).toEqual(titlesFound('farah or garden'));
    expect(titlesFound('title:les^mis')).toEqual(titlesFound('title les mis'));
  });
});

describe('the stored words', () => {
  it('hold each word once: parts of a compound and the compound joined', () => {
    expect(searchWords(["L'Été indien", 'Zoé Lévesque'])).toBe('l ete lete indien zoe levesque');
    expect(searchWords(['978-1-4028-9462-6', undefined, null, ''])).toBe('978 1 4028 9462 6 9781402894626');
    expect(queryWords("  L’Été   indien!! ")).toEqual(['lete', 'indien']);
  });
});
