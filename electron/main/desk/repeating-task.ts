// Work the desk repeats in the background while it runs (the 10-minute availability refresh, the
// daily action-log retention). Stopping it also waits for a run under way: the app quits only
// once nothing is half written (electron/main/app/quit.ts), and a test reads the result of a run
// by waiting for it, not for "long enough".

export interface RepeatingTask {
  /** No further runs; resolves once the run under way, if any, has finished. */
  stop(): Promise<void>;
}

export function repeatEvery(
  everyMs: number,
  run: () => Promise<unknown>,
  options: { now?: boolean; onError: (error: unknown) => void },
): RepeatingTask {
  let current: Promise<void> | undefined;
  const start = (): void => {
    if (current) return; // the last run is still going: this turn is skipped, not queued
    current = run().then(() => {}, options.onError).finally(() => { current = undefined; });
  };
  if (options.now) start();
  const timer = setInterval(start, everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await current;
    },
  };
}

/** The desk's background work: a run that fails is logged as `failedEvent` and the task goes on. */
export function repeatLogged(
  everyMs: number,
  run: () => Promise<unknown>,
  logger: { warn(event: string, fields?: Record<string, unknown>): void },
  failedEvent: string,
  options: { now?: boolean } = {},
): RepeatingTask {
  return repeatEvery(everyMs, run, { ...options, onError: (error) => logger.warn(failedEvent, { error }) });
}
