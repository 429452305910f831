// How a desk in a library reaches its library server (issue #31): HTTPS with the server's
// certificate verified against the CA IT's policy names (or the public CAs Node carries — never
// the OS's store, where any user of the PC can add a root, nor the OS's proxy: the server is on
// the library's own network), one kept-alive connection pool per instance. It is the fetch the
// desk's partner client uses for a connection whose calls the server carries, so the client is
// unchanged: the server speaks the partner's own API.
//
// Two instances: the one that answered last is asked first. A request that could not reach an
// instance at all (no connection made) goes to the other; so does a read whose connection dropped,
// and any request an instance says it passed on to nobody (503 not-leading). A borrow or a hold
// whose connection dropped after it was sent is not sent again: the client settles it by reading
// the patron's account, as it does with the partner.
//
// What the server itself says — this desk is not enrolled, or revoked; its certificate did not
// verify; neither instance answered — becomes a DeskError with the reason staff read. A wait the
// server expects (its informational 103 answer) is told to `onWait` as it comes, and so is the
// wait of a call it refused as too long a wait (429 busy: the client sends it again after it).
import { Agent, request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { IncomingMessage } from 'node:http';
import { DeskError } from '../../shared/desk-error.ts';
import type { FetchFn } from '../../node/partner/transport.ts';
import { isCertificateError } from '../../node/logging/tls-refusal.ts';

import { SESSION_HEADER, WAIT_HEADER } from '../../node/library-server-protocol.ts';
/** A connection not made in this long: the instance is taken as down and the other is asked. */
const CONNECT_TIMEOUT_MS = 3_000;

export interface LibraryServerTarget {
  /** The instances' addresses (origin and path), the first tried first. */
  urls: string[];
  /** PEM: the CA that issued the server's certificates (absent: the public CAs Node carries). */
  ca?: string;
}

/** How the Sync view and messages name the server (never a secret). */
export const serverLabel = (target: LibraryServerTarget): string => target.urls.map((u) => new URL(u).host).join(', ');


interface Attempt {
  response?: IncomingMessage;
  body?: Buffer;
  /** The request never reached the instance (no connection): safe to send to the other whatever it was. */
  notSent?: boolean;
  error?: Error;
}

/** This desk's workstation id (username) and secret (password) at the server. */
export interface WorkstationCredentials { username: string; password: string }

/** A member of staff's shift at the server: the token every staff call carries, who, until when. */
export interface ServerSession { token: string; staff: { name: string; role: 'desk-staff' | 'manager' }; expiresAt: number }

export class LibraryServerLink {
  readonly target: LibraryServerTarget;
  private readonly agents: Agent[];
  /** The instance that answered last. */
  private preferred = 0;

  constructor(target: LibraryServerTarget) {
    if (target.urls.length === 0) throw new Error('A library server needs an address.');
    this.target = target;
    // Without the policy's CA: Node's own public CAs, named, so that NODE_EXTRA_CA_CERTS (a variable any
    // user of the PC can set) adds no root the desk trusts for its library server.
    this.agents = target.urls.map(() => new Agent({ keepAlive: true, maxSockets: 16, ca: target.ca ?? [...rootCertificates] }));
  }

  /** The first instance's address: what the desk's client names as the service's base URL. */
  get baseUrl(): string {
    return this.target.urls[0] as string;
  }

  /**
   * The fetch a connection's partner client uses: every call to the server goes through here,
   * with the signed-in member of staff's session (held in main's memory only) when there is one.
   */
  fetchWith(onWait: (seconds: number) => void = () => {}, session: () => string | undefined = () => undefined, sessionEnded: () => void = () => {}): FetchFn {
    return async (input, init) => {
      const path = this.pathOf(input);
      const method = (init.method ?? 'GET').toUpperCase();
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const token = session();
      if (token !== undefined) headers[SESSION_HEADER] = token;
      try {
        return await this.send(method, path, headers, undefined, init.signal ?? undefined, onWait);
      } catch (error) {
        // The server ended the shift (its length, IT): the desk locks, whoever's call heard it first.
        if (error instanceof DeskError && error.detail.reason === 'library-server.session-ended') sessionEnded();
        throw error;
      }
    };
  }

  /** Trades IT's enrolment code for this desk's workstation id and secret. */
  async enrol(code: string): Promise<{ workstationId: string; secret: string; name: string }> {
    const body = JSON.stringify({ code });
    const answer = await this.send('POST', '/desk/v1/enrol', { 'content-type': 'application/json', accept: 'application/json' }, body, undefined, () => {});
    const text = await answer.text();
    if (answer.status === 403) throw DeskError.because('invalid-input', 'library-server.enrolment-code');
    if (!answer.ok) throw DeskError.because('server', 'library-server.refused', { server: serverLabel(this.target), status: answer.status });
    const parsed = JSON.parse(text) as { workstationId?: unknown; secret?: unknown; name?: unknown };
    if (typeof parsed.workstationId !== 'string' || typeof parsed.secret !== 'string') {
      throw new DeskError('bad-response', 'The library server answered the enrolment without a workstation.');
    }
    return { workstationId: parsed.workstationId, secret: parsed.secret, name: typeof parsed.name === 'string' ? parsed.name : parsed.workstationId };
  }

  /**
   * A member of staff signs in at the server with this desk's workstation credentials: the
   * session (held in main's memory only), who signed in and until when; or why not, in the staff's
   * words (a wrong PIN and the tries left, the wait after too many, a disabled account).
   */
  async signIn(workstation: WorkstationCredentials, name: string, pin: string): Promise<ServerSession> {
    const answer = await this.send('POST', '/desk/v1/sign-in', this.deskHeaders(workstation), JSON.stringify({ name, pin }), undefined, () => {});
    const body = JSON.parse((await answer.text()) || '{}') as { session?: unknown; staff?: { name?: unknown; role?: unknown }; expiresAt?: unknown; reason?: unknown; triesLeft?: unknown };
    if (answer.ok && typeof body.session === 'string' && typeof body.staff?.name === 'string') {
      return { token: body.session, staff: { name: body.staff.name, role: body.staff.role === 'manager' ? 'manager' : 'desk-staff' }, expiresAt: Number(body.expiresAt) };
    }
    if (body.reason === 'staff-wait') {
      const seconds = Number(answer.headers.get('retry-after') ?? 30);
      throw DeskError.because('invalid-input', 'library-server.staff-wait', { seconds });
    }
    if (body.reason === 'staff-disabled') throw DeskError.because('unauthorized', 'library-server.staff-disabled');
    if (body.reason === 'staff-wrong') throw DeskError.because('unauthorized', 'library-server.staff-wrong', { triesLeft: Number(body.triesLeft ?? 0) });
    throw DeskError.because('server', 'library-server.refused', { server: serverLabel(this.target), status: answer.status });
  }

  /** The shift ends at the server too (the desk locked or quit). */
  async signOut(workstation: WorkstationCredentials, session: string): Promise<void> {
    await this.send('POST', '/desk/v1/sign-out', { ...this.deskHeaders(workstation), [SESSION_HEADER]: session }, '{}', undefined, () => {});
  }

  /** A manager's read of the audit trail (`export`: the whole filter, for a file); the server checks the role and records the read. */
  async readAudit(workstation: WorkstationCredentials, session: string, query: Record<string, string | number | undefined>): Promise<unknown> {
    const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string | number] => e[1] !== undefined).map(([k, v]): [string, string] => [k, String(v)]));
    const answer = await this.send('GET', `/desk/v1/audit?${params}`, { ...this.deskHeaders(workstation), [SESSION_HEADER]: session }, undefined, undefined, () => {});
    const body = JSON.parse((await answer.text()) || '{}') as { reason?: unknown };
    if (answer.status === 403 && body.reason === 'manager-only') throw DeskError.because('unauthorized', 'library-server.manager-only');
    if (!answer.ok) throw DeskError.because('server', 'library-server.refused', { server: serverLabel(this.target), status: answer.status });
    return body;
  }

  private deskHeaders(workstation: WorkstationCredentials): Record<string, string> {
    return {
      'content-type': 'application/json', accept: 'application/json',
      authorization: `Basic ${Buffer.from(`${workstation.username}:${workstation.password}`).toString('base64')}`,
    };
  }

  close(): void {
    for (const agent of this.agents) agent.destroy();
  }

  /** The path under the server, from a URL the client built on the first instance's address. */
  private pathOf(input: string): string {
    const base = this.baseUrl;
    if (!input.startsWith(base)) throw new DeskError('invalid-input', 'A call to the library server named another address.');
    return input.slice(base.length) || '/';
  }

  private async send(method: string, path: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined, onWait: (s: number) => void): Promise<Response> {
    const order = this.target.urls.map((_, i) => (this.preferred + i) % this.target.urls.length);
    const idempotent = method === 'GET';
    let last: Attempt | undefined;
    for (const index of order) {
      signal?.throwIfAborted();
      const attempt = await this.attempt(index, method, path, headers, body, signal, onWait);
      last = attempt;
      const response = attempt.response;
      if (response) {
        // An instance that passed the call to nobody (it follows, and the leader did not answer): the other may lead.
        if (response.statusCode === 503 && reasonOf(attempt.body) === 'not-leading' && index !== order.at(-1)) continue;
        this.preferred = index;
        // Refused, not done, as too long a wait: the client sends it again after Retry-After, and staff are told how long.
        if (response.statusCode === 429 && reasonOf(attempt.body) === 'busy') {
          const seconds = Number(response.headers['retry-after']);
          if (Number.isFinite(seconds) && seconds > 0) onWait(seconds);
        }
        return toResponse(response, attempt.body as Buffer, this.target);
      }
      signal?.throwIfAborted();
      if (attempt.error && isCertificateError(attempt.error)) {
        if (index !== order.at(-1)) continue;
        throw DeskError.because('network', 'library-server.certificate', { server: serverLabel(this.target) });
      }
      if (!attempt.notSent && !idempotent) break; // sent, answer lost: the client settles it by reading the account
    }
    signal?.throwIfAborted();
    if (last?.error && isCertificateError(last.error)) {
      throw DeskError.because('network', 'library-server.certificate', { server: serverLabel(this.target) });
    }
    throw DeskError.because('network', 'library-server.unreachable', { server: serverLabel(this.target) });
  }

  private attempt(index: number, method: string, path: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined, onWait: (s: number) => void): Promise<Attempt> {
    const url = new URL(this.target.urls[index] + path);
    return new Promise<Attempt>((resolve) => {
      let connected = false;
      let settled = false;
      const settle = (attempt: Attempt): void => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        signal?.removeEventListener('abort', onAbort);
        resolve(attempt);
      };
      const req = httpsRequest(url, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) }, agent: this.agents[index] }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => settle({ response, body: Buffer.concat(chunks) }));
        response.on('error', (error) => settle({ error }));
      });
      const connectTimer = setTimeout(() => {
        if (!connected) req.destroy(Object.assign(new Error('The library server did not accept a connection in time.'), { code: 'ECONNTIMEOUT' }));
      }, CONNECT_TIMEOUT_MS);
      const onAbort = (): void => { req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted')); };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('socket', (socket) => {
        // A kept-alive socket is connected already (and never says secureConnect again: no listener
        // is left on it, or each request would leave one more on a socket that lives for hours).
        if (!socket.connecting) connected = true;
        else socket.once('secureConnect', () => { connected = true; });
      });
      req.on('information', (info) => {
        const seconds = Number(info.headers[WAIT_HEADER]);
        if (info.statusCode === 103 && Number.isFinite(seconds) && seconds > 0) onWait(seconds);
      });
      req.on('error', (error) => settle({ error, notSent: !connected }));
      req.end(body);
    });
  }
}

