// Tokens: Basic credentials in, a bearer token out; expiry on the injected clock; revocation;
// and the 401/404 answers every route shares.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, raw, startApi } from './helpers.ts';
import type { Api } from './helpers.ts';

let api: Api;
let url: string;

beforeAll(async () => {
  api = await startApi({ tokenLifetimeSeconds: 60 });
  url = api.sandbox.url;
});
afterAll(() => api.close());

const statusPath = (): string => api.patronPath(101, api.sandbox.libraries[0]?.cards[0] ?? '', '/status');
const withToken = (token: string) => raw(`${url}${statusPath()}`, { headers: { authorization: `Bearer ${token}` } });

describe('get-token', () => {
  it('issues a bearer token for the right Basic credentials', async () => {
    const reply = await raw(`${url}/api/v1/get-token`, { method: 'POST', headers: { authorization: basic('desk-sandbox', api.sandbox.password) } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ token_type: 'bearer', expires_in: 60, access_token: expect.stringMatching(/^[\w-]{20,}$/) });
    const second = await api.token();
    expect(second).not.toBe((reply.body as { access_token: string }).access_token);
  });

  it('answers 401 with a message to wrong or missing credentials and to other methods', async () => {
    const attempts: RequestInit[] = [
      { method: 'POST', headers: { authorization: basic('desk-sandbox', 'wrong') } },
      { method: 'POST', headers: { authorization: basic('someone', api.sandbox.password) } },
      { method: 'POST' },
      { method: 'POST', headers: { authorization: 'Bearer abc' } },
      { method: 'POST', headers: { authorization: 'Basic !!!' } },
      { method: 'GET', headers: { authorization: basic('desk-sandbox', api.sandbox.password) } },
    ];
    for (const init of attempts) {
      const reply = await raw(`${url}/api/v1/get-token`, init);
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ message: expect.any(String) });
    }
  });

  it('honours custom credentials', async () => {
    const other = await startApi({ username: 'u', password: 'p:with:colons' });
    try {
      const ok = await raw(`${other.sandbox.url}/api/v1/get-token`, { method: 'POST', headers: { authorization: basic('u', 'p:with:colons') } });
      expect(ok.status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('bearer check', () => {
  it('accepts a fresh token, with or without ws-api', async () => {
    const token = await api.token();
    expect((await withToken(token)).status).toBe(200);
    const reply = await raw(`${url}${statusPath()}`, { headers: { authorization: `Bearer ${token}`, 'ws-api': '2.1' } });
    expect(reply.status).toBe(200);
  });

  it('refuses a missing, invented or Basic authorization with 401 and a message', async () => {
    for (const authorization of [undefined, 'Bearer invented-token', basic('desk-sandbox', api.sandbox.password)]) {
      const reply = await raw(`${url}${statusPath()}`, authorization === undefined ? {} : { headers: { authorization } });
      expect(reply.status).toBe(401);
      expect((reply.body as { message: string }).message.length).toBeGreaterThan(5);
    }
  });

  it('expires a token after expires_in seconds of the sandbox clock', async () => {
    const token = await api.token();
    api.clock.advance(59_000);
    expect((await withToken(token)).status).toBe(200);
    api.clock.advance(1_000);
    expect((await withToken(token)).status).toBe(401);
    expect((await withToken(await api.token())).status).toBe(200);
  });

  it('revokes every issued token', async () => {
    const [a, b] = [await api.token(), await api.token()];
    api.sandbox.control.revokeTokens();
    expect((await withToken(a)).status).toBe(401);
    expect((await withToken(b)).status).toBe(401);
    expect((await withToken(await api.token())).status).toBe(200);
  });

  it('counts refused requests against their route', async () => {
    api.sandbox.control.resetRequestCounts();
    await withToken('nope');
    await raw(`${url}/api/v1/get-token`, { method: 'POST' });
    const counts = api.sandbox.control.requestCounts();
    expect(counts.status).toBe(1);
    expect(counts.token).toBe(1);
  });
});

describe('unknown routes and methods', () => {
  it('answers 404 JSON to an unknown path and 405 to a wrong method', async () => {
    const token = await api.token();
    const headers = { authorization: `Bearer ${token}` };
    const unknown = await raw(`${url}/api/v1/nothing-here`, { headers });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: expect.stringContaining('/api/v1/nothing-here') });
    expect((await raw(`${url}/api/v2/global-contents`, { headers })).status).toBe(404);
    const wrong = await raw(`${url}/api/v1/global-contents`, { method: 'DELETE', headers });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });
});
