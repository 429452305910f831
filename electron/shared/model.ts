// The one clean shape the rest of the app sees. normalize.ts maps every wire variant the
// spec allows onto these; fields a publisher left out stay undefined (never '' or 0),
// so the UI can show what is there and nothing else.

import type { ContentId } from './content-id.ts';

export type { ContentId } from './content-id.ts';

export const FORMATS = ['EBOOK', 'AUDIOBOOK', 'MOVIE', 'TELEVISION', 'MUSIC', 'COMIC'] as const;
export type Format = (typeof FORMATS)[number];

export type PurchaseModel = 'INSTANT' | 'FLEX';
export type HoldStatus = 'WAITING' | 'RESERVED';
export type AvailabilityStatus = 'BORROW' | 'HOLD' | 'UNAVAILABLE';
export const COUNTRIES = ['US', 'CA', 'AU', 'NZ'] as const;
export type Country = (typeof COUNTRIES)[number];

/** Times are epoch milliseconds in the model (the wire uses seconds). */
export interface Loan {
  contentId: ContentId;
  title?: string;
  format?: Format;
  borrowedAt?: number;
  dueAt?: number;
  url?: string;
  coverImageUrl?: string;
  message?: string;
}

export interface Hold {
  contentId: ContentId;
  status?: HoldStatus;
  title?: string;
  format?: Format;
  placedAt?: number;
  reserveUntil?: number;
  queuePosition?: number;
  url?: string;
  coverImageUrl?: string;
}

export interface PatronStatus {
  borrowsRemaining?: number;
  borrowsAllowedPerMonth?: number;
  currentlyBorrowed?: number;
}

export interface Segment {
  number?: number;
  name?: string;
  seconds?: number;
}

export interface Artist {
  name: string;
  role?: string;
  formalName?: string;
}

export interface Episode {
  /** The episode's own content id (a search result's `episodes[].id`: a string in the published schema). */
  id?: ContentId;
  /** A library content record's title id for the episode (the spec's rule: later episodes each have their own). */
  titleId?: number;
  season?: number;
  episode?: number;
  title?: string;
  synopsis?: string;
  /** Running time in seconds. */
  seconds?: number;
}

/** A global catalog record (also the shape library content records normalise into). */
export interface CatalogRecord {
  id: ContentId;
  titleId?: number;
  format?: Format;
  title?: string;
  subtitle?: string;
  series?: string;
  seriesNumber?: number;
  season?: number;
  episode?: number;
  isbn?: string;
  upc?: string;
  synopsis?: string;
  year?: number;
  duration?: string;
  pages?: number;
  language?: string;
  subtitleLanguage?: string;
  dubLanguage?: string;
  artist?: string;
  artists: Artist[];
  publisher?: string;
  genres: string[];
  audience?: string;
  lexile?: string;
  atosBookLevel?: string;
  interestLevel?: string;
  forChildren?: boolean;
  fiction?: boolean;
  abridged?: boolean;
  parentalAdvisory?: boolean;
  demo?: boolean;
  profanity?: boolean;
  edited?: boolean;
  url?: string;
  coverImageUrl?: string;
  countries: Country[];
  /** Purchase models the title is sold under, from products' licenseType. */
  purchaseModels: PurchaseModel[];
  /** The products it is sold as (the global catalog's `products[]`): each one's id and model; absent when none. */
  products?: Product[];
  ratings: { country: string; value: string }[];
  ppuPrices: { country: string; price: number }[];
  /** Country-specific covers (the global catalog's `coverImageUrls`); absent when none. */
  coverImageUrls?: { country: string; url: string }[];
  segments: Segment[];
  episodes: Episode[];
  /** The title of the title an episode or part belongs to (library content's `titleTitle`). */
  titleTitle?: string;
  /** The parental rating in the library's own country (library content's `rating`; the catalog gives `ratings` by country). */
  rating?: string;
  /** What one borrow costs the library, in its country's currency (library content's `price`: a pay-per-use title). */
  price?: number;
}

/** One product a title is sold as: its id, and its licence as a purchase model. */
export interface Product {
  productId?: number;
  model?: PurchaseModel;
}

/** A delta entry: either the record as it now is, or its removal. */
export type CatalogChange = { kind: 'upsert'; record: CatalogRecord } | { kind: 'removed'; id: ContentId };

export interface LibraryTitle extends CatalogRecord {
  active?: boolean;
  purchaseModel?: PurchaseModel;
}

export type LibraryContentChange = { kind: 'upsert'; title: LibraryTitle } | { kind: 'removed'; id: ContentId };

export interface Entitlement {
  contentId: ContentId;
  active: boolean;
  /** The purchase model the record itself gives, where it gives one (the spec shows none): it wins over the filter asked (issue #34). */
  model?: PurchaseModel;
  /** The library is no longer entitled to the title (delta only). */
  removed: boolean;
}

export interface Availability {
  contentId: ContentId;
  /** The service left this id out of its answer, asked twice: nothing is known of it. */
  unknown?: true;
  status?: AvailabilityStatus;
  available?: boolean;
  holdsQueueSize?: number;
  availableCopies?: number;
  totalCopies?: number;
  holdsQueuePosition?: number;
  purchaseModel?: PurchaseModel;
}

export interface SearchHit {
  titleId?: number;
  title?: string;
  subtitle?: string;
  synopsis?: string;
  format?: Format;
  artist?: string;
  artists: Artist[];
  year?: number;
  series?: string;
  publisher?: string;
  purchaseModel?: PurchaseModel;
  forChildren?: boolean;
  url?: string;
  coverImageUrl?: string;
  isbn?: string;
  upc?: string;
  language?: string;
  subtitleLanguage?: string;
  dubLanguage?: string;
  genres: string[];
  /** Running time in seconds (the wire's integer `duration`). */
  seconds?: number;
  pages?: number;
  abridged?: boolean;
  fiction?: boolean;
  readAlong?: boolean;
  /** The parental rating in the library's country (PG-13, 14A…). */
  rating?: string;
  parentalAdvisory?: boolean;
  /** A sample (the wire's `demo`). */
  demo?: boolean;
  profanity?: boolean;
  edited?: boolean;
  fixedLayout?: boolean;
  segments: Segment[];
  episodes: Episode[];
}

export interface SearchPage {
  found: number;
  hits: SearchHit[];
}

/** One page of a bulk pull; `next` is absent on the last page. */
export interface Page<T> {
  items: T[];
  next?: string;
  totalCount?: number;
  /** `metadata.warnings`: what the service says about the pull (its content is not shown in the spec). */
  warnings?: string[];
}
