// POST /api/v1/get-token and the bearer check every other route goes through.

import type { IncomingHttpHeaders } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { WireToken } from '../../../node/partner/wire.ts';
import { HttpError } from '../http-error.ts';
import type { SandboxState } from '../state.ts';
import { ok } from './context.ts';
import type { Reply } from './context.ts';

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function issueToken(state: SandboxState, method: string, headers: IncomingHttpHeaders): Reply {
  const refuse = (): never => {
    throw new HttpError(401, 'Invalid credentials', 'Send POST with Authorization: Basic base64(username:password)', {
      'www-authenticate': 'Basic realm="partner"',
    });
  };
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(headers.authorization ?? '');
  if (method !== 'POST' || match === null) return refuse();
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const { username, password } = state.options;
  if (colon < 0 || !sameText(decoded.slice(0, colon), username) || !sameText(decoded.slice(colon + 1), password)) return refuse();
  const lifetime = state.options.tokenLifetimeSeconds;
  const body: WireToken = {
    access_token: state.tokens.issue(state.options.now(), lifetime),
    token_type: state.shapes.tokenType,
    expires_in: lifetime,
  };
  return ok(body);
}

export function requireBearer(state: SandboxState, headers: IncomingHttpHeaders): void {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (match === null) throw new HttpError(401, 'Missing bearer token', 'Send Authorization: Bearer <access_token>');
  if (!state.tokens.isValid(match[1] ?? '', state.options.now())) {
    throw new HttpError(401, 'The access token is not valid or has expired', 'Request a new token from /api/v1/get-token');
  }
}
