// Main's start texts, taken from the locale files at build time (electron/main/app/start-texts.ts
// says why). Used by electron.vite.config.ts and vitest.config.ts as a `define`.
import type { StartTexts } from '../../electron/main/app/start-texts.ts';
import type { Language } from '../../electron/shared/contract.ts';
import { en } from '../../src/i18n/en.ts';
import { frCA } from '../../src/i18n/fr-CA.ts';

export const START_TEXTS_NAME = '__LENDING_DESK_START_TEXTS__';

export function startTexts(): Record<Language, StartTexts> {
  return { en: en.start, 'fr-CA': frCA.start };
}

/** The `define` entry: the texts as a JavaScript expression. */
export function startTextsDefine(): Record<string, string> {
  return { [START_TEXTS_NAME]: JSON.stringify(startTexts()) };
}
