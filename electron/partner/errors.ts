// The error main throws: a code from the shared set (shared/errors.ts) with the sentence that
// goes with it. It crosses IPC as data (toInfo), never as a thrown Error.
import type { ErrorCode, ErrorInfo } from '../shared/errors.ts';

export { ERROR_CODES, type ErrorCode, type ErrorInfo } from '../shared/errors.ts';

export class PartnerError extends Error {
  readonly code: ErrorCode;
  readonly status: number | undefined;
  constructor(code: ErrorCode, message: string, status?: number) {
    super(message);
    this.name = 'PartnerError';
    this.code = code;
    this.status = status;
  }

  toInfo(): ErrorInfo {
    return this.status === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, status: this.status };
  }
}

export function isPartnerError(value: unknown): value is PartnerError {
  return value instanceof PartnerError;
}
