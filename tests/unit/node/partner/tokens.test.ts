// Token lifecycle against the sandbox: one request in flight, renewal before expiry, one
// transparent retry after the service refuses a token, and refused credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskError } from '../../../../electron/shared/desk-error.ts';
import { library, startHarness, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness({ tokenLifetimeSeconds: 2 }); });
afterAll(async () => { await h.sandbox.close(); });

const card = (): string => library(h).cards[0] as string;

describe('tokens', () => {
  it('asks for exactly one token for 20 and more concurrent calls', async () => {
    h.sandbox.control.resetRequestCounts();
    const client = h.client();
    const { libraryId, cards } = library(h);
    // Reads that differ (identical ones in flight share one request: shared-reads.ts).
    const reads = cards.flatMap((c) => [client.patronStatus(libraryId, c), client.currentLoans(libraryId, c), client.currentHolds(libraryId, c)]);
    expect(reads.length).toBeGreaterThanOrEqual(20);
    await Promise.allSettled(reads);
    expect(h.sandbox.control.requestCounts().token).toBe(1);
    expect(h.sandbox.control.requestCounts().status).toBe(cards.length);
  });

  it('renews the token shortly before it expires, so no request is refused', async () => {
    const client = h.client();
    h.sandbox.control.resetRequestCounts();
    await client.patronStatus(library(h).libraryId, card());
    h.clock.advance(1_500);
    await client.patronStatus(library(h).libraryId, card());
    expect(h.sandbox.control.requestCounts().token).toBe(1);
    h.clock.advance(400); // 1.9 s into a 2 s token: inside the renewal margin
    await client.patronStatus(library(h).libraryId, card());
    expect(h.sandbox.control.requestCounts().token).toBe(2);
    expect(h.sandbox.control.requestCounts().status).toBe(3); // none refused and repeated
  });

  it('renews once, transparently, when the service refuses a token it had issued', async () => {
    const client = h.client();
    await client.patronStatus(library(h).libraryId, card());
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.revokeTokens();
    const status = await client.patronStatus(library(h).libraryId, card());
    expect(status.borrowsAllowedPerMonth).toBeGreaterThan(0);
    expect(h.sandbox.control.requestCounts()).toMatchObject({ token: 1, status: 2 });
  });

  it('renews across expiry when its clock and the service disagree', async () => {
    const frozen = h.clock.now();
    const client = h.client({ now: () => frozen }); // a client whose clock stands still (a suspended laptop)
    await client.patronStatus(library(h).libraryId, card());
    h.clock.advance(3_000); // expired on the service, still fresh for the client
    h.sandbox.control.resetRequestCounts();
    await client.patronStatus(library(h).libraryId, card());
    expect(h.sandbox.control.requestCounts()).toMatchObject({ token: 1, status: 2 });
  });

  it('gives up with unauthorized when the fresh token is refused too', async () => {
    const client = h.client();
    h.sandbox.control.addFault({ route: 'status', kind: 'unauthorized' });
    try {
      await expect(client.patronStatus(library(h).libraryId, card())).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
    } finally {
      h.sandbox.control.clearFaults();
    }
  });

  it('reports refused credentials as unauthorized, with nothing else sent', async () => {
    h.sandbox.control.resetRequestCounts();
    const client = h.client({ credentials: { username: h.sandbox.username, password: 'wrong' } });
    const error = await client.patronStatus(library(h).libraryId, card()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskError);
    expect(error).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/username or password/) });
    expect(h.sandbox.control.requestCounts()).toMatchObject({ token: 1, status: 0 });
    await expect(client.testConnection()).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(h.client().testConnection()).resolves.toBeUndefined();
  });

  it('reads credentials when a token is needed, so a corrected password takes effect', async () => {
    let password = 'wrong';
    const client = h.client({ credentials: async () => ({ username: h.sandbox.username, password }) });
    await expect(client.testConnection()).rejects.toMatchObject({ code: 'unauthorized' });
    password = h.sandbox.password;
    await expect(client.testConnection()).resolves.toBeUndefined();
  });

  it('says which part of a bad service address is wrong', () => {
    expect(() => h.client({ baseUrl: 'not a url' })).toThrow(/not a web address/);
    expect(() => h.client({ baseUrl: 'ftp://example.org' })).toThrow(/https/);
    expect(() => h.client({ baseUrl: 'https://user:pw@example.org' })).toThrow(/credentials/);
  });
});

describe('a wrong service address (found by the bad-input run)', () => {
  it('a path where nothing answers is a wrong address (invalid-input), not a failing service', async () => {
    await expect(h.client({ baseUrl: `${h.sandbox.url}/latest` }).testConnection()).rejects.toMatchObject({
      code: 'invalid-input', status: 404, message: expect.stringMatching(/Check the address\.$/),
    });
  });

  it('a value that is no address is refused without being quoted back', () => {
    const junk = `not an address ${'x'.repeat(300)}`;
    let message = '';
    try {
      h.client({ baseUrl: junk });
    } catch (error) {
      expect(error).toBeInstanceOf(DeskError);
      message = (error as DeskError).message;
    }
    expect(message).toMatch(/not a web address/);
    expect(message).not.toContain('xxxx');
  });
});
