// What a non-2xx status means depends on the operation (the spec leaves most open; these are
// what real clients of the service observe, DESIGN.md). Unlisted statuses fall back to
// the generic meaning: 401 unauthorized, 429 rate-limited, 5xx server.

import { DeskError } from '../../shared/desk-error.ts';
import type { ErrorCode } from '../../shared/errors.ts';
import { reasonText } from '../../shared/reasons.ts';
import type { HttpStatusError } from './transport.ts';

export type Operation =
  | 'borrow' | 'placeHold' | 'returnTitle' | 'removeHold' | 'patronRead' | 'bulk' | 'search' | 'contentInfo';

const BY_OPERATION: Record<Operation, Partial<Record<number, ErrorCode>>> = {
  borrow: { 400: 'not-found', 403: 'limit-reached', 404: 'invalid-patron', 409: 'already-borrowed', 422: 'unavailable' },
  placeHold: { 400: 'available-to-borrow', 403: 'invalid-patron', 404: 'not-found', 409: 'already-on-hold' },
  returnTitle: { 400: 'invalid-patron', 404: 'not-found' },
  removeHold: { 400: 'invalid-patron', 403: 'not-found', 404: 'not-found' },
  patronRead: { 400: 'invalid-patron', 403: 'invalid-patron', 404: 'invalid-patron' },
  bulk: { 400: 'invalid-input', 404: 'not-found' },
  search: { 400: 'invalid-input', 404: 'not-found' },
  contentInfo: { 400: 'invalid-input', 404: 'not-found' },
};

/** For the log, when the service gave no message of its own (staff read the renderer's sentence for the code). */
const FALLBACK_MESSAGES: Record<ErrorCode, string> = {
  'invalid-input': 'The service refused the request as invalid.',
  unauthorized: 'The lending service refused our credentials. Check the connection settings.',
  'invalid-patron': 'This library card has no account with the lending service at this library.',
  'not-found': 'The lending service does not have that title, loan or hold.',
  'limit-reached': "The patron's monthly borrow allowance is used up.",
  unavailable: 'No copy is free right now; a hold can be placed instead.',
  'available-to-borrow': 'The title can be borrowed now, so no hold is needed.',
  'already-borrowed': 'The patron has already borrowed this title.',
  'already-on-hold': 'The patron already has a hold on this title.',
  network: 'Could not reach the lending service. Check the network connection.',
  timeout: 'The lending service did not answer in time.',
  'rate-limited': 'The lending service is busy (too many requests). Try again in a minute.',
  server: 'The lending service had a problem. Try again shortly.',
  'bad-response': 'The lending service sent an answer that could not be read.',
  'answer-mismatch': 'The lending service answered about another title than the one asked for.',
  'keychain-unavailable': 'The system keychain is not available.',
  'session-locked': 'The desk is locked. Enter your name to start a shift.',
};

export function fallbackMessage(code: ErrorCode): string {
  return FALLBACK_MESSAGES[code];
}

/**
 * The code says what happened, and staff read the renderer's sentence for it; the service's own
 * words travel apart (serviceMessage), shown quoted as the service's. The English message is
 * the desk's sentence for the code, never the service's words: those may repeat the request
 * back (a 400's "contentId must be an integer (got "<the id sent>")"), and the log has them
 * as serviceMessage.
 */
export function errorForStatus(operation: Operation, error: HttpStatusError): DeskError {
  const code: ErrorCode = BY_OPERATION[operation][error.status]
    ?? (error.status === 401 ? 'unauthorized' : error.status === 429 ? 'rate-limited' : 'server');
  const serviceMessage = error.serverMessage;
  // "Invalid" alone tells staff nothing: say that it was the service that refused.
  const reason = code === 'invalid-input' ? 'service.invalid-request' : undefined;
  return new DeskError(code, reason === undefined ? FALLBACK_MESSAGES[code] : reasonText(reason), error.status, {
    ...(reason === undefined ? {} : { reason, params: {} }),
    ...(serviceMessage === undefined ? {} : { serviceMessage }),
  });
}
