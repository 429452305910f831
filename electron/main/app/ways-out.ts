// Every way out ends the shift (issue #33). Quitting ends the shift (quit-ends-shift.ts) and closes
// the desk (quit.ts), a few seconds at most each. But on Windows, Electron does not emit
// before-quit or will-quit for a logoff, a shutdown or a restart — the way shared desks are
// usually left — and on Linux a SIGTERM (the session's end, `systemctl`, `kill`) ended the process
// with neither. So each of them is turned into the one quit:
//   - Windows asks the desk's window first (`query-session-end`): the session's end is held
//     (preventDefault, which Windows shows as "Lending Desk is closing" for the few seconds it
//     takes) while the shift ends and the desk closes, and the app then quits, which lets Windows go
//     on. Its `session-end` (after a forced end, or once the user chose to end anyway) cannot be
//     held: the quit starts there if it has not, and goes as far as Windows lets it.
//   - Linux and macOS announce a shutdown through powerMonitor (`shutdown`, held the same way);
//     SIGTERM quits the same way too.
// A second launch while the desk is quitting (the old instance still holds the single-instance lock,
// and its window is gone) is not lost: the app starts again once it has closed (app.relaunch).
// Plain functions over what Electron hands over, so Vitest runs them under its stand-in.

export interface HoldableEvent { preventDefault(): void; reasons?: string[] }

/** The desk's window: Windows' session-end events arrive there (Electron: BrowserWindow, win32). */
export interface SessionEndWindow {
  on(event: 'query-session-end' | 'session-end', listener: (event: HoldableEvent) => void): unknown;
}

/** Electron's powerMonitor: `shutdown` on Linux and macOS (its typings leave out the event its docs describe, hence optional). */
export interface ShutdownMonitor {
  on(event: 'shutdown', listener: (event?: HoldableEvent) => void): unknown;
}

/** The process's signals (Node's process). */
export interface SignalSource {
  on(signal: 'SIGTERM', listener: () => void): unknown;
  off(signal: 'SIGTERM', listener: () => void): unknown;
}

export interface WaysOutApp {
  on(event: 'before-quit', listener: () => void): unknown;
  on(event: 'second-instance', listener: () => void): unknown;
  quit(): void;
  relaunch(): void;
}

export interface WaysOutLog {
  info(event: string, fields?: Record<string, unknown>): void;
}

export interface WaysOut {
  /** Windows' logoff, shutdown and restart, through the desk's window. */
  watchWindow(window: SessionEndWindow): void;
  /** A system shutdown on Linux and macOS (powerMonitor, once the app is ready). */
  watchShutdown(powerMonitor: ShutdownMonitor): void;
  /** The desk has closed (quit.ts): starts the app again if a launch came meanwhile. */
  afterClose(): void;
  /** The log, once there is one (the start opens it after `ready`). */
  useLog(log: WaysOutLog): void;
  /** Stops listening to the process's signals. */
  stop(): void;
}

export function watchWaysOut(parts: {
  app: WaysOutApp;
  platform: NodeJS.Platform;
  signals: SignalSource;
  /** Brings the desk's window forward (a second launch while the desk runs); false when there is none. */
  showWindow(): boolean;
}): WaysOut {
  const { app, platform, signals } = parts;
  let log: WaysOutLog = { info: () => {} };
  let quitting = false;
  let sessionEnding = false;
  let relaunchWanted = false;

  /** The one quit, whatever asked for it. */
  const quitFor = (why: string, fields: Record<string, unknown> = {}): void => {
    if (!quitting) log.info('app.way-out', { why, ...fields });
    app.quit();
  };
  app.on('before-quit', () => { quitting = true; });
  app.on('second-instance', () => {
    if (quitting) {
      // Its window is closing or gone: open again once this instance has let go.
      if (!relaunchWanted) log.info('app.relaunch-after-quit');
      relaunchWanted = true;
      return;
    }
    parts.showWindow();
  });
  const onSigterm = (): void => quitFor('SIGTERM');
  // Windows has no SIGTERM to speak of (Node emulates it only for a console's close).
  if (platform !== 'win32') signals.on('SIGTERM', onSigterm);

  return {
    watchWindow(window) {
      window.on('query-session-end', (event) => {
        sessionEnding = true;
        event.preventDefault();
        quitFor('session-ending', { reasons: event.reasons ?? [] });
      });
      window.on('session-end', (event) => {
        sessionEnding = true;
        quitFor('session-ended', { reasons: event.reasons ?? [] });
      });
    },
    watchShutdown(powerMonitor) {
      if (platform === 'win32') return; // Windows tells the window (above)
      powerMonitor.on('shutdown', (event) => {
        sessionEnding = true;
        event?.preventDefault();
        quitFor('shutdown');
      });
    },
    afterClose() {
      // Not while the session ends: the next session's own start opens it.
      if (relaunchWanted && !sessionEnding) app.relaunch();
    },
    useLog(given) {
      log = given;
    },
    stop() {
      signals.off('SIGTERM', onSigterm);
    },
  };
}
