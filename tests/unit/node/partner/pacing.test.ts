// Staff first, and the service's pacing exactly (issue #34, goals 1 and 2), against the sandbox
// over HTTP: a token request a staff call needs goes at the staff call's priority, joined or not;
// Retry-After is honoured in full and 429s in a row back off exponentially from it; a staff call
// that would wait longer than a few seconds is answered at once with the time to wait.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeskError } from '../../../../electron/shared/desk-error.ts';
import { PartnerClient } from '../../../../electron/node/partner/client.ts';
import { RequestBudget } from '../../../../electron/node/partner/request-budget.ts';
import { STAFF_WAIT_LIMIT_MS } from '../../../../electron/node/partner/staff-wait.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import { SimulatedTime } from '../../../support/simulated-time.ts';
import { library, startHarness, type Harness } from './helpers.ts';

describe('a staff call never waits behind background work for its token (goal 1)', () => {
  const NETWORK_MS = 80;
  let sandbox: SandboxHandle;
  let time: SimulatedTime;
  beforeAll(async () => {
    time = new SimulatedTime(Date.UTC(2026, 10, 22, 12));
    // A 40 s token: it runs out while the background's share of the window is still used up.
    sandbox = await startSandbox({ catalogSize: 2000, now: time.now, tokenLifetimeSeconds: 40 });
  });
  afterAll(async () => { await sandbox.close(); });

  it('a token request the sync started rises to the staff call\'s priority when the staff call joins it', async () => {
    const budget = new RequestBudget({ perMinute: 20, now: time.now, sleep: time.sleep });
    const desk = new PartnerClient({
      baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password },
      now: time.now, sleep: time.sleep, fetch: time.track((input, init) => fetch(input, init), NETWORK_MS), gate: budget.gate,
    });
    const background = desk.withPriority('background');
    const { libraryId, cards } = sandbox.libraries[0]!;
    const card = cards[0]!;
    // The sync uses the background's share of the window (18 of 20: a tenth stays the desk's): a token and 17 reads.
    await time.run((async () => { for (let i = 0; i < 17; i++) await background.patronStatus(libraryId, card); })());
    expect(budget.inWindow()).toBe(18);
    // The token runs out (the client renews it a tenth of its life early); the window is still full for background work.
    await time.run(time.sleep(37_000));
    sandbox.control.resetRequestCounts();
    const syncing = background.patronStatus(libraryId, card); // its token request waits for the window, at background priority
    const asked = time.now();
    const staff = desk.patronStatus(libraryId, card); // needs the same token
    const answered = await time.run(staff);
    // Simulated time: two exchanges of 80 ms (the token, then the staff call's own). Waiting at
    // background priority, the token request would have gone only when the window moved (over 20 s on).
    expect(time.now() - asked).toBeLessThanOrEqual(2 * NETWORK_MS);
    expect(answered.borrowsAllowedPerMonth).toBeGreaterThan(0);
    await time.run(syncing);
    expect(sandbox.control.requestCounts()).toMatchObject({ token: 1, status: 2 }); // one token request, joined
  });
});

