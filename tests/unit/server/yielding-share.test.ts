// The library mirror's share of the credential gives way to busy desks: a 429 from the service
// (the sandbox's per-credential limit, over HTTP) halves it at once, at most once a window, and
// each quiet window gives back a tenth of what IT configured, never more.
import { afterEach, describe, expect, it } from 'vitest';
import { RequestBudget } from '../../../electron/node/partner/request-budget.ts';
import { YieldingShare } from '../../../server/yielding-share.ts';
import { createClock } from '../../support/clock.ts';
import { basic, startApi, type Api } from '../main/sandbox/helpers.ts';

let api: Api | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('the library mirror\'s yielding share', () => {
  it('halves on a 429 from the credential\'s limit, once a window, comes back one a quiet window, and whole after 10', async () => {
    api = await startApi({ rateLimitPerMinute: 1 });
    const clock = createClock();
    const budget = new RequestBudget({ perMinute: 50, now: clock.now });
    const changes: number[] = [];
    const share = new YieldingShare(budget, clock.now, (perMinute) => changes.push(perMinute));
    const fetch = share.watch((input, init) => globalThis.fetch(input, init));
    const token = () => fetch(`${api!.sandbox.url}/api/v1/get-token`, { method: 'POST', headers: { authorization: basic(api!.sandbox.username, api!.sandbox.password) } });

    expect((await token()).status).toBe(200); // a desk's request, say: the window is now full
    expect(share.describe()).toEqual({ perMinute: 50, configured: 50, refusals: 0 });
    expect((await token()).status).toBe(429);
    expect(budget.limit).toBe(25);
    clock.advance(30_000);
    expect((await token()).status).toBe(429); // the same full window: counted, not cut again
    expect(share.describe()).toEqual({ perMinute: 25, configured: 50, refusals: 2 });

    clock.advance(60_000); // a quiet window since the last 429
    share.answered();
    expect(budget.limit).toBe(26);
    clock.advance(3 * 60_000);
    share.answered();
    expect(budget.limit).toBe(29);
    clock.advance(6 * 60_000 - 30_000); // 10 windows since the first 429, 9.5 since the last
    share.answered();
    expect(budget.limit).toBe(34);
    clock.advance(30_000); // 10 quiet windows: the busy hour is over
    share.answered();
    expect(budget.limit).toBe(50); // all of it, never above what IT configured
    expect(changes).toEqual([25, 50]);
    // The cut share is what the budget admits: 25 desk-priority exchanges in a window, the 26th waits.
    const sent: number[] = [];
    const waits: (() => void)[] = [];
    const sleepy = new RequestBudget({ perMinute: 50, now: clock.now, sleep: () => new Promise<void>((wake) => { waits.push(wake); }) });
    new YieldingShare(sleepy, clock.now).refused();
    const gates = Array.from({ length: 26 }, () => sleepy.gate('desk', async () => { sent.push(clock.now()); }));
    await Promise.all(gates.slice(0, 25));
    expect(sent).toHaveLength(25);
    expect(waits).toHaveLength(1); // the 26th waits for the window's oldest slot
  });

  it('backs off exponentially after 429s in a row (a window, two, then four at most) and not at all once answered', async () => {
    const clock = createClock();
    const slept: number[] = [];
    const budget = new RequestBudget({ perMinute: 50, now: clock.now });
    const share = new YieldingShare(budget, clock.now, () => {}, async (ms) => { slept.push(ms); clock.advance(ms); });
    const gate = share.gate((_priority, send) => send());
    const send = () => gate('background', async () => clock.now());
    expect(await send()).toBe(clock.now()); // no 429 yet: no wait
    for (const expected of [60_000, 120_000, 240_000, 240_000]) {
      share.refused();
      slept.length = 0;
      const sentAt = clock.now();
      expect(await send()).toBe(sentAt + expected);
      expect(slept.reduce((a, b) => a + b, 0)).toBe(expected);
    }
    share.answered();
    slept.length = 0;
    await send();
    expect(slept).toEqual([]);
    share.refused(); // the first of a new run of 429s: one window again
    const sentAt = clock.now();
    expect(await send()).toBe(sentAt + 60_000);
  });
});
