// One library's collection in memory, the way the Collection browser asks for it: every
// entitlement as a row number (rows are numbered in content id order), a number of the facets
// the filters test, and, built on first use, the order of the rows for each sort and a
// filtered view of an order. A page at any position is then an array lookup and a count is a
// length: what SQLite would do with OFFSET over half a million rows costs nothing here. The
// orders are exactly the reference query's (collection-reference in the tests proves it): title
// and artist come from SQLite's own NOCASE indexes; format, year and availability are counting
// sorts with the content id as tiebreak, which is also the tiebreak of a descending sort.
// Built from one snapshot of the mirror (CollectionReader); the cache (collection-cache.ts) throws it away
// when the mirror changes, except availability read by this process, which is patched in.
import type { Format, PurchaseModel } from '../shared/model.ts';
import { CONTENT_FLAGS, type ContentFlag, type Direction, type SortKey } from '../shared/collection.ts';

export type { Direction, SortKey } from '../shared/collection.ts';

export interface IndexFilters {
  formats?: Format[];
  model?: PurchaseModel;
  active?: boolean;
  availableNow?: boolean;
  /** No copy free when last read, so a hold waits (issue #35): active Flex titles whose availability was read and showed none free. */
  noCopyFree?: boolean;
  kids?: boolean;
  /** Content flags a row must carry, and flags it must not (issue #34). */
  flags?: ContentFlag[];
  withoutFlags?: ContentFlag[];
}

/** Formats in the order SQLite sorts their names; a row's code is its index + 1 (0: unknown). */
export const FORMAT_ORDER: readonly Format[] = ['AUDIOBOOK', 'COMIC', 'EBOOK', 'MOVIE', 'MUSIC', 'TELEVISION'];

// The facets: bits 0–2 format code, 3 Flex, 4 active, 5 for children, 6–7 availability rank, and
// from bit 8 the content flags (CONTENT_FLAGS, schema 7). (SQLite gives | and << the same
// precedence: every shift in parentheses.)
export const FACETS_SQL = `(CASE format ${FORMAT_ORDER.map((f, i) => `WHEN '${f}' THEN ${i + 1}`).join(' ')} ELSE 0 END)
  | ((model = 'FLEX') << 3) | ((active = 1) << 4) | ((kids = 1) << 5) | (avail << 6) | (flags << 8)`;
const FLAGS_SHIFT = 8;
/** Every facets value there can be: what acceptTable answers for. */
const FACET_VALUES = 1 << (FLAGS_SHIFT + CONTENT_FLAGS.length);
const formatOf = (facets: number): number => facets & 7;
const availabilityOf = (facets: number): number => (facets >> 6) & 3;
export const withAvailability = (facets: number, rank: number): number => (facets & ~0xc0) | (rank << 6);
const flagBits = (flags: readonly ContentFlag[] | undefined): number => (flags ?? []).reduce((bits, flag) => bits | (1 << CONTENT_FLAGS.indexOf(flag)), 0);

/** Reads the parts of one snapshot of the mirror an index builds later (collection-cache.ts). */
export interface CollectionReader {
  /** Content ids of the library in this order (title and artist: SQLite's NOCASE order, content id as tiebreak). */
  contentIdsInOrder(sort: 'title' | 'artist', direction: Direction): Float64Array;
  /** Each row's search words, rows separated by a line break, in content id order. */
  words(): string;
}

/** Rows by position in one order, and (built on demand) each row's position. */
export class CollectionOrder {
  readonly rows: Int32Array;
  private positionOf: Int32Array | undefined;

  constructor(rows: Int32Array) {
    this.rows = rows;
  }

  positions(): Int32Array {
    if (!this.positionOf) {
      const positions = new Int32Array(this.rows.length);
      for (let p = 0; p < this.rows.length; p++) positions[this.rows[p] as number] = p;
      this.positionOf = positions;
    }
    return this.positionOf;
  }
}

/** Filtered views kept (up to 2 MiB each for half a million rows); the one being scrolled is always among them. */
const VIEWS_KEPT = 4;

export class CollectionIndex {
  readonly libraryId: number;
  readonly size: number;
  /** Ascending: the row number of a content id is its index. */
  readonly contentIds: Float64Array;
  readonly facets: Uint16Array;
  private readonly years: Float32Array;
  readonly reader: CollectionReader;
  private readonly orders = new Map<string, CollectionOrder>();
  private scratch: Int32Array | undefined;
  /** Filtered views (rows by position), most recently used last. */
  private readonly views = new Map<string, { rows: Int32Array; readsAvailability: boolean }>();

  constructor(libraryId: number, rows: { contentIds: Float64Array; facets: Uint16Array; years: Float32Array }, reader: CollectionReader) {
    this.libraryId = libraryId;
    this.size = rows.contentIds.length;
    this.contentIds = rows.contentIds;
    this.facets = rows.facets;
    this.years = rows.years;
    this.reader = reader;
  }

