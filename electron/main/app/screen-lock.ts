// The desk locks when the operating system locks the session. Electron's `lock-screen` event
// fires on Windows and macOS only; on Linux the desk asks powerMonitor every few seconds whether
// the session is locked (getSystemIdleState reports 'locked' from the desktop's screen saver) and
// locks on the change to it. A plain function over the powerMonitor object and a timer, so a
// stand-in tests it.

/** The part of Electron's powerMonitor this uses. */
export interface ScreenLockMonitor {
  on(event: 'lock-screen', listener: () => void): unknown;
  getSystemIdleState(idleThresholdSeconds: number): 'active' | 'idle' | 'locked' | 'unknown';
}

export interface ScreenLockOptions {
  platform: NodeJS.Platform;
  onLocked: () => void;
  /** How often Linux is asked (5 seconds in the product). */
  everyMs?: number;
  setInterval?: (run: () => void, ms: number) => { unref?: () => void };
  clearInterval?: (timer: unknown) => void;
}

/** Any idle threshold will do: the answer 'locked' does not depend on it. */
const IDLE_THRESHOLD_SECONDS = 60;

/** Starts watching; returns the function that stops the polling (the event needs no stopping: it dies with the app). */
export function watchScreenLock(monitor: ScreenLockMonitor, options: ScreenLockOptions): () => void {
  const { platform, onLocked, everyMs = 5_000 } = options;
  const every = options.setInterval ?? ((run, ms) => setInterval(run, ms));
  const stop = options.clearInterval ?? ((timer) => clearInterval(timer as ReturnType<typeof setInterval>));
  monitor.on('lock-screen', onLocked);
  if (platform !== 'linux') return () => {};
  let wasLocked = false;
  const timer = every(() => {
    const locked = monitor.getSystemIdleState(IDLE_THRESHOLD_SECONDS) === 'locked';
    if (locked && !wasLocked) onLocked();
    wasLocked = locked;
  }, everyMs);
  timer.unref?.();
  return () => stop(timer);
}