describe('the service\'s pacing (goal 2)', () => {
  let h: Harness;
  let libraryId: number;
  let card: string;
  beforeAll(async () => {
    h = await startHarness();
    ({ libraryId } = library(h));
    card = library(h).cards[0] as string;
  });
  afterEach(() => {
    h.sandbox.control.clearFaults();
    h.sleeps.length = 0;
  });
  afterAll(async () => { await h.sandbox.close(); });

  it('honours a Retry-After of 120 s in full for background work (it was cut to 60 s)', async () => {
    const background = h.client().withPriority('background');
    await background.patronStatus(libraryId, card); // the token first
    h.sandbox.control.addFault({ route: 'status', kind: 'rate-limit', times: 1, retryAfterSeconds: 120 });
    await expect(background.patronStatus(libraryId, card)).resolves.toHaveProperty('borrowsRemaining');
    expect(h.sleeps).toEqual([120_000]);
  });

  it('backs off exponentially from Retry-After when 429s come in a row (they were 1,000, 1,000, 1,000 ms)', async () => {
    const background = h.client().withPriority('background');
    await background.patronStatus(libraryId, card);
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'status', kind: 'rate-limit', times: 3, retryAfterSeconds: 1 });
    await expect(background.patronStatus(libraryId, card)).resolves.toHaveProperty('borrowsRemaining');
    expect(h.sleeps).toEqual([1000, 2000, 4000]);
    expect(h.sandbox.control.requestCounts().status).toBe(4);
  });

  it('takes 429s for requests sent together as one refusal: a lookup\'s three pause for Retry-After, not four times it', async () => {
    const background = h.client().withPriority('background');
    const cards = library(h).cards.slice(0, 3) as string[];
    await background.patronStatus(libraryId, card);
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'status', kind: 'rate-limit', times: 3, retryAfterSeconds: 1 });
    await Promise.all(cards.map((c) => background.patronStatus(libraryId, c)));
    expect(h.sandbox.control.requestCounts().status).toBe(6);
    expect(Math.max(...h.sleeps)).toBe(1000);
  });

  it('starts again from Retry-After once an answer comes through', async () => {
    const background = h.client().withPriority('background');
    await background.patronStatus(libraryId, card);
    h.sandbox.control.addFault({ route: 'status', kind: 'rate-limit', times: 2, retryAfterSeconds: 1 });
    await background.patronStatus(libraryId, card);
    h.sandbox.control.addFault({ route: 'status', kind: 'rate-limit', times: 1, retryAfterSeconds: 1 });
    await background.patronStatus(libraryId, card);
    expect(h.sleeps).toEqual([1000, 2000, 1000]);
  });

  it('answers a staff call at once with the time to wait when the service asks for more than a few seconds', async () => {
    const desk = h.client();
    await desk.patronStatus(libraryId, card);
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'status', kind: 'rate-limit', times: 1, retryAfterSeconds: 120 });
    const error = await desk.patronStatus(libraryId, card).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskError);
    expect((error as DeskError).toInfo()).toMatchObject({ code: 'rate-limited', reason: 'service.wait', params: { seconds: 120 } });
    expect(h.sleeps).toEqual([]); // told, not kept waiting
    expect(h.sandbox.control.requestCounts().status).toBe(1);
    // Every staff call meanwhile is told the time left, without a request; background work waits it out.
    h.clock.advance(20_000);
    await expect(desk.currentLoans(libraryId, card)).rejects.toMatchObject({ code: 'rate-limited', detail: { params: { seconds: 100 } } });
    expect(h.sandbox.control.requestCounts().checkouts).toBe(0);
    await expect(desk.withPriority('background').currentLoans(libraryId, card)).resolves.toBeInstanceOf(Array);
    expect(h.sleeps).toEqual([100_000]);
  });

  it('a staff call waits out a pause of a few seconds itself', async () => {
    const desk = h.client();
    await desk.patronStatus(libraryId, card);
    h.sandbox.control.addFault({ route: 'status', kind: 'rate-limit', times: 1, retryAfterSeconds: STAFF_WAIT_LIMIT_MS / 1000 });
    await expect(desk.patronStatus(libraryId, card)).resolves.toHaveProperty('borrowsRemaining');
    expect(h.sleeps).toEqual([STAFF_WAIT_LIMIT_MS]);
  });

  it('a staff call that would wait for a token behind a long pause is told at once too', async () => {
    const desk = h.client({ credentials: { username: h.sandbox.username, password: h.sandbox.password } });
    h.sandbox.control.addFault({ route: 'token', kind: 'rate-limit', times: 1, retryAfterSeconds: 90 });
    await expect(desk.patronStatus(libraryId, card)).rejects.toMatchObject({ code: 'rate-limited', detail: { reason: 'service.wait', params: { seconds: 90 } } });
    expect(h.sleeps).toEqual([]);
  });
});

describe('the request budget tells a staff call how long the window is full (goal 2)', () => {
  it('a desk request that would wait longer than the limit for the window is refused at once with the time to wait', async () => {
    let now = 0;
    const budget = new RequestBudget({ perMinute: 10, now: () => now, sleep: () => new Promise(() => {}), deskWaitLimitMs: STAFF_WAIT_LIMIT_MS });
    for (let i = 0; i < 10; i++) await budget.gate('desk', async () => {});
    now = 20_000;
    const error = await budget.gate('desk', async () => 'sent').catch((e: unknown) => e);
    expect((error as DeskError).toInfo()).toMatchObject({ code: 'rate-limited', reason: 'service.wait', params: { seconds: 40 } });
    expect(budget.inWindow()).toBe(10); // nothing more went: the 100-a-minute ceiling (here 10) holds
    now = 56_000; // the oldest slot frees in 4 s: that short a wait is waited
    expect(budget.deskWaitMs()).toBe(4_000);
  });
});
