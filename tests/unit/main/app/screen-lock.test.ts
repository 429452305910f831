// The OS locking the session locks the desk: Electron's lock-screen event on Windows and macOS,
// and on Linux (where Electron has no such event) powerMonitor asked every few seconds. With a
// powerMonitor stand-in and a timer the test fires by hand.
import { describe, expect, it } from 'vitest';
import { watchScreenLock, type ScreenLockMonitor } from '../../../../electron/main/app/screen-lock.ts';

function standIns() {
  let state: ReturnType<ScreenLockMonitor['getSystemIdleState']> = 'active';
  const listeners: Array<() => void> = [];
  const ticks: Array<() => void> = [];
  let stopped = 0;
  const monitor: ScreenLockMonitor = { on: (_event, listener) => listeners.push(listener), getSystemIdleState: () => state };
  const timers = { setInterval: (run: () => void) => { ticks.push(run); return {}; }, clearInterval: () => { stopped += 1; } };
  return { monitor, timers, listeners, tick: () => ticks.forEach((run) => run()), set: (next: typeof state) => { state = next; }, polls: () => ticks.length, stopped: () => stopped };
}

describe('watchScreenLock', () => {
  it('on Linux, locks once when the session becomes locked, and again after it was unlocked and locked anew', () => {
    const s = standIns();
    let locked = 0;
    const stop = watchScreenLock(s.monitor, { platform: 'linux', onLocked: () => { locked += 1; }, ...s.timers });
    s.tick();
    expect(locked).toBe(0);
    s.set('locked');
    s.tick();
    s.tick();
    expect(locked).toBe(1);
    s.set('active');
    s.tick();
    s.set('locked');
    s.tick();
    expect(locked).toBe(2);
    s.set('idle');
    s.tick();
    expect(locked).toBe(2);
    stop();
    expect(s.stopped()).toBe(1);
  });

  it('on Windows and macOS, follows the lock-screen event and does not poll', () => {
    for (const platform of ['win32', 'darwin'] as const) {
      const s = standIns();
      let locked = 0;
      watchScreenLock(s.monitor, { platform, onLocked: () => { locked += 1; }, ...s.timers });
      expect(s.polls()).toBe(0);
      s.listeners.forEach((listener) => listener());
      expect(locked).toBe(1);
    }
  });
});
