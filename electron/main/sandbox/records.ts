// Projections of a generated title onto the three record shapes of the wire: global
// content, library content (both schema generations, one record per TV episode) and
// search results (one per series, episodes nested). Undefined fields vanish in JSON,
// which is how a publisher's missing metadata reaches the client. Content ids and titleIds
// follow the sandbox's reading of them (content-ids.ts): in `published` mode a series is one
// global record per episode, keyed on the episode's own (string) id, sharing the titleId.

import type {
  WireGlobalContentRecord, WireLibraryContentRecord, WireProduct, WireSearchTitle,
} from '../../node/partner/wire.ts';
import { episodeTitleId, formatDuration } from './catalog.ts';
import type { Title } from './catalog.ts';
import type { ContentIds } from './content-ids.ts';
import type { Entitlement, LibraryDefinition, SchemaGeneration } from './libraries.ts';
import { countryCovers, itemUrls, type CoverMode } from './urls.ts';

function products(title: Title): WireProduct[] {
  const list: WireProduct[] = [];
  if (title.ppu) list.push({ productId: title.id * 10 + 1, licenseType: 'PPU' });
  if (title.perpetual) list.push({ productId: title.id * 10 + 2, licenseType: 'PERPETUAL' });
  return list;
}

/** The contents of a title as pairs of key and episode (no episode: the title itself). */
function contentsWithEpisodes(title: Title, contents: ContentIds): { key: number; episode?: NonNullable<Title['episodes']>[number] }[] {
  return contents.contentsOf(title.id).map((key) => {
    const { episode } = contents.titleOf(key);
    const found = episode === undefined ? undefined : title.episodes?.find((e) => e.episode === episode);
    return found ? { key, episode: found } : { key };
  });
}

/** A title's global records: one, or (published) one per episode. */
export function globalRecords(title: Title, contents: ContentIds, covers: CoverMode): WireGlobalContentRecord[] {
  const base = globalRecord(title, contents, covers);
  return contentsWithEpisodes(title, contents).map(({ key, episode }) => (episode === undefined ? base : {
    ...base, id: contents.wire(key), title: episode.title, seasonNumber: title.seasonNumber, episodeNumber: episode.episode,
    duration: formatDuration(episode.seconds), synopsis: episode.synopsis, segments: [],
  }));
}

/** What a delta says of a removed title, one record per content it was. */
export function removedRecords(id: number, contents: ContentIds): { id: number | string; titleId: number; removed: true }[] {
  return contents.contentsOf(id).map((key) => ({ id: contents.wire(key), titleId: contents.titleIdOf(id), removed: true }));
}

function globalRecord(title: Title, contents: ContentIds, covers: CoverMode): WireGlobalContentRecord {
  const { url, coverImageUrl } = itemUrls(title.id, title.format, covers);
  return {
    id: title.id,
    titleId: contents.titleIdOf(title.id),
    format: title.format,
    title: title.title,
    subtitle: title.subtitle,
    seriesName: title.seriesName,
    seriesNumber: title.seriesNumber,
    seasonNumber: title.seasonNumber,
    upc: title.upc,
    isbn: title.isbn,
    isParentalAdvisory: title.isParentalAdvisory,
    isDemo: title.isDemo,
    containsProfanity: title.containsProfanity,
    duration: title.durationSeconds === undefined ? undefined : formatDuration(title.durationSeconds),
    synopsis: title.synopsis,
    releaseYear: title.releaseYear === undefined ? undefined : String(title.releaseYear),
    isAbridged: title.isAbridged,
    isEdited: title.isEdited,
    isForChildren: title.isForChildren,
    language: title.language,
    subtitleLanguage: title.subtitleLanguage,
    dubLanguage: title.dubLanguage,
    artist: title.artists[0]?.name,
    publisher: title.publisher,
    pages: title.pages,
    url,
    coverImageUrl,
    coverImageUrls: countryCovers(title.id, title.format, title.countryCodes, covers),
    products: products(title),
    ratings: title.ratings,
    audience: title.audience,
    lexile: title.lexile,
    interestLevel: title.interestLevel,
    atosBookLevel: title.atosBookLevel,
    ppuPrices: title.ppuPrices,
    isFiction: title.isFiction,
    countryCodes: title.countryCodes,
    genres: title.genres,
    segments: title.segments,
    artists: title.artists,
  };
}

