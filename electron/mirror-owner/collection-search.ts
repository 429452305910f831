// Search within one library's index (collection-index.ts), in any sort, with any filters: the rows
// whose words (search-text.ts) have every search word as the beginning of one of theirs.
// Two ways to the same rows, chosen per search:
// - a walk along the order, testing each row's words, stopping once enough are found: the
//   first page and a count up to the cap cost little when matches are common;
// - the full-text index (FTS5, prefix indexes) when matches are few: its content ids are the
//   complete answer, put in the order's positions.
// The walk reads the order's lane (collection-lanes.ts): most rows are ruled out by their initials
// and their words' first two characters,
// the rest tested by word codes, and confirmed in their words' text where codes cannot tell.
// A search's progress is kept, so the next page or the exact count carries on from there; and a
// search that narrows a kept one (staff typing on: "har" → "harp", "harp" → "harp s") starts from
// what that one found and where its walk stopped, instead of walking the order again.
import type { Query, Reads } from './mirror-file.ts';
import { ftsMatch } from './search-text.ts';
import { acceptTable, filterKey, readsAvailability, type Direction, type IndexFilters, type CollectionIndex, type SortKey } from './collection-index.ts';
import { buildLane, readRowWords, wordTest, type Lane, type RowWords, type WordTest } from './collection-lanes.ts';
import { readIntegers } from './collection-reader.ts';

/** Common searches stop walking here; the count shows as "1,000+". */
export const COUNT_CAP = 1000;
export interface SearchTuning {
  /** Rows the walk tries before asking the full-text index whether matches are few. */
  walkFirst: number;
  /** A search with a word this long asks the index first (long words are seldom common, and cost the walk a look at the text). */
  longWord: number;
  /** Shorter words are never asked of the index: they narrow its answer little and their prefix lists hold most titles; they are tested on the rows instead. */
  indexedWord: number;
  /** At most this many full-text matches are few enough to read out. */
  fewMatches: number;
  /**
   * Past this many matches (by a walk's rate), a search walks on rather than ask the index: the walk
   * finds a first page and the count to 1,000 within half the order, where the index would read out
   * thousands of ids or count past its few for nothing.
   */
  manyForAWalk: number;
}
export const DEFAULT_TUNING: SearchTuning = { walkFirst: 25_000, longWord: 5, indexedWord: 3, fewMatches: 8000, manyForAWalk: 2 * COUNT_CAP };
const SEARCHES_KEPT = 6;
/** What the warm-up walk looks for: a common initial, and a second letter few words have, so it tests the words of many rows along the whole lane. */
const WARM_UP_WORDS = ['sx'];
/** Rows a walk must have found before its rate says how many the whole order holds. */
const ENOUGH_TO_ESTIMATE = 100;
/** One lane is ~39 bytes a row: the current sort's is kept (another sort's search builds its own in ~100 ms). */
const LANES_KEPT = 1;

/** Rows in order, appended to: 4 bytes a row (a search may hold half a million). */
class RowList {
  private data: Int32Array = new Int32Array(1024);
  length = 0;

  push(row: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = row;
  }

