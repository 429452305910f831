// Tolerant parsing of the service's answers, done once at the edge. The spec warns that any
// metadata field may be absent or empty, that `kind` may read `Ebooks`, that current holds
// may come as an object or an array, and that bulk lists may sit under different keys.
// Every function takes `unknown` (a parsed JSON body) and returns the model's shape; a
// body of the wrong kind altogether is a DeskError('bad-response').

import { DeskError } from '../../shared/desk-error.ts';
import type {
  Artist, Availability, AvailabilityStatus, CatalogChange, CatalogRecord, Country, Entitlement, Episode,
  Format, Hold, HoldStatus, LibraryContentChange, LibraryTitle, Loan, Page, PatronStatus, Product, PurchaseModel,
  SearchHit, SearchPage, Segment,
} from '../../shared/model.ts';
import { COUNTRIES } from '../../shared/model.ts';
import { contentIdOf, type ContentId } from '../../shared/content-id.ts';
import { durationSeconds } from '../../shared/duration.ts';
import { joined, type Bytes } from './bytes.ts';
import { CONTROL_CHARS, INVISIBLE_CHARS } from './paths.ts';

export type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
function int(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return undefined;
}
function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const objects = (v: unknown): Json[] => list(v).filter(isObject);

function badResponse(what: string): DeskError {
  return new DeskError('bad-response', `The service sent an answer that could not be read (${what}).`);
}

/** Unix times on the wire are seconds; a value too large for seconds is taken as milliseconds. */
export function wireTimeToMs(v: unknown): number | undefined {
  const n = num(v);
  if (n === undefined || n <= 0) return undefined;
  return n > 100_000_000_000 ? Math.round(n) : Math.round(n * 1000);
}

const FORMAT_ALIASES: Record<string, Format> = {
  EBOOK: 'EBOOK', AUDIOBOOK: 'AUDIOBOOK', MOVIE: 'MOVIE', FILM: 'MOVIE', VIDEO: 'MOVIE',
  TELEVISION: 'TELEVISION', TV: 'TELEVISION', EPISODE: 'TELEVISION', MUSIC: 'MUSIC', ALBUM: 'MUSIC',
  COMIC: 'COMIC',
};

/** `EBOOK`, `Ebooks`, `e-book`, `Audiobooks` … all read as one format. */
export function normalizeFormat(v: unknown): Format | undefined {
  const s = str(v);
  if (!s) return undefined;
  const letters = s.toUpperCase().replace(/[^A-Z]/g, '');
  return FORMAT_ALIASES[letters] ?? FORMAT_ALIASES[letters.replace(/S$/, '')];
}

/** Instant is sold as `PPU`, Flex as `PERPETUAL`; some clients send `EST` for Flex. */
export function normalizePurchaseModel(v: unknown): PurchaseModel | undefined {
  const s = str(v)?.toUpperCase();
  if (s === 'INSTANT' || s === 'PPU') return 'INSTANT';
  if (s === 'FLEX' || s === 'PERPETUAL' || s === 'EST') return 'FLEX';
  return undefined;
}

function holdStatus(v: unknown): HoldStatus | undefined {
  const s = str(v)?.toUpperCase();
  return s === 'WAITING' || s === 'RESERVED' ? s : undefined;
}

function availabilityStatus(v: unknown): AvailabilityStatus | undefined {
  const s = str(v)?.toUpperCase();
  return s === 'BORROW' || s === 'HOLD' || s === 'UNAVAILABLE' ? s : undefined;
}

function segments(v: unknown): Segment[] {
  return objects(v).map((s) => ({ number: int(s.segmentNumber), name: str(s.name), seconds: int(s.seconds) }));
}

/** Artists may repeat in search results: keep the first of each name and role. */
function artists(v: unknown): Artist[] {
  const out: Artist[] = [];
  for (const a of list(v)) {
    if (!isObject(a)) continue;
    const name = str(a.name);
    if (!name) continue;
    const role = str(a.relationship);
    // A record has a handful of artists: a look along them costs less than a set of keys.
    if (out.some((kept) => kept.name === name && kept.role === role)) continue;
    out.push({ name, role, formalName: str(a.artistFormal) });
  }
  return out;
}

