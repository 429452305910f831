// A title's record as the mirror keeps it: the client's normalised record (what a title's
// details show) in a compact binary form, made once when the page is read and read back
// without normalising again. Every field is kept; only their spelling shrinks: no field names
// (a bit says which fields are there), numbers as variable-length integers, the seven yes/no
// fields in one number, countries and purchase models a byte each, the record's own artist as a
// reference to its first artist's name when it is that name, and strings that repeat across
// titles (publishers, genres, languages, audiences, reading levels, roles, countries of
// ratings and prices, and the part of a web address up to its last '/') as numbers into the
// mirror's vocabulary (vocabulary.ts). About a fifth of the record as the service sends it.
//
// The format is versioned and open-ended: fields are numbered, a record says how many it
// knows, and a field added later (at the end) reads as absent in a record written before.
import { contentIdOf } from '../shared/content-id.ts';
import type { Artist, CatalogRecord, ContentId, Country, Episode, Product, PurchaseModel, Segment } from '../shared/model.ts';
import { COUNTRIES, FORMATS } from '../shared/model.ts';

/** Strings that repeat across titles, kept once: `idOf` gives (and may add) a number, 0 when it cannot; `textOf` reads it back. */
export interface Vocabulary {
  idOf(text: string): number;
  textOf(id: number): string;
}

const VERSION = 1;
const MODELS: readonly PurchaseModel[] = ['INSTANT', 'FLEX'];
const FLAGS = ['forChildren', 'fiction', 'abridged', 'parentalAdvisory', 'demo', 'profanity', 'edited'] as const;

type Field =
  | { key: 'titleId' | 'seriesNumber' | 'season' | 'episode' | 'year' | 'pages' | 'price'; kind: 'int' }
  | { key: 'title' | 'subtitle' | 'series' | 'isbn' | 'upc' | 'synopsis' | 'duration' | 'titleTitle'; kind: 'text' }
  | { key: 'language' | 'subtitleLanguage' | 'dubLanguage' | 'publisher' | 'audience' | 'lexile' | 'atosBookLevel' | 'interestLevel' | 'rating'; kind: 'word' }
  | { key: 'url' | 'coverImageUrl'; kind: 'address' }
  | { key: 'format' | 'artist' | 'artists' | 'genres' | 'flags' | 'countries' | 'purchaseModels' | 'ratings' | 'ppuPrices' | 'segments' | 'episodes' | 'products' | 'coverImageUrls'; kind: 'own' };

/** The fields in their numbered order. Append only: a record's field count says which it knows. */
const FIELDS: readonly Field[] = [
  // The cover first: the Collection's rows read it alone (coverOf).
  { key: 'coverImageUrl', kind: 'address' }, { key: 'titleId', kind: 'int' }, { key: 'format', kind: 'own' }, { key: 'title', kind: 'text' }, { key: 'subtitle', kind: 'text' },
  { key: 'series', kind: 'text' }, { key: 'seriesNumber', kind: 'int' }, { key: 'season', kind: 'int' }, { key: 'episode', kind: 'int' },
  { key: 'isbn', kind: 'text' }, { key: 'upc', kind: 'text' }, { key: 'synopsis', kind: 'text' }, { key: 'year', kind: 'int' },
  { key: 'duration', kind: 'text' }, { key: 'pages', kind: 'int' }, { key: 'language', kind: 'word' }, { key: 'subtitleLanguage', kind: 'word' },
  { key: 'dubLanguage', kind: 'word' }, { key: 'artists', kind: 'own' }, { key: 'artist', kind: 'own' }, { key: 'publisher', kind: 'word' },
  { key: 'genres', kind: 'own' }, { key: 'audience', kind: 'word' }, { key: 'lexile', kind: 'word' }, { key: 'atosBookLevel', kind: 'word' },
  { key: 'interestLevel', kind: 'word' }, { key: 'flags', kind: 'own' }, { key: 'url', kind: 'address' },
  { key: 'countries', kind: 'own' }, { key: 'purchaseModels', kind: 'own' }, { key: 'ratings', kind: 'own' }, { key: 'ppuPrices', kind: 'own' },
  { key: 'segments', kind: 'own' }, { key: 'episodes', kind: 'own' },
  // Issue #34: what staff are asked about (a library content record's price per borrow and rating), the products and country covers.
  { key: 'products', kind: 'own' }, { key: 'coverImageUrls', kind: 'own' }, { key: 'titleTitle', kind: 'text' }, { key: 'rating', kind: 'word' },
  { key: 'price', kind: 'int' },
];

