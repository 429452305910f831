// Patron routes over HTTP: the demo patrons, each route's success and error statuses, the
// monthly allowance, the Flex holds queue, card encoding and the lazy time rules.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardFor, raw, startApi } from './helpers.ts';
import type { Api } from './helpers.ts';

const LIB = 101;
const DAY = 86_400;
let api: Api;

beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const card = (role: string): string => cardFor(api, LIB, role);
const path = (role: string, suffix: string): string => api.patronPath(LIB, card(role), suffix);
const nowSeconds = (): number => Math.floor(api.clock.now() / 1000);
const status = async (role: string) => (await api.get(path(role, '/status'))).body;
const holds = async (role: string) => (await api.get(path(role, '/holds/current'))).body as any[];
const loans = async (role: string) => (await api.get(path(role, '/checkouts/current'))).body as any[];
const info = async (id: number, libraryId = LIB) =>
  (await api.get(`/api/v1/libraries/${libraryId}/content/info?contentIds=${id}`)).body[0].availability;

describe('demo patrons', () => {
  it('start in the states their roles describe', async () => {
    expect(await status('fresh')).toEqual({ borrowsRemaining: 10, borrowsAllowedPerMonth: 10, currentlyBorrowed: 0 });
    expect(await loans('fresh')).toEqual([]);

    const withLoans = await loans('with-loans');
    expect(withLoans).toHaveLength(3);
    for (const loan of withLoans) {
      expect(loan).toMatchObject({ contentId: expect.any(Number), title: expect.any(String), kind: expect.any(String), url: expect.any(String) });
      expect(loan.due).toBeGreaterThan(nowSeconds());
      expect(loan.borrowed).toBeLessThanOrEqual(nowSeconds());
      expect(loan).not.toHaveProperty('message');
    }
    const models = await Promise.all(withLoans.map(async (loan) => (await info(loan.contentId)).purchaseModel));
    expect(models.sort()).toEqual(['FLEX', 'INSTANT', 'INSTANT']);
    const [waiting] = await holds('with-loans');
    expect(waiting).toMatchObject({ status: 'WAITING', holdsQueuePosition: 3 });
    expect(waiting).not.toHaveProperty('reserveUntil');

    const [reserved] = await holds('reserved-hold');
    expect(reserved).toMatchObject({ status: 'RESERVED', holdsQueuePosition: 1 });
    expect(reserved.reserveUntil).toBeGreaterThan(nowSeconds());

    expect(await status('allowance-used')).toMatchObject({ borrowsRemaining: 0, currentlyBorrowed: 1 });
    expect(await status('near-limit')).toMatchObject({ borrowsRemaining: 1 });
  });

  it('keep leading zeros and letters: a card is compared exactly', async () => {
    expect(card('leading-zeros')).toMatch(/^000/);
    expect((await api.get(path('leading-zeros', '/status'))).status).toBe(200);
    expect((await api.get(api.patronPath(LIB, card('leading-zeros').replace(/^0+/, ''), '/status'))).status).toBe(400);
    expect((await api.get(path('letters', '/status'))).status).toBe(200);
    expect((await api.get(api.patronPath(LIB, card('letters').toLowerCase(), '/status'))).status).toBe(400);
  });

  it('differ per library: a card of one library is unknown at another', async () => {
    expect((await api.get(api.patronPath(202, card('fresh'), '/status'))).status).toBe(400);
  });
});