function strings(v: unknown): string[] {
  const out: string[] = [];
  for (const g of list(v)) {
    const text = isObject(g) ? str(g.name) : str(g);
    if (text !== undefined) out.push(text);
  }
  return out;
}

function countries(v: unknown): Country[] {
  const out: Country[] = [];
  for (const c of strings(v)) {
    const code = c.toUpperCase();
    if ((COUNTRIES as readonly string[]).includes(code)) out.push(code as Country);
  }
  return out;
}

function uniqueModels(values: unknown[]): PurchaseModel[] {
  const out: PurchaseModel[] = [];
  for (const value of values) {
    const model = normalizePurchaseModel(value);
    if (model !== undefined && !out.includes(model)) out.push(model);
  }
  return out;
}

export function parseLoan(v: unknown): Loan {
  if (!isObject(v)) throw badResponse('a loan is not an object');
  const contentId = contentIdOf(v.contentId);
  if (contentId === undefined) throw badResponse('a loan has no contentId');
  return {
    contentId, title: str(v.title), format: normalizeFormat(v.kind), borrowedAt: wireTimeToMs(v.borrowed),
    dueAt: wireTimeToMs(v.due), url: str(v.url), coverImageUrl: str(v.coverImageUrl), message: serviceWords(v.message),
  };
}

/** Loans come as an array; an object wrapping one array is accepted too. */
export function parseLoans(body: unknown): Loan[] {
  return itemsOf(body, 'current loans').map(parseLoan);
}

export function parseHold(v: unknown): Hold {
  if (!isObject(v)) throw badResponse('a hold is not an object');
  const contentId = contentIdOf(v.contentId);
  if (contentId === undefined) throw badResponse('a hold has no contentId');
  return {
    contentId, status: holdStatus(v.status), title: str(v.title), format: normalizeFormat(v.kind),
    placedAt: wireTimeToMs(v.inserted), reserveUntil: wireTimeToMs(v.reserveUntil),
    queuePosition: int(v.holdsQueuePosition), url: str(v.url), coverImageUrl: str(v.coverImageUrl),
  };
}

/** Holds: an array, a single hold object, an empty object, or an object wrapping an array. */
export function parseHolds(body: unknown): Hold[] {
  if (isObject(body) && 'contentId' in body) return [parseHold(body)];
  return itemsOf(body, 'current holds').map(parseHold);
}

function itemsOf(body: unknown, what: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body)) {
    const arrays = Object.values(body).filter(Array.isArray);
    if (arrays.length === 1) return arrays[0] as unknown[];
    if (arrays.length === 0 && Object.keys(body).length === 0) return [];
  }
  throw badResponse(`${what} is not a list`);
}

export function parsePatronStatus(body: unknown): PatronStatus {
  if (!isObject(body)) throw badResponse('patron status is not an object');
  return {
    borrowsRemaining: int(body.borrowsRemaining),
    borrowsAllowedPerMonth: int(body.borrowsAllowedPerMonth),
    currentlyBorrowed: int(body.currentlyBorrowed),
  };
}

function episodeOf(v: Json): Episode[] {
  const season = int(v.season ?? v.seasonNumber);
  const episode = int(v.episode ?? v.episodeNumber);
  const seconds = durationSeconds(str(v.duration));
  return season === undefined && episode === undefined ? [] : [{ titleId: int(v.titleId), season, episode, title: str(v.title), ...(seconds === undefined ? {} : { seconds }) }];
}

// Fields read under either spelling of a record.
const formatOf = (v: Json): Format | undefined => normalizeFormat(v.format ?? v.kind);
const seriesOf = (v: Json): string | undefined => str(v.seriesName ?? v.series);
const yearOf = (v: Json): number | undefined => int(v.releaseYear ?? v.year);
const forChildrenOf = (v: Json): boolean | undefined => bool(v.isForChildren ?? v.children);

