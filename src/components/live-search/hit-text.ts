// How a search hit is named on screen when the publisher left fields out.
import type { SearchHit } from '../../../electron/shared/model.ts';

type Translate = (key: string, values?: Record<string, unknown>) => string;

export function hitTitle(hit: SearchHit, t: Translate): string {
  if (hit.title) return hit.title;
  return hit.titleId !== undefined ? t('catalog.titleNumbered', { id: hit.titleId }) : t('catalog.untitled');
}

/** The contributor line: the primary artist, else the first named artist. */
export function hitArtist(hit: SearchHit): string | undefined {
  return hit.artist || hit.artists.find((a) => a.name)?.name || undefined;
}
