import { createI18n } from 'vue-i18n';
import type { Language } from '../../electron/shared/contract.ts';
import { en } from './en.ts';
import { frCA } from './fr-CA.ts';

export const LANGUAGES: readonly Language[] = ['en', 'fr-CA'];

export function createDeskI18n(locale: Language = 'en') {
  return createI18n({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    messages: { en, 'fr-CA': frCA },
  });
}