export function libraryRecords(
  title: Title,
  entitlement: Entitlement,
  library: LibraryDefinition,
  schema: SchemaGeneration,
  contents: ContentIds,
  covers: CoverMode,
): WireLibraryContentRecord[] {
  const { url, coverImageUrl } = itemUrls(title.id, title.format, covers);
  const later = schema === 'later';
  const base: WireLibraryContentRecord = {
    id: title.id,
    titleId: contents.titleIdOf(title.id),
    active: entitlement.active,
    title: title.title,
    subtitle: title.subtitle,
    titleTitle: title.title,
    series: title.seriesName,
    seriesNumber: later ? title.seriesNumber : undefined,
    upc: title.upc,
    isbn: title.isbn,
    duration: title.durationSeconds === undefined ? undefined : formatDuration(title.durationSeconds),
    pa: title.isParentalAdvisory,
    demo: title.isDemo,
    profanity: title.containsProfanity,
    synopsis: title.synopsis,
    year: title.releaseYear,
    rating: title.ratings.find((rating) => rating.countryCode === library.country)?.ratingValue,
    audience: later ? title.audience : undefined,
    abridged: title.isAbridged,
    edited: title.isEdited,
    children: title.isForChildren,
    url,
    coverImageUrl,
    segments: title.segments,
    kind: title.format,
    publisher: title.publisher,
    language: title.language,
    subtitleLanguage: title.subtitleLanguage,
    dubtitleLanguage: title.dubLanguage,
    artist: title.artists[0]?.name,
    artists: title.artists,
    genres: title.genres,
    price: entitlement.purchaseModel === 'INSTANT'
      ? title.ppuPrices.find((price) => price.countryCode === library.country)?.ppuPrice
      : undefined,
    pages: title.pages,
    fiction: title.isFiction,
    purchaseModel: entitlement.purchaseModel,
    lexile: later ? title.lexile : undefined,
    atosBookLevel: later ? title.atosBookLevel : undefined,
    interestLevel: later ? title.interestLevel : undefined,
  };
  if (title.episodes === undefined) return [base];
  if (contents.reading === 'published') {
    // Each episode a content of its own, sharing the series' titleId.
    return contentsWithEpisodes(title, contents).flatMap(({ key, episode }) => (episode === undefined ? [] : [{
      ...base, id: contents.wire(key), title: episode.title, season: title.seasonNumber, episode: episode.episode,
      duration: formatDuration(episode.seconds), synopsis: episode.synopsis, segments: [],
    }]));
  }
  // The spec's rule: every episode under the series' id, each with a titleId of its own.
  return title.episodes.map((episode) => ({
    ...base,
    titleId: episode.titleId,
    title: episode.title,
    season: title.seasonNumber,
    episode: episode.episode,
    duration: formatDuration(episode.seconds),
    synopsis: episode.synopsis,
  }));
}

export function searchTitle(title: Title, entitlement: Entitlement, library: LibraryDefinition, contents: ContentIds, covers: CoverMode): WireSearchTitle {
  const { url, coverImageUrl } = itemUrls(title.id, title.format, covers);
  // An episode's id: the episode's own content id (published), or its titleId as text (the spec's rule).
  const episodeId = (episode: number): string =>
    (contents.reading === 'published' ? String(contents.wire(contents.contentsOf(title.id)[episode - 1] ?? 0)) : String(episodeTitleId(title.id, episode)));
  return {
    titleId: contents.titleIdOf(title.id),
    title: title.title,
    subtitle: title.subtitle,
    synopsis: title.synopsis,
    kind: title.format,
    artist: title.artists[0]?.name,
    demo: title.isDemo,
    pa: title.isParentalAdvisory,
    edited: title.isEdited,
    year: title.releaseYear,
    duration: title.durationSeconds,
    pages: title.pages,
    children: title.isForChildren,
    readAlong: title.readAlong,
    fiction: title.isFiction,
    abridged: title.isAbridged,
    profanity: title.containsProfanity,
    fixedLayout: title.fixedLayout,
    upc: title.upc,
    isbn: title.isbn,
    language: title.language,
    subtitleLanguage: title.subtitleLanguage,
    dubLanguage: title.dubLanguage,
    purchaseModel: entitlement.purchaseModel,
    series: title.seriesName,
    rating: title.ratings.find((rating) => rating.countryCode === library.country)?.ratingValue,
    publisher: title.publisher,
    url,
    coverImageUrl,
    episodes: (title.episodes ?? []).map((episode) => ({
      id: episodeId(episode.episode),
      episode: episode.episode,
      title: episode.title,
      synopsis: episode.synopsis,
      duration: episode.seconds,
    })),
    segments: title.segments,
    genres: title.genres.map((name) => ({ name })),
    artists: title.artists,
  };
}
