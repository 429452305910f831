// What the sandbox opens to the rest of the machine. In-process (the desk's built-in
// sandbox) it answers only through its fetch function: no socket. Over HTTP (npm run sandbox,
// tests) it plays a web page and a local process that does not hold its secrets, and refuses
// both.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADER, createSandboxService, IN_PROCESS_ORIGIN, startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import { basic, raw } from './helpers.ts';

let sandbox: SandboxHandle;
beforeAll(async () => { sandbox = await startSandbox({ catalogSize: 500 }); });
afterAll(() => sandbox.close());

/** Node's fetch will not send a Host of our choosing; a raw request can, as a rebinding page's browser would. */
function withHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request({ host: target.hostname, port: target.port, path: '/api/v1/get-token', method: 'POST', headers: { host, authorization: basic(sandbox.username, sandbox.password) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the sandbox over HTTP', () => {
  it('chooses a new random password at each start unless the caller fixes one', async () => {
    const other = await startSandbox({ catalogSize: 100 });
    expect(other.password).not.toBe(sandbox.password);
    expect(other.password.length).toBeGreaterThanOrEqual(20);
    await other.close();
    const fixed = await startSandbox({ catalogSize: 100, password: 'chosen' });
    expect(fixed.password).toBe('chosen');
    await fixed.close();
  });

  it('refuses a request that carries an Origin (a web page reaching loopback)', async () => {
    const reply = await raw(`${sandbox.url}/api/v1/get-token`, { method: 'POST', headers: { authorization: basic(sandbox.username, sandbox.password), origin: 'https://evil.example' } });
    expect(reply.status).toBe(403);
    expect(sandbox.control.issuedTokens()).toEqual([]);
  });

  it('refuses a Host that is not its own address (DNS rebinding)', async () => {
    expect(await withHost(sandbox.url, 'evil.example')).toBe(403);
    expect(await withHost(sandbox.url, `evil.example:${new URL(sandbox.url).port}`)).toBe(403);
    expect(await withHost(sandbox.url, new URL(sandbox.url).host)).toBe(200);
    expect(await withHost(sandbox.url, `localhost:${new URL(sandbox.url).port}`)).toBe(200);
  });

  it('answers its admin routes only with the admin token', async () => {
    expect((await raw(`${sandbox.url}/__sandbox/info`)).status).toBe(403);
    expect((await raw(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE', headers: { [ADMIN_HEADER]: 'guess' } })).status).toBe(403);
    expect((await raw(`${sandbox.url}/__sandbox/issued-tokens`, { headers: { [ADMIN_HEADER]: sandbox.adminToken } })).status).toBe(200);
  });
});

describe('the sandbox in process', () => {
  it('answers the partner API through its fetch function, with no address to reach it by', async () => {
    const service = createSandboxService({ catalogSize: 200 });
    const token = await service.fetch(`${IN_PROCESS_ORIGIN}/api/v1/get-token`, { method: 'POST', headers: { authorization: basic(service.username, service.password) } });
    expect(token.status).toBe(200);
    const { access_token: bearer } = (await token.json()) as { access_token: string };
    const card = service.libraries[0]?.cards[0] ?? '';
    const status = await service.fetch(`${IN_PROCESS_ORIGIN}/api/v1/libraries/101/patrons/${encodeURIComponent(card)}/status`, { headers: { authorization: `Bearer ${bearer}` } });
    expect(status.status).toBe(200);
    expect(Object.keys(service)).not.toContain('url');
    service.close();
  });

  it('fails as a socket fails: a reset is fetch\'s TypeError, a stall waits for the abort signal', async () => {
    const service = createSandboxService({ catalogSize: 200 });
    service.control.addFault({ route: 'token', kind: 'reset', times: 1 });
    const init = { method: 'POST', headers: { authorization: basic(service.username, service.password) } };
    await expect(service.fetch(`${IN_PROCESS_ORIGIN}/api/v1/get-token`, init)).rejects.toBeInstanceOf(TypeError);
    service.control.addFault({ route: 'token', kind: 'stall', times: 1 });
    const abort = new AbortController();
    const pending = service.fetch(`${IN_PROCESS_ORIGIN}/api/v1/get-token`, { ...init, signal: abort.signal });
    abort.abort(new DOMException('timed out', 'TimeoutError'));
    await expect(pending).rejects.toMatchObject({ name: 'TimeoutError' });
    service.control.addFault({ route: 'token', kind: 'malformed-json', times: 1 });
    const garbled = await service.fetch(`${IN_PROCESS_ORIGIN}/api/v1/get-token`, init);
    await expect(garbled.json()).rejects.toThrow();
    service.close();
  });
});