// ---- writing ----

const encoder = new TextEncoder();

/**
 * Writes records one after another into a shared buffer, each record a view of its own part of
 * it: a page of records costs a buffer or two, not one per record (whose allocation and
 * collection were a fifth of the encoding's time). A full buffer is left to the views that hold
 * it; the record being written moves to a new one.
 */
class Writer {
  private buffer = new Uint8Array(BUFFER_BYTES);
  /** Where the record being written starts. */
  private start = 0;
  length = 0;

  begin(): void {
    this.start = this.length;
  }

  /** The record written since `begin`, as a view that stays as it is. */
  end(): Uint8Array {
    return this.buffer.subarray(this.start, this.length);
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const record = this.buffer.subarray(this.start, this.length);
    this.buffer = new Uint8Array(Math.max(BUFFER_BYTES, (record.length + bytes) * 2));
    this.buffer.set(record);
    this.start = 0;
    this.length = record.length;
  }

  byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  /** A whole number from 0 up to 2^53, seven bits a byte. */
  unsigned(value: number): void {
    this.room(8);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.buffer[this.length++] = rest;
  }

  /** Any number: a whole one of either sign as an integer (even), anything else as its text (odd). */
  number(value: number): void {
    if (Number.isSafeInteger(value) && Math.abs(value) <= 2 ** 50) {
      this.unsigned(value >= 0 ? value * 4 : -value * 4 - 2);
    } else {
      this.unsigned(1);
      this.text(String(value));
    }
  }

  text(value: string): void {
    this.room(value.length * 3 + 8);
    const start = this.length;
    if (value.length < 0x80 && this.ascii(value, start)) return;
    // Room for the length first (at most 3 bytes below 2 MB), the text after it, then moved up if it took fewer.
    const { written } = encoder.encodeInto(value, this.buffer.subarray(start + 3));
    const head = written < 0x80 ? 1 : written < 0x4000 ? 2 : 3;
    if (head < 3) this.buffer.copyWithin(start + head, start + 3, start + 3 + written);
    let rest = written;
    for (let i = 0; i < head; i++) {
      this.buffer[start + i] = (rest % 0x80) | (i < head - 1 ? 0x80 : 0);
      rest = Math.floor(rest / 0x80);
    }
    this.length = start + head + written;
  }

  /** A short text of ASCII only, written byte by byte (the common case, and cheaper than an encoder call); false for any other. */
  private ascii(value: string, start: number): boolean {
    const buffer = this.buffer;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80) return false;
      buffer[start + 1 + i] = c;
    }
    buffer[start] = value.length;
    this.length = start + 1 + value.length;
    return true;
  }

  /** A repeating string: its number in the vocabulary, or (0) the string itself. */
  word(value: string, vocabulary: Vocabulary): void {
    const id = vocabulary.idOf(value);
    this.unsigned(id);
    if (id === 0) this.text(value);
  }

  /** A web address: the part up to its last '/' as a word, the rest as text. */
  address(value: string, vocabulary: Vocabulary): void {
    const cut = value.lastIndexOf('/') + 1;
    this.word(value.slice(0, cut), vocabulary);
    this.text(value.slice(cut));
  }

}

const BUFFER_BYTES = 64 * 1024;

/** Each yes/no field as two bits: 0 absent, 1 no, 2 yes. */
function flagsOf(record: CatalogRecord): number {
  let n = 0;
  for (let i = FLAGS.length - 1; i >= 0; i--) {
    const value = record[FLAGS[i] as (typeof FLAGS)[number]];
    n = n * 4 + (value === undefined ? 0 : value ? 2 : 1);
  }
  return n;
}

