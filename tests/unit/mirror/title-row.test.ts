// A page of titles crosses to the writer thread packed in one string: what the writer unpacks
// is the row titleRow makes of the same record, nulls, numbers and awkward text included.
import { describe, expect, it } from 'vitest';
import { packCatalogChanges, titleRow, unpackTitleChanges, type PackedTitles } from '../../../electron/mirror/title-row.ts';
import type { CatalogChange, CatalogRecord } from '../../../electron/shared/model.ts';

const base = (id: number): CatalogRecord => ({
  id, format: 'EBOOK', artists: [], genres: [], countries: [], purchaseModels: ['INSTANT'], ratings: [], ppuPrices: [], segments: [], episodes: [],
});

describe('packed titles', () => {
  it('unpack to the rows titleRow makes, removals kept in order', () => {
    const records: CatalogRecord[] = [
      { ...base(1), title: "L'Étranger", series: 'Folio', artist: 'Albert Camus', year: 1942, isbn: '978-2-07-036002-4', forChildren: false, countries: ['CA', 'US'], coverImageUrl: 'https://covers.example/1.jpg' },
      { ...base(2), title: 'Ünïcödé "quoted" \\ back\nslash', artists: [{ name: 'Only In Artists' }], year: 0, upc: '0123', forChildren: true },
      base(3), // every optional field absent
      { ...base(4), title: '' }, // an empty title is not a missing one
    ];
    const changes: CatalogChange[] = [
      { kind: 'upsert', record: records[0]! }, { kind: 'removed', id: 9 }, { kind: 'upsert', record: records[1]! },
      { kind: 'upsert', record: records[2]! }, { kind: 'upsert', record: records[3]! }, { kind: 'removed', id: 10 },
    ];
    expect(unpackTitleChanges(packCatalogChanges(changes))).toEqual([
      { kind: 'upsert', row: titleRow(records[0]!) }, { kind: 'removed', id: 9 }, { kind: 'upsert', row: titleRow(records[1]!) },
      { kind: 'upsert', row: titleRow(records[2]!) }, { kind: 'upsert', row: titleRow(records[3]!) }, { kind: 'removed', id: 10 },
    ]);
    expect(unpackTitleChanges(packCatalogChanges([]))).toEqual([]);
  });

  it('drops the separators from text, so a title carrying them cannot shift the fields after it', () => {
    const [change] = unpackTitleChanges(packCatalogChanges([{ kind: 'upsert', record: { ...base(5), title: 'A\u0000B\u0001C', artist: 'D' } }]));
    expect(change).toMatchObject({ kind: 'upsert', row: { id: 5, title: 'ABC', artist: 'D', format: 'EBOOK' } });
  });

  it('refuses an id that is not a whole number, and a torn page', () => {
    expect(() => unpackTitleChanges(packCatalogChanges([{ kind: 'upsert', record: base('x' as unknown as number) }]))).toThrow(/whole number/);
    const packed = packCatalogChanges([{ kind: 'upsert', record: base(6) }]);
    expect(() => unpackTitleChanges(packed.slice(0, packed.lastIndexOf('\u0000')) as PackedTitles)).toThrow(/torn/);
  });
});
