// Quitting holds Electron's quit until the desk has closed, or QUIT_WAIT_MS have passed: a desk
// that cannot close still quits. Time here is the test's own: its timer runs when the test says.
import { describe, expect, it, vi } from 'vitest';
import { closeBeforeQuit, QUIT_WAIT_MS } from '../../../../electron/main/app/quit.ts';

function app() {
  const listeners: Array<(event: { preventDefault(): void }) => void> = [];
  const quits: number[] = [];
  return {
    quits,
    on: (_event: 'will-quit', listener: (event: { preventDefault(): void }) => void) => { listeners.push(listener); },
    quit: () => { quits.push(quits.length + 1); },
    /** Electron's will-quit: whether a listener held it. */
    willQuit(): boolean {
      let held = false;
      for (const listener of listeners) listener({ preventDefault: () => { held = true; } });
      return held;
    },
  };
}

const log = () => ({ info: vi.fn(), warn: vi.fn() });

describe('closeBeforeQuit', () => {
  it('holds the quit, closes once however often quit is asked, then quits again and lets that through', async () => {
    const a = app();
    const events = log();
    let finish!: () => void;
    const close = vi.fn(() => new Promise<void>((resolve) => { finish = resolve; }));
    const afterwards = vi.fn();
    const quitting = closeBeforeQuit(a, close, events, { afterwards });
    expect(a.willQuit()).toBe(true);
    expect(a.willQuit()).toBe(true); // staff click Quit again while it closes
    expect(close).toHaveBeenCalledTimes(1);
    expect(a.quits).toEqual([]);
    finish();
    await quitting.closing();
    expect(a.quits).toEqual([1]);
    expect(events.info).toHaveBeenCalledWith('app.quit-closed', expect.objectContaining({ ms: expect.any(Number) }));
    expect(afterwards).toHaveBeenCalledTimes(1);
    expect(a.willQuit()).toBe(false);
  });

  it(`quits anyway after ${QUIT_WAIT_MS} ms when the desk does not close, and says so in the log`, async () => {
    const a = app();
    const events = log();
    let fire: (() => void) | undefined;
    let waited: number | undefined;
    const quitting = closeBeforeQuit(a, () => new Promise<void>(() => {}), events, {
      setTimeout: (callback, ms) => { fire = callback; waited = ms; return 1; },
      clearTimeout: () => {},
    });
    expect(a.willQuit()).toBe(true);
    expect(waited).toBe(QUIT_WAIT_MS);
    expect(QUIT_WAIT_MS).toBeLessThanOrEqual(10_000);
    fire?.();
    await quitting.closing();
    expect(a.quits).toEqual([1]);
    expect(events.warn).toHaveBeenCalledWith('app.quit-timed-out', { waitedMs: QUIT_WAIT_MS });
  });

  it('quits when closing fails, with the failure in the log', async () => {
    const a = app();
    const events = log();
    const quitting = closeBeforeQuit(a, async () => { throw new Error('owner thread gone'); }, events);
    a.willQuit();
    await quitting.closing();
    expect(a.quits).toEqual([1]);
    expect(events.warn).toHaveBeenCalledWith('app.quit-close-failed', { error: expect.objectContaining({ message: 'owner thread gone' }) });
  });
});
