// The credential's one budget on a clock the test moves: however the record of sends lags (a
// busy database), the partner never sees more than the limit in any window; the sync leaves staff
// room by what they sent; and a new leader counts its predecessor's sends when they were made.
import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_MS, CredentialBudget, STAFF_HEADROOM, UNRECORDED_AT_MOST } from '../../../server/credential-budget.ts';
import { createClock } from '../../support/clock.ts';

/** A clock whose sleeps are collected, so the test decides when time passes. */
function steppedClock() {
  const clock = createClock();
  const sleepers: { until: number; wake: () => void }[] = [];
  return {
    now: clock.now,
    sleep: (ms: number) => new Promise<void>((wake) => { sleepers.push({ until: clock.now() + ms, wake }); }),
    /** Moves time on by `ms`, waking every sleeper due by then, in order. */
    async advance(ms: number): Promise<void> {
      const until = clock.now() + ms;
      for (;;) {
        sleepers.sort((a, b) => a.until - b.until);
        const first = sleepers[0];
        if (!first || first.until > until) break;
        sleepers.shift();
        clock.advance(Math.max(0, first.until - clock.now()));
        first.wake();
        await settle();
      }
      clock.advance(until - clock.now());
      await settle();
    },
    get sleeping(): number {
      return sleepers.length;
    },
  };
}
const settle = async (): Promise<void> => { for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve)); };

/** The most requests the partner saw in any window of `windowMs` (each counted when it arrives). */
const mostInAWindow = (arrivals: number[], windowMs: number): number =>
  Math.max(0, ...arrivals.map((t) => arrivals.filter((u) => u > t - windowMs && u <= t).length));

describe('the credential budget', () => {
  it('lets no more than the limit reach the partner in a window while the record of earlier sends is still being written', async () => {
    const clock = steppedClock();
    // The record's writes are held until the test lets them land, as a busy database holds them.
    let held: (() => void)[] = [];
    let holding = true;
    const record = (): Promise<void> => (holding ? new Promise<void>((resolve) => { held.push(resolve); }) : Promise.resolve());
    const budget = new CredentialBudget({ perMinute: 10, windowMs: 1000, now: clock.now, sleep: clock.sleep, record });
    const arrivals: number[] = [];
    const staff = (): Promise<void> => budget.gate('desk', async () => { arrivals.push(clock.now()); });

    const first = Array.from({ length: 10 }, staff);
    await settle();
    // A window later ten more are due, while two of the first ten still wait for their record.
    await clock.advance(1001);
    const second = Array.from({ length: 10 }, staff);
    await settle();
    holding = false;
    for (const land of held.splice(0)) land();
    await settle();
    while (clock.sleeping > 0 || held.length > 0) {
      for (const land of held.splice(0)) land();
      await clock.advance(100);
    }
    await Promise.all([...first, ...second]);
    expect(arrivals).toHaveLength(20);
    expect(mostInAWindow(arrivals, 1000)).toBeLessThanOrEqual(10);
  });

  it('keeps the sync below what staff sent in the last window, and half as much again', async () => {
    const clock = steppedClock();
    const budget = new CredentialBudget({ perMinute: 20, windowMs: 1000, now: clock.now, sleep: clock.sleep, record: async () => {} });
    let staff = 0;
    await Promise.all(Array.from({ length: 6 }, () => budget.gate('desk', async () => { staff += 1; })));
    let background = 0;
    const sync = Array.from({ length: 20 }, () => budget.gate('background', async () => { background += 1; }));
    await settle();
    expect(staff).toBe(6);
    expect(background).toBe(20 - Math.ceil(6 * STAFF_HEADROOM));
    // A staff call now finds the window open.
    const before = clock.now();
    await budget.gate('desk', async () => { staff += 1; });
    expect(clock.now()).toBe(before);
    while (clock.sleeping > 0) await clock.advance(100);
    await Promise.all(sync);
    expect(background).toBe(20);
  });

  it('counts the sends its predecessor recorded at their own times: a staff call waits only as long as that window makes it', async () => {
    const clock = steppedClock();
    const windowMs = 60_000;
    const budget = new CredentialBudget({ perMinute: 10, windowMs, now: clock.now, sleep: clock.sleep, record: async () => {} });
    // The old leader sent its ten 50 s ago; it may have sent a few more it did not record.
    const recorded = Array.from({ length: 10 }, () => clock.now() - 50_000);
    budget.takeOver(recorded);
    const taken = clock.now();
    let sentAt: number | undefined;
    const call = budget.gate('desk', async () => { sentAt = clock.now(); });
    await settle();
    expect(sentAt).toBeUndefined(); // the window is full: ten recorded and the unrecorded ones
    while (sentAt === undefined) await clock.advance(1000);
    await call;
    // It went when the recorded ten left the window (their time, the clocks' difference later), not a window after the takeover.
    expect(sentAt - taken).toBeLessThanOrEqual(windowMs - 50_000 + CLOCK_SKEW_MS + 1000);
    expect(UNRECORDED_AT_MOST).toBeLessThan(10);
  });
});