/** The products a title is sold as; undefined when none names an id or a model. */
function products(v: unknown): Product[] | undefined {
  const out = objects(v).flatMap((p): Product[] => {
    const productId = int(p.productId);
    const model = normalizePurchaseModel(p.licenseType ?? p.purchaseModel);
    return productId === undefined && model === undefined ? [] : [{ ...(productId === undefined ? {} : { productId }), ...(model === undefined ? {} : { model }) }];
  });
  return out.length > 0 ? out : undefined;
}

/**
 * Country-specific covers (`coverImageUrls`; its shape is not shown): a list of objects with a
 * country and an address, or an object of addresses by country. Undefined when it holds none.
 */
function countryCovers(v: unknown): { country: string; url: string }[] | undefined {
  const pairs: [unknown, unknown][] = Array.isArray(v)
    ? objects(v).map((c) => [c.countryCode ?? c.country, c.coverImageUrl ?? c.url ?? c.imageUrl])
    : isObject(v) ? Object.entries(v) : [];
  const out = pairs.flatMap(([country, url]) => {
    const code = str(country)?.toUpperCase();
    const address = str(url);
    return code && address ? [{ country: code, url: address }] : [];
  });
  return out.length > 0 ? out : undefined;
}

/** A global content record (`format`, `licenseType`) or its older spelling (`kind`, `purchaseModel`). */
export function parseCatalogRecord(v: Json, id: ContentId): CatalogRecord {
  const sold = products(v.products);
  const covers = countryCovers(v.coverImageUrls);
  const titleTitle = str(v.titleTitle);
  const rating = str(v.rating);
  const price = num(v.price);
  return {
    id, titleId: int(v.titleId), format: formatOf(v), title: str(v.title), subtitle: str(v.subtitle),
    series: seriesOf(v), seriesNumber: int(v.seriesNumber), season: int(v.seasonNumber ?? v.season),
    episode: int(v.episodeNumber ?? v.episode), isbn: str(v.isbn), upc: str(v.upc), synopsis: str(v.synopsis),
    year: yearOf(v), duration: str(v.duration), pages: int(v.pages), language: str(v.language),
    subtitleLanguage: str(v.subtitleLanguage), dubLanguage: str(v.dubLanguage ?? v.dubtitleLanguage),
    artist: str(v.artist), artists: artists(v.artists), publisher: str(v.publisher), genres: strings(v.genres),
    audience: str(v.audience), lexile: str(v.lexile), atosBookLevel: str(v.atosBookLevel),
    interestLevel: str(v.interestLevel), forChildren: forChildrenOf(v),
    fiction: bool(v.isFiction ?? v.fiction), abridged: bool(v.isAbridged ?? v.abridged),
    parentalAdvisory: bool(v.isParentalAdvisory ?? v.pa), demo: bool(v.isDemo ?? v.demo),
    profanity: bool(v.containsProfanity ?? v.profanity), edited: bool(v.isEdited ?? v.edited),
    url: str(v.url), coverImageUrl: str(v.coverImageUrl), countries: countries(v.countryCodes),
    purchaseModels: uniqueModels([...objects(v.products).map((p) => p.licenseType ?? p.purchaseModel), v.purchaseModel]),
    ratings: objects(v.ratings).flatMap((r) => {
      const country = str(r.countryCode); const value = str(r.ratingValue);
      return country && value ? [{ country, value }] : [];
    }),
    ppuPrices: objects(v.ppuPrices).flatMap((p) => {
      const country = str(p.countryCode); const price = num(p.ppuPrice);
      return country && price !== undefined ? [{ country, price }] : [];
    }),
    segments: segments(v.segments), episodes: episodeOf(v),
    ...(sold ? { products: sold } : {}), ...(covers ? { coverImageUrls: covers } : {}),
    ...(titleTitle === undefined ? {} : { titleTitle }), ...(rating === undefined ? {} : { rating }), ...(price === undefined ? {} : { price }),
  };
}

