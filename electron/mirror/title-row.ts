// A title as the mirror stores it: its columns, its search words and its record as JSON, all
// plain values, made by the mirror's owner from the page it reads (page-reading.ts).
//
// A global catalog record is stored as the service sent it (`wire`), and normalised when a
// title is shown (recordOf): the bulk pull reads only the columns of each record, which on a
// million titles took the page reader 4-5 s less than normalising and re-serialising every
// record. A record stored normalised (library content's, whose episodes are merged; any
// record a mirror before schema 4 stored) is read as it is.
import { catalogColumns, parseCatalogRecord, type Json, type WireCatalogChange } from '../partner/normalize.ts';
import type { CatalogRecord } from '../shared/model.ts';
import { searchWords } from './search-text.ts';

export interface TitleRow {
  id: number;
  title: string | null;
  series: string | null;
  artist: string | null;
  format: string | null;
  year: number | null;
  isbn: string | null;
  upc: string | null;
  kids: 0 | 1;
  cover: string | null;
  countries: string;
  words: string;
  /** The whole record, for the title's detail: as the service sent it (`wire` 1) or normalised (0). */
  record: string;
  wire: 0 | 1;
}

/** A title's row before its search words. */
type FiledTitle = Omit<TitleRow, 'words'>;

export type TitleChange = { kind: 'upsert'; row: TitleRow } | { kind: 'removed'; id: number };

/** The columns of a record normalised by the client. */
function filedRecord(record: CatalogRecord): FiledTitle {
  return {
    id: record.id, title: record.title ?? null, series: record.series ?? null, artist: record.artist ?? record.artists[0]?.name ?? null,
    format: record.format ?? null, year: record.year ?? null, isbn: record.isbn ?? null, upc: record.upc ?? null, kids: record.forChildren ? 1 : 0,
    cover: record.coverImageUrl ?? null, countries: record.countries.join(','), record: JSON.stringify(record), wire: 0,
  };
}

/** The same columns of a record as the service sent it (catalogColumns reads them as the client's normalising does). */
function filedWire(id: number, wire: Json, text: string | undefined): FiledTitle {
  const c = catalogColumns(wire);
  return {
    id, title: c.title ?? null, series: c.series ?? null, artist: c.artist ?? null, format: c.format ?? null, year: c.year ?? null,
    isbn: c.isbn ?? null, upc: c.upc ?? null, kids: c.forChildren ? 1 : 0, cover: c.coverImageUrl ?? null, countries: c.countries.join(','),
    record: text ?? JSON.stringify(wire), wire: 1,
  };
}

const withWords = (t: FiledTitle): TitleRow => ({ ...t, words: searchWords([t.title, t.series, t.artist, t.isbn, t.upc]) });

/** A normalised record's row (library content). */
export const titleRow = (record: CatalogRecord): TitleRow => withWords(filedRecord(record));

/** A global catalog page's changes as rows, each record kept as the service sent it. */
export const wireTitleChanges = (changes: readonly WireCatalogChange[]): TitleChange[] =>
  changes.map((c) => (c.kind === 'removed' ? c : { kind: 'upsert', row: withWords(filedWire(c.id, c.wire, c.text)) }));

/** A stored record, normalised. */
export const recordOf = (text: string, wire: number, id: number): CatalogRecord =>
  (wire ? parseCatalogRecord(JSON.parse(text) as Json, id) : (JSON.parse(text) as CatalogRecord));
