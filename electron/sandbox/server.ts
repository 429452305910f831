// startSandbox: the sandbox partner service as a real HTTP server on loopback. This module
// owns the sockets: routing, request counts, injected faults and the bearer check happen
// here, in that order, before a route handler sees the request.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { handleAdmin } from './admin.ts';
import { MAX_CATALOG_SIZE } from './catalog.ts';
import { createControl } from './control.ts';
import type { SandboxControl } from './control.ts';
import type { FaultSpec } from './faults.ts';
import { HttpError } from './http-error.ts';
import { LIBRARIES } from './libraries.ts';
import type { Reply } from './routes/context.ts';
import { findRoute } from './routes/router.ts';
import { requireBearer } from './routes/token.ts';
import type { RouteName } from './route-names.ts';
import { SandboxState } from './state.ts';

export type { SandboxControl, ContentFilter } from './control.ts';
export type { FaultSpec, FaultKind } from './faults.ts';
export type { RouteName } from './route-names.ts';
export type { LoggedRequest } from './request-log.ts';
export type { CatalogChanges } from './catalog-changes.ts';
export type { ShapeChanges } from './shapes.ts';

export interface SandboxOptions {
  host?: string;
  port?: number;
  seed?: number;
  catalogSize?: number;
  tokenLifetimeSeconds?: number;
  username?: string;
  password?: string;
  /** Epoch ms; lets tests move time. */
  now?: () => number;
  /** Receives one line per request (the CLI's --verbose). */
  log?: (line: string) => void;
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

export interface SandboxHandle {
  url: string;
  username: string;
  password: string;
  libraries: SandboxLibrary[];
  control: SandboxControl;
  close(): Promise<void>;
}

function validateOptions(options: SandboxOptions): void {
  const check = (name: string, value: number | undefined, min: number, max: number): void => {
    if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
      throw new RangeError(`${name} must be an integer from ${min} to ${max}`);
    }
  };
  check('port', options.port, 0, 65_535);
  check('seed', options.seed, 0, 0xffffffff);
  check('catalogSize', options.catalogSize, 1, MAX_CATALOG_SIZE);
  check('tokenLifetimeSeconds', options.tokenLifetimeSeconds, 1, 100_000_000);
}

function send(response: ServerResponse, reply: Reply): void {
  if (response.destroyed || response.headersSent) return;
  if (reply.status === 204 || reply.body === undefined) {
    response.writeHead(reply.status, reply.headers ?? {});
    response.end();
    return;
  }
  response.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
  response.end(JSON.stringify(reply.body));
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

function decodeSegments(rawPath: string): string[] {
  const segments = rawPath.split('/').slice(1);
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  try {
    return segments.map((segment) => decodeURIComponent(segment));
  } catch {
    throw new HttpError(400, 'The request path is not valid percent-encoding');
  }
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  validateOptions(options);
  const username = options.username ?? 'desk-sandbox';
  const password = options.password ?? 'sandbox-password';
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
  });
  const control = createControl(state, (ms) => {
    clockOffset += ms;
  });
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const log = options.log;
  const libraries: SandboxLibrary[] = LIBRARIES.map((library) => {
    const patrons = state.demoPatrons.get(library.libraryId) ?? [];
    return { libraryId: library.libraryId, country: library.country, name: library.name, cards: patrons.map((p) => p.card), patrons };
  });
  let url = '';

  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const rawUrl = request.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const rawPath = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    const query = new URLSearchParams(queryAt < 0 ? '' : rawUrl.slice(queryAt + 1));
    log?.(`${method} ${rawUrl}`);

    if (rawPath.startsWith('/__sandbox/')) {
      const info = (): unknown => ({ url, username, password, libraries });
      send(response, await handleAdmin(request, rawPath.slice('/__sandbox/'.length), query, control, info));
      return;
    }
    const logRequest = (route: RouteName | undefined, params: Record<string, string | undefined>): void => {
      const defined = Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
      state.requestLog.add({ at: state.options.now(), method, path: rawPath, route, params: defined });
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
    const { route, handler, params } = found.match;
    state.counts[route] += 1;
    const plan = state.faults.take(route);
    if (plan.delayMs > 0) await delay(plan.delayMs);
    const fault = plan.failure;
    if (fault?.kind === 'stall') return; // never answered; close() ends the socket
    if (fault?.kind === 'reset' && fault.phase !== 'after') {
      request.socket.destroy();
      return;
    }
    if (fault !== undefined && fault.kind !== 'reset' && fault.kind !== 'malformed-json') {
      send(response, failureReply(fault));
      return;
    }

    let reply: Reply;
    try {
      if (route !== 'token') requireBearer(state, request.headers);
      reply = handler({ state, method, params, query, headers: request.headers });
    } catch (error) {
      reply = errorReply(error);
    }
    if (fault?.kind === 'reset') {
      request.socket.destroy();
      return;
    }
    if (fault?.kind === 'malformed-json') {
      const text = JSON.stringify(reply.body ?? { message: 'ok' });
      response.writeHead(reply.status === 204 ? 200 : reply.status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(`${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}<!-- truncated`);
      return;
    }
    send(response, reply);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, errorReply(error)));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    username,
    password,
    libraries,
    control,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