/** The checks every global content record passes: an object with a content id, a whole number or a string (its id; undefined: skipped). */
const acceptedId = (v: unknown): ContentId | undefined => (isObject(v) ? contentIdOf(v.id) : undefined);

/**
 * A global content record as the service sent it, once the checks every record passes have
 * passed: what the library mirror keeps (server/library-rows.ts), so that a desk
 * reads it as it would a partner page. The desk's own mirror keeps parseGlobalChange's record.
 */
export type WireCatalogChange = { kind: 'removed'; id: ContentId } | { kind: 'upsert'; id: ContentId; wire: Json };

function acceptGlobalChange(v: unknown): WireCatalogChange | undefined {
  const id = acceptedId(v);
  if (id === undefined) return undefined;
  return (v as Json).removed === true ? { kind: 'removed', id } : { kind: 'upsert', id, wire: v as Json };
}

/** The countries a record is offered in, as parseCatalogRecord reads them. */
export const recordCountries = (v: Json): Country[] => countries(v.countryCodes);

function parseGlobalChange(v: unknown): CatalogChange | undefined {
  const id = acceptedId(v);
  if (id === undefined) return undefined;
  return (v as Json).removed === true ? { kind: 'removed', id } : { kind: 'upsert', record: parseCatalogRecord(v as Json, id) };
}

/** Library content records use the library schema (`kind`, `series`, `season`…), either generation. */
export function parseLibraryTitle(v: Json, id: ContentId): LibraryTitle {
  return { ...parseCatalogRecord(v, id), active: bool(v.active), purchaseModel: normalizePurchaseModel(v.purchaseModel) };
}

function parseLibraryChange(v: unknown): LibraryContentChange | undefined {
  if (!isObject(v)) return undefined;
  const id = contentIdOf(v.id);
  if (id === undefined) return undefined;
  return v.removed === true ? { kind: 'removed', id } : { kind: 'upsert', title: parseLibraryTitle(v, id) };
}

function tokenOf(...candidates: unknown[]): string | undefined {
  for (const c of candidates) {
    if (typeof c === 'number' && Number.isFinite(c)) return String(c);
    const s = str(c);
    if (s) return s;
  }
  return undefined;
}

/** Records sit under `data` (a map of names to lists), under `contents`, or under `key`. */
function bulkList(body: Json, key: string): unknown[] {
  if (Array.isArray(body[key])) return body[key] as unknown[];
  if (Array.isArray(body.contents)) return body.contents as unknown[];
  if (isObject(body.data)) return Object.values(body.data).filter(Array.isArray).flat();
  if (Array.isArray(body.data)) return body.data;
  throw badResponse(`no ${key} list in the page`);
}

/** A bulk page's next token (`metadata.nextStartToken` or `nextStartToken`), read before the page itself. */
export function nextPageToken(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  return tokenOf(isObject(body.metadata) ? body.metadata.nextStartToken : undefined, body.nextStartToken);
}

/** The first `"nextStartToken": value` in a text (JSON escapes keep a quote inside a string from starting one). */
const TOKEN_FIELD = /"nextStartToken"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/;
/** What a 2xx answer that is not JSON is told as (the transport's answers, and a bulk page the mirror reads). */
export const NOT_JSON = 'The service sent an answer that is not valid JSON.';

/** How much of a page the guess looks at: a bulk page's metadata comes first, and is short. */
const LEADING_BYTES = 1024;
const leadingDecoder = new TextDecoder();

/**
 * A bulk page's next token as the page's first bytes show it, before the page is read;
 * undefined when they show none. A guess (pull.ts): the token read from the whole page has the
 * last word.
 */
export function leadingNextToken(bytes: Bytes): string | undefined {
  const start = leadingDecoder.decode(joined(bytes, LEADING_BYTES));
  const field = TOKEN_FIELD.exec(start);
  if (!field) return undefined;
  try {
    return tokenOf(JSON.parse(field[1] as string));
  } catch {
    return undefined;
  }
}

