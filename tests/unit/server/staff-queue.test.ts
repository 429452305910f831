// Staff calls in the library server's queue, on a simulated clock (Vitest's fake timers drive the
// queue's and the budget's timers alike): a call is answered within the desk's patience, done or
// refused not done; a wait past two seconds is told, wherever the call waits; and a call that
// leaves its line does not let more calls through than the queue allows.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CredentialBudget } from '../../../server/credential-budget.ts';
import { QUEUE_AT_MOST_MS, StaffQueue, THROUGH_AT_A_TIME, TOLD_AFTER_MS, WaitTooLong } from '../../../server/staff-queue.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 22, 12, 0, 0) });
});
afterEach(() => {
  vi.useRealTimers();
});

const budgetOf = (perMinute: number, windowMs: number): CredentialBudget =>
  new CredentialBudget({ perMinute, windowMs, now: () => Date.now(), record: async () => {} });

/** A staff call to the partner through `budget`, answered after `answerMs`; its sends are noted in `sent`. */
const partnerCall = (budget: CredentialBudget, sent: number[], answerMs = 0) => () =>
  budget.gate('desk', async () => {
    sent.push(Date.now());
    if (answerMs > 0) await new Promise((resolve) => setTimeout(resolve, answerMs));
    return 'answered';
  });