  static of(rows: Int32Array): RowList {
    const list = new RowList();
    list.data = rows;
    list.length = rows.length;
    return list;
  }

  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/** A search under way: rows found so far, in order, and where the walk goes on. */
interface Progress {
  words: readonly string[];
  /** The filters, sort and direction it searches in (only a search in the same narrows it). */
  shape: string;
  found: RowList;
  walkedTo: number;
  complete: boolean;
  checkedIndex: boolean;
  /**
   * Words the full-text index would be asked for (`askedOf`), known to match so many that walking
   * on beats asking it (it said more than are few, or a walk's rate says more than `manyForAWalk`):
   * for them, or for them and more words. The index reads each word's whole list before it ANDs
   * them, so adding a word does not make a many word's list cheaper: "hannah mar" took 7.5 ms on
   * the 1M mirror, for 1,029 matches, once "hannah" was known to be many.
   */
  manyAsked?: readonly string[];
  /**
   * Carried on from a search that knew all its matches: the rest of its rows, in order, not yet
   * tested against these words. Every match is among them (or already in `found`), so they are
   * tested instead of walking the order or asking the index; `complete` once none is left.
   */
  untested?: Int32Array;
  readsAvailability: boolean;
}

/**
 * Every row `words` match is one `earlier` matched: each earlier word begins one of the new words
 * (a word typed on, a word added), and a title's word that the new word begins, the earlier one
 * begins too.
 */
export function narrows(words: readonly string[], earlier: readonly string[]): boolean {
  return earlier.every((old) => words.some((word) => word.startsWith(old)));
}

export interface SearchResult {
  /** Rows in order, at least up to the asked `need` when there are that many. */
  rows: Int32Array;
  /** Every match is in `rows`: its length is the exact count. */
  complete: boolean;
}

/** `first` then `then`, in one list (`first` itself when there is nothing after it). */
function joined(first: Int32Array, then: Int32Array | undefined): Int32Array {
  if (!then || then.length === 0) return first;
  const rows = new Int32Array(first.length + then.length);
  rows.set(first);
  rows.set(then, first.length);
  return rows;
}

/** Longer words first: they rule most rows out with the first test. */
const testsOf = (words: readonly string[]): WordTest[] => words.map(wordTest).sort((a, b) => b.word.length - a.word.length);

/** The bits a row's signatures need for these words: its initials, its words' first two characters. */
interface Needs { initials: number; pairs: number }

function needsOf(tests: readonly WordTest[]): Needs {
  let initials = 0;
  let pairs = 0;
  for (const test of tests) {
    initials |= test.bit;
    pairs |= test.pair;
  }
  return { initials, pairs };
}

const NO_MATCH = 0;
const MATCH = 1;
/** The codes match, and a word longer than a code (or not Latin-1) is to be read in the row's text. */
const TO_CONFIRM = 2;

/** Whether a row's word codes, `codes[start..stop)`, have a match for every test. */
function codesMatch(codes: Int32Array, start: number, stop: number, tests: readonly WordTest[]): number {
  let confirm = false;
  for (const test of tests) {
    let hit = false;
    for (let k = start; k < stop; k++) {
      if (((codes[k] as number) & test.mask) === test.code) {
        hit = true;
        break;
      }
    }
    if (!hit) return NO_MATCH;
    confirm ||= test.confirm;
  }
  return confirm ? TO_CONFIRM : MATCH;
}

export class CollectionSearch {
  private readonly index: CollectionIndex;
  private words: RowWords | undefined;
  private readonly lanes = new Map<string, Lane>();
  private readonly searches = new Map<string, Progress>();
  private readonly matchStatement: Query;
  private readonly tuning: SearchTuning;
  private warmed = false;

  /** `tuning` is for tests that prove each way on its own. */
  constructor(index: CollectionIndex, db: Reads, tuning: SearchTuning = DEFAULT_TUNING) {
    this.index = index;
    this.tuning = tuning;
    this.matchStatement = db.query('SELECT count(*) AS n, group_concat(rowid) AS ids FROM (SELECT rowid FROM title_words WHERE title_words MATCH ? LIMIT ?)');
  }

  /** Matches of `words` in this order, at least `need` of them (all with Infinity). */
  find(words: readonly string[], filters: IndexFilters, sort: SortKey, direction: Direction, need: number): SearchResult {
    const shape = `${filterKey(filters)}|${sort} ${direction}`;
    const key = `${words.join(' ')}|${shape}`;
    let progress = this.searches.get(key);
    if (progress) this.searches.delete(key);
    else {
      progress = this.narrowed(words, shape, filters, sort, direction, need)
        ?? { words, shape, found: new RowList(), walkedTo: 0, complete: false, checkedIndex: false, readsAvailability: readsAvailability(filters, sort) };
    }
    if (this.searches.size >= SEARCHES_KEPT) this.searches.delete(this.searches.keys().next().value as string);
    this.searches.set(key, progress);
    if (!progress.complete && progress.found.length < need) this.advance(progress, words, filters, sort, direction, need);
    return { rows: progress.found.view(), complete: progress.complete };
  }

