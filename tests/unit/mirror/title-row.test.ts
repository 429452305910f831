// A page of titles crosses to the writer thread packed in one string: what the writer unpacks
// is the row titleRow makes of the same record, nulls, numbers and awkward text included.
import { describe, expect, it } from 'vitest';
import { packCatalogChanges, packWireChanges, recordOf, titleRow, unpackTitleChanges, type PackedTitles } from '../../../electron/mirror/title-row.ts';
import { parseCatalogRecord, readGlobalContentPage } from '../../../electron/partner/normalize.ts';
import type { CatalogChange, CatalogRecord, ContentId } from '../../../electron/shared/model.ts';

const base = (id: ContentId): CatalogRecord => ({
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

  it('a record as the service sent it: the row its normalised record makes, the record kept as sent and normalised when read', () => {
    const sent = [
      { id: 11, title: "L'Étranger", seriesName: 'Folio', format: 'Ebooks', releaseYear: '1942', isbn: '978-2-07-036002-4', isForChildren: false,
        coverImageUrl: 'https://covers.example/11.jpg', countryCodes: ['us', 'CA'], artists: [{ name: 'Albert Camus', relationship: 'AUTHOR' }], synopsis: 'Aujourd\'hui, maman est morte.' },
      { id: 12, title: 'Tab\u0000and\u0001', kind: 'MOVIE', year: 1999, children: true, upc: '0123', products: [{ licenseType: 'PPU' }] },
      { id: 13 },
    ];
    const page = readGlobalContentPage({ metadata: {}, contents: [...sent, { id: 14, removed: true }] });
    const changes = unpackTitleChanges(packWireChanges(page.items));
    expect(changes.map((c) => c.kind)).toEqual(['upsert', 'upsert', 'upsert', 'removed']);
    for (const [i, record] of sent.entries()) {
      const change = changes[i]!;
      if (change.kind !== 'upsert') throw new Error('an upsert was expected');
      const normalised = parseCatalogRecord(record, record.id);
      const { record: json, wire, ...columns } = change.row;
      const { record: _json, wire: _wire, ...expected } = titleRow(normalised);
      // The separators are dropped from the packed title (the next test), so its words are those of what is left.
      const title = expected.title?.replace(/[\u0000\u0001]/g, '') ?? null;
      expect(columns).toEqual({ ...expected, title, words: title === expected.title ? expected.words : change.row.words });
      expect(wire).toBe(1);
      expect(JSON.parse(json)).toEqual(record);
      expect(recordOf(json, wire, record.id)).toEqual(normalised);
    }
    // A normalised record (library content's, or one stored before schema 4) is read as it is.
    const stored = titleRow(parseCatalogRecord(sent[0]!, 11));
    expect(stored.wire).toBe(0);
    expect(recordOf(stored.record, stored.wire, 11)).toEqual(JSON.parse(stored.record));
  });

  it('drops the separators from text, so a title carrying them cannot shift the fields after it', () => {
    const [change] = unpackTitleChanges(packCatalogChanges([{ kind: 'upsert', record: { ...base(5), title: 'A\u0000B\u0001C', artist: 'D' } }]));
    expect(change).toMatchObject({ kind: 'upsert', row: { id: 5, title: 'ABC', artist: 'D', format: 'EBOOK' } });
  });

  it('keeps a string content id as it is, refuses an id no content can have, and a torn page', () => {
    const [episode] = unpackTitleChanges(packCatalogChanges([{ kind: 'upsert', record: base('ep/7/2') }]));
    expect(episode).toMatchObject({ kind: 'upsert', row: { id: 'ep/7/2' } });
    const [numbered] = unpackTitleChanges(packCatalogChanges([{ kind: 'removed', id: 12 }]));
    expect(numbered).toEqual({ kind: 'removed', id: 12 });
    expect(() => unpackTitleChanges(packCatalogChanges([{ kind: 'upsert', record: base('x,y') }]))).toThrow(/content id/);
    const packed = packCatalogChanges([{ kind: 'upsert', record: base(6) }]);
    expect(() => unpackTitleChanges(packed.slice(0, packed.lastIndexOf('\u0000')) as PackedTitles)).toThrow(/torn/);
  });
});
