// Title and cover addresses. `.invalid` never resolves: the sandbox must not send a desk PC
// to somebody else's server. In `covers: 'partner'` (issue #34) the covers are real-looking
// addresses on the partner's own cover host instead, as the real service's records name them:
// what the renderer's content security policy must let through (tests route them to a picture).
import { PARTNER_COVER_HOSTS, SANDBOX_HOST } from '../../shared/cover-hosts.ts';
import type { Country, Format } from './catalog.ts';

export type CoverMode = 'sandbox' | 'partner';
export const COVER_MODES: readonly CoverMode[] = ['sandbox', 'partner'];

/** The partner's cover names start with a code of the format, then a 13-digit number, then the size. */
const FORMAT_CODES: Record<Format, string> = { EBOOK: 'ebk', AUDIOBOOK: 'aud', MOVIE: 'mov', TELEVISION: 'tvs', MUSIC: 'mus', COMIC: 'com' };

function coverAt(covers: CoverMode, id: number, format: Format, country?: Country): string {
  if (covers === 'sandbox') return `https://${SANDBOX_HOST}/covers/${country === undefined ? '' : `${country}/`}${id}.jpg`;
  const number = String(9_780_000_000_000 + id);
  return `https://${PARTNER_COVER_HOSTS[0]}/${FORMAT_CODES[format]}_${number}${country === undefined ? '' : `_${country.toLowerCase()}`}_270.jpeg`;
}

export function itemUrls(id: number, format: Format, covers: CoverMode = 'sandbox'): { url: string; coverImageUrl: string } {
  return { url: `https://${SANDBOX_HOST}/titles/${id}`, coverImageUrl: coverAt(covers, id, format) };
}

/** The global catalog's country-specific covers (`coverImageUrls`; the spec does not show its shape: here a list of country and address). */
export function countryCovers(id: number, format: Format, countries: readonly Country[], covers: CoverMode = 'sandbox'): { countryCode: Country; coverImageUrl: string }[] {
  return countries.map((countryCode) => ({ countryCode, coverImageUrl: coverAt(covers, id, format, countryCode) }));
}
