// The desk's one scheduler of background tasks (electron/main/desk/background-tasks.ts), on timers
// the test moves by hand: tasks checked at start and on their interval, a failed run logged and
// the task checked again, a turn skipped while a run is going, stop waiting for a run under way,
// the benches' overrides (only some tasks, other intervals), the retention's wait asked after each
// run, and a test running one task's check now.
import { describe, expect, it } from 'vitest';
import { BackgroundTasks, type BackgroundTask, type Timers } from '../../../../electron/main/desk/background-tasks.ts';

/** Timers that fire only when the test moves time; each fired timer's work settles before the next fires. */
function manualTimers() {
  let now = 0;
  let ids = 0;
  const pending = new Map<number, { at: number; ms: number; run: () => void }>();
  const timers: Timers = {
    setTimeout: (run, ms) => {
      ids += 1;
      pending.set(ids, { at: now + ms, ms, run });
      return ids as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimeout: (timer) => { pending.delete(timer as unknown as number); },
  };
  return {
    timers,
    /** The waits armed and not yet fired or cleared, in ms from when each was armed. */
    armed: () => [...pending.values()].map((timer) => timer.ms).sort((a, b) => a - b),
    async advance(ms: number): Promise<void> {
      const end = now + ms;
      for (;;) {
        await settled(); // what ran before this moment has ended, as it would have in real time
        const [id, due] = [...pending].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0] ?? [];
        if (id === undefined || !due) break;
        pending.delete(id);
        now = due.at;
        due.run();
      }
      now = end;
      await settled();
    },
  };
}

/** Lets the promise chains started so far run to their end (no I/O here: one turn of the event loop). */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function recordingLogger() {
  const warnings: { event: string; error: unknown }[] = [];
  return { warnings, logger: { warn: (event: string, fields?: Record<string, unknown>) => { warnings.push({ event, error: fields?.error }); } } };
}

/** A task that counts its runs; `outcome` decides each one. */
function counted<N extends string>(name: N, everyMs: number, options: { now?: boolean; outcome?: (run: number) => Promise<boolean> } = {}) {
  const runs = { count: 0 };
  const task: BackgroundTask<N> = {
    name, schedule: { everyMs }, failedEvent: `${name}.failed`, ...(options.now ? { now: true } : {}),
    runIfDue: () => {
      runs.count += 1;
      return options.outcome?.(runs.count) ?? Promise.resolve(true);
    },
  };
  return { task, runs };
}

function deferred() {
  let release!: () => void;
  const promise = new Promise<boolean>((resolve) => { release = () => resolve(true); });
  return { promise, release };
}

