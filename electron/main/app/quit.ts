// Quitting waits for the desk to let go: its connections closed, their syncs stopped, each
// mirror's owner thread closing its file (SQLite checkpoints its WAL into the file when the last
// connection closes), the action log's purge finished, the log closed. Electron does not wait
// for a promise in `will-quit`, so the first quit is held (preventDefault), the closing runs, and
// the app quits again once it is done, or once QUIT_WAIT_MS have passed: a desk that cannot
// close (a request that does not answer) still quits, and the next start resumes from the
// mirror's last stored page.

/** How long quitting waits for the desk to close before it quits anyway. */
export const QUIT_WAIT_MS = 5000;

export interface QuittingApp {
  on(event: 'will-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

export interface QuitLog {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
}

export interface QuitOptions {
  waitMs?: number;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (timer: never) => void;
  now?: () => number;
  /** Last, once the outcome is logged (the log itself closes here). */
  afterwards?: () => void;
}

/**
 * Holds the app's quit until `close` has run (or `waitMs` passed); `close` runs once, however many
 * times quit is asked for. Returns the closing as it goes, for a start that failed to quit through.
 */
export function closeBeforeQuit(app: QuittingApp, close: () => Promise<void>, log: QuitLog, options: QuitOptions = {}): { closing(): Promise<void> | undefined } {
  const { waitMs = QUIT_WAIT_MS, setTimeout = globalThis.setTimeout, clearTimeout = globalThis.clearTimeout, now = Date.now, afterwards = () => {} } = options;
  let closing: Promise<void> | undefined;
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closing ??= (async () => {
      const started = now();
      let timer: unknown;
      const outcome = await Promise.race([
        close().then(() => 'closed' as const, (error: unknown) => {
          log.warn('app.quit-close-failed', { error });
          return 'closed' as const;
        }),
        new Promise<'timed-out'>((resolve) => { timer = setTimeout(() => resolve('timed-out'), waitMs); }),
      ]);
      clearTimeout(timer as never);
      if (outcome === 'timed-out') log.warn('app.quit-timed-out', { waitedMs: waitMs });
      else log.info('app.quit-closed', { ms: now() - started });
      afterwards();
      closed = true;
      app.quit();
    })();
  });
  return { closing: () => closing };
}
