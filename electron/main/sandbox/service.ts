// The sandbox partner service without a socket: one request in, one outcome out. Routing,
// request counts, injected faults and the bearer check happen here, in that order, before a
// route handler sees the request. The desk's built-in sandbox calls it in-process through
// `fetch` (nothing listens on the machine); server.ts puts it on loopback HTTP for
// `npm run sandbox` and the tests.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { handleAdmin } from './admin.ts';
import { MAX_CATALOG_SIZE } from './catalog.ts';
import { createControl } from './control.ts';
import type { SandboxControl } from './control.ts';
import { ANSWER_FAULTS, type FaultSpec } from './faults.ts';
import { HttpError } from './http-error.ts';
import { LIBRARIES } from './libraries.ts';
import type { Reply } from './routes/context.ts';
import { findRoute } from './routes/router.ts';
import { requireBearer } from './routes/token.ts';
import type { RouteName } from './route-names.ts';
import { ENTITLEMENT_FILTERS, SandboxState, REMOVALS, type EntitlementFilters, type Removals } from './state.ts';
import { COVER_MODES, type CoverMode } from './urls.ts';
import { ID_READINGS, type IdReading } from './content-ids.ts';
import { jsonInSlices } from './slices.ts';

export interface SandboxOptions {
  host?: string;
  port?: number;
  seed?: number;
  catalogSize?: number;
  tokenLifetimeSeconds?: number;
  username?: string;
  /** A fresh random one each start when absent: nothing else on the machine can guess it. */
  password?: string;
  /** Epoch ms; lets tests move time. */
  now?: () => number;
  /** Receives one line per request (the CLI's --verbose). */
  log?: (line: string) => void;
  /** At most this many requests a minute per credential, then 429 with Retry-After (rate-limit.ts); no limit when absent. */
  rateLimitPerMinute?: number;
  /** The rate limit's window, 60,000 ms unless a bench compresses time (rate-limit.ts). */
  rateLimitWindowMs?: number;
  /**
   * How content ids and title ids relate (content-ids.ts): `spec` (default: a title's id is its
   * titleId, a series is one content) or `published` (the guidance's reading: titleIds differ from
   * content ids, a series' episodes are contents with string ids).
   */
  ids?: IdReading;
  /** How a delta shows a removal: `marked` (default: `removed: true`) or `absent` (as the published schemas: only a full pull shows it). */
  removals?: Removals;
  /** Where covers are (issue #34): `sandbox` (default: its own .invalid host) or `partner` (real-looking addresses on the partner's cover host). */
  covers?: CoverMode;
  /** Whether the entitlements route applies its filters (`honoured`, default) or ignores `purchaseModel` and `status` (`ignored`: the spec does not name them). */
  entitlementFilters?: EntitlementFilters;
}

export interface SandboxPatron {
  card: string;
  role: string;
  description: string;
}

export interface SandboxLibrary {
  libraryId: number;
  country: string;
  name: string;
  cards: string[];
  /** The same cards with the situation each one demonstrates. */
  patrons: SandboxPatron[];
}

/** A request as the service sees it, whichever way it came. */
export interface SandboxRequest {
  method: string;
  /** Path and query as sent (`/api/v1/...?...`), still percent-encoded. */
  rawUrl: string;
  /** Lower-case names. */
  headers: IncomingHttpHeaders;
  body: () => Promise<string>;
}

/** What happens to the request: an answer, or one of the failures only a socket can show. */
export type SandboxOutcome =
  | { kind: 'reply'; reply: Reply }
  | { kind: 'garbled'; status: number; text: string }
  /** A 200 with a JSON body of `bytes` bytes, made as it is sent (nothing that large is held). */
  | { kind: 'oversized'; bytes: number; declared: boolean }
  | { kind: 'reset' }
  | { kind: 'stall' };

export interface SandboxService {
  username: string;
  password: string;
  /** Sent as `x-sandbox-admin` to reach the /__sandbox/ admin routes. */
  adminToken: string;
  libraries: SandboxLibrary[];
  control: SandboxControl;
  respond(request: SandboxRequest): Promise<SandboxOutcome>;
  /** The service as a fetch function: what a connection to the built-in sandbox uses. */
  fetch(input: string, init: RequestInit): Promise<Response>;
  close(): void;
}