describe('card encoding', () => {
  it('decodes each raw path segment once, never normalising ..', async () => {
    const odd = card('odd-characters');
    expect(odd).toMatch(/ .*\/\.\.\/.*\?.*#/);
    api.sandbox.control.resetRequestCounts();
    const reply = await api.get(`/api/v1/libraries/${LIB}/patrons/${encodeURIComponent(odd)}/status`);
    expect(reply.status).toBe(200);

    const unknown = await api.get(`/api/v1/libraries/${LIB}/patrons/12%2034%2F..%2F5%3Fx%23y/status`);
    expect(unknown.status).toBe(400);
    const twice = await api.get(`/api/v1/libraries/${LIB}/patrons/${encodeURIComponent(encodeURIComponent(card('fresh')))}x/status`);
    expect(twice.status).toBe(400);
    const counts = api.sandbox.control.requestCounts();
    expect(counts.status).toBe(3);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(3);
  });

  it('answers 400 to broken percent-encoding', async () => {
    expect((await api.get(`/api/v1/libraries/${LIB}/patrons/%E0%A4%A/status`)).status).toBe(400);
  });
});

describe('unknown library or card', () => {
  it('gets the status each route is known for', async () => {
    const base = api.patronPath(LIB, 'no-such-card');
    const cases: [string, string, number][] = [
      ['GET', '/status', 400], ['GET', '/checkouts/current', 400], ['GET', '/holds/current', 400],
      ['POST', '/5', 404], ['DELETE', '/5', 404], ['POST', '/holds/5', 403], ['DELETE', '/holds/5', 403],
    ];
    for (const [method, suffix, expected] of cases) {
      const reply = await api.call(method, `${base}${suffix}`);
      expect(reply.status, `${method} ${suffix}`).toBe(expected);
      expect(reply.body.message).toEqual(expect.any(String));
    }
    expect((await api.call('POST', `${base}/5`)).body.message).toBe('No account with the service for this library card');
    expect((await api.call('DELETE', `${base}/holds/5`)).body.message).toBe('No such hold');
    expect((await api.get(api.patronPath(999, card('fresh'), '/status'))).status).toBe(400);
    expect((await api.call('POST', api.patronPath(999, card('fresh'), '/5'))).status).toBe(404);
  });

  it('refuses a non-numeric content id with 400 naming it', async () => {
    const reply = await api.call('POST', path('fresh', '/abc'));
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain('contentId');
  });
});

describe('Instant borrow and return', () => {
  it('lends, counts against the allowance, refuses a second borrow, and returns', async () => {
    const [id] = api.sandbox.control.sampleContent(LIB, { purchaseModel: 'INSTANT', status: 'BORROW', format: 'EBOOK', count: 1 });
    expect(id).toBeDefined();
    const borrowed = await api.call('POST', path('fresh', `/${id}`));
    expect(borrowed.status).toBe(200);
    expect(borrowed.body).toMatchObject({ contentId: id, kind: 'EBOOK', borrowed: nowSeconds(), due: nowSeconds() + 21 * DAY });
    expect(borrowed.body.message).toMatch(/^Enjoy .+ until December 13, 2026/);
    expect(await status('fresh')).toEqual({ borrowsRemaining: 9, borrowsAllowedPerMonth: 10, currentlyBorrowed: 1 });
    expect((await loans('fresh')).map((loan) => loan.contentId)).toEqual([id]);

    const again = await api.call('POST', path('fresh', `/${id}`));
    expect(again.status).toBe(409);
    expect((await api.call('DELETE', path('fresh', `/${id}`))).status).toBe(204);
    expect(await loans('fresh')).toEqual([]);
    expect(await status('fresh')).toMatchObject({ borrowsRemaining: 9, currentlyBorrowed: 0 });
    expect((await api.call('DELETE', path('fresh', `/${id}`))).status).toBe(404);
  });

  it('refuses titles the library does not offer with 400', async () => {
    const [inactive] = api.sandbox.control.sampleContent(LIB, { active: false, count: 1 });
    for (const id of [inactive, 99_999_999]) {
      const reply = await api.call('POST', path('fresh', `/${id}`));
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(`Title ${id} is not available at this library`);
    }
  });

  it('spends the last borrow, then refuses Instant with 403 but still lends Flex', async () => {
    const [first, second] = api.sandbox.control.sampleContent(LIB, { purchaseModel: 'INSTANT', status: 'BORROW', count: 12 }).slice(6);
    expect((await api.call('POST', path('near-limit', `/${first}`))).status).toBe(200);
    expect(await status('near-limit')).toMatchObject({ borrowsRemaining: 0 });
    const refused = await api.call('POST', path('near-limit', `/${second}`));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'Monthly borrow allowance used up', detail: '0 of 10 borrows remaining this month' });

    const [flex] = api.sandbox.control.sampleContent(LIB, { purchaseModel: 'FLEX', status: 'BORROW', count: 1 });
    expect((await api.call('POST', path('allowance-used', `/${flex}`))).status).toBe(200);
    expect(await status('allowance-used')).toMatchObject({ borrowsRemaining: 0, currentlyBorrowed: 2 });
  });
});

