// Deterministic title generation. A title is a pure function of (seed, id); the cheap
// `titleCore` (format, countries, licences) is kept separate from the full record so that
// paging, counting and entitlement checks over a million ids never build whole records.

import { Rng, unit } from './random.ts';
import {
  ADJECTIVES, FIRST_NAMES, GENRES_BY_FORMAT, LAST_NAMES, NOUNS, PLACES, PUBLISHERS,
  SYNOPSIS_OPENINGS, SYNOPSIS_SUBJECTS,
} from './words.ts';

export type Format = 'EBOOK' | 'AUDIOBOOK' | 'MOVIE' | 'TELEVISION' | 'MUSIC' | 'COMIC';
export type Country = 'US' | 'CA' | 'AU' | 'NZ';
export type Audience = 'Juvenile' | 'Young Adult' | 'General Adult' | 'Mature';

export const COUNTRIES: readonly Country[] = ['US', 'CA', 'AU', 'NZ'];
export const FORMATS: readonly Format[] = ['EBOOK', 'AUDIOBOOK', 'MOVIE', 'TELEVISION', 'MUSIC', 'COMIC'];

/** Later TV episodes need titleIds that can never equal a content id. */
export const EPISODE_TITLE_ID_BASE = 100_000_000;
export const MAX_CATALOG_SIZE = 50_000_000;

export function episodeTitleId(contentId: number, episode: number): number {
  return episode === 1 ? contentId : EPISODE_TITLE_ID_BASE + contentId * 16 + episode;
}

// Distinct salts keep each cheap attribute independent of the others.
const SALT_FORMAT = 1;
const SALT_COUNTRY = 2;
const SALT_LICENCE = 3;
const SALT_DETAIL = 4;

export interface TitleCore {
  id: number;
  format: Format;
  countryCodes: Country[];
  /** Sold pay-per-use (Instant). */
  ppu: boolean;
  /** Sold one-copy-one-user (Flex). */
  perpetual: boolean;
}

export interface Artist { name: string; relationship: string; artistFormal: string }
export interface Segment { segmentNumber: number; name: string; seconds: number }
export interface Episode { episode: number; titleId: number; title: string; synopsis?: string; seconds: number }

export interface Title extends TitleCore {
  titleId: number;
  title: string;
  subtitle?: string;
  seriesName?: string;
  seriesNumber?: number;
  seasonNumber?: number;
  episodes?: Episode[];
  upc?: string;
  isbn?: string;
  isParentalAdvisory: boolean;
  isDemo: boolean;
  containsProfanity: boolean;
  durationSeconds?: number;
  synopsis?: string;
  releaseYear?: number;
  isAbridged: boolean;
  isEdited: boolean;
  isForChildren: boolean;
  language?: string;
  subtitleLanguage?: string;
  dubLanguage?: string;
  artists: Artist[];
  publisher?: string;
  pages?: number;
  ratings: { countryCode: Country; ratingValue: string }[];
  ppuPrices: { countryCode: Country; ppuPrice: number }[];
  audience?: Audience;
  lexile?: string;
  interestLevel?: string;
  atosBookLevel?: string;
  isFiction?: boolean;
  genres: string[];
  segments: Segment[];
  readAlong: boolean;
  fixedLayout: boolean;
}

const FORMAT_WEIGHTS: readonly (readonly [Format, number])[] = [
  ['EBOOK', 40], ['AUDIOBOOK', 20], ['MOVIE', 12], ['TELEVISION', 8], ['MUSIC', 10], ['COMIC', 10],
];

function formatOf(seed: number, id: number): Format {
  let roll = unit(seed, id, SALT_FORMAT) * 100;
  for (const [format, weight] of FORMAT_WEIGHTS) {
    roll -= weight;
    if (roll < 0) return format;
  }
  return 'EBOOK';
}

export function titleCore(seed: number, id: number): TitleCore {
  const countryCodes: Country[] = [];
  const shares: Record<Country, number> = { US: 0.85, CA: 0.55, AU: 0.4, NZ: 0.3 };
  for (const country of COUNTRIES) {
    if (unit(seed, id, SALT_COUNTRY, COUNTRIES.indexOf(country)) < shares[country]) countryCodes.push(country);
  }
  if (countryCodes.length === 0) countryCodes.push('CA');
  const licence = unit(seed, id, SALT_LICENCE);
  return {
    id,
    format: formatOf(seed, id),
    countryCodes,
    ppu: licence < 0.75,
    perpetual: licence < 0.45 || licence >= 0.75,
  };
}

const isBook = (format: Format): boolean => format === 'EBOOK' || format === 'AUDIOBOOK' || format === 'COMIC';

