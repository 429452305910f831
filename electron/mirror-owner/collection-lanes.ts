// What the Collection's search walks (collection-search.ts): a library's rows' words, read once per
// index, and for the order being walked a "lane" made from them: each word as a 32-bit code of
// its first four characters, each row's initials as bits and its words' first two characters as
// bits, laid out in that order, so most rows are ruled out by two ANDs and the rest tested with a
// few integer compares, reading memory front to back. A code match is exact for a search word of
// up to four Latin-1 characters; longer ones (and others) are confirmed in the row's words.
import type { CollectionIndex } from './collection-index.ts';

/** A character's byte in a word code: Latin-1 as itself, anything else folded into 1–31, which no Latin-1 letter or digit uses. */
const codeByte = (c: number): number => (c <= 0xff ? c : 1 + ((Math.imul(c, 0x9e3779b1) >>> 0) % 31));

/** A row's signature has a bit for the first character of each of its words (letters, digit groups, the rest). */
function initialBit(firstByte: number): number {
  if (firstByte >= 97 && firstByte <= 122) return 1 << (firstByte - 97);
  if (firstByte >= 48 && firstByte <= 57) return 1 << (26 + ((firstByte - 48) % 5));
  return 1 << 31;
}

/**
 * A row's second signature has a bit for the first two characters of each of its words, hashed
 * to one of 32 (no bit for a one-character word). A row with an "s" word passes the initials for
 * "su"; one in five or so also passes this, where few have a "su" word: "su" walked 313,000 rows
 * of the 1M mirror, most of them tested code by code for nothing.
 */
function pairBit(firstByte: number, secondByte: number): number {
  return 1 << (Math.imul((firstByte << 8) | secondByte, 0x9e3779b1) >>> 27);
}

export interface WordTest { word: string; code: number; mask: number; confirm: boolean; bit: number; pair: number }

export function wordTest(word: string): WordTest {
  const length = Math.min(4, word.length);
  let code = 0;
  let latin1 = true;
  for (let i = 0; i < length; i++) {
    const c = word.charCodeAt(i);
    if (c > 0xff) latin1 = false;
    code = (code << 8) | codeByte(c);
  }
  const shift = 8 * (4 - length);
  return {
    word, code: (code << shift) | 0, mask: shift === 32 ? 0 : (-1 << shift) | 0, confirm: !latin1 || word.length > 4,
    bit: initialBit(codeByte(word.charCodeAt(0))),
    pair: word.length < 2 ? 0 : pairBit(codeByte(word.charCodeAt(0)), codeByte(word.charCodeAt(1))),
  };
}

/** The rows' words, once per index, as read from the mirror: rows separated by line breaks, in row order. */
export interface RowWords { text: string; textStarts: Int32Array; wordCount: number }

export function readRowWords(index: CollectionIndex): RowWords {
  const text = index.reader.words();
  const n = index.size;
  const textStarts = new Int32Array(n + 1);
  let wordCount = 0;
  let row = 0;
  for (let i = 0, inWord = false; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      row++;
      textStarts[row] = i + 1;
    }
    const letter = c !== 32 && c !== 10;
    if (letter && !inWord) wordCount++;
    inWord = letter;
  }
  if (row + 1 !== n && !(n === 0 && text === '')) throw new Error('the mirror changed while the index was read');
  textStarts[n] = text.length + 1;
  return { text, textStarts, wordCount };
}

/** The rows' word codes, initials, pairs and facets in one order's sequence. */
export interface Lane { rows: Int32Array; facets: Uint16Array; initials: Int32Array; pairs: Int32Array; codes: Int32Array; codeStarts: Int32Array }

export function buildLane(index: CollectionIndex, words: RowWords, rows: Int32Array): Lane {
  const { text, textStarts } = words;
  const n = rows.length;
  const facets = new Uint16Array(n);
  const initials = new Int32Array(n);
  const pairs = new Int32Array(n);
  const codeStarts = new Int32Array(n + 1);
  const codes = new Int32Array(words.wordCount);
  let k = 0;
  for (let p = 0; p < n; p++) {
    const row = rows[p] as number;
    facets[p] = index.facets[row] as number;
    let bits = 0;
    let pairBits = 0;
    let first = 0;
    let code = 0;
    let length = 0;
    const end = (textStarts[row + 1] as number) - 1;
    for (let i = textStarts[row] as number; i <= end; i++) {
      const c = i < end ? text.charCodeAt(i) : 32;
      if (c === 32) {
        if (length > 0) codes[k++] = (code << (8 * (4 - Math.min(length, 4)))) | 0;
        code = 0;
        length = 0;
      } else {
        const byte = codeByte(c);
        if (length === 0) {
          bits |= initialBit(byte);
          first = byte;
        } else if (length === 1) pairBits |= pairBit(first, byte);
        if (length < 4) code = (code << 8) | byte;
        length++;
      }
    }
    initials[p] = bits;
    pairs[p] = pairBits;
    codeStarts[p + 1] = k;
  }
  return { rows, facets, initials, pairs, codes, codeStarts };
}
