// A title as the mirror stores it: its columns, its search words and its record as JSON, all
// plain values. The page reader (page-reader.ts) packs a page of titles' columns and records
// into one string (packCatalogChanges) beside the parsing it does anyway; the writer thread
// unpacks it and adds the search words. Copying one string across a thread boundary is a
// memcpy, where cloning 500 objects of 13 fields cost about a tenth of the sync's time on a
// 2-core desk PC; the search words are the writer's so the reader, the busier of the two
// threads, has less to do.
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

const artistOf = (record: CatalogRecord): string | null => record.artist ?? record.artists[0]?.name ?? null;

export function titleRow(record: CatalogRecord): TitleRow {
  const artist = artistOf(record);
  return {
    id: record.id, title: record.title ?? null, series: record.series ?? null, artist, format: record.format ?? null,
    year: record.year ?? null, isbn: record.isbn ?? null, upc: record.upc ?? null, kids: record.forChildren ? 1 : 0,
    cover: record.coverImageUrl ?? null, countries: record.countries.join(','),
    words: searchWords([record.title, record.series, artist, record.isbn, record.upc]),
    record: JSON.stringify(record),
  };
}

/** A page of title changes as one string, for the writer thread (unpackTitleChanges reads it back). */
export type PackedTitles = string & { readonly packedTitles: unique symbol };

const FIELD = '\u0000';
const NULL = '\u0001';
const FIELDS_PER_CHANGE = 13;

/** The separators never occur in a field: JSON text escapes them, and other text drops them (a control character in a title is noise). */
const clean = (value: string): string => (/[\u0000\u0001]/.test(value) ? value.replace(/[\u0000\u0001]/g, '') : value);
const text = (value: string | null): string => (value === null ? NULL : clean(value));
const number = (value: number | null): string => (value === null ? NULL : String(value));

export function packCatalogChanges(changes: readonly CatalogChange[]): PackedTitles {
  const parts: string[] = [];
  for (const change of changes) {
    if (change.kind === 'removed') {
      parts.push('r', number(change.id), ...Array<string>(FIELDS_PER_CHANGE - 2).fill(NULL));
      continue;
    }
    const r = change.record;
    parts.push('u', number(r.id), text(r.title ?? null), text(r.series ?? null), text(artistOf(r)), text(r.format ?? null), number(r.year ?? null),
      text(r.isbn ?? null), text(r.upc ?? null), r.forChildren ? '1' : '0', text(r.coverImageUrl ?? null), clean(r.countries.join(',')), JSON.stringify(r));
  }
  return parts.join(FIELD) as PackedTitles;
}

export function unpackTitleChanges(packed: PackedTitles): TitleChange[] {
  if (packed === '') return [];
  const f = packed.split(FIELD);
  if (f.length % FIELDS_PER_CHANGE !== 0) throw new Error('A packed page of titles has a torn record.');
  const changes: TitleChange[] = [];
  for (let i = 0; i < f.length; i += FIELDS_PER_CHANGE) {
    const id = wholeNumber(f[i + 1] as string);
    if (f[i] === 'r') {
      changes.push({ kind: 'removed', id });
      continue;
    }
    const year = f[i + 6] === NULL ? null : wholeNumber(f[i + 6] as string);
    const [title, series, artist, isbn, upc] = [orNull(f[i + 2]), orNull(f[i + 3]), orNull(f[i + 4]), orNull(f[i + 7]), orNull(f[i + 8])];
    changes.push({ kind: 'upsert', row: {
      id, title, series, artist, format: orNull(f[i + 5]), year, isbn, upc, kids: f[i + 9] === '1' ? 1 : 0, cover: orNull(f[i + 10]),
      countries: f[i + 11] as string, words: searchWords([title, series, artist, isbn, upc]), record: f[i + 12] as string,
    } });
  }
  return changes;
}

const orNull = (field: string | undefined): string | null => (field === NULL || field === undefined ? null : field);

/** An id or year that is not a whole number would reach SQLite as NULL (a new rowid): refused instead. */
function wholeNumber(field: string): number {
  const n = Number(field);
  if (field === NULL || !Number.isSafeInteger(n)) throw new Error(`A packed title has ${JSON.stringify(field)} where a whole number belongs.`);
  return n;
}
