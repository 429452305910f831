// configureUpdates with a stand-in for electron-updater's autoUpdater: the generic feed is set
// only in 'auto' mode, from the policy alone, and only where this build can verify updates; the
// checks that keep updates honest are left on.
import type { AppUpdater } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import { configureUpdates, namesPublisher, scheduleUpdateChecks, windowsPublisherVerified, type UpdaterLike } from '../../../../electron/main/app/updates.ts';
import { checkedPolicy, type MachinePolicy, type Policy } from '../../../../electron/main/policy/index.ts';

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
const machine = (updates: Policy['updates']): MachinePolicy => ({ policy: { version: 1, updates }, problems: {} });
const URL_ = 'https://updates.library.example.org/lending-desk/';

describe('configureUpdates', () => {
  it('points the updater at the policy\'s generic provider in auto mode', () => {
    const updater = standIn();
    const events = log();
    const decision = configureUpdates(updater, machine({ mode: 'auto', url: URL_ }), events);
    expect(decision).toEqual({ enabled: true, url: URL_ });
    expect(updater.setFeedURL).toHaveBeenCalledExactlyOnceWith({ provider: 'generic', url: URL_ });
    expect(updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, allowDowngrade: false, allowPrerelease: false, disableWebInstaller: true });
    // Signature and checksum verification are electron-updater's defaults and are not touched.
    expect(Object.keys(updater)).not.toContain('verifyUpdateCodeSignature');
    expect(events.info).toHaveBeenCalledWith('updates.enabled', { url: URL_ });
  });

  const ignored = { reason: 'policy.wrong-owner', params: { source: '/etc/lending-desk/policy.json', owner: 1000, expected: 'root' } } as const;
  it.each([
    [{ problems: {} }, 'no-policy'],
    [machine(undefined), 'off'],
    [machine({ mode: 'off' }), 'off'],
    [machine({ mode: 'it-managed', url: URL_ }), 'it-managed'],
    [machine({ mode: 'auto' }), 'no-url'],
    // A URL that slipped past the schema (a Policy built in code) is still never used.
    [machine({ mode: 'auto', url: 'http://updates.example.org/' }), 'no-url'],
    [{ problems: { ignored } }, 'policy-ignored'],
    [{ ...machine({ mode: 'auto', url: URL_ }), problems: { ignored } }, 'policy-ignored'],
    [{ ...machine({ mode: 'auto', url: URL_ }), problems: { updatesRefused: { reason: 'updates.unverified-windows-build', params: {} } } }, 'refused-for-this-build'],
  ] as [MachinePolicy, string][])('does nothing otherwise (%#: %s)', (given, reason) => {
    const updater = standIn();
    const events = log();
    expect(configureUpdates(updater, given, events)).toEqual({ enabled: false, reason });
    expect(updater.setFeedURL).not.toHaveBeenCalled();
    expect(updater.autoDownload).toBe(false);
    expect(events.info).toHaveBeenCalledWith('updates.disabled', { reason });
  });

  it('follows the policy as loaded for each OS: auto only where updates verify', () => {
    const found = { kind: 'found', source: 'policy', raw: { updates: { mode: 'auto', url: URL_ } } } as const;
    const decide = (platform: NodeJS.Platform, build: { windowsPublisherVerified?: boolean; installedForAllUsers?: boolean; macSigned?: boolean }) =>
      configureUpdates(standIn(), checkedPolicy(found, { platform, windowsPublisherVerified: false, ...build }), log());
    expect(decide('win32', { windowsPublisherVerified: true })).toEqual({ enabled: true, url: URL_ });
    expect(decide('win32', { windowsPublisherVerified: false })).toEqual({ enabled: false, reason: 'refused-for-this-build' });
    // The MSI or a per-machine install: IT deploys the versions, whatever the signature.
    expect(decide('win32', { windowsPublisherVerified: true, installedForAllUsers: true })).toEqual({ enabled: false, reason: 'refused-for-this-build' });
    expect(decide('darwin', { macSigned: true })).toEqual({ enabled: true, url: URL_ });
    expect(decide('darwin', { macSigned: false })).toEqual({ enabled: false, reason: 'refused-for-this-build' });
    expect(decide('linux', { windowsPublisherVerified: true })).toEqual({ enabled: false, reason: 'refused-for-this-build' });
  });
});

describe('a Windows build\'s verified publisher (app-update.yml)', () => {
  // As electron-builder 26 writes it for a build signed with a certificate or Azure Trusted Signing…
  const SIGNED = 'provider: generic\nurl: https://updates.invalid/lending-desk/\npublisherName:\n  - Lending Desk Contributors, Inc.\nupdaterCacheDirName: lending-desk-updater\n';
  // …and for an unsigned one: no publisherName, so electron-updater skips the signature check.
  const UNSIGNED = 'provider: generic\nurl: https://updates.invalid/lending-desk/\nupdaterCacheDirName: lending-desk-updater\n';

  it('is named in a signed build\'s file, in list or inline form', () => {
    expect(namesPublisher(SIGNED)).toBe(true);
    expect(namesPublisher(SIGNED.replaceAll('\n', '\r\n'))).toBe(true);
    expect(namesPublisher('provider: generic\npublisherName: Lending Desk Contributors\n')).toBe(true);
    expect(namesPublisher("publisherName:\n  - 'CN: \"x\"'\n  - a#b\n")).toBe(true);
  });

  it('is missing from an unsigned build\'s file, or named as nobody', () => {
    expect(namesPublisher(UNSIGNED)).toBe(false);
    expect(namesPublisher('publisherName: []\n')).toBe(false);
    expect(namesPublisher('publisherName:\nupdaterCacheDirName: x\n')).toBe(false);
    expect(namesPublisher('publisherName: null\n')).toBe(false);
    expect(namesPublisher('# publisherName: x\n')).toBe(false);
    expect(namesPublisher('otherPublisherName: x\n')).toBe(false);
  });

  it('is read from the resources folder, and a missing file means not verified', () => {
    const files: Record<string, string> = { '/opt/app/resources/app-update.yml': SIGNED };
    const readFile = (path: string): string => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return text;
    };
    expect(windowsPublisherVerified('/opt/app/resources', readFile)).toBe(true);
    expect(windowsPublisherVerified('/elsewhere', readFile)).toBe(false);
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
    // The failed check's own promise: the schedule's handler was attached first, so it has run once this settles.
    await (updater.checkForUpdates.mock.results[0]?.value as Promise<unknown>).catch(() => {});
    expect(events.warn).toHaveBeenCalledWith('updates.check-failed', { error: 'getaddrinfo ENOTFOUND' });
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
