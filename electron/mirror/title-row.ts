// A title as the mirror stores it: its columns, its search words and its record as JSON, all
// plain values. The sync prepares these in main, beside the parsing it does anyway, so the
// writer thread gets flat rows that cross the thread boundary cheaply and only has to store
// them: on a 2-core desk PC the writer is the sync's narrowest step.
import type { CatalogChange, CatalogRecord } from '../shared/model.ts';
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
  /** The whole record, for the title's detail. */
  record: string;
}

export type TitleChange = { kind: 'upsert'; row: TitleRow } | { kind: 'removed'; id: number };

export function titleRow(record: CatalogRecord): TitleRow {
  const artist = record.artist ?? record.artists[0]?.name ?? null;
  return {
    id: record.id, title: record.title ?? null, series: record.series ?? null, artist, format: record.format ?? null,
    year: record.year ?? null, isbn: record.isbn ?? null, upc: record.upc ?? null, kids: record.forChildren ? 1 : 0,
    cover: record.coverImageUrl ?? null, countries: record.countries.join(','),
    words: searchWords([record.title, record.series, artist, record.isbn, record.upc]),
    record: JSON.stringify(record),
  };
}

export function titleChange(change: CatalogChange): TitleChange {
  return change.kind === 'removed' ? change : { kind: 'upsert', row: titleRow(change.record) };
}
