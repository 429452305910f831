// The desk's background tasks: the work main repeats while the desk runs (its own idle lock, the
// availability refresh, the full pass, the catalog refresh, the library fill, the action log's
// retention). Each area lists its own (`backgroundTasks()`: a name, when it is checked, the due
// check, the app log's event when a run fails, whether it is checked at start too); DeskService
// hands them all to one BackgroundTasks, which main starts once the window is up and stops at quit.
//
// A turn that comes while the task's last run is still going is skipped, not queued; a run that
// fails is logged and the task goes on. Stopping waits for the runs under way: the app quits only
// once nothing is half written (electron/main/app/quit.ts), and a test reads the result of a run
// by waiting for it, not for "long enough". The timers are injected, so tests move time themselves.

/** The timers the tasks run on (the global ones in the product). */
export interface Timers {
  setTimeout(run: () => void, ms: number): ReturnType<typeof setTimeout>;
  clearTimeout(timer: ReturnType<typeof setTimeout>): void;
}

const GLOBAL_TIMERS: Timers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (timer) => clearTimeout(timer) };

/** When a task's due check runs. */
export type TaskSchedule =
  /** Every `everyMs`, counted from the start, whatever each run takes (a run still going skips the turn). */
  | { everyMs: number }
  /** `wait()` ms after each run ends, asked then (the retention: the log's next midnight). */
  | { after: () => Promise<number> };

export interface BackgroundTask<N extends string = string> {
  name: N;
  schedule: TaskSchedule;
  /** The due check: the task's work if it is due. True when it ran. */
  runIfDue: () => Promise<boolean>;
  /** The app log's event (a warning) when a run fails. */
  failedEvent: string;
  /** Checked as the tasks start, not only one interval later (a desk off at the due time catches up). */
  now?: boolean;
}

export interface StartOptions<N extends string> {
  /** Only these tasks (a bench or the test host runs part of main's work); every task without it. */
  only?: readonly N[];
  /** A task checked every this many ms instead of on its own schedule (benches compress time). */
  everyMs?: Partial<Record<N, number>>;
  timers?: Timers;
}

/** An `after` wait that could not be worked out: the task looks again in an hour rather than never. */
const WAIT_WHEN_UNKNOWN_MS = 3_600_000;

interface Logger { warn(event: string, fields?: Record<string, unknown>): void }

export class BackgroundTasks<N extends string> {
  readonly #tasks = new Map<N, BackgroundTask<N>>();
  readonly #logger: Logger;
  #running: ScheduledTask[] | undefined;

  constructor(tasks: readonly BackgroundTask<N>[], logger: Logger) {
    for (const task of tasks) {
      if (this.#tasks.has(task.name)) throw new Error(`Two background tasks are named ${task.name}`);
      this.#tasks.set(task.name, task);
    }
    this.#logger = logger;
  }

  /** The tasks' names, in the order they were listed. */
  get names(): N[] {
    return [...this.#tasks.keys()];
  }

  /** Starts the tasks (every one, or `only` these): those checked `now` run before this returns. */
  start(options: StartOptions<N> = {}): void {
    if (this.#running) throw new Error('The background tasks are already running');
    const timers = options.timers ?? GLOBAL_TIMERS;
    const chosen = [...this.#tasks.values()].filter((task) => options.only?.includes(task.name) ?? true);
    this.#running = chosen.map((task) => {
      const everyMs = options.everyMs?.[task.name];
      return scheduled(task, everyMs === undefined ? task.schedule : { everyMs }, timers, this.#logger);
    });
  }

  /** No further runs; resolves once every run under way has finished. Stopping tasks not started does nothing. */
  async stop(): Promise<void> {
    const running = this.#running ?? [];
    this.#running = undefined;
    await Promise.all(running.map((task) => task.stop()));
  }

  /**
   * One task's due check now, outside its schedule (tests, instead of waiting for its turn): true
   * when it ran. A failure is thrown to the caller, not logged.
   */
  runNow(name: N): Promise<boolean> {
    const task = this.#tasks.get(name);
    if (!task) return Promise.reject(new Error(`No background task is named ${name}`));
    return task.runIfDue();
  }
}

interface ScheduledTask { stop(): Promise<void> }

function scheduled<N extends string>(task: BackgroundTask<N>, schedule: TaskSchedule, timers: Timers, logger: Logger): ScheduledTask {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> | undefined;
  let stopped = false;
  const arm = (ms: number, then: () => void): void => {
    if (stopped) return;
    timer = timers.setTimeout(() => {
      timer = undefined;
      then();
    }, ms);
    (timer as { unref?: () => void }).unref?.(); // a task never keeps the process alive
  };
  // An `after` task's wait to its next check, asked once this one has ended.
  const waitAfter = (after: () => Promise<number>): Promise<number> => after().catch((error: unknown) => {
    logger.warn(task.failedEvent, { error });
    return WAIT_WHEN_UNKNOWN_MS;
  });
  // The run (and an `after` task's wait) is `current` until the next check is armed: stopping waits for it.
  const settle = (work: Promise<number | undefined>): void => {
    current = work.then((wait) => {
      current = undefined;
      if (wait !== undefined) arm(wait, check);
    });
  };
  const check = (): void => {
    if (current || stopped) return; // the last run is still going: this turn is skipped, not queued
    settle(task.runIfDue()
      .then(() => {}, (error: unknown) => logger.warn(task.failedEvent, { error }))
      .then(() => ('after' in schedule && !stopped ? waitAfter(schedule.after) : undefined)));
  };
  if ('everyMs' in schedule) {
    const tick = (): void => {
      arm(schedule.everyMs, tick);
      check();
    };
    arm(schedule.everyMs, tick);
  } else if (!task.now) {
    settle(waitAfter(schedule.after));
  }
  if (task.now) check();
  return {
    stop: async () => {
      stopped = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      await current;
    },
  };
}