describe('Flex copies and the holds queue', () => {
  it('lends each copy once, queues holds in order, and passes returned copies down the queue', async () => {
    const candidates = api.sandbox.control.sampleContent(LIB, { purchaseModel: 'FLEX', status: 'BORROW', count: 100 }) as number[];
    let id = 0;
    for (const candidate of candidates) {
      const availability = await info(candidate);
      if (availability.totalCopies === 2 && availability.availableCopies === 2) { id = candidate; break; }
    }
    expect(id).toBeGreaterThan(0);

    expect((await api.call('POST', path('fresh', `/${id}`))).body.due).toBe(nowSeconds() + 21 * DAY);
    expect((await api.call('POST', path('leading-zeros', `/${id}`))).status).toBe(200);
    // holdsQueuePosition: where a hold placed now would stand (the first hold below gets it).
    expect(await info(id)).toEqual({ status: 'HOLD', available: false, purchaseModel: 'FLEX', holdsQueueSize: 0, holdsQueuePosition: 1, availableCopies: 0, totalCopies: 2 });
    const noCopy = await api.call('POST', path('letters', `/${id}`));
    expect(noCopy.status).toBe(422);
    expect(noCopy.body).toMatchObject({ message: expect.stringMatching(/^No copy is free/), detail: 'holdsQueueSize=0' });

    const first = await api.call('POST', path('letters', `/holds/${id}`));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'WAITING', contentId: id, holdsQueuePosition: 1, inserted: nowSeconds() });
    expect((await api.call('POST', path('odd-characters', `/holds/${id}`))).body.holdsQueuePosition).toBe(2);
    expect((await api.call('POST', path('with-loans', `/holds/${id}`))).body.holdsQueuePosition).toBe(3);
    expect((await api.call('POST', path('with-loans', `/holds/${id}`))).status).toBe(409);
    expect((await api.call('POST', path('fresh', `/holds/${id}`))).status).toBe(409);
    expect((await api.call('POST', path('reserved-hold', `/${id}`))).body.detail).toBe('holdsQueueSize=3');

    expect((await api.call('DELETE', path('odd-characters', `/holds/${id}`))).status).toBe(204);
    expect((await holds('with-loans')).find((hold) => hold.contentId === id)).toMatchObject({ holdsQueuePosition: 2 });
    const gone = await api.call('DELETE', path('odd-characters', `/holds/${id}`));
    expect(gone.status).toBe(403);
    expect(gone.body.message).toBe('No such hold');

    expect((await api.call('DELETE', path('fresh', `/${id}`))).status).toBe(204);
    const reserved = (await holds('letters')).find((hold) => hold.contentId === id);
    expect(reserved).toMatchObject({ status: 'RESERVED', holdsQueuePosition: 1, reserveUntil: nowSeconds() + 3 * DAY });
    expect(await info(id)).toMatchObject({ status: 'HOLD', availableCopies: 0, holdsQueueSize: 2 });
    expect((await api.call('POST', path('odd-characters', `/${id}`))).status).toBe(422);

    const before = await status('letters');
    expect((await api.call('POST', path('letters', `/${id}`))).status).toBe(200);
    expect((await holds('letters')).some((hold) => hold.contentId === id)).toBe(false);
    expect(await status('letters')).toMatchObject({ borrowsRemaining: before.borrowsRemaining, currentlyBorrowed: before.currentlyBorrowed + 1 });
    expect((await holds('with-loans')).find((hold) => hold.contentId === id)).toMatchObject({ status: 'WAITING', holdsQueuePosition: 1 });

    // A removed RESERVED hold hands its copy on: here nobody waits, so it becomes free.
    expect((await api.call('DELETE', path('leading-zeros', `/${id}`))).status).toBe(204);
    expect((await holds('with-loans')).find((hold) => hold.contentId === id)).toMatchObject({ status: 'RESERVED' });
    expect((await api.call('DELETE', path('with-loans', `/holds/${id}`))).status).toBe(204);
    expect(await info(id)).toMatchObject({ status: 'BORROW', available: true, availableCopies: 1, holdsQueueSize: 0 });
  });

  it('refuses holds that are not needed (400) or not possible (404)', async () => {
    const [free] = api.sandbox.control.sampleContent(LIB, { purchaseModel: 'FLEX', status: 'BORROW', count: 1 });
    const [instant] = api.sandbox.control.sampleContent(LIB, { purchaseModel: 'INSTANT', count: 1 });
    for (const id of [free, instant]) {
      const reply = await api.call('POST', path('fresh', `/holds/${id}`));
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe('Title is available to borrow; no hold needed');
    }
    expect((await api.call('POST', path('fresh', '/holds/99999999'))).status).toBe(404);
  });

  it('seeds Flex titles with every copy out and others queued, so a new hold queues behind them', async () => {
    const [full] = api.sandbox.control.sampleContent(LIB, { purchaseModel: 'FLEX', status: 'HOLD', count: 1 }) as number[];
    const availability = await info(full!);
    expect(availability.holdsQueueSize).toBeGreaterThanOrEqual(2);
    const refused = await api.call('POST', path('near-limit', `/${full}`));
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe(`holdsQueueSize=${availability.holdsQueueSize}`);
    const hold = await api.call('POST', path('near-limit', `/holds/${full}`));
    expect(hold.body.holdsQueuePosition).toBe(availability.holdsQueueSize + 1);
  });
});

