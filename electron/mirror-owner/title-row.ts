// A title as the mirror stores it: the columns SQL reads (the Collection's copies, the search
// words) beside its record in the compact form of title-record.ts, made by the owner from the
// record the client's normalising made of the page it read — each record read once.
//
// Records a mirror before schema 6 stored (title_records: as the service sent them, `wire` 1,
// or normalised, 0) are read by recordOf until the owner has converted them (mirror-upgrade.ts).
import { parseCatalogRecord, type Json } from '../node/partner/normalize.ts';
import type { CatalogRecord, ContentId, PurchaseModel } from '../shared/model.ts';
import { searchWords } from './search-text.ts';
import { encodeRecord, type Vocabulary } from './title-record.ts';
import { CONTENT_FLAGS, type ContentFlag } from '../shared/collection.ts';

export interface TitleRow {
  /** The content id; the mirror files it under its key (content-keys.ts). */
  id: ContentId;
  title: string | null;
  /** The record's artist, or else its first named one: what the Collection shows and sorts by. */
  artist: string | null;
  format: string | null;
  year: number | null;
  kids: 0 | 1;
  /** The content flags as bits (contentFlagBits). */
  flags: number;
  /** The purchase models it is sold under, as bits (modelBits). */
  models: number;
  words: string;
  record: Uint8Array;
  /** The title it belongs to: what a search result names (title-contents.ts). */
  titleId: number | null;
}

/** The words a title is found by, from its record. */
export const wordsOf = (record: CatalogRecord): string =>
  searchWords([record.title, record.series, record.artist ?? record.artists[0]?.name, record.isbn, record.upc]);

/** Which of the content flags the record carries: bit i for CONTENT_FLAGS[i]. */
export function contentFlagBits(record: Pick<CatalogRecord, 'demo' | 'profanity' | 'edited'>): number {
  const has: Record<ContentFlag, boolean | undefined> = { sample: record.demo, profanity: record.profanity, edited: record.edited };
  return CONTENT_FLAGS.reduce((bits, flag, i) => (has[flag] ? bits | (1 << i) : bits), 0);
}

/** The purchase models as bits: 1 Instant, 2 Flex (0: not known). */
export const MODEL_BITS: Record<PurchaseModel, number> = { INSTANT: 1, FLEX: 2 };
export const modelBits = (models: readonly PurchaseModel[]): number => models.reduce((bits, model) => bits | MODEL_BITS[model], 0);

export function titleRow(record: CatalogRecord, vocabulary: Vocabulary): TitleRow {
  return {
    id: record.id, title: record.title ?? null, artist: record.artist ?? record.artists[0]?.name ?? null, format: record.format ?? null,
    year: record.year ?? null, kids: record.forChildren ? 1 : 0, flags: contentFlagBits(record), models: modelBits(record.purchaseModels), words: wordsOf(record), record: encodeRecord(record, vocabulary),
    titleId: record.titleId ?? null,
  };
}

/** A record a mirror before schema 6 stored, normalised (an earlier mirror filed only whole-number ids). */
export const recordOf = (text: string, wire: number, id: number): CatalogRecord =>
  (wire ? parseCatalogRecord(JSON.parse(text) as Json, id) : (JSON.parse(text) as CatalogRecord));
