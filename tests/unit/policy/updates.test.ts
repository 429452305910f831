// configureUpdates with a stand-in for electron-updater's autoUpdater: the generic feed is set
// only in 'auto' mode, and the checks that keep updates honest are left on.
import type { AppUpdater } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import { configureUpdates, scheduleUpdateChecks, type UpdaterLike } from '../../../electron/main/updates.ts';
import type { Policy } from '../../../electron/policy/index.ts';

// The real autoUpdater fits the stand-in's shape (checked by the type checker only: loading
// electron-updater would load Electron).
const fits: (updater: AppUpdater) => UpdaterLike = (updater) => updater;
void fits;

function standIn() {
  return {
    setFeedURL: vi.fn(),
    checkForUpdates: vi.fn(async () => null),
    autoDownload: false,
    autoInstallOnAppQuit: false,
    allowDowngrade: true,
    allowPrerelease: true,
    disableWebInstaller: false,
  } satisfies UpdaterLike;
}
const log = () => ({ info: vi.fn(), warn: vi.fn() });
const policy = (updates: Policy['updates']): Policy => ({ version: 1, updates });
const URL_ = 'https://updates.library.example.org/lending-desk/';

describe('configureUpdates', () => {
  it('points the updater at the policy\'s generic provider in auto mode', () => {
    const updater = standIn();
    const decision = configureUpdates(updater, policy({ mode: 'auto', url: URL_ }), log());
    expect(decision).toEqual({ enabled: true, url: URL_ });
    expect(updater.setFeedURL).toHaveBeenCalledExactlyOnceWith({ provider: 'generic', url: URL_ });
    expect(updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, allowDowngrade: false, allowPrerelease: false, disableWebInstaller: true });
    // Signature and checksum verification are electron-updater's defaults and are not touched.
    expect(Object.keys(updater)).not.toContain('verifyUpdateCodeSignature');
  });

  it.each([
    [undefined, 'no-policy'],
    [policy(undefined), 'off'],
    [policy({ mode: 'off' }), 'off'],
    [policy({ mode: 'it-managed', url: URL_ }), 'it-managed'],
    [policy({ mode: 'auto' }), 'no-url'],
  ] as const)('does nothing otherwise (%#: %s)', (given, reason) => {
    const updater = standIn();
    const events = log();
    expect(configureUpdates(updater, given, events)).toEqual({ enabled: false, reason });
    expect(updater.setFeedURL).not.toHaveBeenCalled();
    expect(updater.autoDownload).toBe(false);
    expect(events.info).toHaveBeenCalledWith('updates.disabled', { reason });
  });
});

describe('scheduleUpdateChecks', () => {
  it('checks now and on an interval when enabled, and logs a failed check', async () => {
    const updater = standIn();
    updater.checkForUpdates.mockRejectedValueOnce(new Error('getaddrinfo ENOTFOUND'));
    const events = log();
    let tick: (() => void) | undefined;
    const setInterval = vi.fn((callback: () => void) => { tick = callback; return 1 as unknown as ReturnType<typeof globalThis.setInterval>; });
    const clearInterval = vi.fn();
    const schedule = scheduleUpdateChecks(updater, { enabled: true, url: URL_ }, events, { everyMs: 1000, setInterval: setInterval as unknown as typeof globalThis.setInterval, clearInterval });
    await vi.waitFor(() => expect(events.warn).toHaveBeenCalledWith('updates.check-failed', { error: 'getaddrinfo ENOTFOUND' }));
    tick?.();
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
    schedule.stop();
    expect(clearInterval).toHaveBeenCalledWith(1);
  });

  it('never checks when disabled', () => {
    const updater = standIn();
    scheduleUpdateChecks(updater, { enabled: false, reason: 'it-managed' }, log()).stop();
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
  });
});