export const ADMIN_HEADER = 'x-sandbox-admin';
/** The origin the in-process sandbox answers as (never resolved: `.invalid` is reserved). */
export const IN_PROCESS_ORIGIN = 'https://sandbox.lending-desk.invalid';

export function validateOptions(options: SandboxOptions): void {
  const check = (name: string, value: number | undefined, min: number, max: number): void => {
    if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
      throw new RangeError(`${name} must be an integer from ${min} to ${max}`);
    }
  };
  check('port', options.port, 0, 65_535);
  check('seed', options.seed, 0, 0xffffffff);
  check('catalogSize', options.catalogSize, 1, MAX_CATALOG_SIZE);
  check('tokenLifetimeSeconds', options.tokenLifetimeSeconds, 1, 100_000_000);
  check('rateLimitPerMinute', options.rateLimitPerMinute, 1, 1_000_000);
  check('rateLimitWindowMs', options.rateLimitWindowMs, 1000, 60_000);
  if (options.ids !== undefined && !ID_READINGS.includes(options.ids)) throw new RangeError(`ids must be one of ${ID_READINGS.join(', ')}`);
  if (options.removals !== undefined && !REMOVALS.includes(options.removals)) throw new RangeError(`removals must be one of ${REMOVALS.join(', ')}`);
  if (options.covers !== undefined && !COVER_MODES.includes(options.covers)) throw new RangeError(`covers must be one of ${COVER_MODES.join(', ')}`);
  if (options.entitlementFilters !== undefined && !ENTITLEMENT_FILTERS.includes(options.entitlementFilters)) {
    throw new RangeError(`entitlementFilters must be one of ${ENTITLEMENT_FILTERS.join(', ')}`);
  }
}

function errorReply(error: unknown): Reply {
  if (error instanceof HttpError) return { status: error.status, body: error.body(), headers: error.headers };
  const detail = error instanceof Error ? error.message : String(error);
  return { status: 500, body: { message: 'The sandbox failed to handle this request', detail } };
}

function failureReply(fault: FaultSpec): Reply {
  switch (fault.kind) {
    case 'unauthorized':
      return { status: 401, body: { message: 'The access token is not valid or has expired', detail: 'Token revoked' } };
    case 'rate-limit': {
      const seconds = fault.retryAfterSeconds ?? 1;
      return {
        status: 429,
        headers: { 'retry-after': String(seconds) },
        body: { message: 'Too many requests', detail: `Retry after ${seconds} seconds` },
      };
    }
    default:
      return { status: fault.status ?? 503, body: { message: 'The service is temporarily unavailable', detail: 'Injected server error' } };
  }
}

