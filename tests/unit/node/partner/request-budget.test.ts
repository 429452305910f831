// The request budget on a clock the test moves: the service's window is never exceeded, the
// desk goes first and keeps its reserve, background has one exchange on the wire at a time.
import { describe, expect, it } from 'vitest';
import { RequestBudget } from '../../../../electron/node/partner/request-budget.ts';
import { createClock } from '../../../support/clock.ts';

/** A clock whose sleeps are collected, so the test decides when time passes. */
function steppedClock() {
  const clock = createClock();
  const sleepers: { until: number; wake: () => void }[] = [];
  return {
    now: clock.now,
    sleep: (ms: number) => new Promise<void>((wake) => { sleepers.push({ until: clock.now() + ms, wake }); }),
    /** Moves time to the next sleeper's moment and wakes it. */
    async next(): Promise<boolean> {
      sleepers.sort((a, b) => a.until - b.until);
      const first = sleepers.shift();
      if (!first) return false;
      clock.advance(Math.max(0, first.until - clock.now()));
      first.wake();
      await flush();
      return true;
    },
  };
}
const flush = async (): Promise<void> => { for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve)); };

describe('request budget', () => {
  it('sends at most perMinute in any 60 seconds, counting desk and background together', async () => {
    const clock = steppedClock();
    const budget = new RequestBudget({ perMinute: 10, now: clock.now, sleep: clock.sleep });
    const sentAt: number[] = [];
    const work = (priority: 'desk' | 'background') => budget.gate(priority, async () => { sentAt.push(clock.now()); });
    const all = [...Array.from({ length: 15 }, () => work('desk')), ...Array.from({ length: 10 }, () => work('background'))];
    await flush();
    while (await clock.next()) { /* let time pass until everything went */ }
    await Promise.all(all);
    expect(sentAt).toHaveLength(25);
    for (const t of sentAt) expect(sentAt.filter((u) => u > t - 60_000 && u <= t).length).toBeLessThanOrEqual(10);
  });

  it('sends a desk request at once, ahead of background requests queued before it', async () => {
    const budget = new RequestBudget({ perMinute: 100 });
    const order: string[] = [];
    let release: () => void = () => {};
    const first = budget.gate('background', () => new Promise<void>((resolve) => { order.push('b0'); release = resolve; }));
    const queued = Array.from({ length: 3 }, (_, i) => budget.gate('background', async () => { order.push(`b${i + 1}`); }));
    await flush();
    const desk = budget.gate('desk', async () => { order.push('desk'); });
    await desk;
    expect(order).toEqual(['b0', 'desk']); // the one background exchange on the wire, then the desk: no queue
    release();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(['b0', 'desk', 'b1', 'b2', 'b3']);
  });

  it('keeps a tenth of the window for the desk: background alone stops short of the limit', async () => {
    const clock = steppedClock();
    const budget = new RequestBudget({ perMinute: 100, now: clock.now, sleep: clock.sleep });
    let sent = 0;
    const background = Array.from({ length: 100 }, () => budget.gate('background', async () => { sent += 1; }));
    await flush();
    expect(sent).toBe(90);
    // The desk still has its reserve at once, while background waits for the window to move.
    let deskSent = 0;
    await Promise.all(Array.from({ length: 10 }, () => budget.gate('desk', async () => { deskSent += 1; })));
    expect(deskSent).toBe(10);
    expect(budget.inWindow()).toBe(100);
    while (await clock.next()) { /* drain */ }
    await Promise.all(background);
    expect(sent).toBe(100);
  });

  it('has one background exchange on the wire at a time', async () => {
    const budget = new RequestBudget({ perMinute: 1000 });
    /** The most of `count` exchanges of `priority`, sent together, that were on the wire at once. */
    const mostOnWire = async (priority: 'desk' | 'background', count: number): Promise<number> => {
      let onWire = 0;
      let most = 0;
      await Promise.all(Array.from({ length: count }, () => budget.gate(priority, async () => {
        onWire += 1;
        most = Math.max(most, onWire);
        await new Promise((resolve) => setTimeout(resolve, 1));
        onWire -= 1;
      })));
      return most;
    };
    expect(await mostOnWire('background', 20)).toBe(1);
    expect(await mostOnWire('desk', 5)).toBe(5);
  });

  it('frees the slot of a failed exchange for the next one', async () => {
    const budget = new RequestBudget({ perMinute: 1000 });
    await expect(budget.gate('background', async () => { throw new Error('reset'); })).rejects.toThrow('reset');
    await expect(budget.gate('background', async () => 'next')).resolves.toBe('next');
  });
});
