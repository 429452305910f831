// A failure with the status and body the client is meant to see. Domain code throws it so
// the exact status each rule calls for sits next to the rule.

export class HttpError extends Error {
  readonly status: number;
  readonly detail: string | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, detail?: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.detail = detail;
    this.headers = headers;
  }

  body(): { message: string; detail?: string } {
    return this.detail === undefined ? { message: this.message } : { message: this.message, detail: this.detail };
  }
}