  /** Availability changed these rows' facets: lanes take them, and what depended on availability is done again. */
  patchFacets(rows: readonly number[]): void {
    if (rows.length === 0) return;
    for (const [key, lane] of [...this.lanes]) {
      const [sort, direction] = key.split(' ') as [SortKey, Direction];
      if (sort === 'availability') {
        this.lanes.delete(key);
        continue;
      }
      const positions = this.index.order(sort, direction).positions();
      for (const row of rows) lane.facets[positions[row] as number] = this.index.facets[row] as number;
    }
    for (const [key, progress] of [...this.searches]) if (progress.readsAvailability) this.searches.delete(key);
  }

  /** For measurements: forget searches under way, as if each were new. */
  forgetSearches(): void {
    this.searches.clear();
  }

  /**
   * The most recent kept search in the same filters and order that `words` narrow, carried on: its
   * rows tested against the new words (none it passed over can match unless they matched it), its
   * walk going on from there. The full-text index is asked again only for other words than it was
   * asked for. Its rows are tested only until `need` match: after an exact count ("s": every one of
   * half a million titles) the next keystroke would otherwise test them all for a first page; the
   * walk then goes on from just after the last row tested. When that search knew all its matches
   * (an exact count, or the index's whole answer), the rest of its rows are all there is to test:
   * the later keystrokes and counts test those, where they would walk the order again or ask the
   * index. On the 1M mirror, "Voyage" counted after "Voy" was counted: 16.4 ms before, 7-9 ms after.
   */
  private narrowed(words: readonly string[], shape: string, filters: IndexFilters, sort: SortKey, direction: Direction, need: number): Progress | undefined {
    let from: Progress | undefined;
    for (const kept of this.searches.values()) if (kept.shape === shape && narrows(words, kept.words)) from = kept;
    if (!from) return undefined;
    const lane = this.lane(sort, direction);
    const positions = this.index.order(sort, direction).positions();
    const tests = testsOf(words);
    const accept = acceptTable(filters);
    const found = new RowList();
    const earlier = from.found.view();
    const manyAsked = this.manyAskedOf(from, lane);
    const i = this.testRows(earlier, found, need, lane, positions, tests, accept);
    if (from.complete || from.untested) {
      const untested = joined(earlier.subarray(i), from.untested);
      return {
        words, shape, found, walkedTo: from.walkedTo, complete: untested.length === 0, checkedIndex: true,
        ...(untested.length > 0 ? { untested } : {}), readsAvailability: from.readsAvailability,
      };
    }
    if (i < earlier.length) {
      // Stopped inside the earlier rows: the walk goes on after the last one tested (every row
      // before it was covered by the earlier search), and a count may ask the index again.
      const walkedTo = i === 0 ? 0 : (positions[earlier[i - 1] as number] as number) + 1;
      return { words, shape, found, walkedTo, complete: false, checkedIndex: false, ...(manyAsked ? { manyAsked } : {}), readsAvailability: from.readsAvailability };
    }
    return {
      words, shape, found, walkedTo: from.walkedTo, complete: from.complete,
      checkedIndex: from.checkedIndex && this.askedOf(words).join(' ') === this.askedOf(from.words).join(' '), ...(manyAsked ? { manyAsked } : {}), readsAvailability: from.readsAvailability,
    };
  }

  private advance(progress: Progress, words: readonly string[], filters: IndexFilters, sort: SortKey, direction: Direction, need: number): void {
    const lane = this.lane(sort, direction);
    const tests = testsOf(words);
    const accept = acceptTable(filters);
    if (progress.untested) {
      this.testUntested(progress, lane, this.index.order(sort, direction).positions(), tests, accept, need);
      return;
    }
    if (!progress.checkedIndex) {
      const first = words.some((w) => w.length >= this.tuning.longWord) ? 0 : this.tuning.walkFirst;
      this.walk(progress, lane, tests, accept, need, progress.walkedTo + first);
      if (progress.complete || progress.found.length >= need) return;
      progress.checkedIndex = true;
      // Words of one or two letters are tested on the rows the index returns for the longer
      // ones; a search of short words only walks on (its matches are rarely few).
      const asked = this.askedOf(words);
      const knownMany = progress.manyAsked?.every((word) => asked.includes(word)) ?? false;
      const few = asked.length > 0 && !knownMany ? this.fewMatches(asked) : undefined;
      if (asked.length > 0 && !few && !knownMany) progress.manyAsked = asked;
      if (few) {
        const rest = tests.filter((t) => !asked.includes(t.word));
        this.placeMatches(progress, few, accept, sort, direction, rest);
        return;
      }
    }
    this.walk(progress, lane, tests, accept, need, Infinity);
  }