/** A bulk page's text as JSON: an object, or a DeskError('bad-response') (a garbled page, asked for again). */
export function parseBulkPage(text: string): Json {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DeskError('bad-response', NOT_JSON);
  }
  if (!isObject(body)) throw new DeskError('bad-response', 'A page of a bulk list is not an object.');
  return body;
}

const MAX_WARNINGS = 10;

/**
 * A page's `metadata.warnings`: text (or objects with a message) the spec does not describe.
 * They reach the Sync page and the log, so each is cleaned as the service's own words are,
 * and a page cannot flood either.
 */
function warningsOf(v: unknown): string[] {
  const texts = list(v).map((w) => (isObject(w) ? str(w.message) ?? str(w.detail) : str(w))).filter((w): w is string => w !== undefined);
  return [...new Set(texts.map(asSentence))].slice(0, MAX_WARNINGS);
}

/** What a bulk page says of the pull (its next token, the total, its warnings), read before its records. */
export function pageMetadata(body: unknown): Omit<Page<never>, 'items'> {
  if (!isObject(body)) return {};
  const metadata = isObject(body.metadata) ? body.metadata : {};
  const next = nextPageToken(body);
  const totalCount = int(metadata.totalCount ?? body.totalCount);
  const warnings = warningsOf(metadata.warnings);
  return { ...(next === undefined ? {} : { next }), ...(totalCount === undefined ? {} : { totalCount }), ...(warnings.length ? { warnings } : {}) };
}

/** A bulk page's records, each as `parse` reads it (undefined: skipped). */
function parsePage<T>(body: unknown, key: string, parse: (v: unknown) => T | undefined): Page<T> {
  if (!isObject(body)) throw badResponse(`a ${key} page is not an object`);
  return { items: bulkList(body, key).map(parse).filter((x): x is T => x !== undefined), ...pageMetadata(body) };
}

export const parseGlobalContentPage = (body: unknown): Page<CatalogChange> => parsePage(body, 'contents', parseGlobalChange);
/** The same page, each record kept as the service sent it (WireCatalogChange). */
export const readGlobalContentPage = (body: unknown): Page<WireCatalogChange> => parsePage(body, 'contents', acceptGlobalChange);
export const parseLibraryContentPage = (body: unknown): Page<LibraryContentChange> => parsePage(body, 'titles', parseLibraryChange);

export function parseEntitlementPage(body: unknown): Page<Entitlement> {
  return parsePage(body, 'entitlements', (v) => {
    if (!isObject(v)) return undefined;
    const contentId = contentIdOf(v.contentId);
    if (contentId === undefined) return undefined;
    const model = normalizePurchaseModel(v.purchaseModel ?? v.licenseType);
    return { contentId, active: v.active !== false && v.removed !== true, removed: v.removed === true, ...(model === undefined ? {} : { model }) };
  });
}

/** A running time in whole seconds; a negative or fractional one is no time. */
const seconds = (v: unknown): number | undefined => {
  const n = int(v);
  return n !== undefined && n >= 0 ? n : undefined;
};

/**
 * A search result names a title (`titleId`), not the content it borrows; a series' episodes
 * carry their own ids, strings in the published schema, kept as the content ids they are.
 */
function parseSearchHit(v: Json): SearchHit {
  const episodes: Episode[] = objects(v.episodes).map((e) => ({
    id: contentIdOf(e.id), episode: int(e.episode), title: str(e.title), synopsis: str(e.synopsis), seconds: seconds(e.duration),
  }));
  return {
    titleId: int(v.titleId), title: str(v.title), subtitle: str(v.subtitle), synopsis: str(v.synopsis),
    format: normalizeFormat(v.kind ?? v.format), artist: str(v.artist), artists: artists(v.artists), year: int(v.year),
    series: str(v.series), publisher: str(v.publisher), purchaseModel: normalizePurchaseModel(v.purchaseModel),
    forChildren: bool(v.children), url: str(v.url), coverImageUrl: str(v.coverImageUrl), isbn: str(v.isbn),
    upc: str(v.upc), language: str(v.language), subtitleLanguage: str(v.subtitleLanguage), dubLanguage: str(v.dubLanguage ?? v.dubtitleLanguage),
    genres: strings(v.genres), seconds: seconds(v.duration), pages: int(v.pages), abridged: bool(v.abridged), fiction: bool(v.fiction),
    readAlong: bool(v.readAlong), rating: str(v.rating), parentalAdvisory: bool(v.pa), demo: bool(v.demo), profanity: bool(v.profanity),
    edited: bool(v.edited), fixedLayout: bool(v.fixedLayout), segments: segments(v.segments), episodes,
  };
}

