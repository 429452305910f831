// One HTTP exchange with the service, and the retry loop around the idempotent ones. Knows
// status codes and time, nothing about patrons or titles: the client maps codes to meaning.

import { isLoopbackHost } from '../../shared/text-rules.ts';
import { DeskError } from '../../shared/desk-error.ts';
import type { ErrorCode } from '../../shared/errors.ts';
import { decoded, type Bytes } from './bytes.ts';
import { errorMessageOf, NOT_JSON } from './normalize.ts';
import { priorityOf, type Priority, type RequestPriority } from './priority.ts';
import { backoffMs, rateLimitPauseMs, retryAfterMs, type RetryPolicy } from './retry.ts';
import { serviceWaitError, STAFF_WAIT_LIMIT_MS } from './staff-wait.ts';

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

export type { Priority } from './priority.ts';

/**
 * Admits one exchange on the wire. A connection's request budget is one: every attempt,
 * retries included, passes through it, so the service's rate limit covers everything sent.
 * A request's priority may rise while it waits (priority.ts).
 */
export type SendGate = <T>(priority: Priority | RequestPriority, send: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

export interface TransportOptions {
  baseUrl: string;
  fetch: FetchFn;
  wsApi: string;
  timeoutMs: number;
  retry: RetryPolicy;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Absent: every exchange goes at once. */
  gate?: SendGate;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  authorization: string;
  /** GETs are retried on network errors, 429 and 5xx; nothing else is. */
  retry: boolean;
  /** Desk unless said otherwise; one that may rise (a token request a staff call joined) is a RequestPriority. */
  priority?: Priority | RequestPriority;
  /** A 2xx answer's body is its bytes as they came (a bulk page, read by the mirror), not parsed here. */
  bytes?: boolean;
  /**
   * Cancels the exchange: the request on the wire, a wait for Retry-After or a backoff, and any
   * retry. The promise then rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

/**
 * The most the desk reads of one answer: 32 MiB. The largest answer the service gives is a bulk
 * page of 500 records (a few MiB with long descriptions); sixteen times that is room enough. A body
 * past it — a broken or hostile service, a proxy's error page gone wrong — is refused while it
 * streams in, never read whole into memory, and not asked for again (it would come back as large).
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export interface HttpAnswer {
  status: number;
  /** The parsed JSON; with `bytes`, the body's Bytes (its chunks, as they came). */
  body: unknown;
}

/** A non-2xx answer, kept raw so the caller can map it for its own operation. */
export class HttpStatusError extends Error {
  readonly status: number;
  readonly serverMessage: string | undefined;
  readonly retryAfterMs: number | undefined;
  constructor(status: number, serverMessage: string | undefined, retryAfter: number | undefined) {
    super(`HTTP ${status}${serverMessage ? `: ${serverMessage}` : ''}`);
    this.status = status;
    this.serverMessage = serverMessage;
    this.retryAfterMs = retryAfter;
  }
}

/** Failures a retryable (idempotent) request is sent again after; a garbled answer to a GET is worth a second read. */
const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set(['network', 'timeout', 'bad-response']);

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    // Not quoted back: the address can be anything a person or a file put there.
    throw new DeskError('invalid-input', 'The service address is not a web address (such as https://lending.example.org).');
  }
  // The last stop before credentials are sent: never in clear text beyond this computer.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw DeskError.because('invalid-input', 'address.scheme');
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new DeskError('invalid-input', 'The service address must not carry a query, fragment or credentials.');
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