function makeTitleText(rng: Rng): string {
  const adjective = rng.pick(ADJECTIVES);
  const noun = rng.pick(NOUNS);
  const patterns = [
    `The ${adjective} ${noun}`,
    `${noun} of ${rng.pick(PLACES)}`,
    `The ${noun} of ${rng.pick(PLACES)}`,
    `${adjective} ${noun}s`,
    `A ${noun} for ${rng.pick(FIRST_NAMES)}`,
    `${rng.pick(FIRST_NAMES)}'s ${noun}`,
  ];
  return rng.pick(patterns);
}

function makeArtist(rng: Rng, relationship: string): Artist {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  return { name: `${first} ${last}`, relationship, artistFormal: `${last}, ${first}` };
}

function makeArtists(rng: Rng, format: Format): Artist[] {
  switch (format) {
    case 'AUDIOBOOK':
      return [makeArtist(rng, 'AUTHOR'), makeArtist(rng, 'READER')];
    case 'MOVIE':
    case 'TELEVISION':
      return [makeArtist(rng, 'DIRECTOR'), makeArtist(rng, 'ACTOR'), makeArtist(rng, 'ACTOR')];
    case 'MUSIC':
      return [makeArtist(rng, 'ARTIST')];
    case 'COMIC':
      return [makeArtist(rng, 'AUTHOR'), makeArtist(rng, 'ILLUSTRATOR')];
    default:
      return [makeArtist(rng, 'AUTHOR')];
  }
}

const RATING_SCALES: Record<Country, readonly string[]> = {
  US: ['G', 'PG', 'PG-13', 'R'],
  CA: ['G', 'PG', '14A', '18A'],
  AU: ['G', 'PG', 'M', 'MA15+'],
  NZ: ['G', 'PG', 'M', 'R16'],
};
const AUDIENCE_LEVEL: Record<Audience, number> = { Juvenile: 0, 'Young Adult': 1, 'General Adult': 2, Mature: 3 };
const PRICE_FACTOR: Record<Country, number> = { US: 1, CA: 1.3, AU: 1.5, NZ: 1.6 };

function makeSegments(rng: Rng, format: Format, totalSeconds: number): Segment[] {
  if (format !== 'MUSIC' && format !== 'AUDIOBOOK') return [];
  const count = format === 'MUSIC' ? rng.int(8, 16) : rng.int(3, 12);
  const each = Math.floor(totalSeconds / count);
  const segments: Segment[] = [];
  for (let n = 1; n <= count; n += 1) {
    const name = format === 'MUSIC' ? `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}` : `Part ${n}`;
    const seconds = n === count ? totalSeconds - each * (count - 1) : each;
    segments.push({ segmentNumber: n, name, seconds });
  }
  return segments;
}

function durationSecondsFor(rng: Rng, format: Format): number | undefined {
  switch (format) {
    case 'AUDIOBOOK': return rng.int(2 * 3600, 30 * 3600);
    case 'MOVIE': return rng.int(80 * 60, 180 * 60);
    case 'MUSIC': return rng.int(30 * 60, 75 * 60);
    default: return undefined;
  }
}

function makeEpisodes(rng: Rng, id: number): Episode[] {
  const count = rng.int(2, 8);
  const episodes: Episode[] = [];
  for (let n = 1; n <= count; n += 1) {
    const episode: Episode = {
      episode: n,
      titleId: episodeTitleId(id, n),
      title: `Episode ${n}: The ${rng.pick(NOUNS)}`,
      seconds: rng.int(20 * 60, 60 * 60),
    };
    if (rng.chance(0.8)) episode.synopsis = `${rng.pick(SYNOPSIS_OPENINGS)} ${rng.pick(SYNOPSIS_SUBJECTS)}.`;
    episodes.push(episode);
  }
  return episodes;
}

function readingLevels(rng: Rng, title: Title): void {
  if (title.format !== 'EBOOK' && title.format !== 'COMIC') return;
  const young = title.audience === 'Juvenile' || title.audience === 'Young Adult';
  if (!rng.chance(young ? 0.8 : 0.3)) return;
  // Publishers often send the fields with nothing in them.
  const empty = rng.chance(0.15);
  title.lexile = empty ? '' : `${rng.int(2, 13) * 50}L`;
  title.atosBookLevel = empty ? '' : `${rng.int(1, 12)}.${rng.int(0, 9)}`;
  title.interestLevel = empty ? '' : rng.pick(['LG (K-3)', 'MG (4-8)', 'MG+ (6 and up)', 'UG (9-12)']);
}