function present(record: CatalogRecord, field: Field): boolean {
  switch (field.key) {
    case 'flags': return FLAGS.some((flag) => record[flag] !== undefined);
    case 'artist': return record.artist !== undefined;
    case 'artists': case 'genres': case 'countries': case 'purchaseModels': case 'ratings': case 'ppuPrices': case 'segments': case 'episodes':
      return record[field.key].length > 0;
    case 'products': case 'coverImageUrls': return (record[field.key]?.length ?? 0) > 0;
    default: return record[field.key] !== undefined;
  }
}

/** A small object's fields are each written after a byte with a bit for each field there. */
const bitsOf = (...values: unknown[]): number => {
  let bits = 0;
  for (let i = 0; i < values.length; i++) if (values[i] !== undefined) bits |= 1 << i;
  return bits;
};

function writeOwn(out: Writer, record: CatalogRecord, key: Extract<Field, { kind: 'own' }>['key'], vocabulary: Vocabulary): void {
  switch (key) {
    case 'format': out.unsigned(FORMATS.indexOf(record.format as (typeof FORMATS)[number])); return;
    case 'artist': {
      // 0: the name of the first artist (most records say it twice); 1: a name of its own.
      const same = record.artist === record.artists[0]?.name;
      out.byte(same ? 0 : 1);
      if (!same) out.text(record.artist as string);
      return;
    }
    case 'artists':
      out.unsigned(record.artists.length);
      for (const a of record.artists) {
        out.text(a.name);
        out.byte(bitsOf(a.role, a.formalName));
        if (a.role !== undefined) out.word(a.role, vocabulary);
        if (a.formalName !== undefined) out.text(a.formalName);
      }
      return;
    case 'genres':
      out.unsigned(record.genres.length);
      for (const g of record.genres) out.word(g, vocabulary);
      return;
    case 'flags': out.unsigned(flagsOf(record)); return;
    case 'countries': out.unsigned(record.countries.length); for (const c of record.countries) out.byte(COUNTRIES.indexOf(c)); return;
    case 'purchaseModels': out.unsigned(record.purchaseModels.length); for (const m of record.purchaseModels) out.byte(MODELS.indexOf(m)); return;
    case 'ratings':
      out.unsigned(record.ratings.length);
      for (const r of record.ratings) { out.word(r.country, vocabulary); out.word(r.value, vocabulary); }
      return;
    case 'ppuPrices':
      out.unsigned(record.ppuPrices.length);
      for (const p of record.ppuPrices) { out.word(p.country, vocabulary); out.number(p.price); }
      return;
    case 'segments':
      out.unsigned(record.segments.length);
      for (const s of record.segments) {
        out.byte(bitsOf(s.number, s.name, s.seconds));
        if (s.number !== undefined) out.number(s.number);
        if (s.name !== undefined) out.text(s.name);
        if (s.seconds !== undefined) out.number(s.seconds);
      }
      return;
    case 'products':
      out.unsigned(record.products?.length ?? 0);
      for (const p of record.products ?? []) {
        out.byte(bitsOf(p.productId, p.model));
        if (p.productId !== undefined) out.number(p.productId);
        if (p.model !== undefined) out.byte(MODELS.indexOf(p.model));
      }
      return;
    case 'coverImageUrls':
      out.unsigned(record.coverImageUrls?.length ?? 0);
      for (const c of record.coverImageUrls ?? []) { out.word(c.country, vocabulary); out.address(c.url, vocabulary); }
      return;
    case 'episodes':
      out.unsigned(record.episodes.length);
      for (const e of record.episodes) {
        out.byte(bitsOf(e.titleId, e.season, e.episode, e.title, e.synopsis, e.seconds, e.id));
        if (e.titleId !== undefined) out.number(e.titleId);
        if (e.season !== undefined) out.number(e.season);
        if (e.episode !== undefined) out.number(e.episode);
        if (e.title !== undefined) out.text(e.title);
        if (e.synopsis !== undefined) out.text(e.synopsis);
        if (e.seconds !== undefined) out.number(e.seconds);
        if (e.id !== undefined) out.text(String(e.id)); // read back in its one form (contentIdOf)
      }
  }
}

/** One writer for every record (the owner writes one at a time). */
const out = new Writer();
const fieldsPresent: boolean[] = [];

/**
 * A title's id kept beside its content id: as the difference when the content id is a number
 * (a title's own id, or near it: a byte or two), else whole (an episode's string id).
 */