export class Transport {
  private readonly options: TransportOptions;
  /** When the last Retry-After runs out (client clock, ms). */
  private pausedUntil = 0;
  /** 429s in a row, whatever request met them: each pause is twice the last (retry.ts); an answer of any other kind starts again. */
  private refusedInARow = 0;
  /** When the last 429 came: one for a request already sent by then is the same refusal, not one more in a row. */
  private lastRefusalAt = -Infinity;
  constructor(options: TransportOptions) {
    this.options = { ...options, baseUrl: normalizeBaseUrl(options.baseUrl) };
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /**
   * Sends once, or with retries when `spec.retry`; throws DeskError or HttpStatusError.
   * A 429 is retried for every request, a borrow included: the service refused it unread, so
   * sending it again after the wait cannot do it twice.
   */
  async request(spec: RequestSpec): Promise<HttpAnswer> {
    const { retry, random } = this.options;
    const sleep = (ms: number) => this.sleepUnless(spec.signal, ms);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(spec);
      } catch (error) {
        spec.signal?.throwIfAborted();
        const rateLimited = error instanceof HttpStatusError && error.status === 429;
        const last = !(spec.retry || rateLimited) || attempt >= retry.attempts;
        // A 429 with Retry-After paused every request (noteRefusal): the next attempt waits it out in `once`.
        if (rateLimited && error.retryAfterMs !== undefined && !last) continue;
        if (error instanceof HttpStatusError && isRetryableStatus(error.status) && !last) {
          await sleep(backoffMs(retry, attempt, random));
          continue;
        }
        if (error instanceof DeskError && RETRYABLE_CODES.has(error.code) && !isTooLarge(error) && !last) {
          await sleep(backoffMs(retry, attempt, random));
          continue;
        }
        throw error;
      }
    }
  }

  /** How long the service's last Retry-After still holds every request back (0: none). */
  pauseMs(): number {
    return Math.max(0, this.pausedUntil - this.options.now());
  }

  /**
   * A staff call that would wait longer than a few seconds for the service's pause is answered
   * at once with the time to wait (staff-wait.ts); a shorter pause it waits out.
   */
  refuseLongStaffWait(priority: Priority): void {
    const wait = this.pauseMs();
    if (priority === 'desk' && wait > STAFF_WAIT_LIMIT_MS) throw serviceWaitError(wait);
  }

  /**
   * A Retry-After is about this client, not one request: until it has run out, every request
   * waits, so parallel lookups do not walk into the limit one after another.
   */
  private async waitForRetryAfter(signal: AbortSignal | undefined, priority: RequestPriority): Promise<void> {
    this.refuseLongStaffWait(priority.value);
    const wait = this.pauseMs();
    if (wait > 0) await this.sleepUnless(signal, wait);
  }

  /** The options' sleep, cut short by `signal` (whose reason it then throws). */
  private async sleepUnless(signal: AbortSignal | undefined, ms: number): Promise<void> {
    signal?.throwIfAborted();
    if (!signal) return this.options.sleep(ms);
    let stop: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      stop = () => reject(signal.reason);
      signal.addEventListener('abort', stop, { once: true });
    });
    aborted.catch(() => {});
    try {
      await Promise.race([this.options.sleep(ms), aborted]);
    } finally {
      signal.removeEventListener('abort', stop as () => void);
    }
  }

  /**
   * A 429 that says how long to wait pauses every request for that long in full, and for twice as
   * long after each 429 in a row (the guidance's exponential backoff, from Retry-After). Requests
   * sent together and refused together are one refusal: a lookup's three at once, refused by a
   * full window (the partner's, or the library server's line), pause for Retry-After, not four
   * times it; a request sent again after the pause and refused again doubles it.
   */
  private noteRefusal(error: HttpStatusError, sentAt: number): void {
    if (error.status !== 429) return;
    if (sentAt > this.lastRefusalAt) this.refusedInARow += 1;
    this.lastRefusalAt = this.options.now();
    if (error.retryAfterMs === undefined) return;
    const until = this.options.now() + rateLimitPauseMs(this.options.retry, error.retryAfterMs, this.refusedInARow);
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  private async once(spec: RequestSpec): Promise<HttpAnswer> {
    const priority = priorityOf(spec.priority ?? 'desk');
    spec.signal?.throwIfAborted(); // superseded before it went: it spends no budget (issue #34)
    await this.waitForRetryAfter(spec.signal, priority);
    const { fetch, timeoutMs, wsApi, now } = this.options;
    const url = new URL(this.options.baseUrl + spec.path);
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: spec.authorization,
      ...(wsApi ? { 'ws-api': wsApi } : {}),
      ...(spec.method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
      ...spec.headers,
    };
    const gate: SendGate = this.options.gate ?? ((_priority, send) => send());
    let timeout: AbortSignal | undefined;
    let response: Response;
    let text = '';
    let bytes: Bytes | undefined;
    let sentAt = now();
    try {
      ({ response, text, bytes } = await gate(priority, async () => {
        spec.signal?.throwIfAborted(); // cancelled as it was let through
        sentAt = now();
        // The timeout starts when the exchange is admitted, not while it waits its turn.
        timeout = AbortSignal.timeout(timeoutMs);
        const signal = spec.signal ? AbortSignal.any([timeout, spec.signal]) : timeout;
        const answer = await fetch(url.href, { method: spec.method, headers, signal, redirect: 'error' });
        // Every body, a bulk page's bytes included, is read through the one cap.
        const body = await readCapped(answer, MAX_RESPONSE_BYTES);
        if (spec.bytes && answer.ok) return { response: answer, text: '', bytes: body };
        return { response: answer, text: decoded(body), bytes: undefined };
      }, spec.signal)); // cancelled while it waits its turn, it leaves the queue uncounted
    } catch (error) {
      spec.signal?.throwIfAborted();
      throw transportFailure(error, timeout, timeoutMs);
    }
    if (response.status !== 429) this.refusedInARow = 0;
    if (bytes) return { status: response.status, body: bytes };
    const ok = response.status >= 200 && response.status < 300;
    const body = parseJson(text, response.status);
    if (ok) return { status: response.status, body };
    const refused = new HttpStatusError(response.status, errorMessageOf(body), retryAfterMs(response.headers.get('retry-after'), now()));
    this.noteRefusal(refused, sentAt);
    throw refused;
  }
}

