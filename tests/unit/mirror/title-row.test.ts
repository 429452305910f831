// A global catalog record as the mirror's owner files it: the row is the one its normalised
// record makes (columns and search words), and the record is kept as sent and normalised when read.
import { describe, expect, it } from 'vitest';
import { recordOf, titleRow, wireTitleChanges } from '../../../electron/mirror/title-row.ts';
import { parseCatalogRecord, readGlobalContentPage } from '../../../electron/partner/normalize.ts';

describe('title rows', () => {
  it('a record as the service sent it: the row its normalised record makes, the record kept as sent and normalised when read', () => {
    const sent = [
      { id: 11, title: "L'Étranger", seriesName: 'Folio', format: 'Ebooks', releaseYear: '1942', isbn: '978-2-07-036002-4', isForChildren: false,
        coverImageUrl: 'https://covers.example/11.jpg', countryCodes: ['us', 'CA'], artists: [{ name: 'Albert Camus', relationship: 'AUTHOR' }], synopsis: 'Aujourd\'hui, maman est morte.' },
      { id: 12, title: 'Tab\u0000and\u0001', kind: 'MOVIE', year: 1999, children: true, upc: '0123', products: [{ licenseType: 'PPU' }] },
      { id: 13 },
    ];
    const text = JSON.stringify({ metadata: {}, contents: [...sent, { id: 14, removed: true }] });
    const changes = wireTitleChanges(readGlobalContentPage(JSON.parse(text), text).items);
    expect(changes.map((c) => c.kind)).toEqual(['upsert', 'upsert', 'upsert', 'removed']);
    for (const [i, record] of sent.entries()) {
      const change = changes[i]!;
      if (change.kind !== 'upsert') throw new Error('an upsert was expected');
      const normalised = parseCatalogRecord(record, record.id);
      const { record: json, wire, ...columns } = change.row;
      const { record: _json, wire: _wire, ...expected } = titleRow(normalised);
      expect(columns).toEqual(expected);
      expect(wire).toBe(1);
      expect(JSON.parse(json)).toEqual(record);
      expect(recordOf(json, wire, record.id)).toEqual(normalised);
    }
    // A normalised record (library content's, or one stored before schema 4) is read as it is.
    const stored = titleRow(parseCatalogRecord(sent[0]!, 11));
    expect(stored.wire).toBe(0);
    expect(recordOf(stored.record, stored.wire, 11)).toEqual(JSON.parse(stored.record));
  });
});
