// From an error code to the sentence staff read out to the patron. The service's own message
// stays available as detail; the sentence says what it means at the desk and what to do.
import type { ErrorCode, ErrorInfo } from '../../electron/shared/errors.ts';

/** Where the error happened changes what it means (invalid-patron on lookup vs on a borrow). */
export type ErrorContext = 'lookup' | 'action' | 'search' | 'other';

/** Failures of the connection rather than of the request: repeating it may work. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['network', 'timeout', 'server', 'rate-limited', 'bad-response']);

export function isRetryable(error: ErrorInfo): boolean {
  return RETRYABLE.has(error.code);
}

export interface ErrorParams {
  title?: string;
  library?: string;
  remaining?: number | string;
  allowed?: number | string;
  count?: number | string;
}

const BY_CODE: Partial<Record<ErrorCode, string>> = {
  'invalid-patron': 'errors.invalidPatron',
  'already-borrowed': 'errors.alreadyBorrowed',
  'already-on-hold': 'errors.alreadyOnHold',
  'available-to-borrow': 'errors.availableToBorrow',
  'not-found': 'errors.notFound',
  network: 'errors.network',
  timeout: 'errors.timeout',
  server: 'errors.server',
  'rate-limited': 'errors.rateLimited',
  'bad-response': 'errors.badResponse',
  unauthorized: 'errors.unauthorized',
  'invalid-input': 'errors.invalidInput',
  'keychain-unavailable': 'errors.keychain',
  'session-locked': 'errors.sessionLocked',
};

/** The message key for an error, or undefined when only the service's own words fit. */
export function errorKey(error: ErrorInfo, context: ErrorContext, params: ErrorParams = {}): string | undefined {
  switch (error.code) {
    case 'invalid-patron':
      return context === 'lookup' ? 'errors.lookupInvalidPatron' : 'errors.invalidPatron';
    case 'limit-reached':
      return params.allowed !== undefined && params.remaining !== undefined ? 'errors.limitReached' : 'errors.limitReachedNoNumbers';
    case 'unavailable':
      return params.count !== undefined ? 'errors.unavailable' : 'errors.unavailableNoQueue';
    case 'not-found':
      return context === 'search' ? 'errors.notFoundSearch' : 'errors.notFound';
    default:
      return BY_CODE[error.code];
  }
}