/** Whose request it is, for the per-credential rate limit: the username of a token request, the token's holder for the rest (none when it proves neither). */
function credentialOf(state: SandboxState, route: RouteName, headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization ?? '';
  if (route === 'token') {
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    const decoded = basic ? Buffer.from(basic[1] ?? '', 'base64').toString('utf8') : '';
    return decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : undefined;
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  // The sandbox issues tokens to its one credential.
  return bearer && state.tokens.isValid(bearer[1] ?? '', state.options.now()) ? state.options.username : undefined;
}

function decodeSegments(rawPath: string): string[] {
  const segments = rawPath.split('/').slice(1);
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  try {
    return segments.map((segment) => decodeURIComponent(segment));
  } catch {
    throw new HttpError(400, 'The request path is not valid percent-encoding');
  }
}

function sameSecret(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `about` adds to what the admin `info` route reports (the HTTP server's address). */
export function createSandboxService(options: SandboxOptions = {}, about: () => Record<string, unknown> = () => ({})): SandboxService {
  validateOptions(options);
  const username = options.username ?? 'desk-sandbox';
  const password = options.password ?? randomBytes(18).toString('base64url');
  const adminToken = randomBytes(24).toString('base64url');
  // The clock the service runs on: the caller's (or the wall clock) plus whatever the control
  // surface has moved it on, so a sandbox in another process can share a simulated day.
  let clockOffset = 0;
  const baseNow = options.now ?? Date.now;
  const state = new SandboxState({
    seed: options.seed ?? 1,
    catalogSize: options.catalogSize ?? 5000,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
    username,
    password,
    now: () => baseNow() + clockOffset,
    ...(options.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: options.rateLimitPerMinute }),
    ...(options.rateLimitWindowMs === undefined ? {} : { rateLimitWindowMs: options.rateLimitWindowMs }),
    ids: options.ids ?? 'spec',
    removals: options.removals ?? 'marked',
    covers: options.covers ?? 'sandbox',
    entitlementFilters: options.entitlementFilters ?? 'honoured',
  });
  const control = createControl(state, (ms) => {
    clockOffset += ms;
  });
  const timers = new Set<NodeJS.Timeout>();
  const libraries: SandboxLibrary[] = LIBRARIES.map((library) => {
    const patrons = state.demoPatrons.get(library.libraryId) ?? [];
    return { libraryId: library.libraryId, country: library.country, name: library.name, cards: patrons.map((p) => p.card), patrons };
  });
  const info = (): unknown => ({ ...about(), username, password, libraries });

  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function respond(request: SandboxRequest): Promise<SandboxOutcome> {
    const { method, rawUrl, headers } = request;
    const queryAt = rawUrl.indexOf('?');
    const rawPath = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    const query = new URLSearchParams(queryAt < 0 ? '' : rawUrl.slice(queryAt + 1));
    options.log?.(`${method} ${rawUrl}`);
    try {
      if (rawPath.startsWith('/__sandbox/')) {
        if (!sameSecret(headers[ADMIN_HEADER], adminToken)) throw new HttpError(403, 'The sandbox admin routes need the admin token');
        return { kind: 'reply', reply: await handleAdmin(request, rawPath.slice('/__sandbox/'.length), query, control, info) };
      }
      return await route(method, rawPath, query, headers);
    } catch (error) {
      return { kind: 'reply', reply: errorReply(error) };
    }
  }

  async function route(method: string, rawPath: string, query: URLSearchParams, headers: IncomingHttpHeaders): Promise<SandboxOutcome> {
    const logRequest = (name: RouteName | undefined, params: Record<string, string | undefined>): void => {
      const defined = Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
      state.requestLog.add({ at: state.options.now(), method, path: rawPath, route: name, params: defined });
    };
    let segments: string[];
    try {
      segments = decodeSegments(rawPath);
    } catch (error) {
      logRequest(undefined, {});
      throw error;
    }
    const found = findRoute(method, segments);
    logRequest(found.kind === 'match' ? found.match.route : undefined, found.kind === 'match' ? { ...found.match.params } : {});
    if (found.kind === 'none') throw new HttpError(404, `No route for ${method} ${rawPath}`);
    if (found.kind === 'wrong-method') {
      throw new HttpError(405, `${method} is not allowed here`, `Allowed: ${found.allowed.join(', ')}`, { allow: found.allowed.join(', ') });
    }
    const { route: name, handler, params } = found.match;
    state.counts[name] += 1;
    const plan = state.faults.take(name);
    if (plan.delayMs > 0) await delay(plan.delayMs);
    const fault = plan.failure;
    if (fault?.kind === 'stall') return { kind: 'stall' };
    if (fault?.kind === 'oversized') return { kind: 'oversized', bytes: fault.bytes ?? 120 * 1024 * 1024, declared: fault.declared ?? false };
    if (fault?.kind === 'reset' && fault.phase !== 'after') return { kind: 'reset' };
    if (fault !== undefined && !ANSWER_FAULTS.includes(fault.kind)) return { kind: 'reply', reply: failureReply(fault) };
    const credential = state.rateLimit.describe().perMinute === null ? undefined : credentialOf(state, name, headers);
    const retryAfter = credential === undefined ? undefined : state.rateLimit.admit(credential, state.options.now());
    if (retryAfter !== undefined) return { kind: 'reply', reply: failureReply({ route: name, kind: 'rate-limit', retryAfterSeconds: retryAfter }) };

    let reply: Reply;
    try {
      if (name !== 'token') requireBearer(state, headers);
      reply = await handler({ state, method, params, query, headers });
    } catch (error) {
      reply = errorReply(error);
    }
    if (fault?.kind === 'reset') return { kind: 'reset' };
    if (fault?.kind === 'other-content' || fault?.kind === 'drop-ids') return { kind: 'reply', reply: changedAnswer(fault.kind, reply) };
    if (fault?.kind === 'malformed-json') {
      const text = JSON.stringify(reply.body ?? { message: 'ok' });
      return { kind: 'garbled', status: reply.status === 204 ? 200 : reply.status, text: `${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}<!-- truncated` };
    }
    return { kind: 'reply', reply };
  }

  return {
    username,
    password,
    adminToken,
    libraries,
    control,
    respond,
    fetch: (input, init) => fetchInProcess(respond, input, init),
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/**
 * An answer that does not match its question (issue #24): `other-content`, a borrow or hold
 * answered about another content than the one it committed, a content-info answer about ids not
 * asked (the next id, or the id with "-other"); `drop-ids`, a content-info answer leaving out
 * every other id asked.
 */
function changedAnswer(kind: 'other-content' | 'drop-ids', reply: Reply): Reply {
  const body = reply.body;
  if (kind === 'drop-ids') return Array.isArray(body) ? { ...reply, body: body.filter((_, index) => index % 2 === 0) } : reply;
  const other = (item: unknown): unknown => {
    if (typeof item !== 'object' || item === null || !('contentId' in item)) return item;
    const asked = (item as { contentId: unknown }).contentId;
    return { ...item, contentId: typeof asked === 'number' ? asked + 1 : `${String(asked)}-other` };
  };
  return { ...reply, body: Array.isArray(body) ? body.map(other) : other(body) };
}

/**
 * A fetch answered by the service in this process. It fails the ways a socket fails, so the
 * client's retries and ambiguous-outcome handling meet the same cases as over HTTP: a reset is
 * fetch's own TypeError, a stall waits for the caller's abort signal.
 */
async function fetchInProcess(respond: SandboxService['respond'], input: string, init: RequestInit): Promise<Response> {
  const url = new URL(input);
  const headers: IncomingHttpHeaders = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const text = typeof init.body === 'string' ? init.body : '';
  const outcome = await respond({ method: init.method ?? 'GET', rawUrl: url.pathname + url.search, headers, body: async () => text });
  signal?.throwIfAborted();
  switch (outcome.kind) {
    case 'reset':
      throw new TypeError('fetch failed', { cause: new Error('The sandbox dropped the connection (injected fault)') });
    case 'stall':
      return new Promise<Response>((_resolve, reject) => {
        if (!signal) return; // no signal: hangs, as a stalled socket would
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    case 'garbled':
      return new Response(outcome.text, { status: outcome.status, headers: { 'content-type': 'application/json; charset=utf-8' } });
    case 'oversized': {
      const chunks = oversizedBody(outcome.bytes);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', ...(outcome.declared ? { 'content-length': String(outcome.bytes) } : {}) } });
    }
    case 'reply': {
      const { reply } = outcome;
      const body = reply.status === 204 || reply.body === undefined ? null : (await jsonInSlices(reply.body)) ?? null;
      const headers: Record<string, string> = body === null ? {} : { 'content-type': 'application/json; charset=utf-8' };
      return new Response(body, { status: reply.status, headers: { ...headers, ...reply.headers } });
    }
  }
}

const PAD_CHUNK = new Uint8Array(1024 * 1024).fill(0x20);

/** `{"pad":"   …   "}` in pieces of at most a MiB, `bytes` long in all: valid JSON, were anyone to read it whole. */
export function* oversizedBody(bytes: number): Generator<Uint8Array> {
  const open = new TextEncoder().encode('{"pad":"');
  const close = new TextEncoder().encode('"}');
  yield open;
  let left = Math.max(0, bytes - open.length - close.length);
  while (left > 0) {
    const size = Math.min(left, PAD_CHUNK.length);
    yield PAD_CHUNK.subarray(0, size);
    left -= size;
  }
  yield close;
}
