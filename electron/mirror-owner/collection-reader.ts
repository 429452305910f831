// What one library's in-memory index (collection-index.ts) reads from the mirror, each as one text
// SQLite builds in a single statement: a value per row is far cheaper to bring into JavaScript
// than an object per row, for half a million rows.
import type { Reads } from './mirror-file.ts';
import { FACETS_SQL, type Direction } from './collection-index.ts';

/** The library's rows in content id order: ids, facet bytes and years. */
export function readRows(db: Reads, libraryId: number): { contentIds: Float64Array; facets: Uint16Array; years: Float32Array } {
  const answer = db.query(`SELECT count(*) AS n, group_concat(content_id || ' ' || (${FACETS_SQL}) || ' ' || coalesce(year, ''), ',' ORDER BY content_id) AS list
    FROM entitlements WHERE library_id = ?`).get(libraryId) as { n: number; list: string | null };
  const n = Number(answer.n);
  const contentIds = new Float64Array(n);
  const facets = new Uint16Array(n);
  const years = new Float32Array(n); // a year (or NaN: NULL) is exact in 32 bits
  const fields = [contentIds, facets, years];
  const numbers = new IntegerReader(answer.list ?? '');
  for (let row = 0; row < n; row++) {
    for (const field of fields) field[row] = numbers.next();
  }
  return { contentIds, facets, years };
}

/** The library's content ids in SQLite's NOCASE order of the column, content id the tiebreak in both directions. */
export function readContentIdsInOrder(db: Reads, libraryId: number, sort: 'title' | 'artist', direction: Direction): Float64Array {
  const answer = db.query(`SELECT group_concat(content_id) AS list FROM (SELECT content_id FROM entitlements WHERE library_id = ?
    ORDER BY ${sort} COLLATE NOCASE ${direction === 'desc' ? 'DESC' : 'ASC'}, content_id)`).get(libraryId) as { list: string | null };
  return readIntegers(answer.list ?? '');
}

/** Each row's search words, rows separated by a line break, in content id order. */
export function readWords(db: Reads, libraryId: number): string {
  const answer = db.query(`SELECT group_concat(coalesce(words, ''), char(10) ORDER BY content_id) AS text
    FROM entitlements WHERE library_id = ?`).get(libraryId) as { text: string | null };
  return answer.text ?? '';
}

/** The integers of a comma-separated list. */
export function readIntegers(list: string): Float64Array {
  const reader = new IntegerReader(list);
  const out = new Float64Array(list === '' ? 0 : reader.count(44) + 1);
  for (let i = 0; i < out.length; i++) out[i] = reader.next();
  return out;
}

/** Integers out of a list separated by spaces or commas, without a string per number; an empty one is NaN (NULL). */
class IntegerReader {
  private readonly text: string;
  private at = 0;

  constructor(text: string) {
    this.text = text;
  }

  count(separator: number): number {
    let n = 0;
    for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === separator) n++;
    return n;
  }

  next(): number {
    const text = this.text;
    let value = 0;
    let digits = 0;
    let sign = 1;
    for (; this.at < text.length; this.at++) {
      const c = text.charCodeAt(this.at);
      if (c === 32 || c === 44) break;
      if (c === 45) sign = -1;
      else {
        value = value * 10 + (c - 48);
        digits++;
      }
    }
    this.at++;
    return digits === 0 ? NaN : sign * value;
  }
}
