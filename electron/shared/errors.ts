// The closed set of error codes that crosses every boundary (client -> DeskService -> IPC ->
// renderer). A code says what staff can do about it; `message` keeps the service's own words
// when it gave any, because those are what a librarian can read out to a patron.

import type { Reason } from './reasons.ts';

export const ERROR_CODES = [
  'invalid-input', // the caller's value is wrong; nothing was sent
  'unauthorized', // credentials refused, or a token refused twice
  'invalid-patron', // no account with the service for this card at this library
  'not-found', // the title, loan or hold is not there
  'limit-reached', // the patron's monthly Instant allowance is used up
  'unavailable', // a Flex title with no free copy: offer a hold
  'available-to-borrow', // a hold was refused because the title can be borrowed now
  'already-borrowed',
  'already-on-hold',
  'network', // could not reach the service
  'timeout', // the service did not answer in time
  'rate-limited', // 429 after the retries ran out
  'server', // 5xx after the retries ran out, or an unexpected status
  'bad-response', // the answer could not be read
  'answer-mismatch', // the service answered about another title than the one asked (issue #24): not done for the title asked
  'keychain-unavailable',
  'session-locked', // no staff shift is open: patron work waits for a name
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A stored code read back (a mirror's sync state): only the codes this version knows. */
export function isErrorCode(value: string): value is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(value);
}

export type ErrorParams = Record<string, string | number>;

export interface ErrorInfo {
  code: ErrorCode;
  /** English, for the log and for the reliability runs; staff see the locale text for `reason` or `code`. */
  message: string;
  status?: number;
  /** What exactly went wrong: a key of REASONS (shared/reasons.ts), translated in the locale files' `reasons`. */
  reason?: Reason;
  /** The values the reason's sentence names (a profile name, an address, a limit). */
  params?: ErrorParams;
  /** The lending service's own words, shown quoted as the service's, never as the desk's. */
  serviceMessage?: string;
}
