// The sentences of main's own pages (start-page.ts): a start that failed, and the catalog being
// moved before the desk opens. They are written in the locale files (src/i18n, `start`), like
// every sentence staff see; main cannot import the renderer's files, so the build puts the two
// languages' `start` sections into main's bundle (scripts/build/start-texts.ts, a `define` in
// electron.vite.config.ts and vitest.config.ts). Nothing here is read from disk at run time: a
// start that failed because its files are damaged can still say so.
import type { Language } from '../../shared/contract.ts';

export const START_STEPS = ['log', 'policy', 'desk', 'window', 'page'] as const;
/** The steps of main's start, as the failure page names them. */
export type StartStep = (typeof START_STEPS)[number];

export interface StartTexts {
  failedTitle: string;
  failedStep: string;
  details: string;
  logAt: string;
  noLog: string;
  closeToQuit: string;
  steps: Record<StartStep, string>;
  movingTitle: string;
  movingBody: string;
  movingProgress: string;
}

declare const __LENDING_DESK_START_TEXTS__: Record<Language, StartTexts>;

export const START_TEXTS: Record<Language, StartTexts> = __LENDING_DESK_START_TEXTS__;

/** `{name}` placeholders, as in the locale files. */
export function fill(text: string, params: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}
