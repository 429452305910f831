// Main's own pages, shown when the desk cannot be: a start that failed (what failed, where the
// log is, in both languages), and the catalog being moved before the desk opens. Static HTML
// loaded as a data: URL in a window with JavaScript off: nothing of the renderer (its files, its
// store, the app:// protocol) has to work for these to show, and nothing on them can run.
import type { Language } from '../../shared/contract.ts';
import { fill, START_TEXTS, type StartStep, type StartTexts } from './start-texts.ts';

export interface StartFailure {
  step: StartStep;
  /** The error's own message, for IT (English, technical). */
  message: string;
  /** The log file, or where it could not be written. */
  log: { path: string; written: boolean };
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The staff's language first (the OS's, when it is French), the other after it. */
export function languagesFor(locale: string): Language[] {
  return locale.toLowerCase().startsWith('fr') ? ['fr-CA', 'en'] : ['en', 'fr-CA'];
}

function page(title: string, sections: string): string {
  return '<!doctype html><html><head><meta charset="utf-8">'
    + `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`
    + `<title>${escape(title)}</title><style>`
    + 'body{font:15px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem 2rem;color:#1b1b1b;background:#fff}'
    + 'section+section{border-top:1px solid #ccc;margin-top:1.25rem;padding-top:.5rem}'
    + 'h1{font-size:1.3rem;margin:.5rem 0}code{font:13px ui-monospace,monospace;word-break:break-all}'
    + 'progress{width:100%;height:1.2rem}'
    + `</style></head><body>${sections}</body></html>`;
}

export function failurePage(failure: StartFailure, locale: string): string {
  const sections = languagesFor(locale).map((language) => {
    const t: StartTexts = START_TEXTS[language];
    const log = failure.log.written ? fill(t.logAt, { path: '\u0000' }) : fill(t.noLog, { path: '\u0000' });
    return `<section lang="${language}"><h1>${escape(t.failedTitle)}</h1>`
      + `<p>${escape(fill(t.failedStep, { step: t.steps[failure.step] }))}</p>`
      + `<p>${escape(log).replace('\u0000', `<code>${escape(failure.log.path)}</code>`)}</p>`
      + `<p>${escape(t.closeToQuit)}</p>`
      + `<p><small>${escape(fill(t.details, { message: failure.message }))}</small></p></section>`;
  });
  return page(START_TEXTS[languagesFor(locale)[0]!].failedTitle, sections.join(''));
}

export interface MoveProgress { done: number; total: number }

const MB = 1024 * 1024;

export function movingPage(to: string, progress: MoveProgress, locale: string): string {
  const sections = languagesFor(locale).map((language) => {
    const t = START_TEXTS[language];
    const total = Math.round(progress.total / MB);
    const done = Math.min(total, Math.round(progress.done / MB));
    return `<section lang="${language}"><h1>${escape(t.movingTitle)}</h1>`
      + `<p>${escape(fill(t.movingBody, { to }))}</p>`
      + `<progress max="${progress.total}" value="${progress.done}"></progress>`
      + `<p>${escape(fill(t.movingProgress, { done, total }))}</p></section>`;
  });
  return page(START_TEXTS[languagesFor(locale)[0]!].movingTitle, sections.join(''));
}

/** A page as the window loads it. */
export function dataUrl(html: string): string {
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}
