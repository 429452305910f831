// Builds request paths from segments. A library card is an opaque string typed by staff or
// read by a scanner, and a content id may be a string (an episode's, in the published
// schema): each is always percent-encoded as one segment, so `12 34/../5?x#y` can only ever
// reach the patron route it belongs to.

import { reasonText, type Reason } from '../../shared/reasons.ts';
import { baseUrlProblem, cardProblem } from '../../shared/text-rules.ts';
import { DeskError } from '../../shared/desk-error.ts';
import { contentIdOf, type ContentId } from '../../shared/content-id.ts';

export { CONTROL_CHARS, INVISIBLE_CHARS } from '../../shared/text-rules.ts';

export function apiPath(...segments: (string | number)[]): string {
  return '/api/v1/' + segments.map((s) => encodeURIComponent(String(s))).join('/');
}

export function checkLibraryId(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw refusedId('input.library-id', value);
}

/** A content id in its one form (content-id.ts); "123" is 123. */
export function checkContentId(value: unknown): ContentId {
  const id = contentIdOf(value);
  if (id !== undefined) return id;
  throw refusedId('input.title-id', value);
}

export function checkCard(value: unknown): string {
  const problem = cardProblem(value);
  if (problem) throw DeskError.because('invalid-input', problem);
  return (value as string).trim();
}

export function checkBaseUrl(value: unknown): string {
  const problem = baseUrlProblem(value);
  if (problem) throw DeskError.because('invalid-input', problem);
  return (value as string).trim();
}

/** The log also learns what was given (cut short); staff read the reason. */
function refusedId(reason: Reason, value: unknown): DeskError {
  const message = `${reasonText(reason).slice(0, -1)} (got ${describe(value)}).`;
  return new DeskError('invalid-input', message, undefined, { reason, params: {} });
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 20 ? value.slice(0, 20) + '…' : value);
  return value === null ? 'null' : typeof value === 'number' ? String(value) : typeof value;
}
