// The app's one error type: what main throws, whichever layer finds the problem (a refused
// setting, the keychain, a wrong PIN, the service's answer, the mirror's thread). A code from
// the shared set (errors.ts) with the English sentence for the log; staff read the locale's
// sentence for its reason. It crosses IPC and the mirror's thread as data (toInfo), never as a
// thrown Error. What is the service's own (an HTTP status or answer turned into a code) is
// worked out in electron/node/partner, by functions that return this type.
import type { ErrorCode, ErrorInfo, ErrorParams } from './errors.ts';
import { reasonText, type Reason } from './reasons.ts';

export interface ErrorDetail {
  reason?: Reason;
  params?: ErrorParams;
  serviceMessage?: string;
}

export class DeskError extends Error {
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly detail: ErrorDetail;
  constructor(code: ErrorCode, message: string, status?: number, detail: ErrorDetail = {}) {
    super(message);
    this.name = 'DeskError';
    this.code = code;
    this.status = status;
    this.detail = detail;
  }

  /** An error whose sentence staff see comes from the locale files: the English one is for the log. */
  static because(code: ErrorCode, reason: Reason, params: ErrorParams = {}, status?: number): DeskError {
    return new DeskError(code, reasonText(reason, params), status, { reason, params });
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

export function isDeskError(value: unknown): value is DeskError {
  return value instanceof DeskError;
}
