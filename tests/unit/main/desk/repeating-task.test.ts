// Background work the desk repeats: stopping it waits for a run under way (what quitting and the
// retention test rely on), and a turn that comes while a run is still going is skipped.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { repeatEvery } from '../../../../electron/main/desk/repeating-task.ts';

afterEach(() => { vi.useRealTimers(); });

describe('repeatEvery', () => {
  it('runs now when asked, stops, and its stop waits for the run under way', async () => {
    let finish!: () => void;
    const runs: string[] = [];
    const task = repeatEvery(60_000, async () => {
      runs.push('started');
      await new Promise<void>((resolve) => { finish = resolve; });
      runs.push('finished');
    }, { now: true, onError: () => {} });
    expect(runs).toEqual(['started']);
    const stopped = task.stop().then(() => runs.push('stopped'));
    await Promise.resolve();
    expect(runs).toEqual(['started']);
    finish();
    await stopped;
    expect(runs).toEqual(['started', 'finished', 'stopped']);
  });

  it('skips a turn while the last run is still going, and reports a failed run without stopping', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let started = 0;
    const errors: unknown[] = [];
    const task = repeatEvery(1000, async () => {
      started += 1;
      if (started === 1) await held;
      else throw new Error('purge failed');
    }, { onError: (error) => errors.push(error) });
    vi.advanceTimersByTime(1000);
    vi.advanceTimersByTime(1000); // the first run is still going: this turn is skipped
    expect(started).toBe(1);
    release();
    await new Promise((resolve) => setImmediate(resolve)); // the first run has ended
    vi.advanceTimersByTime(1000);
    await task.stop();
    expect(started).toBe(2);
    expect(errors).toEqual([expect.objectContaining({ message: 'purge failed' })]);
  });
});
