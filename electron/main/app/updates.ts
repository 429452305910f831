// Automatic updates through electron-updater's generic provider, pointed at the server named in
// the machine policy and nowhere else (the URL electron-builder writes into app-update.yml is
// never used: no check runs before setFeedURL). Takes the updater as an argument (main passes
// electron-updater's `autoUpdater`), so it is tested with a stand-in and this module never
// loads Electron.
//
// What keeps an update honest is left at electron-updater's defaults on purpose: every download
// is checked against the SHA-512 in latest.yml, the Windows installer's Authenticode signature
// must name the publisher in app-update.yml (`verifyUpdateCodeSignature` is not replaced), and
// on macOS Squirrel.Mac accepts only an app signed by the same team. Where that check cannot run
// (an unsigned Windows or macOS build, a Linux package), and where the copy is installed for all
// users (the MSI, per-machine NSIS: IT deploys versions), the policy's `auto` was already refused
// (electron/main/policy/updates-eligibility.ts) and nothing is checked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAcceptableUpdateUrl, type MachinePolicy } from '../policy/index.ts';

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
  | { enabled: false; reason: 'no-policy' | 'policy-ignored' | 'refused-for-this-build' | 'it-managed' | 'off' | 'no-url' };

export function configureUpdates(updater: UpdaterLike, machine: MachinePolicy, log: UpdateLog): UpdateDecision {
  const decision = decideUpdates(machine);
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

export function decideUpdates(machine: MachinePolicy): UpdateDecision {
  if (machine.problems.ignored) return { enabled: false, reason: 'policy-ignored' };
  if (machine.policy === undefined) return { enabled: false, reason: 'no-policy' };
  const updates = machine.policy.updates;
  if (updates === undefined || updates.mode === 'off') return { enabled: false, reason: 'off' };
  if (updates.mode === 'it-managed') return { enabled: false, reason: 'it-managed' };
  if (machine.problems.updatesRefused) return { enabled: false, reason: 'refused-for-this-build' };
  // The schema checked the URL; checked again here because this is where it is used.
  if (updates.url === undefined || !isAcceptableUpdateUrl(updates.url)) return { enabled: false, reason: 'no-url' };
  return { enabled: true, url: updates.url };
}

/**
 * Whether this Windows build's app-update.yml (beside the app's resources, written by
 * electron-builder) names the publisher electron-updater checks each update's signature against.
 * electron-builder writes `publisherName` only for a signed build; without it the check is skipped.
 */
export function windowsPublisherVerified(resourcesPath: string, readFile: (path: string) => string = (path) => readFileSync(path, 'utf8')): boolean {
  let text: string;
  try {
    text = readFile(join(resourcesPath, 'app-update.yml'));
  } catch {
    return false;
  }
  return namesPublisher(text);
}

/**
 * `publisherName` as electron-builder's YAML writes it: a list (`publisherName:` then `  - CN`
 * lines) or, written by hand, one value on the same line. An empty list or value names nobody.
 */
export function namesPublisher(appUpdateYml: string): boolean {
  const lines = appUpdateYml.split(/\r?\n/);
  const at = lines.findIndex((line) => /^publisherName\s*:/.test(line));
  if (at === -1) return false;
  const inline = (lines[at] as string).replace(/^publisherName\s*:/, '').replace(/\s+#.*$/, '').trim();
  if (inline !== '') return !/^(\[\s*\]|null|~|''|"")$/.test(inline);
  for (const line of lines.slice(at + 1)) {
    if (!/^\s/.test(line) && line.trim() !== '') break;
    if (/^\s*-\s*\S/.test(line) && !/^\s*-\s*(null|~|''|"")\s*$/.test(line)) return true;
  }
  return false;
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