describe('the staff queue', () => {
  it('refuses, not done, a call still in line when others cut in ahead of its estimate', async () => {
    // One request in any 3 s: one went just now, and the next waits for the window.
    const budget = budgetOf(1, 3000);
    const queue = new StaffQueue(budget);
    const sent: number[] = [];
    await queue.run('other', partnerCall(budget, sent), () => {});
    const next = queue.run('other', partnerCall(budget, sent), () => {});
    const told: Record<string, number[]> = { a1: [], a2: [], b1: [] };
    const work = { a1: vi.fn(partnerCall(budget, sent)), a2: vi.fn(partnerCall(budget, sent)), b1: vi.fn(partnerCall(budget, sent)) };
    // Desk A's two calls (6 s and 9 s away, as estimated), then desk B's, whose turn comes before A's second.
    const a1 = queue.run('A', work.a1, (ms) => told.a1!.push(ms));
    const a2 = queue.run('A', work.a2, (ms) => told.a2!.push(ms));
    const b1 = queue.run('B', work.b1, (ms) => told.b1!.push(ms));
    const a2Settled = a2.then(() => 'done', (error: unknown) => error);
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(next).resolves.toBe('answered');
    await expect(a1).resolves.toBe('answered');
    await expect(b1).resolves.toBe('answered');
    // A's second call would have gone 12 s after it came: at 10 s it leaves its line, refused, not done.
    const refused = await a2Settled;
    expect(refused).toBeInstanceOf(WaitTooLong);
    expect(work.a2).not.toHaveBeenCalled();
    // Each wait was told first, none longer than the desk's patience; the partner saw one a window.
    for (const name of ['a1', 'a2', 'b1']) {
      expect(told[name]).toHaveLength(1);
      expect(told[name]![0]).toBeGreaterThan(TOLD_AFTER_MS);
      expect(told[name]![0]).toBeLessThanOrEqual(QUEUE_AT_MOST_MS);
    }
    expect(sent.length).toBe(4);
    for (const [i, t] of sent.entries()) if (i > 0) expect(t - sent[i - 1]!).toBeGreaterThanOrEqual(3000);
  });

  it('tells a wait past two seconds that the estimate did not see, while the call is still waiting for the partner\'s window', async () => {
    // One request in any 1.5 s, counted until its answer: the first call's answer takes a second.
    const budget = budgetOf(1, 1500);
    const queue = new StaffQueue(budget);
    const sent: number[] = [];
    const first = queue.run('other', partnerCall(budget, sent, 1000), () => {});
    await vi.advanceTimersByTimeAsync(0);
    const told: number[] = [];
    const started = Date.now();
    const second = queue.run('A', partnerCall(budget, sent), (ms) => told.push(ms));
    await vi.advanceTimersByTimeAsync(1000);
    expect(told).toEqual([]); // its estimate (the window's 1.5 s) was under the mark
    await vi.advanceTimersByTimeAsync(TOLD_AFTER_MS);
    await expect(first).resolves.toBe('answered');
    expect(told).toHaveLength(1); // at the mark, still waiting: told
    await vi.advanceTimersByTimeAsync(5000);
    await expect(second).resolves.toBe('answered');
    expect(sent[1]! - started).toBeGreaterThan(TOLD_AFTER_MS);
  });

  it('lets no more calls through than it allows when calls leave their line', async () => {
    const budget = budgetOf(10_000, 60_000);
    const queue = new StaffQueue(budget);
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const slow = () => budget.gate('desk', () => new Promise<string>((resolve) => {
      running += 1;
      most = Math.max(most, running);
      release.push(() => { running -= 1; resolve('answered'); });
    }));
    const busy = Array.from({ length: THROUGH_AT_A_TIME }, (_, i) => queue.run(`desk-${i}`, slow, () => {}));
    await vi.advanceTimersByTimeAsync(0);
    expect(running).toBe(THROUGH_AT_A_TIME);
    // Three calls wait in line; their desk stops waiting.
    const gone = new AbortController();
    const leaving = Array.from({ length: 3 }, () => queue.run('leaving', slow, () => {}, gone.signal).catch((error: unknown) => error));
    await vi.advanceTimersByTimeAsync(0);
    gone.abort(new Error('the desk stopped waiting'));
    expect((await Promise.all(leaving)).every((e) => e instanceof Error)).toBe(true);
    // Three more: they wait in line too, as long as the first are on the wire.
    const later = Array.from({ length: 3 }, (_, i) => queue.run(`later-${i}`, slow, () => {}));
    await vi.advanceTimersByTimeAsync(100);
    expect(most).toBe(THROUGH_AT_A_TIME);
    for (const done of release.splice(0)) done();
    await vi.advanceTimersByTimeAsync(0);
    for (const done of release.splice(0)) done();
    await Promise.all([...busy, ...later]);
    expect(most).toBe(THROUGH_AT_A_TIME);
  });

  it('lets a waiting call go when the window moves, though the clock stepped forward after a burst', async () => {
    // The budget reads the wall clock, which may step (NTP); timers run on their own. A burst of a
    // whole window's calls: a wake-up set while it filled the window (for a minute on) must not hold
    // back a call that comes once the clock has stepped to 6 s before the window frees.
    let step = 0;
    const budget = new CredentialBudget({ perMinute: 100, windowMs: 60_000, now: () => Date.now() + step, record: async () => {} });
    const queue = new StaffQueue(budget);
    const sent: number[] = [];
    const from = Date.now();
    const burst = Promise.all(Array.from({ length: 100 }, () => queue.run('burst', partnerCall(budget, sent), () => {})));
    await vi.advanceTimersByTimeAsync(1_000);
    await burst;
    expect(sent).toHaveLength(100);
    step = from + 54_000 - Date.now();
    const told: number[] = [];
    const call = queue.run('desk', partnerCall(budget, sent), (ms) => told.push(ms));
    const settled = call.then(() => 'answered', (error: unknown) => error);
    await vi.advanceTimersByTimeAsync(6_500);
    expect(await Promise.race([settled, 'still waiting'])).toBe('answered');
    expect(told).toHaveLength(1);
    expect(told[0]).toBeGreaterThan(TOLD_AFTER_MS);
    expect(told[0]).toBeLessThanOrEqual(6_000);
  });

  it('says how long a call asked now would wait for the window, which is what it tells the desk', async () => {
    const budget = budgetOf(3, 3000);
    const queue = new StaffQueue(budget);
    const sent: number[] = [];
    expect(queue.windowWaitMs(0)).toBe(0);
    await Promise.all(Array.from({ length: 3 }, () => queue.run('A', partnerCall(budget, sent), () => {})));
    await vi.advanceTimersByTimeAsync(1_000);
    // The window is full: the next call waits 2 s, the one after it too (the second send leaves then).
    expect(queue.windowWaitMs(0)).toBe(2_000);
    expect(queue.windowWaitMs(3)).toBe(5_000);
    const told: number[] = [];
    const call = queue.run('B', partnerCall(budget, sent), (ms) => told.push(ms));
    expect(told).toEqual([2_000]);
    await vi.advanceTimersByTimeAsync(2_000);
    await call;
    expect(sent).toHaveLength(4);
  });
});