const titleIdFrom = (titleId: number, id: ContentId): number => (typeof id === 'number' ? titleId - id : titleId);
const titleIdOf = (stored: number, id: ContentId): number => (typeof id === 'number' ? stored + id : stored);

/** The record's bytes (its id is the row's, so not among them): a view that stays as it is. */
export function encodeRecord(record: CatalogRecord, vocabulary: Vocabulary): Uint8Array {
  out.begin();
  out.byte(VERSION);
  out.unsigned(FIELDS.length);
  for (let i = 0; i < FIELDS.length; i++) fieldsPresent[i] = present(record, FIELDS[i] as Field);
  for (let i = 0; i < FIELDS.length; i += 8) {
    let bits = 0;
    for (let j = 0; j < 8 && i + j < FIELDS.length; j++) if (fieldsPresent[i + j]) bits |= 1 << j;
    out.byte(bits);
  }
  for (let i = 0; i < FIELDS.length; i++) {
    if (!fieldsPresent[i]) continue;
    const field = FIELDS[i] as Field;
    switch (field.kind) {
      case 'int': out.number(field.key === 'titleId' ? titleIdFrom(record.titleId as number, record.id) : (record[field.key] as number)); break;
      case 'text': out.text(record[field.key] as string); break;
      case 'word': out.word(record[field.key] as string, vocabulary); break;
      case 'address': out.address(record[field.key] as string, vocabulary); break;
      case 'own': writeOwn(out, record, field.key, vocabulary);
    }
  }
  return out.end();
}

// ---- reading ----

const decoder = new TextDecoder();

class Reader {
  private readonly bytes: Uint8Array;
  at = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  byte(): number {
    if (this.at >= this.bytes.length) throw new Error('A stored record ends too soon.');
    return this.bytes[this.at++] as number;
  }

  unsigned(): number {
    let value = 0;
    for (let scale = 1; ; scale *= 0x80) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
    }
  }

  number(): number {
    const n = this.unsigned();
    if (n % 2 === 1) return Number(this.text());
    return n % 4 === 0 ? n / 4 : -(n + 2) / 4;
  }

  text(): string {
    const length = this.unsigned();
    const end = this.at + length;
    if (end > this.bytes.length) throw new Error('A stored record ends too soon.');
    const value = length < 0x80 ? this.ascii(end) ?? decoder.decode(this.bytes.subarray(this.at, end)) : decoder.decode(this.bytes.subarray(this.at, end));
    this.at = end;
    return value;
  }

  /** A short text of ASCII only, read byte by byte; undefined for any other. */
  private ascii(end: number): string | undefined {
    const bytes = this.bytes;
    for (let i = this.at; i < end; i++) if ((bytes[i] as number) >= 0x80) return undefined;
    return String.fromCharCode.apply(null, bytes.subarray(this.at, end) as unknown as number[]);
  }

  word(vocabulary: Vocabulary): string {
    const id = this.unsigned();
    return id === 0 ? this.text() : vocabulary.textOf(id);
  }

  address(vocabulary: Vocabulary): string {
    return this.word(vocabulary) + this.text();
  }

  /** A small object's fields, as written after their bits (bitsOf). */
  optionals<T extends unknown[]>(read: ((i: number) => unknown)[]): T {
    const bits = this.byte();
    return read.map((r, i) => ((bits & (1 << i)) !== 0 ? r(i) : undefined)) as T;
  }

  list<T>(read: () => T): T[] {
    return Array.from({ length: this.unsigned() }, read);
  }
}