export function generateTitle(seed: number, id: number): Title {
  const core = titleCore(seed, id);
  const rng = new Rng(seed, id, SALT_DETAIL);
  const format = core.format;
  const title: Title = {
    ...core,
    titleId: id,
    title: format === 'MUSIC' ? `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}s` : makeTitleText(rng),
    isParentalAdvisory: false,
    isDemo: rng.chance(0.02),
    containsProfanity: false,
    isAbridged: format === 'AUDIOBOOK' && rng.chance(0.1),
    isEdited: rng.chance(0.03),
    isForChildren: false,
    artists: [],
    ratings: [],
    ppuPrices: [],
    genres: [],
    segments: [],
    readAlong: false,
    fixedLayout: format === 'COMIC',
  };

  if (rng.chance(0.95)) {
    title.audience = rng.weighted<Audience>([['Juvenile', 20], ['Young Adult', 15], ['General Adult', 55], ['Mature', 10]]);
  }
  title.isForChildren = title.audience === 'Juvenile';
  title.containsProfanity = title.audience === 'Mature' && rng.chance(0.5);
  title.isParentalAdvisory = format === 'MUSIC' && title.audience === 'Mature';
  title.readAlong = title.isForChildren && format === 'EBOOK' && rng.chance(0.3);

  if (rng.chance(0.25)) title.subtitle = rng.pick(['A Novel', 'Stories', 'A Memoir', `The ${rng.pick(PLACES)} Collection`, 'Deluxe Edition']);
  if (format === 'TELEVISION') {
    title.seriesName = title.title;
    title.seasonNumber = 1;
    title.episodes = makeEpisodes(rng, id);
    title.durationSeconds = title.episodes.reduce((sum, episode) => sum + episode.seconds, 0);
  } else if ((format === 'COMIC' && rng.chance(0.7)) || (format === 'EBOOK' && rng.chance(0.3))) {
    title.seriesName = `${rng.pick(PLACES)} ${rng.pick(['Mysteries', 'Chronicles', 'Saga', 'Adventures'])}`;
    title.seriesNumber = rng.int(1, format === 'COMIC' ? 60 : 9);
  } else {
    title.durationSeconds = durationSecondsFor(rng, format);
  }

  if (isBook(format)) {
    title.isbn = rng.chance(0.08) ? '' : `978${rng.digits(10)}`;
    if (format !== 'AUDIOBOOK') title.pages = format === 'COMIC' ? rng.int(24, 200) : rng.int(80, 900);
  } else {
    title.upc = rng.chance(0.1) ? '' : rng.digits(12);
  }
  if (rng.chance(0.9)) title.synopsis = `${rng.pick(SYNOPSIS_OPENINGS)} ${rng.pick(SYNOPSIS_SUBJECTS)}.`;
  if (rng.chance(0.95)) title.releaseYear = rng.int(1950, 2025);
  title.language = rng.weighted([['ENGLISH', 78], ['FRENCH', 14], ['SPANISH', 8]]);
  if ((format === 'MOVIE' || format === 'TELEVISION') && rng.chance(0.3)) title.subtitleLanguage = rng.pick(['ENGLISH', 'FRENCH', 'SPANISH']);
  if ((format === 'MOVIE' || format === 'TELEVISION') && rng.chance(0.1)) title.dubLanguage = rng.pick(['ENGLISH', 'FRENCH', 'SPANISH']);
  if (rng.chance(0.95)) title.artists = makeArtists(rng, format);
  if (rng.chance(0.97)) title.publisher = rng.pick(PUBLISHERS);
  if (format !== 'MUSIC') title.isFiction = rng.chance(0.7);
  const genres = GENRES_BY_FORMAT[format] ?? [];
  title.genres = [rng.pick(genres)];
  if (rng.chance(0.4)) {
    const second = rng.pick(genres);
    if (second !== title.genres[0]) title.genres.push(second);
  }
  title.segments = makeSegments(rng, format, title.durationSeconds ?? 0);

  if (format === 'MOVIE' || format === 'TELEVISION' || format === 'MUSIC') {
    const level = AUDIENCE_LEVEL[title.audience ?? 'General Adult'];
    title.ratings = core.countryCodes.map((countryCode) => ({ countryCode, ratingValue: RATING_SCALES[countryCode][level] ?? 'G' }));
  }
  if (core.ppu) {
    const base = rng.int(99, 399) / 100;
    title.ppuPrices = core.countryCodes.map((countryCode) => ({
      countryCode,
      ppuPrice: Math.round(base * PRICE_FACTOR[countryCode] * 100) / 100,
    }));
  }
  readingLevels(rng, title);
  return title;
}

export function formatDuration(seconds: number): string {
  return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}
