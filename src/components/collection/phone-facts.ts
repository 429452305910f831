// What staff are asked about a title on the phone, in one set of rows for a search result's
// details and a Collection title's alike: running time (h:mm), pages, abridged or not, fiction
// or non-fiction, read-along, the parental rating and advisory, and the languages (spoken or
// written, subtitles, dubbing). Only what the record has; worded in the desk's language.
import { hoursMinutes } from '../../../electron/shared/duration.ts';
import type { Format } from '../../../electron/shared/model.ts';
import { isCount } from '../../i18n/format.ts';
import { languageName } from './record-text.ts';

export interface PhoneFactsInput {
  format?: Format | undefined;
  seconds?: number | undefined;
  pages?: number | undefined;
  abridged?: boolean | undefined;
  fiction?: boolean | undefined;
  readAlong?: boolean | undefined;
  /** The rating in the library's country (PG-13, 14A…). */
  rating?: string | undefined;
  parentalAdvisory?: boolean | undefined;
  language?: string | undefined;
  subtitleLanguage?: string | undefined;
  dubLanguage?: string | undefined;
}

type Translate = (key: string, named?: Record<string, unknown>) => string;

export function phoneFacts(input: PhoneFactsInput, t: Translate, locale: string, number: (n: number) => string): { label: string; value: string }[] {
  const rows: { label: string; value: string }[] = [];
  const add = (key: string, value: string | undefined) => { if (value) rows.push({ label: t(`facts.${key}`), value }); };
  add('duration', isCount(input.seconds) && input.seconds > 0 ? hoursMinutes(input.seconds) : undefined);
  add('pages', isCount(input.pages) && input.pages > 0 ? number(input.pages) : undefined);
  // Abridged matters for what is read aloud; "unabridged" on an ebook would be noise.
  if (input.abridged === true || (input.abridged === false && input.format === 'AUDIOBOOK')) add('edition', t(input.abridged ? 'facts.abridged' : 'facts.unabridged'));
  if (input.fiction !== undefined) add('kind', t(input.fiction ? 'facts.fiction' : 'facts.nonFiction'));
  if (input.readAlong) add('readAlong', t('facts.readAlongYes'));
  add('rating', input.rating?.trim() || undefined);
  if (input.parentalAdvisory) add('advisory', t('facts.parentalAdvisory'));
  add('language', languageName(input.language, locale));
  add('subtitles', languageName(input.subtitleLanguage, locale));
  add('dubbed', languageName(input.dubLanguage, locale));
  return rows;
}