  /** The row of a content id, or -1. */
  rowOf(contentId: number): number {
    const ids = this.contentIds;
    let low = 0;
    let high = ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const id = ids[middle] as number;
      if (id < contentId) low = middle + 1;
      else if (id > contentId) high = middle - 1;
      else return middle;
    }
    return -1;
  }

  order(sort: SortKey, direction: Direction): CollectionOrder {
    const key = `${sort} ${direction}`;
    let order = this.orders.get(key);
    if (!order) {
      order = new CollectionOrder(sort === 'title' || sort === 'artist'
        ? this.rowsOf(this.reader.contentIdsInOrder(sort, direction))
        : this.countingSort(sort, direction));
      this.orders.set(key, order);
    }
    return order;
  }

  /** The rows that pass `filters`, in this order. */
  view(filters: IndexFilters, sort: SortKey, direction: Direction): Int32Array {
    const filtered = filterKey(filters);
    if (filtered === UNFILTERED) return this.order(sort, direction).rows; // no copy of the whole order
    const key = `${filtered} ${sort} ${direction}`;
    let view = this.views.get(key);
    if (view) {
      this.views.delete(key);
    } else {
      const accept = acceptTable(filters);
      const rows = this.order(sort, direction).rows;
      const facets = this.facets;
      // Filtered into one buffer kept for the purpose, then copied at its size: a new filter
      // costs the view's own memory, not a library-sized array for the collector each time.
      this.scratch ??= new Int32Array(rows.length);
      const out = this.scratch;
      let n = 0;
      for (let p = 0; p < rows.length; p++) {
        const row = rows[p] as number;
        if (accept[facets[row] as number]) out[n++] = row;
      }
      view = { rows: out.slice(0, n), readsAvailability: readsAvailability(filters, sort) };
      if (this.views.size >= VIEWS_KEPT) this.views.delete(this.views.keys().next().value as string);
    }
    this.views.set(key, view);
    return view.rows;
  }

  /**
   * Availability read by this process: the rows whose rank changed get it, and only what was
   * ordered or filtered by availability is computed again. Returns the rows that changed.
   */
  patchAvailability(changes: { row: number; rank: number }[]): number[] {
    const changed = changes.filter(({ row, rank }) => availabilityOf(this.facets[row] as number) !== rank);
    if (changed.length === 0) return [];
    for (const { row, rank } of changed) this.facets[row] = withAvailability(this.facets[row] as number, rank);
    for (const key of [...this.orders.keys()]) if (key.startsWith('availability ')) this.orders.delete(key);
    for (const [key, view] of [...this.views]) if (view.readsAvailability) this.views.delete(key);
    return changed.map((c) => c.row);
  }

  /** For measurements: forget every filtered view, as if each filter were new. */
  forgetViews(): void {
    this.views.clear();
  }

  private rowsOf(contentIds: Float64Array): Int32Array {
    const rows = new Int32Array(contentIds.length);
    for (let p = 0; p < contentIds.length; p++) {
      const row = this.rowOf(contentIds[p] as number);
      if (row < 0) throw new Error('the mirror changed while the index was read');
      rows[p] = row;
    }
    return rows;
  }

  /**
   * Rows by a small key, stable in content id order (the tiebreak in both directions); NULL
   * first ascending. The key is worked out again in each pass rather than kept: a library-sized
   * array of keys per sort was memory the process kept long after (freed, not returned).
   */
  private countingSort(sort: 'format' | 'year' | 'availability', direction: Direction): Int32Array {
    const n = this.size;
    const keyOf = (row: number): number => {
      const facets = this.facets[row] as number;
      const key = sort === 'format' ? formatOf(facets) : sort === 'availability' ? availabilityOf(facets) : (this.years[row] as number);
      return Number.isNaN(key) ? -Infinity : key; // NULL year sorts first, as in SQLite
    };
    const keys = new Set<number>();
    for (let row = 0; row < n; row++) keys.add(keyOf(row));
    const distinct = [...keys].sort((a, b) => (direction === 'asc' ? a - b : b - a));
    const bucketOf = new Map(distinct.map((key, i) => [key, i]));
    const starts = new Int32Array(distinct.length + 1);
    for (let row = 0; row < n; row++) {
      const bucket = bucketOf.get(keyOf(row)) as number;
      starts[bucket + 1] = (starts[bucket + 1] as number) + 1;
    }
    for (let i = 1; i < starts.length; i++) starts[i] = (starts[i] as number) + (starts[i - 1] as number);
    const rows = new Int32Array(n);
    for (let row = 0; row < n; row++) {
      const bucket = bucketOf.get(keyOf(row)) as number;
      rows[starts[bucket] as number] = row;
      starts[bucket] = (starts[bucket] as number) + 1;
    }
    return rows;
  }
}

/** Whether what these filters and this sort give depends on availability. */
export const readsAvailability = (filters: IndexFilters, sort: SortKey): boolean => !!filters.availableNow || !!filters.noCopyFree || sort === 'availability';

export function filterKey(filters: IndexFilters): string {
  return JSON.stringify([filters.formats?.length ? [...filters.formats].sort() : [], filters.model ?? '', filters.active ?? '', !!filters.availableNow, !!filters.kids, !!filters.noCopyFree,
    flagBits(filters.flags), flagBits(filters.withoutFlags)]);
}
const UNFILTERED = filterKey({});

/** For every facets value, whether a row with it passes the filters (the reference query's WHERE). */
export function acceptTable(filters: IndexFilters): Uint8Array {
  const formats = filters.formats?.length ? new Set(filters.formats.map((f) => FORMAT_ORDER.indexOf(f) + 1)) : undefined;
  const must = flagBits(filters.flags);
  const mustNot = flagBits(filters.withoutFlags);
  const table = new Uint8Array(FACET_VALUES);
  for (let facets = 0; facets < FACET_VALUES; facets++) {
    const flex = (facets >> 3) & 1;
    const active = (facets >> 4) & 1;
    const kids = (facets >> 5) & 1;
    const flags = facets >> FLAGS_SHIFT;
    table[facets] = (!formats || formats.has(formatOf(facets)))
      && (filters.model === undefined || (filters.model === 'FLEX') === (flex === 1))
      && (filters.active === undefined || filters.active === (active === 1))
      && (!filters.availableNow || availabilityOf(facets) === 0)
      && (!filters.noCopyFree || availabilityOf(facets) === 1)
      && (!filters.kids || kids === 1)
      && (flags & must) === must && (flags & mustNot) === 0 ? 1 : 0;
  }
  return table;
}
