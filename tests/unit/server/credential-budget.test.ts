// The credential's one budget on a clock the test moves: however the record of sends lags (a
// busy database), the partner never sees more than the limit in any window.
import { describe, expect, it } from 'vitest';
import { CredentialBudget } from '../../../server/credential-budget.ts';
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
});