/** The record `encodeRecord` wrote for content `id`: equal to the normalised record it was made from. */
export function decodeRecord(bytes: Uint8Array, id: ContentId, vocabulary: Vocabulary): CatalogRecord {
  const input = new Reader(bytes);
  const version = input.byte();
  if (version !== VERSION) throw new Error(`A stored record is of version ${version}; this desk reads version ${VERSION}.`);
  const count = input.unsigned();
  const present: boolean[] = [];
  for (let i = 0; i < count; i += 8) {
    const bits = input.byte();
    for (let j = 0; j < 8 && i + j < count; j++) present.push((bits & (1 << j)) !== 0);
  }
  const record: CatalogRecord = {
    id, artists: [], genres: [], countries: [], purchaseModels: [], ratings: [], ppuPrices: [], segments: [], episodes: [],
  };
  let sameArtist = false;
  for (let i = 0; i < Math.min(count, FIELDS.length); i++) {
    if (!present[i]) continue;
    const field = FIELDS[i] as Field;
    switch (field.kind) {
      case 'int': record[field.key] = field.key === 'titleId' ? titleIdOf(input.number(), id) : input.number(); break;
      case 'text': record[field.key] = input.text(); break;
      case 'word': record[field.key] = input.word(vocabulary); break;
      case 'address': record[field.key] = input.address(vocabulary); break;
      case 'own': sameArtist = readOwn(input, record, field.key, vocabulary) || sameArtist;
    }
  }
  if (sameArtist) record.artist = record.artists[0]?.name as string;
  return record;
}

/** A stored record's cover alone (a Collection row's), without reading the rest. */
export function coverOf(bytes: Uint8Array, vocabulary: Vocabulary): string | undefined {
  const input = new Reader(bytes);
  input.byte(); // the version: the cover is field 0 in every one
  const count = input.unsigned();
  if (count === 0) return undefined;
  const bits = input.byte();
  input.at += Math.ceil(count / 8) - 1; // the rest of the fields' bits
  return (bits & 1) !== 0 ? input.address(vocabulary) : undefined;
}

/** Reads one field of its own into `record`; true when the record's artist is its first artist's name. */
function readOwn(input: Reader, record: CatalogRecord, key: Extract<Field, { kind: 'own' }>['key'], vocabulary: Vocabulary): boolean {
  switch (key) {
    case 'format': record.format = FORMATS[input.unsigned()]; return false;
    case 'artist':
      if (input.byte() === 0) return true;
      record.artist = input.text();
      return false;
    case 'artists':
      record.artists = input.list((): Artist => {
        const name = input.text();
        const [role, formalName] = input.optionals<[string?, string?]>([() => input.word(vocabulary), () => input.text()]);
        return { name, role, formalName };
      });
      return false;
    case 'genres': record.genres = input.list(() => input.word(vocabulary)); return false;
    case 'flags': {
      let n = input.unsigned();
      for (const flag of FLAGS) {
        const value = n % 4;
        n = Math.floor(n / 4);
        if (value !== 0) record[flag] = value === 2;
      }
      return false;
    }
    case 'countries': record.countries = input.list(() => COUNTRIES[input.byte()] as Country); return false;
    case 'purchaseModels': record.purchaseModels = input.list(() => MODELS[input.byte()] as PurchaseModel); return false;
    case 'ratings': record.ratings = input.list(() => ({ country: input.word(vocabulary), value: input.word(vocabulary) })); return false;
    case 'ppuPrices': record.ppuPrices = input.list(() => ({ country: input.word(vocabulary), price: input.number() })); return false;
    case 'segments':
      record.segments = input.list((): Segment => {
        const [number, name, seconds] = input.optionals<[number?, string?, number?]>([() => input.number(), () => input.text(), () => input.number()]);
        return { number, name, seconds };
      });
      return false;
    case 'products':
      record.products = input.list((): Product => {
        const [productId, model] = input.optionals<[number?, number?]>([() => input.number(), () => input.byte()]);
        return { ...(productId === undefined ? {} : { productId }), ...(model === undefined ? {} : { model: MODELS[model] as PurchaseModel }) };
      });
      return false;
    case 'coverImageUrls': record.coverImageUrls = input.list(() => ({ country: input.word(vocabulary), url: input.address(vocabulary) })); return false;
    case 'episodes':
      record.episodes = input.list((): Episode => {
        const [titleId, season, episode, title, synopsis, seconds, id] = input.optionals<[number?, number?, number?, string?, string?, number?, string?]>(
          [() => input.number(), () => input.number(), () => input.number(), () => input.text(), () => input.text(), () => input.number(), () => input.text()]);
        const contentId = id === undefined ? undefined : contentIdOf(id);
        return {
          titleId, season, episode, title, ...(synopsis === undefined ? {} : { synopsis }), ...(seconds === undefined ? {} : { seconds }),
          ...(contentId === undefined ? {} : { id: contentId }),
        };
      });
      return false;
  }
}
