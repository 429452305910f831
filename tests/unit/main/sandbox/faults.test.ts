// Injected faults of every kind, request counting, and the HTTP admin routes that mirror
// the in-process control.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADER } from '../../../../electron/main/sandbox/server.ts';
import { cardFor, raw, startApi } from './helpers.ts';
import type { Api } from './helpers.ts';

const LIB = 101;
let api: Api;

beforeAll(async () => {
  api = await startApi();
});
afterEach(() => api.sandbox.control.clearFaults());
afterAll(() => api.close());

const control = () => api.sandbox.control;
const statusPath = (): string => api.patronPath(LIB, cardFor(api, LIB, 'fresh'), '/status');
const loanIds = async (role: string): Promise<number[]> =>
  (await api.get(api.patronPath(LIB, cardFor(api, LIB, role), '/checkouts/current'))).body.map((loan: any) => loan.contentId);
const instantIds = (): number[] => control().sampleContent(LIB, { purchaseModel: 'INSTANT', status: 'BORROW', count: 20 }) as number[];

describe('fault kinds', () => {
  it('latency delays but still answers correctly', async () => {
    control().addFault({ route: 'status', kind: 'latency', ms: 30, times: 1 });
    const reply = await api.get(statusPath());
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveProperty('borrowsRemaining');
  });

  it('unauthorized answers 401 for the next `times` requests of its route only', async () => {
    control().addFault({ route: 'status', kind: 'unauthorized', times: 2 });
    expect((await api.get(api.patronPath(LIB, cardFor(api, LIB, 'fresh'), '/checkouts/current'))).status).toBe(200);
    const refused = await api.get(statusPath());
    expect(refused.status).toBe(401);
    expect(refused.body.message).toEqual(expect.any(String));
    expect((await api.get(statusPath())).status).toBe(401);
    expect((await api.get(statusPath())).status).toBe(200);
  });

  it('rate-limit answers 429 with Retry-After', async () => {
    control().addFault({ route: 'globalContents', kind: 'rate-limit', retryAfterSeconds: 7, times: 1 });
    control().addFault({ route: 'globalContents', kind: 'rate-limit', times: 1 });
    const first = await api.get('/api/v1/global-contents?limit=1');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(first.body.message).toEqual(expect.any(String));
    expect((await api.get('/api/v1/global-contents?limit=1')).headers.get('retry-after')).toBe('1');
    expect((await api.get('/api/v1/global-contents?limit=1')).status).toBe(200);
  });

  it('server-error answers 503 by default, or the status given', async () => {
    control().addFault({ route: 'search', kind: 'server-error', times: 1 });
    control().addFault({ route: 'search', kind: 'server-error', status: 502, times: 1 });
    expect((await api.get(`/api/v1/libraries/${LIB}/search?q=a`)).status).toBe(503);
    expect((await api.get(`/api/v1/libraries/${LIB}/search?q=a`)).status).toBe(502);
    expect((await api.get(`/api/v1/libraries/${LIB}/search?q=a`)).status).toBe(200);
  });

  it("reset before drops the socket and changes nothing", async () => {
    const [id] = instantIds();
    control().addFault({ route: 'borrow', kind: 'reset', times: 1 });
    await expect(api.call('POST', api.patronPath(LIB, cardFor(api, LIB, 'fresh'), `/${id}`))).rejects.toThrow();
    expect(await loanIds('fresh')).not.toContain(id);
  });

  it("reset after commits the borrow, then drops the socket unanswered", async () => {
    const id = instantIds()[1]!;
    control().addFault({ route: 'borrow', kind: 'reset', phase: 'after', times: 1 });
    await expect(api.call('POST', api.patronPath(LIB, cardFor(api, LIB, 'fresh'), `/${id}`))).rejects.toThrow();
    expect(await loanIds('fresh')).toContain(id);
  });

  it('malformed-json sends a 200 whose body does not parse', async () => {
    const token = await api.token();
    control().addFault({ route: 'checkouts', kind: 'malformed-json', times: 1 });
    const response = await fetch(`${api.sandbox.url}${api.patronPath(LIB, cardFor(api, LIB, 'with-loans'), '/checkouts/current')}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('stall never answers; the client gives up on its own', async () => {
    control().addFault({ route: 'holds', kind: 'stall', times: 1 });
    const token = await api.token();
    const url = `${api.sandbox.url}${api.patronPath(LIB, cardFor(api, LIB, 'fresh'), '/holds/current')}`;
    await expect(fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(150) })).rejects.toThrow();
    expect((await api.get(api.patronPath(LIB, cardFor(api, LIB, 'fresh'), '/holds/current'))).status).toBe(200);
  });

  it("'*' hits every route, the token route included, and counts still rise", async () => {
    control().resetRequestCounts();
    control().addFault({ route: '*', kind: 'server-error', times: 2 });
    expect((await api.get(statusPath())).status).toBe(503);
    const tokenReply = await raw(`${api.sandbox.url}/api/v1/get-token`, { method: 'POST' });
    expect(tokenReply.status).toBe(503);
    expect((await api.get(statusPath())).status).toBe(200);
    expect(control().requestCounts()).toMatchObject({ status: 2, token: 1 });
  });

  it('refuses an invalid fault', () => {
    expect(() => control().addFault({ route: 'nowhere' as never, kind: 'stall' })).toThrow(/route/);
    expect(() => control().addFault({ route: 'status', kind: 'explode' as never })).toThrow(/kind/);
    expect(() => control().addFault({ route: 'status', kind: 'server-error', status: 404 })).toThrow(/status/);
  });
});

describe('close', () => {
  it('resolves with a stalled request still open, and that request fails', async () => {
    const stalled = await startApi();
    stalled.sandbox.control.addFault({ route: 'globalContents', kind: 'stall' });
    const token = await stalled.token();
    const pending = fetch(`${stalled.sandbox.url}/api/v1/global-contents`, { headers: { authorization: `Bearer ${token}` } });
    const outcome = pending.then(() => 'answered', () => 'failed');
    while (stalled.sandbox.control.requestCounts().globalContents === 0) await new Promise((resolve) => setImmediate(resolve));
    await stalled.close();
    expect(await outcome).toBe('failed');
  });
});

describe('admin routes', () => {
  const admin = (method: string, action: string, body?: unknown) =>
    raw(`${api.sandbox.url}/__sandbox/${action}`, {
      method,
      headers: { 'content-type': 'application/json', [ADMIN_HEADER]: api.sandbox.adminToken },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('mirror the control methods', async () => {
    expect((await admin('DELETE', 'request-counts')).status).toBe(204);
    expect((await admin('POST', 'faults', { route: 'status', kind: 'server-error', status: 500, times: 1 })).status).toBe(204);
    expect((await api.get(statusPath())).status).toBe(500);
    expect((await admin('POST', 'faults', { route: 'status', kind: 'unauthorized' })).status).toBe(204);
    expect((await admin('DELETE', 'faults')).status).toBe(204);
    expect((await api.get(statusPath())).status).toBe(200);
    const counts = await admin('GET', 'request-counts');
    expect(counts.body).toMatchObject({ status: 2, borrow: 0, token: 0 });

    const info = await admin('GET', 'info');
    expect(info.body).toMatchObject({ url: api.sandbox.url, username: 'desk-sandbox', libraries: expect.any(Array) });

    const sample = await admin('GET', `sample-content?libraryId=${LIB}&purchaseModel=FLEX&count=3`);
    expect((sample.body as { contentIds: number[] }).contentIds).toEqual(control().sampleContent(LIB, { purchaseModel: 'FLEX', count: 3 }));

    const before = control().maxContentId();
    const changes = await admin('POST', 'catalog-changes', { add: 2 });
    expect(changes.body).toEqual({ added: [before + 1, before + 2] });
    expect((await admin('POST', 'catalog-changes', { modify: [-1] })).status).toBe(400);

    expect((await admin('POST', 'shapes', { holds: 'object' })).status).toBe(204);
    expect((await api.get(api.patronPath(LIB, cardFor(api, LIB, 'fresh'), '/holds/current'))).body).toEqual({});
    expect((await admin('POST', 'shapes', { holds: 'sideways' })).status).toBe(400);
    expect((await admin('POST', 'shapes', { holds: 'array' })).status).toBe(204);

    expect((await admin('POST', 'revoke-tokens')).status).toBe(204);
    expect((await api.get(statusPath())).status).toBe(401);
  });

  it('answer 400 to a bad body and 404 to an unknown action', async () => {
    const bad = await raw(`${api.sandbox.url}/__sandbox/faults`, { method: 'POST', body: '{nope', headers: { [ADMIN_HEADER]: api.sandbox.adminToken } });
    expect(bad.status).toBe(400);
    expect((await admin('POST', 'faults', { route: 'status', kind: 'meteor' })).status).toBe(400);
    expect((await admin('GET', 'nothing')).status).toBe(404);
  });
});

describe('controls the reliability runs use', () => {
  it('a fault with a probability hits about that share of requests, the same ones for the same seed', async () => {
    const hitsFor = async (): Promise<number[]> => {
      const other = await startApi({ seed: 5 });
      other.sandbox.control.addFault({ route: 'status', kind: 'server-error', probability: 0.25 });
      const hits: number[] = [];
      for (let i = 0; i < 200; i++) {
        if ((await other.get(other.patronPath(LIB, cardFor(other, LIB, 'fresh'), '/status'))).status === 503) hits.push(i);
      }
      await other.close();
      return hits;
    };
    const first = await hitsFor();
    expect(first.length).toBeGreaterThan(25);
    expect(first.length).toBeLessThan(80);
    expect(await hitsFor()).toEqual(first);
    expect(() => control().addFault({ route: 'status', kind: 'stall', probability: 0 })).toThrow(/probability/);
    expect(() => control().addFault({ route: 'status', kind: 'stall', probability: 1.5 })).toThrow(/probability/);
  });

  it('the request log names the route each request reached, with its decoded card, and no route for a 404', async () => {
    const next = control().requestLogNext();
    const card = cardFor(api, LIB, 'odd-characters');
    await api.get(api.patronPath(LIB, card, '/status'));
    await api.get('/api/v1/libraries/101/patrons/x/nowhere');
    const log = control().requestLog(next);
    expect(log.map((entry) => entry.route)).toEqual(['status', undefined]);
    expect(log[0]?.params).toEqual({ libraryId: '101', card });
    expect(log[0]?.path).toContain('%2F');
    expect((await raw(`${api.sandbox.url}/__sandbox/request-log?from=${next}`, { headers: { [ADMIN_HEADER]: api.sandbox.adminToken } })).body).toHaveLength(2);
  });

  it('adds patrons, tells the truth of their account, moves its clock and lists the tokens it issued', async () => {
    const own = await startApi();
    const c = own.sandbox.control;
    const status = (card: string) => own.get(own.patronPath(LIB, card, '/status'));
    c.addPatron(LIB, 'RELIABILITY-1', 50);
    expect(c.patronState(LIB, 'RELIABILITY-1')).toEqual({ exists: true, loans: [], holds: [] });
    expect(c.patronState(LIB, 'nobody')).toEqual({ exists: false, loans: [], holds: [] });
    expect((await status('RELIABILITY-1')).body).toMatchObject({ borrowsRemaining: 50, borrowsAllowedPerMonth: 50 });
    expect(() => c.addPatron(999, 'x')).toThrow(/library/);
    expect((await raw(`${own.sandbox.url}/__sandbox/patrons`, { method: 'POST', body: JSON.stringify({ libraryId: LIB, card: '' }), headers: { [ADMIN_HEADER]: own.sandbox.adminToken } })).status).toBe(400);

    const token = await own.token();
    expect(c.issuedTokens()).toContain(token);
    c.advanceClock(2 * 3600 * 1000); // past the default token lifetime
    expect((await status('RELIABILITY-1')).status).toBe(401);
    expect(() => c.advanceClock(-1)).toThrow(/forward/);
    await own.close();
  });
});
