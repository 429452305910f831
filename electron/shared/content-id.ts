// A content id as the service gives it. The spec calls content ids integers; the published
// schema gives a series' episodes string ids, and a non-numeric one must reach the borrow
// route as the service wrote it. So a content id is a number or a string, in one form per id:
// a whole number (sent as 123 or "123") is the number, anything else stays the string it is.
// `===` then compares ids however they arrived, a Map keys them, and `String(id)` is what goes
// into a path (always percent-encoded), a query, a log line or a screen.
import { CONTROL_CHARS, INVISIBLE_CHARS } from './text-rules.ts';

export type ContentId = number | string;

export const MAX_CONTENT_ID_LENGTH = 100;

const WHOLE_NUMBER = /^[1-9][0-9]*$/;

/**
 * Why a string cannot be a content id, or undefined. Commas separate ids in a content-info
 * query; a path segment of only dots is resolved away by URL parsers (even percent-encoded);
 * control and invisible characters would reach logs and screens; surrounding spaces are not
 * part of any id a service gives.
 */
function stringProblem(value: string): 'empty' | 'too-long' | 'not-an-id' | undefined {
  if (value === '') return 'empty';
  if (value.length > MAX_CONTENT_ID_LENGTH) return 'too-long';
  if (!value.isWellFormed() || CONTROL_CHARS.test(value) || INVISIBLE_CHARS.test(value)) return 'not-an-id';
  if (value.includes(',') || /^\.+$/.test(value) || value.trim() !== value) return 'not-an-id';
  return undefined;
}

/** The one form of a content id, or undefined when `raw` is none (a fraction, 0, a negative, an unusable string). */
export function contentIdOf(raw: unknown): ContentId | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw > 0 ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  if (WHOLE_NUMBER.test(raw)) {
    const number = Number(raw);
    return Number.isSafeInteger(number) ? number : undefined;
  }
  return stringProblem(raw) === undefined ? raw : undefined;
}

export const isContentId = (raw: unknown): raw is ContentId => raw !== undefined && contentIdOf(raw) === raw;
