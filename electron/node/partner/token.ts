// The bearer token: fetched with Basic credentials, cached until shortly before it expires,
// one request in flight however many calls need it, and dropped when the service refuses it.
// The request in flight goes at the priority of the most urgent call waiting for it: started by
// the sync, it rises to the desk's the moment a staff call needs the token too (issue #34), so a
// staff call never waits behind background work for its token.

import { DeskError } from '../../shared/desk-error.ts';
import { parseToken } from './normalize.ts';
import { RequestPriority, type Priority } from './priority.ts';
import { HttpStatusError, type Transport } from './transport.ts';

export interface Credentials {
  username: string;
  password: string;
}

interface Cached {
  value: string;
  refreshAt: number;
}

/** Renew early by a tenth of the lifetime, at most a minute, so a request never carries a dying token. */
function refreshMargin(lifetimeMs: number): number {
  return Math.min(60_000, lifetimeMs / 10);
}

export class TokenSource {
  private cached: Cached | undefined;
  private inFlight: { token: Promise<string>; priority: RequestPriority } | undefined;
  private readonly transport: Transport;
  private readonly credentials: () => Promise<Credentials>;
  private readonly now: () => number;

  constructor(transport: Transport, credentials: () => Promise<Credentials>, now: () => number) {
    this.transport = transport;
    this.credentials = credentials;
    this.now = now;
  }

  /** The caller's priority carries the token request when one is needed; a desk caller joining one raises it. */
  async get(priority: Priority = 'desk'): Promise<string> {
    if (this.cached && this.now() < this.cached.refreshAt) return this.cached.value;
    // The service's pause holds the token request back too: a staff call is told at once when it is long.
    this.transport.refuseLongStaffWait(priority);
    if (this.inFlight) {
      if (priority === 'desk') this.inFlight.priority.raise();
      return this.inFlight.token;
    }
    const asked = new RequestPriority(priority);
    const token = this.fetchToken(asked).finally(() => {
      this.inFlight = undefined;
    });
    this.inFlight = { token, priority: asked };
    return token;
  }

  /** Forget a token the service refused, unless a newer one has replaced it already. */
  invalidate(rejected: string): void {
    if (this.cached?.value === rejected) this.cached = undefined;
  }

  /** Forget whatever is cached: the next call asks the service again (used by a connection test). */
  invalidateAll(): void {
    this.cached = undefined;
  }

  private async fetchToken(priority: RequestPriority): Promise<string> {
    const { username, password } = await this.credentials();
    const basic = Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
    const started = this.now();
    try {
      const answer = await this.transport.request({
        method: 'POST', path: '/api/v1/get-token', authorization: `Basic ${basic}`, retry: true, priority,
      });
      const token = parseToken(answer.body);
      this.cached = { value: token.value, refreshAt: started + token.lifetimeMs - refreshMargin(token.lifetimeMs) };
      return token.value;
    } catch (error) {
      if (error instanceof HttpStatusError && (error.status === 401 || error.status === 403)) {
        throw new DeskError('unauthorized', 'The lending service refused the partner username or password.', error.status);
      }
      if (error instanceof HttpStatusError && (error.status === 404 || error.status === 405)) {
        // Nothing of the service's there: the address is wrong, not the service failing.
        throw DeskError.because('invalid-input', 'connection.not-a-lending-service', { status: error.status }, error.status);
      }
      if (error instanceof HttpStatusError) {
        // Staff read the code's sentence; the service's own words travel apart, quoted as its.
        throw new DeskError(error.status === 429 ? 'rate-limited' : 'server',
          error.serverMessage ?? `The lending service could not issue a token (HTTP ${error.status}).`, error.status,
          error.serverMessage === undefined ? {} : { serviceMessage: error.serverMessage });
      }
      throw error;
    }
  }
}
