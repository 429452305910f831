// The per-credential rate limit over HTTP: N requests in any 60 seconds of the sandbox clock
// for one credential, wherever they come from (token requests included), then 429 with the
// Retry-After that frees a slot; set by option, control, admin route and the command line.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CredentialRateLimit } from '../../../../electron/main/sandbox/rate-limit.ts';
import { ADMIN_HEADER } from '../../../../electron/main/sandbox/server.ts';
import { basic, raw, startApi, type Api } from './helpers.ts';

let api: Api | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const tokenRequest = (a: Api) => raw(`${a.sandbox.url}/api/v1/get-token`, { method: 'POST', headers: { authorization: basic(a.sandbox.username, a.sandbox.password) } });

describe('the per-credential rate limit', () => {
  it('admits N requests a minute for the credential, token requests and bulk pulls alike, then answers 429 with Retry-After', async () => {
    api = await startApi({ rateLimitPerMinute: 4 });
    const token = (await tokenRequest(api)).body as { access_token: string };
    const bulk = () => raw(`${api!.sandbox.url}/api/v1/global-contents?limit=1`, { headers: { authorization: `Bearer ${token.access_token}` } });
    api.clock.advance(10_000);
    expect((await bulk()).status).toBe(200);
    expect((await bulk()).status).toBe(200);
    expect((await tokenRequest(api)).status).toBe(200);
    const refused = await bulk();
    expect(refused.status).toBe(429);
    // The first request (at 0 s) leaves the window at 60 s: 50 s from now.
    expect(refused.headers.get('retry-after')).toBe('50');
    expect((refused.body as { message: string }).message).toEqual(expect.any(String));
    expect((await tokenRequest(api)).status).toBe(429);
    expect(api.sandbox.control.rateLimit()).toEqual({ perMinute: 4, refused: 2 });
    api.clock.advance(50_000);
    expect((await bulk()).status).toBe(200); // one slot freed; refused requests took none
    expect((await bulk()).status).toBe(429);
  });

  it('counts its window in the given milliseconds when a bench compresses time, Retry-After in whole seconds', async () => {
    api = await startApi({ rateLimitPerMinute: 2, rateLimitWindowMs: 3000 });
    expect((await tokenRequest(api)).status).toBe(200);
    api.clock.advance(500);
    expect((await tokenRequest(api)).status).toBe(200);
    const refused = await tokenRequest(api);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3'); // 2.5 s until the first leaves the 3 s window, rounded up
    api.clock.advance(2500);
    expect((await tokenRequest(api)).status).toBe(200);
    expect(() => new CredentialRateLimit(1, 999)).toThrow(/from 1000 to 60000/);
  });

  it('does not count requests that prove no credential (they get their 401)', async () => {
    api = await startApi({ rateLimitPerMinute: 1 });
    for (let i = 0; i < 3; i++) {
      expect((await raw(`${api.sandbox.url}/api/v1/global-contents`, { headers: { authorization: 'Bearer made-up' } })).status).toBe(401);
    }
    expect((await tokenRequest(api)).status).toBe(200);
    expect(api.sandbox.control.rateLimit()).toEqual({ perMinute: 1, refused: 0 });
  });

  it('is set and read over the admin route, and turned off with null', async () => {
    api = await startApi();
    const admin = (method: string, body?: unknown) => raw(`${api!.sandbox.url}/__sandbox/rate-limit`, {
      method, headers: { [ADMIN_HEADER]: api!.sandbox.adminToken, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect((await admin('GET')).body).toEqual({ perMinute: null, refused: 0 });
    expect((await admin('POST', { perMinute: 1 })).status).toBe(204);
    expect((await tokenRequest(api)).status).toBe(200);
    expect((await tokenRequest(api)).status).toBe(429);
    expect((await admin('POST', { perMinute: 0 })).status).toBe(400);
    expect((await admin('POST', { perMinute: null })).status).toBe(204);
    expect((await tokenRequest(api)).status).toBe(200);
    expect((await admin('GET')).body).toEqual({ perMinute: null, refused: 1 });
  });

  it('is set by `npm run sandbox -- --rate-limit N`', async () => {
    const cli = fileURLToPath(new URL('../../../../electron/main/sandbox/cli.ts', import.meta.url));
    const child = spawn(process.execPath, [cli, '--rate-limit', '1', '--password', 'pw', '--catalog-size', '100'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const { url } = JSON.parse(line) as { url: string };
      const ask = () => raw(`${url}/api/v1/get-token`, { method: 'POST', headers: { authorization: basic('desk-sandbox', 'pw') } });
      expect((await ask()).status).toBe(200);
      expect((await ask()).status).toBe(429);
    } finally {
      child.kill('SIGTERM');
    }
    await once(child, 'exit');
  });
});