/** A refusal that sending again cannot cure: the retry loop lets it through at once. */
function tooLarge(limit: number, status: number): DeskError {
  return DeskError.because('bad-response', 'service.response-too-large', { limit: limit / 1024 / 1024 }, status);
}

export function isTooLarge(error: unknown): boolean {
  return error instanceof DeskError && error.detail.reason === 'service.response-too-large';
}

/**
 * The body's bytes, read as they stream in, up to `limit`: past it the stream is cancelled (the
 * socket closes) and the answer refused. A Content-Length above the limit is refused unread.
 * They are kept as the chunks they came in (bytes.ts says why), each an ArrayBuffer of its own.
 */
export async function readCapped(response: Response, limit: number): Promise<ArrayBuffer[]> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(limit, response.status);
  }
  if (!response.body) return [];
  const reader = response.body.getReader();
  const chunks: ArrayBuffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit, response.status);
    }
    chunks.push(ownBuffer(value));
  }
  return chunks;
}

/** The chunk's own buffer when it is the whole of it (as fetch's chunks are), else a copy: a buffer shared with other bytes is never moved. */
const ownBuffer = (chunk: Uint8Array): ArrayBuffer =>
  chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer
    ? chunk.buffer : chunk.slice().buffer;

function parseJson(text: string, status: number): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // An error page in HTML is still an error status; only a 2xx must be JSON.
    if (status >= 200 && status < 300) {
      throw new DeskError('bad-response', NOT_JSON, status);
    }
    return undefined;
  }
}

function transportFailure(error: unknown, signal: AbortSignal | undefined, timeoutMs: number): DeskError {
  if (error instanceof DeskError) return error;
  if (signal?.aborted) {
    const seconds = Math.max(1, Math.round(timeoutMs / 1000));
    return new DeskError('timeout', `The service did not answer within ${seconds} second${seconds === 1 ? '' : 's'}.`);
  }
  return new DeskError('network', 'Could not reach the lending service. Check the network connection.');
}
