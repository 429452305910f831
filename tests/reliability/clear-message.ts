// What "a clear message" means for the figures: a known error code and one plain sentence a
// librarian can read out, with nothing of the machinery showing through.
import { ERROR_CODES, type ErrorInfo } from '../../electron/shared/errors.ts';

const MACHINERY = [
  /\bundefined\b/, /\bnull\b/, /\bNaN\b/, /\[object /, /Error:/, /\n\s+at /, / {4}at /, /^\s*[{[]/,
  // Raw JSON or its escapes inside a sentence.
  /[{[]\s*"|"\s*:\s*["{[\d]|\\u[0-9a-fA-F]{4}|\\"/,
  // No contract field takes a negative number: a negative minimum is a bound the field does not have (`.int()`'s safe range).
  /at least -\d/,
];
/** Control, invisible and direction characters, and lone surrogates: a sentence staff read out has none. */
export const UNREADABLE = /[\u0000-\u001f\u007f\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2069\ufeff]|\p{Cs}/u;

/** Why an error is not clear enough to show staff, or undefined when it is. */
export function unclearBecause(error: ErrorInfo | undefined): string | undefined {
  if (error === undefined) return 'no error was given';
  if (!(ERROR_CODES as readonly string[]).includes(error.code)) return `unknown code ${String(error.code)}`;
  const message = typeof error.message === 'string' ? error.message.trim() : '';
  if (message === '') return 'empty message';
  if (message.length > 300) return 'message longer than 300 characters';
  const shown = MACHINERY.find((pattern) => pattern.test(message));
  if (shown) return `message shows machinery (${shown.source})`;
  if (UNREADABLE.test(message)) return 'message carries control, invisible or broken characters';
  if (!/[.?!…]$/.test(message)) return 'message is not a finished sentence';
  return undefined;
}