  /** The words the full-text index is asked for: one- and two-letter words are tested on its rows instead. */
  private askedOf(words: readonly string[]): readonly string[] {
    return words.filter((word) => word.length >= this.tuning.indexedWord);
  }

  /**
   * What a search carried on from `from` knows matches so many that walking on beats asking the
   * index: `from`'s own words when they are all asked of the index and its walk's rate says so,
   * else what `from` knew. Every row before `walkedTo` that matches them is in `found`, so that rate
   * times the order's length is about what the index would count (less: filters only take rows
   * away). Asking would cost its count for nothing: 6 ms for "hannah" (35,000 titles) at
   * "hannah m". Either way finds the same rows; a wrong guess only walks where the index would
   * have been read.
   */
  private manyAskedOf(from: Progress, lane: Lane): readonly string[] | undefined {
    const found = from.found.length;
    if (from.complete || from.untested || this.askedOf(from.words).length !== from.words.length || found < ENOUGH_TO_ESTIMATE) return from.manyAsked;
    return (found / from.walkedTo) * lane.rows.length > this.tuning.manyForAWalk ? from.words : from.manyAsked;
  }

  private walk(progress: Progress, lane: Lane, tests: WordTest[], accept: Uint8Array, need: number, until: number): void {
    const { rows, facets, initials, pairs, codes, codeStarts } = lane;
    const end = Math.min(rows.length, until);
    const found = progress.found;
    const needed = needsOf(tests);
    const neededInitials = needed.initials;
    const neededPairs = needed.pairs;
    let p = progress.walkedTo;
    for (; p < end && found.length < need; p++) {
      if (((initials[p] as number) & neededInitials) !== neededInitials || ((pairs[p] as number) & neededPairs) !== neededPairs || !accept[facets[p] as number]) continue;
      const codesSay = codesMatch(codes, codeStarts[p] as number, codeStarts[p + 1] as number, tests);
      if (codesSay === NO_MATCH || (codesSay === TO_CONFIRM && !this.confirm(rows[p] as number, tests))) continue;
      found.push(rows[p] as number);
    }
    progress.walkedTo = p;
    if (p >= rows.length) progress.complete = true;
  }

  /** `rows` (in order) that match, added to `found` until it holds `need`; how many of `rows` were tested. */
  private testRows(rows: Int32Array, found: RowList, need: number, lane: Lane, positions: Int32Array, tests: WordTest[], accept: Uint8Array): number {
    const needed = needsOf(tests);
    let k = 0;
    for (; k < rows.length && found.length < need; k++) {
      const row = rows[k] as number;
      if (this.matchesAt(lane, positions[row] as number, tests, needed, accept)) found.push(row);
    }
    return k;
  }

  /** The rows left from a search that knew all its matches, tested until `need` match; complete once none is left. */
  private testUntested(progress: Progress, lane: Lane, positions: Int32Array, tests: WordTest[], accept: Uint8Array, need: number): void {
    const rows = progress.untested as Int32Array;
    const k = this.testRows(rows, progress.found, need, lane, positions, tests, accept);
    if (k < rows.length) progress.untested = rows.subarray(k);
    else {
      delete progress.untested;
      progress.complete = true;
    }
  }

