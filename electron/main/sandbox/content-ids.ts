// How content ids and title ids relate on the wire: two readings, one option (`ids`).
//
// - `spec` (the default): partner-service.md's rule, the kind one. A title's content id is its
//   generated number and so is its titleId; a TV series is one content whose episodes have
//   titleIds of their own (records.ts).
// - `published`: the published guidance's stricter reading. Records are keyed on `id`; a
//   title's titleId is another number than its content id — the content id of the title seven
//   places on, so a client that borrows by a search result's titleId borrows another title, as
//   it would on the real service; a series' episodes are contents of their own, sharing the
//   series' titleId, each with a string id (`ep/<series>/<n>`: a slash, so a client that does
//   not percent-encode it reaches another route).
//
// Inside the sandbox every content is a number (a "key"): a title's generated number, or for an
// episode in `published` mode EPISODE_TITLE_ID_BASE + series * 16 + n, which no title reaches.
// Circulation, queues and availability are kept by key; routes translate at the edge.
import { EPISODE_TITLE_ID_BASE, generateTitle } from './catalog.ts';
import type { CatalogStore } from './catalog-store.ts';
import { HttpError } from './http-error.ts';

export type IdReading = 'spec' | 'published';
export const ID_READINGS: readonly IdReading[] = ['spec', 'published'];

/** In `published` mode a title's titleId is the content id of the title this many places on. */
export const PUBLISHED_TITLE_ID_SHIFT = 7;

export type WireContentId = number | string;

const EPISODE = /^ep\/([1-9][0-9]*)\/([1-9][0-9]?)$/;
const DIGITS = /^[0-9]+$/;

export class ContentIds {
  readonly reading: IdReading;
  private readonly catalog: CatalogStore;

  constructor(reading: IdReading, catalog: CatalogStore) {
    this.reading = reading;
    this.catalog = catalog;
  }

  private episodic(id: number): boolean {
    return this.reading === 'published' && this.catalog.core(id).format === 'TELEVISION';
  }

  /** The contents a title is (or was, once removed): itself, or (published) each of its episodes. */
  contentsOf(id: number): number[] {
    if (!this.episodic(id)) return [id];
    const episodes = generateTitle(this.catalog.seed, id).episodes ?? [];
    return episodes.map((episode) => EPISODE_TITLE_ID_BASE + id * 16 + episode.episode);
  }

  /** The title a content key belongs to, and which episode it is (published series only). */
  titleOf(key: number): { id: number; episode?: number } {
    if (key < EPISODE_TITLE_ID_BASE) return { id: key };
    const offset = key - EPISODE_TITLE_ID_BASE;
    return { id: Math.floor(offset / 16), episode: offset % 16 };
  }

  /** A title's titleId as search results and records carry it. */
  titleIdOf(id: number): number {
    return this.reading === 'published' ? id + PUBLISHED_TITLE_ID_SHIFT : id;
  }

  /** The content id the wire shows for a key. */
  wire(key: number): WireContentId {
    const { id, episode } = this.titleOf(key);
    return episode === undefined ? id : `ep/${id}/${episode}`;
  }

  /**
   * The key of a content id as a client sent it (a path segment, an item of contentIds): a
   * whole number, or in `published` mode an episode's id. Anything else is a 400 naming `name`.
   * A key need not name a content (isContent): the routes answer that as they answer any id.
   */
  parse(name: string, raw: string | undefined): number {
    if (raw !== undefined && DIGITS.test(raw) && Number.isSafeInteger(Number(raw))) return Number(raw);
    const match = raw === undefined ? null : EPISODE.exec(raw);
    if (match && this.reading === 'published') return EPISODE_TITLE_ID_BASE + Number(match[1]) * 16 + Number(match[2]);
    const what = this.reading === 'published' ? 'an integer or an episode id (ep/<series>/<n>)' : 'an integer';
    throw new HttpError(400, `${name} must be ${what}`, `got "${raw ?? ''}"`);
  }

  /** Whether a key is one of the catalog's contents (a series' own number is none in `published` mode). */
  isContent(key: number): boolean {
    const { id, episode } = this.titleOf(key);
    if (!this.catalog.has(id)) return false;
    return episode === undefined ? !this.episodic(id) : this.contentsOf(id).includes(key);
  }
}