describe('holds shape', () => {
  it("sends a bare object for one hold, {} for none and an array for several under holds: 'object'", async () => {
    api.sandbox.control.setShapes({ holds: 'object' });
    try {
      expect((await api.get(path('reserved-hold', '/holds/current'))).body).toMatchObject({ status: 'RESERVED' });
      expect((await api.get(path('leading-zeros', '/holds/current'))).body).toEqual({});
      const full = api.sandbox.control.sampleContent(LIB, { purchaseModel: 'FLEX', status: 'HOLD', count: 10 });
      for (const id of full) await api.call('POST', path('near-limit', `/holds/${id}`));
      const several = (await api.get(path('near-limit', '/holds/current'))).body;
      expect(Array.isArray(several)).toBe(true);
      expect(several.length).toBeGreaterThan(1);
    } finally {
      api.sandbox.control.setShapes({ holds: 'array' });
    }
    expect((await api.get(path('leading-zeros', '/holds/current'))).body).toEqual([]);
  });
});

describe('time rules', () => {
  let timed: Api;
  beforeAll(async () => {
    timed = await startApi({ tokenLifetimeSeconds: 100_000_000 });
  });
  afterAll(() => timed.close());
  const timedPath = (role: string, suffix: string): string => timed.patronPath(LIB, cardFor(timed, LIB, role), suffix);

  it('returns overdue loans by themselves and lapses reservations to the next in line', async () => {
    const [movie] = timed.sandbox.control.sampleContent(LIB, { purchaseModel: 'INSTANT', format: 'MOVIE', count: 1 });
    const lent = await timed.call('POST', timedPath('fresh', `/${movie}`));
    expect(lent.body.due - lent.body.borrowed).toBe(3 * DAY);
    const reservedId = (await timed.get(timedPath('reserved-hold', '/holds/current'))).body[0].contentId as number;
    const waiting = await timed.call('POST', timedPath('fresh', `/holds/${reservedId}`));
    expect(waiting.body).toMatchObject({ status: 'WAITING', holdsQueuePosition: 2 });

    timed.clock.advance(3 * DAY * 1000);
    expect((await timed.get(timedPath('fresh', '/checkouts/current'))).body).toEqual([]);
    expect((await timed.get(timedPath('fresh', '/status'))).body.currentlyBorrowed).toBe(0);
    expect((await timed.get(timedPath('reserved-hold', '/holds/current'))).body).toEqual([]);
    const promoted = (await timed.get(timedPath('fresh', '/holds/current'))).body[0];
    expect(promoted).toMatchObject({ contentId: reservedId, status: 'RESERVED', holdsQueuePosition: 1 });
    expect(promoted.reserveUntil).toBe(Math.floor(timed.clock.now() / 1000) + 3 * DAY);
  });

  it('gives the monthly allowance back in a new UTC month', async () => {
    expect((await timed.get(timedPath('allowance-used', '/status'))).body.borrowsRemaining).toBe(0);
    timed.clock.advance(40 * DAY * 1000);
    expect((await timed.get(timedPath('allowance-used', '/status'))).body).toMatchObject({ borrowsRemaining: 10, currentlyBorrowed: 0 });
  });
});

describe('routing of raw requests', () => {
  it('accepts a trailing slash and ignores a request body on patron routes', async () => {
    const token = await api.token();
    const reply = await raw(`${api.sandbox.url}${path('fresh', '/status/')}`, { headers: { authorization: `Bearer ${token}` } });
    expect(reply.status).toBe(200);
  });
});