function reasonOf(body: Buffer | undefined): string | undefined {
  try {
    const parsed = JSON.parse(body?.toString('utf8') ?? '') as { reason?: unknown };
    return typeof parsed.reason === 'string' ? parsed.reason : undefined;
  } catch {
    return undefined;
  }
}

/** The server's refusals of its own become the desk's sentence; every other answer is the partner's, for the client to read. */
function toResponse(response: IncomingMessage, body: Buffer, target: LibraryServerTarget): Response {
  const status = response.statusCode ?? 502;
  const reason = status >= 400 ? reasonOf(body) : undefined;
  if (reason === 'workstation-unknown') throw DeskError.because('unauthorized', 'library-server.not-enrolled', { server: serverLabel(target) });
  if (reason === 'workstation-revoked') throw DeskError.because('unauthorized', 'library-server.revoked', { server: serverLabel(target) });
  if (reason === 'session-ended') throw DeskError.because('session-locked', 'library-server.session-ended', { server: serverLabel(target) });
  if (reason === 'audit-unavailable') throw DeskError.because('server', 'library-server.audit-unavailable', { server: serverLabel(target) });
  const headers = new Headers();
  for (const name of ['content-type', 'retry-after']) {
    const value = response.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  const empty = status === 204 || status === 304 || body.length === 0;
  return new Response(empty ? null : new Uint8Array(body), { status, headers });
}