export function parseSearchPage(body: unknown): SearchPage {
  if (!isObject(body)) throw badResponse('search results are not an object');
  const hits = objects(body.titles).map(parseSearchHit);
  return { found: int(body.found) ?? hits.length, hits };
}

export function parseAvailabilityList(body: unknown): Availability[] {
  return itemsOf(body, 'content info').filter(isObject).flatMap((v) => {
    const contentId = contentIdOf(v.contentId);
    if (contentId === undefined) return [];
    const a = isObject(v.availability) ? v.availability : {};
    return [{
      contentId, status: availabilityStatus(a.status), available: bool(a.available), holdsQueueSize: int(a.holdsQueueSize),
      availableCopies: int(a.availableCopies), totalCopies: int(a.totalCopies), holdsQueuePosition: int(a.holdsQueuePosition),
      purchaseModel: normalizePurchaseModel(a.purchaseModel),
    }];
  });
}

export interface Token { value: string; lifetimeMs: number }

/** `expires_in` is seconds (values of ~770,000 are seen); above a year it must be milliseconds. */
export function parseToken(body: unknown): Token {
  if (!isObject(body)) throw badResponse('the token answer is not an object');
  const value = str(body.access_token);
  if (!value) throw badResponse('the token answer has no access_token');
  // The spec shows `bearer`; any other kind of token is not one the desk can send as `Bearer` (issue #34).
  const type = str(body.token_type);
  if (type !== undefined && type.trim().toLowerCase() !== 'bearer') {
    throw DeskError.because('bad-response', 'service.token-type', { type: type.replace(HIDDEN_RUNS, ' ').trim().slice(0, 40) });
  }
  const expiresIn = num(body.expires_in);
  const lifetimeMs = expiresIn === undefined || expiresIn <= 0 ? 300_000
    : expiresIn > 31_536_000 ? expiresIn : expiresIn * 1000;
  return { value, lifetimeMs };
}

/** The service's own words on a loan (the borrow reply's `message`): shown quoted as the service's, so cleaned like its error messages. */
function serviceWords(v: unknown): string | undefined {
  const text = str(v);
  return text === undefined ? undefined : asSentence(text);
}

/** The service's words in an error body: they reach staff only as the quoted `serviceMessage`, never as the desk's sentence. */
export function errorMessageOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const message = str(body.message) ?? str(body.error) ?? str(body.title);
  const detail = str(body.detail);
  if (message && detail && !message.includes(detail)) return asSentence(`${message} (${detail})`);
  const text = message ?? detail;
  return text === undefined ? undefined : asSentence(text);
}

const MAX_MESSAGE = 280;
const HIDDEN_RUNS = new RegExp(`(?:${CONTROL_CHARS.source}|${INVISIBLE_CHARS.source})+`, 'g');

/**
 * The service's words are what staff read out to a patron, so they are kept, but as one
 * finished sentence of a readable length: control characters and runs of spaces folded,
 * a very long message cut at a word, a full stop added when the service left it off.
 */
export function asSentence(text: string): string {
  let sentence = text.replace(HIDDEN_RUNS, ' ').replace(/\s+/g, ' ').trim();
  if (sentence.length > MAX_MESSAGE) {
    const cut = sentence.slice(0, MAX_MESSAGE);
    sentence = `${cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_MESSAGE / 2))}…`;
  }
  return /[.?!…]$/.test(sentence) ? sentence : `${sentence}.`;
}
