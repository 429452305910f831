import { createI18n } from 'vue-i18n';
import type { Language } from '../../electron/shared/contract.ts';
import { en } from './en.ts';
import { frCA } from './fr-CA.ts';

export const LANGUAGES: readonly Language[] = ['en', 'fr-CA'];

/**
 * Which form of "singular | plural" (or "none | one | many") a count takes. vue-i18n's default
 * is English's: 0 is plural ("0 titles"). French counts 0 and 1 as singular ("0 titre", "1 titre").
 */
export function frenchPlural(choice: number, choicesLength: number): number {
  const singular = Math.abs(choice) < 2;
  if (choicesLength === 2) return singular ? 0 : 1;
  if (choice === 0) return 0;
  return singular ? 1 : 2;
}

export function createDeskI18n(locale: Language = 'en') {
  return createI18n({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    pluralRules: { 'fr-CA': frenchPlural },
    messages: { en, 'fr-CA': frCA },
  });
}