  /** Whether the row at position `p` of the lane passes the filters and has every word (as the walk tests it). */
  private matchesAt(lane: Lane, p: number, tests: WordTest[], needed: Needs, accept: Uint8Array): boolean {
    if (((lane.initials[p] as number) & needed.initials) !== needed.initials || ((lane.pairs[p] as number) & needed.pairs) !== needed.pairs) return false;
    if (!accept[lane.facets[p] as number]) return false;
    const codesSay = codesMatch(lane.codes, lane.codeStarts[p] as number, lane.codeStarts[p + 1] as number, tests);
    return codesSay === MATCH || (codesSay === TO_CONFIRM && this.confirm(lane.rows[p] as number, tests));
  }

  /** Whether every word of `tests` (all of them, or those codes cannot tell) begins one of the row's words, read in its text. */
  private confirm(row: number, tests: WordTest[], all = false): boolean {
    const words = this.rowWords();
    const text = words.text;
    const start = words.textStarts[row] as number;
    const end = (words.textStarts[row + 1] as number) - 1;
    for (const { word, confirm } of tests) {
      if (!confirm && !all) continue;
      let at = start;
      let hit = false;
      while (at <= end - word.length) {
        if (text.startsWith(word, at)) {
          hit = true;
          break;
        }
        const space = text.indexOf(' ', at);
        if (space < 0 || space >= end) break;
        at = space + 1;
      }
      if (!hit) return false;
    }
    return true;
  }

  /** The content ids the full-text index matches, ascending, when there are few; otherwise undefined. */
  private fewMatches(words: readonly string[]): Float64Array | undefined {
    const few = this.tuning.fewMatches;
    const answer = this.matchStatement.get(ftsMatch(words), Number.isFinite(few) ? few + 1 : -1) as { n: number; ids: string | null };
    if (Number(answer.n) > few) return undefined;
    const ids = readIntegers(answer.ids ?? '');
    return ids.sort();
  }

  /** The complete answer from the full-text index: this library's rows that pass the filters (and `rest`), in order. */
  private placeMatches(progress: Progress, ids: Float64Array, accept: Uint8Array, sort: SortKey, direction: Direction, rest: WordTest[]): void {
    const index = this.index;
    const positions = index.order(sort, direction).positions();
    const placed: number[] = [];
    let row = 0;
    for (const id of ids) { // both ascending: one merge
      while (row < index.size && (index.contentIds[row] as number) < id) row++;
      if (row >= index.size) break;
      if (index.contentIds[row] === id && accept[index.facets[row] as number] && (rest.length === 0 || this.confirm(row, rest, true))) placed.push(positions[row] as number);
    }
    const ordered = Int32Array.from(placed).sort();
    const rows = index.order(sort, direction).rows;
    for (let i = 0; i < ordered.length; i++) ordered[i] = rows[ordered[i] as number] as number;
    progress.found = RowList.of(ordered);
    progress.complete = true;
  }

  private lane(sort: SortKey, direction: Direction): Lane {
    const key = `${sort} ${direction}`;
    let lane = this.lanes.get(key);
    if (lane) {
      this.lanes.delete(key);
    } else {
      lane = buildLane(this.index, this.rowWords(), this.index.order(sort, direction).rows);
      if (this.lanes.size >= LANES_KEPT) this.lanes.delete(this.lanes.keys().next().value as string);
      if (!this.warmed) this.warmUp(lane, sort, direction);
    }
    this.lanes.set(key, lane);
    return lane;
  }

  /**
   * What the first keystrokes would otherwise do cold, done when the first lane is made: the
   * order's positions (what narrowing a search reads), and the walk run once for nothing, as a
   * search walks (V8 makes fast code of a loop only once it has run a while). On the 1M mirror
   * the first "su" after the lane took 22 ms, later ones 4-5 ms. This costs about that once,
   * beside the lane's 1.5 s.
   */
  private warmUp(lane: Lane, sort: SortKey, direction: Direction): void {
    this.warmed = true;
    this.index.order(sort, direction).positions();
    const progress: Progress = { words: [], shape: '', found: new RowList(), walkedTo: 0, complete: false, checkedIndex: true, readsAvailability: false };
    this.walk(progress, lane, testsOf(WARM_UP_WORDS), acceptTable({}), COUNT_CAP + 1, lane.rows.length);
  }

  private rowWords(): RowWords {
    this.words ??= readRowWords(this.index);
    return this.words;
  }
}
