// What "a clear message" means for the figures: a known error code and one plain sentence a
// librarian can read out, with nothing of the machinery showing through.
import { ERROR_CODES, type ErrorInfo } from '../../electron/partner/errors.ts';

const MACHINERY = [/\bundefined\b/, /\bnull\b/, /\bNaN\b/, /\[object /, /\b[A-Z][a-zA-Z]*Error:/, /\n\s+at /, /^\s*[{[]/];

/** Why an error is not clear enough to show staff, or undefined when it is. */
export function unclearBecause(error: ErrorInfo | undefined): string | undefined {
  if (error === undefined) return 'no error was given';
  if (!(ERROR_CODES as readonly string[]).includes(error.code)) return `unknown code ${String(error.code)}`;
  const message = typeof error.message === 'string' ? error.message.trim() : '';
  if (message === '') return 'empty message';
  if (message.length > 300) return 'message longer than 300 characters';
  const shown = MACHINERY.find((pattern) => pattern.test(message));
  if (shown) return `message shows machinery (${shown.source})`;
  if (!/[.?!)…]$/.test(message)) return 'message is not a finished sentence';
  return undefined;
}
