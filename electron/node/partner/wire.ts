// The partner service's wire shapes, as the spec (../shared/spec/partner-service.md) and
// real clients show them. Every field is optional: publishers leave metadata out, and the
// service has been seen to vary shapes. The sandbox produces these; the client parses them
// tolerantly (normalize.ts) into the clean shapes in model.ts.

/** A content id on the wire: an integer in the spec; a string for an episode in the published schema. */
export type WireContentId = number | string;

export interface WireToken {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
}

export interface WireBorrowRecord {
  contentId?: WireContentId;
  title?: string;
  borrowed?: number;
  due?: number;
  kind?: string;
  url?: string;
  coverImageUrl?: string;
  message?: string;
}

export type WireHoldStatus = 'WAITING' | 'RESERVED';

export interface WireHold {
  status?: string;
  contentId?: WireContentId;
  title?: string;
  inserted?: number;
  reserveUntil?: number;
  url?: string;
  coverImageUrl?: string;
  kind?: string;
  holdsQueuePosition?: number;
}

export interface WirePatronStatus {
  borrowsRemaining?: number;
  borrowsAllowedPerMonth?: number;
  currentlyBorrowed?: number;
}

export interface WireSegment {
  segmentNumber?: number;
  name?: string;
  seconds?: number;
}

export interface WireArtist {
  name?: string;
  relationship?: string;
  artistFormal?: string;
}

/** Element of `titles` in the library content response (both schema generations). */
export interface WireLibraryContentRecord {
  id?: WireContentId;
  titleId?: number;
  active?: boolean;
  /** Sandbox deltas only: the title left the library's collection. */
  removed?: boolean;
  title?: string;
  subtitle?: string;
  titleTitle?: string;
  series?: string;
  seriesNumber?: number;
  season?: number;
  episode?: number;
  upc?: string;
  isbn?: string;
  duration?: string;
  pa?: boolean;
  demo?: boolean;
  profanity?: boolean;
  synopsis?: string;
  year?: number;
  rating?: string;
  audience?: string;
  abridged?: boolean;
  edited?: boolean;
  children?: boolean;
  url?: string;
  coverImageUrl?: string;
  segments?: WireSegment[];
  kind?: string;
  publisher?: string;
  language?: string;
  subtitleLanguage?: string;
  dubtitleLanguage?: string;
  artist?: string;
  artists?: WireArtist[];
  genres?: string[];
  price?: number;
  pages?: number;
  fiction?: boolean;
  purchaseModel?: string;
  lexile?: string;
  atosBookLevel?: string;
  interestLevel?: string;
}

export interface WireLibraryContentResponse {
  nextStartToken?: number;
  titles?: WireLibraryContentRecord[];
}

export interface WireProduct {
  productId?: number;
  licenseType?: string;
  /** Older name of licenseType. */
  purchaseModel?: string;
}

export interface WireRating {
  countryCode?: string;
  ratingValue?: string;
}

export interface WirePpuPrice {
  countryCode?: string;
  ppuPrice?: number;
}

export interface WireGlobalContentRecord {
  id?: WireContentId;
  titleId?: number;
  format?: string;
  /** Older name of format. */
  kind?: string;
  /** Deltas only: the record left the global catalog (sandbox representation). */
  removed?: boolean;
  title?: string;
  subtitle?: string;
  seriesName?: string;
  seriesNumber?: number;
  seasonNumber?: number;
  episodeNumber?: number;
  upc?: string;
  isbn?: string;
  isParentalAdvisory?: boolean;
  isDemo?: boolean;
  containsProfanity?: boolean;
  duration?: string;
  synopsis?: string;
  releaseYear?: string;
  isAbridged?: boolean;
  isEdited?: boolean;
  isForChildren?: boolean;
  language?: string;
  subtitleLanguage?: string;
  dubLanguage?: string;
  artist?: string;
  publisher?: string;
  pages?: number;
  url?: string;
  coverImageUrl?: string;
  /** Country-specific covers: the spec names the attribute, not its shape (the sandbox sends this list). */
  coverImageUrls?: { countryCode?: string; coverImageUrl?: string }[];
  products?: WireProduct[];
  ratings?: WireRating[];
  audience?: string;
  lexile?: string;
  interestLevel?: string;
  atosBookLevel?: string;
  ppuPrices?: WirePpuPrice[];
  isFiction?: boolean;
  countryCodes?: string[];
  genres?: string[];
  segments?: WireSegment[];
  artists?: WireArtist[];
}

export interface WireMetadata {
  totalCount?: number;
  nextStartToken?: string | number;
  warnings?: string[];
}

export interface WireGlobalContentResponse {
  metadata?: WireMetadata;
  /** Documented form: a map of names to record lists. */
  data?: Record<string, WireGlobalContentRecord[]>;
  /** Form seen in real clients' code. */
  contents?: WireGlobalContentRecord[];
}

export interface WireEntitlement {
  contentId?: WireContentId;
  active?: boolean;
  /** Not in the spec's schema: a service may say the model itself (the sandbox's shape `entitlementModel`). */
  purchaseModel?: string;
  /** Deltas only: the library is no longer entitled to the title (sandbox representation). */
  removed?: boolean;
}

export interface WireEntitlementsResponse {
  metadata?: WireMetadata;
  entitlements?: WireEntitlement[];
  data?: Record<string, WireEntitlement[]>;
}

export interface WireSearchEpisode {
  id?: string;
  episode?: number;
  title?: string;
  synopsis?: string;
  duration?: number;
}

export interface WireSearchTitle {
  titleId?: number;
  title?: string;
  subtitle?: string;
  synopsis?: string;
  kind?: string;
  artist?: string;
  demo?: boolean;
  pa?: boolean;
  edited?: boolean;
  year?: number;
  duration?: number;
  pages?: number;
  children?: boolean;
  readAlong?: boolean;
  fiction?: boolean;
  abridged?: boolean;
  profanity?: boolean;
  fixedLayout?: boolean;
  upc?: string;
  isbn?: string;
  language?: string;
  subtitleLanguage?: string;
  dubLanguage?: string;
  purchaseModel?: string;
  series?: string;
  rating?: string;
  publisher?: string;
  url?: string;
  coverImageUrl?: string;
  episodes?: WireSearchEpisode[];
  segments?: WireSegment[];
  genres?: { name?: string }[];
  artists?: WireArtist[];
}

export interface WireSearchResponse {
  found?: number;
  titles?: WireSearchTitle[];
}

export interface WireAvailability {
  status?: string;
  available?: boolean;
  holdsQueueSize?: number;
  availableCopies?: number;
  totalCopies?: number;
  holdsQueuePosition?: number;
  purchaseModel?: string;
}

export interface WireContentInfo {
  contentId?: WireContentId;
  availability?: WireAvailability;
}

/** Error bodies: JSON with `message` and/or `detail`. */
export interface WireError {
  message?: string;
  detail?: string;
}