describe('BackgroundTasks', () => {
  it('checks a `now` task at start and every task on its interval after; stop ends every turn', async () => {
    const clock = manualTimers();
    const { logger, warnings } = recordingLogger();
    const fast = counted('fast', 1000, { now: true });
    const slow = counted('slow', 5000);
    const tasks = new BackgroundTasks([fast.task, slow.task], logger);
    tasks.start({ timers: clock.timers });
    expect([fast.runs.count, slow.runs.count]).toEqual([1, 0]);
    await clock.advance(999);
    expect([fast.runs.count, slow.runs.count]).toEqual([1, 0]);
    await clock.advance(1);
    expect([fast.runs.count, slow.runs.count]).toEqual([2, 0]);
    await clock.advance(4000);
    expect([fast.runs.count, slow.runs.count]).toEqual([6, 1]);
    await tasks.stop();
    expect(clock.armed()).toEqual([]);
    await clock.advance(60_000);
    expect([fast.runs.count, slow.runs.count]).toEqual([6, 1]);
    expect(warnings).toEqual([]);
  });

  it('logs a failed run with the task\'s event and checks the task again at its next turn', async () => {
    const clock = manualTimers();
    const { logger, warnings } = recordingLogger();
    const flaky = counted('refresh', 1000, { now: true, outcome: async (run) => { if (run <= 2) throw new Error(`run ${run} failed`); return true; } });
    const tasks = new BackgroundTasks([flaky.task], logger);
    tasks.start({ timers: clock.timers });
    await clock.advance(2000);
    expect(flaky.runs.count).toBe(3);
    expect(warnings).toEqual([
      { event: 'refresh.failed', error: expect.objectContaining({ message: 'run 1 failed' }) },
      { event: 'refresh.failed', error: expect.objectContaining({ message: 'run 2 failed' }) },
    ]);
    expect(clock.armed()).toEqual([1000]); // still on its interval
    await tasks.stop();
  });

  it('skips a turn that comes while the last run is still going, rather than queueing it', async () => {
    const clock = manualTimers();
    const held = deferred();
    const task = counted('fill', 1000, { outcome: (run) => (run === 1 ? held.promise : Promise.resolve(true)) });
    const tasks = new BackgroundTasks([task.task], recordingLogger().logger);
    tasks.start({ timers: clock.timers });
    await clock.advance(1000);
    await clock.advance(2000); // two turns while the first run is held: both skipped
    expect(task.runs.count).toBe(1);
    held.release();
    await settled();
    await clock.advance(1000);
    expect(task.runs.count).toBe(2);
    await tasks.stop();
  });

  it('stop waits for the run under way, and nothing runs after it', async () => {
    const clock = manualTimers();
    const held = deferred();
    const order: string[] = [];
    const task: BackgroundTask<'purge'> = {
      name: 'purge', schedule: { everyMs: 1000 }, failedEvent: 'purge.failed', now: true,
      runIfDue: async () => {
        order.push('started');
        await held.promise;
        order.push('finished');
        return true;
      },
    };
    const tasks = new BackgroundTasks([task], recordingLogger().logger);
    tasks.start({ timers: clock.timers });
    const stopped = tasks.stop().then(() => { order.push('stopped'); });
    await settled();
    expect(order).toEqual(['started']);
    held.release();
    await stopped;
    expect(order).toEqual(['started', 'finished', 'stopped']);
    expect(clock.armed()).toEqual([]);
    await clock.advance(10_000);
    expect(order).toEqual(['started', 'finished', 'stopped']);
  });

  it('starts only the tasks named, on the intervals a bench gives, and starts again after a stop', async () => {
    const clock = manualTimers();
    const refresh = counted('refresh', 600_000);
    const pass = counted('pass', 3_600_000, { now: true });
    const idle = counted('idle', 15_000, { now: true });
    const tasks = new BackgroundTasks([refresh.task, pass.task, idle.task], recordingLogger().logger);
    expect(tasks.names).toEqual(['refresh', 'pass', 'idle']);
    tasks.start({ timers: clock.timers, only: ['refresh', 'pass'], everyMs: { refresh: 100, pass: 250, idle: 1 } });
    expect(() => tasks.start({ timers: clock.timers })).toThrow(/already running/);
    expect(clock.armed()).toEqual([100, 250]);
    await clock.advance(1000);
    expect([refresh.runs.count, pass.runs.count, idle.runs.count]).toEqual([10, 1 + 4, 0]);
    await tasks.stop();
    tasks.start({ timers: clock.timers });
    expect(clock.armed()).toEqual([15_000, 600_000, 3_600_000]); // their own intervals without overrides
    expect([refresh.runs.count, pass.runs.count, idle.runs.count]).toEqual([10, 6, 1]);
    await tasks.stop();
  });

  it('checks an `after` task again the wait it names once each run has ended; a wait it cannot name is logged and tried in an hour', async () => {
    const clock = manualTimers();
    const { logger, warnings } = recordingLogger();
    const waits: (() => number)[] = [() => 3_000, () => { throw new Error('no day boundary'); }, () => 5_000];
    let runs = 0;
    const task: BackgroundTask<'retention'> = {
      name: 'retention', failedEvent: 'retention.failed', now: true,
      schedule: { after: async () => (waits.shift() ?? (() => 86_400_000))() },
      runIfDue: async () => {
        runs += 1;
        return true;
      },
    };
    const tasks = new BackgroundTasks([task], logger);
    tasks.start({ timers: clock.timers });
    await settled();
    expect([runs, clock.armed()]).toEqual([1, [3_000]]);
    await clock.advance(3_000);
    expect([runs, clock.armed()]).toEqual([2, [3_600_000]]);
    expect(warnings).toEqual([{ event: 'retention.failed', error: expect.objectContaining({ message: 'no day boundary' }) }]);
    await clock.advance(3_600_000);
    expect([runs, clock.armed()]).toEqual([3, [5_000]]);
    await tasks.stop();
    expect(clock.armed()).toEqual([]);
  });

  it('runs one task\'s due check now, by name, outside its schedule: its answer and its failure go to the caller, not the log', async () => {
    const { logger, warnings } = recordingLogger();
    const due = counted('full-pass', 3_600_000, { outcome: async (run) => { if (run === 2) throw new Error('sync failed'); return run === 1; } });
    const tasks = new BackgroundTasks([due.task], logger);
    expect(await tasks.runNow('full-pass')).toBe(true);
    await expect(tasks.runNow('full-pass')).rejects.toThrow('sync failed');
    expect(await tasks.runNow('full-pass')).toBe(false);
    expect(warnings).toEqual([]);
    // @ts-expect-error: a name no task has does not compile, and is refused if it gets through
    await expect(tasks.runNow('no-such-task')).rejects.toThrow(/No background task/);
  });

  it('refuses two tasks of the same name', () => {
    const one = counted('refresh', 1000).task;
    expect(() => new BackgroundTasks([one, { ...one }], recordingLogger().logger)).toThrow(/Two background tasks/);
  });
});
