// A title as the mirror stores it: its columns, its search words and its record as JSON, all
// plain values. The page reader (page-reader.ts) packs a page of titles' columns and records
// into one string (packWireChanges) beside the parsing it does anyway; the writer thread
// unpacks it and adds the search words. Copying one string across a thread boundary is a
// memcpy, where cloning 500 objects of 13 fields cost about a tenth of the sync's time on a
// 2-core desk PC; the search words are the writer's so the reader, the busier of the two
// threads, has less to do.
//
// A global catalog record is stored as the service sent it (`wire`), and normalised when a
// title is shown (recordOf): the bulk pull reads only the columns of each record, which on a
// million titles took the page reader 4-5 s less than normalising and re-serialising every
// record. A record stored normalised (library content's, whose episodes are merged; any
// record a mirror before schema 4 stored) is read as it is.
import { catalogColumns, parseCatalogRecord, type Json, type WireCatalogChange } from '../partner/normalize.ts';
import type { CatalogChange, CatalogRecord } from '../shared/model.ts';
import { contentIdOf, type ContentId } from '../shared/content-id.ts';
import { searchWords } from './search-text.ts';

export interface TitleRow {
  /** The content id; the writer files it under its key (content-keys.ts). */
  id: ContentId;
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
  /** The title it belongs to: what a search result names (title-contents.ts). */
  titleId: number | null;
}

/** A title's row before the writer adds its search words. */
type FiledTitle = Omit<TitleRow, 'words'>;

export type TitleChange = { kind: 'upsert'; row: TitleRow } | { kind: 'removed'; id: ContentId };
type FiledChange = { kind: 'upsert'; title: FiledTitle } | { kind: 'removed'; id: ContentId };

/** The columns of a record normalised by the client. */
function filedRecord(record: CatalogRecord): FiledTitle {
  return {
    id: record.id, title: record.title ?? null, series: record.series ?? null, artist: record.artist ?? record.artists[0]?.name ?? null,
    format: record.format ?? null, year: record.year ?? null, isbn: record.isbn ?? null, upc: record.upc ?? null, kids: record.forChildren ? 1 : 0,
    cover: record.coverImageUrl ?? null, countries: record.countries.join(','), record: JSON.stringify(record), wire: 0,
    titleId: record.titleId ?? null,
  };
}

/** The same columns of a record as the service sent it (catalogColumns reads them as the client's normalising does). */
function filedWire(id: ContentId, wire: Json, text: string | undefined): FiledTitle {
  const c = catalogColumns(wire);
  return {
    id, title: c.title ?? null, series: c.series ?? null, artist: c.artist ?? null, format: c.format ?? null, year: c.year ?? null,
    isbn: c.isbn ?? null, upc: c.upc ?? null, kids: c.forChildren ? 1 : 0, cover: c.coverImageUrl ?? null, countries: c.countries.join(','),
    record: text ?? JSON.stringify(wire), wire: 1, titleId: c.titleId ?? null,
  };
}

const withWords = (t: FiledTitle): TitleRow => ({ ...t, words: searchWords([t.title, t.series, t.artist, t.isbn, t.upc]) });

/** A normalised record's row (library content). */
export const titleRow = (record: CatalogRecord): TitleRow => withWords(filedRecord(record));

/** A stored record, normalised; `id` is its content id (not the key it is filed under). */
export const recordOf = (text: string, wire: number, id: ContentId): CatalogRecord =>
  (wire ? parseCatalogRecord(JSON.parse(text) as Json, id) : (JSON.parse(text) as CatalogRecord));

/** A page of title changes as one string, for the writer thread (unpackTitleChanges reads it back). */
export type PackedTitles = string & { readonly packedTitles: unique symbol };

const FIELD = '\u0000';
const NULL = '\u0001';
/** The title id comes last (schema 6): the fields before it are where they always were. */
const FIELDS_PER_CHANGE = 14;
/** A change's first field: its kind, and for an upsert the form of its record. */
const KIND = { removed: 'r', wire: 'w', normalised: 'u' } as const;

/** The separators never occur in a field: JSON text escapes them, and other text drops them (a control character in a title is noise). */
const clean = (value: string): string => (/[\u0000\u0001]/.test(value) ? value.replace(/[\u0000\u0001]/g, '') : value);
const text = (value: string | null): string => (value === null ? NULL : clean(value));
const number = (value: number | null): string => (value === null ? NULL : String(value));
/** A content id's text (content-id.ts keeps separators out of every id); read back by contentIdOf. */
const contentId = (value: ContentId): string => String(value);

function packFiled(changes: Iterable<FiledChange>): PackedTitles {
  const parts: string[] = [];
  for (const change of changes) {
    if (change.kind === 'removed') {
      parts.push(KIND.removed, contentId(change.id), ...Array<string>(FIELDS_PER_CHANGE - 2).fill(NULL));
      continue;
    }
    const t = change.title;
    parts.push(t.wire ? KIND.wire : KIND.normalised, contentId(t.id), text(t.title), text(t.series), text(t.artist), text(t.format), number(t.year),
      text(t.isbn), text(t.upc), t.kids ? '1' : '0', text(t.cover), clean(t.countries), t.record, number(t.titleId));
  }
  return parts.join(FIELD) as PackedTitles;
}

/** A bulk page of the global catalog as the page reader read it (readGlobalContentPage). */
export function packWireChanges(changes: readonly WireCatalogChange[]): PackedTitles {
  return packFiled(changes.map((c): FiledChange => (c.kind === 'removed' ? c : { kind: 'upsert', title: filedWire(c.id, c.wire, c.text) })));
}

/** Changes the client normalised (tests build pages this way). */
export function packCatalogChanges(changes: readonly CatalogChange[]): PackedTitles {
  return packFiled(changes.map((c): FiledChange => (c.kind === 'removed' ? c : { kind: 'upsert', title: filedRecord(c.record) })));
}

export function unpackTitleChanges(packed: PackedTitles): TitleChange[] {
  if (packed === '') return [];
  const f = packed.split(FIELD);
  if (f.length % FIELDS_PER_CHANGE !== 0) throw new Error('A packed page of titles has a torn record.');
  const changes: TitleChange[] = [];
  for (let i = 0; i < f.length; i += FIELDS_PER_CHANGE) {
    const id = contentIdOf(f[i + 1]);
    if (id === undefined) throw new Error(`A packed title has ${JSON.stringify(f[i + 1])} where a content id belongs.`);
    if (f[i] === KIND.removed) {
      changes.push({ kind: 'removed', id });
      continue;
    }
    const year = f[i + 6] === NULL ? null : wholeNumber(f[i + 6] as string);
    const [title, series, artist, isbn, upc] = [orNull(f[i + 2]), orNull(f[i + 3]), orNull(f[i + 4]), orNull(f[i + 7]), orNull(f[i + 8])];
    changes.push({ kind: 'upsert', row: {
      id, title, series, artist, format: orNull(f[i + 5]), year, isbn, upc, kids: f[i + 9] === '1' ? 1 : 0, cover: orNull(f[i + 10]),
      countries: f[i + 11] as string, words: searchWords([title, series, artist, isbn, upc]), record: f[i + 12] as string,
      wire: f[i] === KIND.wire ? 1 : 0, titleId: f[i + 13] === NULL ? null : wholeNumber(f[i + 13] as string),
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
