// Where the machine policy lives on each OS: only in places that IT alone can write, and never
// in a place named by an environment variable (any user can set one for the app they start).
// Windows: the registry's Policies key, where Group Policy and Intune put ADMX-backed settings
// (as Chrome, Edge and VS Code read theirs). macOS: the managed preferences an MDM profile
// installs for the app's bundle id. Linux: a root-owned file under /etc.

/** The app's bundle id (electron-builder's appId): MDM delivers managed preferences under it. */
export const BUNDLE_ID = 'org.lendingdesk.console';

/** Under HKEY_LOCAL_MACHINE, read in the 64-bit view. */
export const WINDOWS_POLICY_KEY = 'SOFTWARE\\Policies\\Lending Desk';

export const MACOS_POLICY_FILE = `/Library/Managed Preferences/${BUNDLE_ID}.plist`;

export const LINUX_POLICY_FILE = '/etc/lending-desk/policy.json';

/** A policy is a few profiles and switches; anything larger is a mistake or an attack. */
export const MAX_POLICY_BYTES = 64 * 1024;

/** How a source names itself in "policy ignored: …" (the full registry path, or the file). */
export function windowsSourceName(subkey = ''): string {
  return `HKLM\\${WINDOWS_POLICY_KEY}${subkey ? `\\${subkey}` : ''}`;
}
