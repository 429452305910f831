// From an error to what staff read, in the desk's language: the one place that does it. Main's
// reason (with its parameters) when it sent one; otherwise the sentence for the code in the
// context it happened in (invalid-patron means one thing on a lookup, another on a borrow). The
// service's own words never replace the desk's sentence (issue #35): a folded detail for IT on the
// desk's screens, a quoted one on IT's pages, labelled as the service's (and as English on a French
// screen). Main's English `message` is for the log and is never shown.
import { useI18n } from 'vue-i18n';
import type { ErrorCode, ErrorInfo } from '../../electron/shared/errors.ts';
import type { Reason } from '../../electron/shared/reasons.ts';

/** Where the error happened changes what it means and what staff can do. */
export type ErrorContext = 'lookup' | 'action' | 'search' | 'connection' | 'other';

/** What the desk knows that the error does not: the title acted on, the allowance on screen. */
export interface SentenceParams {
  title?: string;
  library?: string;
  remaining?: number | string;
  allowed?: number | string;
  count?: number | string;
}

export interface ErrorText {
  sentence: string;
  /** The lending service's own words, to show quoted as the service's. */
  serviceWords?: string;
}

type Translate = (key: string, params?: Record<string, unknown>) => string;
type HasKey = (key: string, locale?: string) => boolean;

/** Failures of the connection rather than of the request: repeating it may work. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['network', 'timeout', 'server', 'rate-limited', 'bad-response']);

export function isRetryable(error: ErrorInfo): boolean {
  return RETRYABLE.has(error.code);
}

/** Every code has a sentence (the compiler holds this table to ERROR_CODES). */
const BY_CODE: Record<ErrorCode, string> = {
  'invalid-input': 'errors.invalidInput',
  unauthorized: 'errors.unauthorized',
  'invalid-patron': 'errors.invalidPatron',
  'not-found': 'errors.notFound',
  'limit-reached': 'errors.limitReachedNoNumbers',
  unavailable: 'errors.unavailableNoTitle',
  'available-to-borrow': 'errors.availableToBorrow',
  'already-borrowed': 'errors.alreadyBorrowed',
  'already-on-hold': 'errors.alreadyOnHold',
  network: 'errors.network',
  timeout: 'errors.timeout',
  'rate-limited': 'errors.rateLimited',
  server: 'errors.server',
  'bad-response': 'errors.badResponse',
  'answer-mismatch': 'errors.answerMismatch',
  'keychain-unavailable': 'errors.keychain',
  'session-locked': 'errors.sessionLocked',
};

/**
 * Codes whose sentence says nothing of what was wrong ("the request was refused as invalid"):
 * main must send a reason with them (tests/unit/main/ipc/reasons.test.ts holds main to it).
 */
export const CODES_THAT_NEED_A_REASON: ReadonlySet<ErrorCode> = new Set(['invalid-input']);

/** Sentences that name the title, and their form for when the desk does not know it. */
const NAMING_THE_TITLE: Partial<Record<ErrorCode, string>> = {
  'already-borrowed': 'errors.alreadyBorrowed', 'already-on-hold': 'errors.alreadyOnHold', 'available-to-borrow': 'errors.availableToBorrow',
};

/** The locale key for an error's code in its context, never one whose placeholder would be left empty. */
export function codeKey(error: ErrorInfo, context: ErrorContext, params: SentenceParams = {}): string {
  const namingTitle = NAMING_THE_TITLE[error.code];
  if (namingTitle) return params.title === undefined ? `${namingTitle}NoTitle` : namingTitle;
  switch (error.code) {
    case 'invalid-patron':
      return context === 'lookup' && params.library !== undefined ? 'errors.lookupInvalidPatron' : 'errors.invalidPatron';
    case 'limit-reached':
      return params.allowed !== undefined && params.remaining !== undefined ? 'errors.limitReached' : 'errors.limitReachedNoNumbers';
    case 'unavailable':
      if (params.title === undefined) return 'errors.unavailableNoTitle';
      return params.count !== undefined ? 'errors.unavailable' : 'errors.unavailableNoQueue';
    case 'not-found':
      return context === 'search' ? 'errors.notFoundSearch' : 'errors.notFound';
    case 'unauthorized':
      return context === 'connection' ? 'errors.unauthorizedConnection' : 'errors.unauthorized';
    case 'network':
      return context === 'connection' ? 'errors.networkConnection' : 'errors.network';
    default:
      // A code this renderer does not know (a newer main): say so plainly rather than nothing.
      return Object.hasOwn(BY_CODE, error.code) ? BY_CODE[error.code] : 'errors.unknown';
  }
}

export function errorText(error: ErrorInfo, context: ErrorContext, params: SentenceParams, t: Translate, te: HasKey): ErrorText {
  const serviceWords = error.serviceMessage?.trim() || undefined;
  const sentence = (error.reason && reasonSentence(error.reason, error.params ?? {}, t, te)) ?? t(codeKey(error, context, params), { ...params });
  return serviceWords ? { sentence, serviceWords } : { sentence };
}

/** Main's reason in the desk's language, or undefined for a reason this renderer has no words for. */
function reasonSentence(reason: string, params: NonNullable<ErrorInfo['params']>, t: Translate, te: HasKey): string | undefined {
  // Reason keys hold dots ("card.too-long"): a plain path would read them as nesting and miss.
  const key = `reasons['${reason}']`;
  return te(key, 'en') ? t(key, reasonParams(params, t, te)) : undefined;
}

/** A reason names an argument field by its key: the locale names it. */
function reasonParams(params: NonNullable<ErrorInfo['params']>, t: Translate, te: HasKey): Record<string, unknown> {
  const field = params.field;
  if (typeof field !== 'string' || !te(`fields.${field}`, 'en')) return { ...params };
  return { ...params, field: t(`fields.${field}`) };
}

export function useErrorText() {
  const { t, te } = useI18n();
  const describe = (error: ErrorInfo, context: ErrorContext, params: SentenceParams = {}): ErrorText => errorText(error, context, params, t, te);
  return {
    describe,
    /** A reason main reports outside an error (why the policy was ignored, why updates are off). */
    reason(notice: { reason: Reason; params?: ErrorInfo['params'] }): string {
      return reasonSentence(notice.reason, notice.params ?? {}, t, te) ?? notice.reason;
    },
    /** One line for a screen staff work at: the desk's sentence only (the service's words go in a folded detail for IT, ErrorNotice). */
    line(error: ErrorInfo, context: ErrorContext, params: SentenceParams = {}): string {
      return describe(error, context, params).sentence;
    },
    /** One line for IT's pages (Settings, the first run): the sentence, then the service's words quoted and marked as the service's. */
    lineForIt(error: ErrorInfo, context: ErrorContext, params: SentenceParams = {}): string {
      const { sentence, serviceWords } = describe(error, context, params);
      return serviceWords ? `${sentence} ${t('errors.detail', { message: serviceWords })}` : sentence;
    },
  };
}
