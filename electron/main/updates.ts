// Automatic updates through electron-updater's generic provider, pointed at the server named in
// the policy file. Takes the updater as an argument (main passes electron-updater's
// `autoUpdater`), so it is tested with a stand-in and this module never loads Electron.
//
// What keeps an update honest is left at electron-updater's defaults on purpose: every download
// is checked against the SHA-512 in latest.yml, the Windows installer's Authenticode signature
// must name the same publisher as the running app (`verifyUpdateCodeSignature` is not replaced),
// and on macOS Squirrel.Mac accepts only an app signed by the same team.
import type { Policy } from '../policy/schema.ts';

/** The parts of electron-updater's AppUpdater this module touches. */
export interface UpdaterLike {
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  allowPrerelease: boolean;
  disableWebInstaller: boolean;
  checkForUpdates(): Promise<unknown>;
}

export interface UpdateLog {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
}

export type UpdateDecision =
  | { enabled: true; url: string }
  | { enabled: false; reason: 'no-policy' | 'it-managed' | 'off' | 'no-url' };

export function configureUpdates(updater: UpdaterLike, policy: Policy | undefined, log: UpdateLog): UpdateDecision {
  const decision = decide(policy);
  if (!decision.enabled) {
    log.info('updates.disabled', { reason: decision.reason });
    return decision;
  }
  updater.setFeedURL({ provider: 'generic', url: decision.url });
  updater.autoDownload = true;
  // Installed when staff next close the app, never in the middle of serving a patron.
  updater.autoInstallOnAppQuit = true;
  // An older build from a compromised or misconfigured server must not replace a newer one.
  updater.allowDowngrade = false;
  updater.allowPrerelease = false;
  // A web installer fetches its payload at install time; we ship only full, signed installers.
  updater.disableWebInstaller = true;
  log.info('updates.enabled', { url: decision.url });
  return decision;
}

function decide(policy: Policy | undefined): UpdateDecision {
  if (policy === undefined) return { enabled: false, reason: 'no-policy' };
  const updates = policy.updates;
  if (updates === undefined || updates.mode === 'off') return { enabled: false, reason: 'off' };
  if (updates.mode === 'it-managed') return { enabled: false, reason: 'it-managed' };
  if (updates.url === undefined) return { enabled: false, reason: 'no-url' };
  return { enabled: true, url: updates.url };
}

export interface UpdateSchedule {
  stop(): void;
}

/** Checks now and then every `everyMs` (4 hours by default) while the app runs. */
export function scheduleUpdateChecks(
  updater: Pick<UpdaterLike, 'checkForUpdates'>,
  decision: UpdateDecision,
  log: UpdateLog,
  options: { everyMs?: number; setInterval?: typeof globalThis.setInterval; clearInterval?: typeof globalThis.clearInterval } = {},
): UpdateSchedule {
  if (!decision.enabled) return { stop: () => {} };
  const { everyMs = 4 * 60 * 60 * 1000, setInterval = globalThis.setInterval, clearInterval = globalThis.clearInterval } = options;
  const check = (): void => {
    // A desk with no route to the update server keeps working; the log says why.
    updater.checkForUpdates().catch((error: unknown) => log.warn('updates.check-failed', { error: error instanceof Error ? error.message : String(error) }));
  };
  check();
  const timer = setInterval(check, everyMs);
  return { stop: () => clearInterval(timer) };
}
