// The ways out by platform: which signals and events each OS gives, and that each asks for the one
// quit once. Electron's own objects are stand-ins here; main's start-up runs them for real in
// startup.test.ts ("every way out ends the shift").
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { watchWaysOut, type HoldableEvent } from '../../../../electron/main/app/ways-out.ts';

function parts(platform: NodeJS.Platform) {
  const app = Object.assign(new EventEmitter(), { quits: 0, relaunches: 0, quit() { app.quits += 1; }, relaunch() { app.relaunches += 1; } });
  const signals = new EventEmitter();
  const shown: string[] = [];
  const logged: Array<[string, Record<string, unknown> | undefined]> = [];
  const ways = watchWaysOut({ app, platform, signals, showWindow: () => { shown.push('window'); return true; } });
  ways.useLog({ info: (event, fields) => logged.push([event, fields]) });
  return { app, signals, shown, logged, ways };
}
const held = (): HoldableEvent & { held: boolean } => {
  const event = { held: false, reasons: ['shutdown'], preventDefault() { event.held = true; } };
  return event;
};

describe('ways out', () => {
  it('on Linux and macOS: SIGTERM and a shutdown quit; stop() lets SIGTERM go', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const { app, signals, ways, logged } = parts(platform);
      signals.emit('SIGTERM');
      expect(app.quits).toBe(1);
      const power = new EventEmitter();
      ways.watchShutdown(power);
      const shutdown = held();
      power.emit('shutdown', shutdown);
      expect(shutdown.held).toBe(true);
      expect(app.quits).toBe(2);
      expect(logged.map(([event, fields]) => [event, fields?.why])).toEqual([['app.way-out', 'SIGTERM'], ['app.way-out', 'shutdown']]);
      ways.stop();
      expect(signals.listenerCount('SIGTERM')).toBe(0);
    }
  });

  it('on Windows: the window\'s session-end events quit; no SIGTERM listener, no powerMonitor shutdown (Windows tells the window)', () => {
    const { app, signals, ways } = parts('win32');
    expect(signals.listenerCount('SIGTERM')).toBe(0);
    const power = new EventEmitter();
    ways.watchShutdown(power);
    expect(power.listenerCount('shutdown')).toBe(0);
    const window = new EventEmitter();
    ways.watchWindow(window);
    const query = held();
    window.emit('query-session-end', query);
    expect(query.held).toBe(true);
    window.emit('session-end', held());
    expect(app.quits).toBe(2);
  });

  it('a second launch: the window comes forward while the desk runs; after a quit began, the app starts again once closed (never while the session ends)', () => {
    const { app, shown, ways } = parts('linux');
    app.emit('second-instance');
    expect(shown).toEqual(['window']);
    app.emit('before-quit');
    app.emit('second-instance');
    app.emit('second-instance');
    expect(shown).toEqual(['window']);
    ways.afterClose();
    expect(app.relaunches).toBe(1);

    const ending = parts('win32');
    const window = new EventEmitter();
    ending.ways.watchWindow(window);
    window.emit('query-session-end', held());
    ending.app.emit('before-quit');
    ending.app.emit('second-instance');
    ending.ways.afterClose();
    expect(ending.app.relaunches).toBe(0);
  });
});
