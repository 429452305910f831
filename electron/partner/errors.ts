// The error main throws: a code from the shared set (shared/errors.ts) with the sentence that
// goes with it. It crosses IPC as data (toInfo), never as a thrown Error.
import type { ErrorCode, ErrorInfo, ErrorParams } from '../shared/errors.ts';
import { reasonText, type Reason } from '../shared/reasons.ts';

export { ERROR_CODES, type ErrorCode, type ErrorInfo, type ErrorParams } from '../shared/errors.ts';

export interface ErrorDetail {
  reason?: Reason;
  params?: ErrorParams;
  serviceMessage?: string;
}

export class PartnerError extends Error {
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly detail: ErrorDetail;
  constructor(code: ErrorCode, message: string, status?: number, detail: ErrorDetail = {}) {
    super(message);
    this.name = 'PartnerError';
    this.code = code;
    this.status = status;
    this.detail = detail;
  }

  /** An error whose sentence staff see comes from the locale files: the English one is for the log. */
  static because(code: ErrorCode, reason: Reason, params: ErrorParams = {}, status?: number): PartnerError {
    return new PartnerError(code, reasonText(reason, params), status, { reason, params });
  }

  toInfo(): ErrorInfo {
    return {
      code: this.code, message: this.message,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.detail.reason === undefined ? {} : { reason: this.detail.reason, params: { ...this.detail.params } }),
      ...(this.detail.serviceMessage === undefined ? {} : { serviceMessage: this.detail.serviceMessage }),
    };
  }
}

export function isPartnerError(value: unknown): value is PartnerError {
  return value instanceof PartnerError;
}
