// The one clean shape the rest of the app sees. normalize.ts maps every wire variant the
// spec allows onto these; fields a publisher left out stay undefined (never '' or 0),
// so the UI can show what is there and nothing else.

export const FORMATS = ['EBOOK', 'AUDIOBOOK', 'MOVIE', 'TELEVISION', 'MUSIC', 'COMIC'] as const;
export type Format = (typeof FORMATS)[number];

export type PurchaseModel = 'INSTANT' | 'FLEX';
export type HoldStatus = 'WAITING' | 'RESERVED';
export type AvailabilityStatus = 'BORROW' | 'HOLD' | 'UNAVAILABLE';
export const COUNTRIES = ['US', 'CA', 'AU', 'NZ'] as const;
export type Country = (typeof COUNTRIES)[number];

/** Times are epoch milliseconds in the model (the wire uses seconds). */
export interface Loan {
  contentId: number;
  title?: string;
  format?: Format;
  borrowedAt?: number;
  dueAt?: number;
  url?: string;
  coverImageUrl?: string;
  message?: string;
}

export interface Hold {
  contentId: number;
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
  titleId?: number;
  season?: number;
  episode?: number;
  title?: string;
  synopsis?: string;
}

/** A global catalog record (also the shape library content records normalise into). */
export interface CatalogRecord {
  id: number;
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
  ratings: { country: string; value: string }[];
  ppuPrices: { country: string; price: number }[];
  segments: Segment[];
  episodes: Episode[];
}

/** A delta entry: either the record as it now is, or its removal. */
export type CatalogChange = { kind: 'upsert'; record: CatalogRecord } | { kind: 'removed'; id: number };

export interface LibraryTitle extends CatalogRecord {
  active?: boolean;
  purchaseModel?: PurchaseModel;
  price?: number;
}

export type LibraryContentChange = { kind: 'upsert'; title: LibraryTitle } | { kind: 'removed'; id: number };

export interface Entitlement {
  contentId: number;
  active: boolean;
  /** The library is no longer entitled to the title (delta only). */
  removed: boolean;
}

export interface Availability {
  contentId: number;
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
  genres: string[];
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
}
