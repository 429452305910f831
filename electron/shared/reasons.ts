// Why main refused or failed, beyond the error code: one key per sentence staff can be shown,
// with its English text. Main sends the key and its parameters (ErrorInfo.reason/params); the
// renderer shows the locale text for the key (src/i18n: `reasons` in en is this table, fr-CA
// translates every key, and a test holds the two to the same keys and placeholders). Main's
// English `message` is built from the same template, for the log.
//
// Placeholders are vue-i18n's `{name}`; no other vue-i18n syntax (`|`, `@`) may appear.

export const REASONS = {
  'connection.none': 'No connection is set up yet. Choose the sandbox or a partner service first.',
  'connection.library-not-in-profile': 'Library {libraryId} is not part of the connection "{profile}".',
  'connection.no-credentials': 'No saved username and password for "{profile}". Enter them in Settings → Connections.',
  'connection.password-for-other-address': 'The saved password for "{profile}" was entered for {savedOrigin}, not {origin}. Enter the password for {origin} in Settings → Connections.',
  'connection.password-not-bound': 'The saved password for "{profile}" does not say which address it was entered for. Enter the password for {origin} in Settings → Connections.',
  'connection.insecure-address': 'The service address must start with https:// (http:// only for this computer, such as a local sandbox).',
  'connection.not-a-lending-service': 'Nothing at this service address answers as the lending service (HTTP {status}). Check the address.',
  'action.not-borrowed': 'The lending service did not confirm the borrow, and the patron’s loans show the title was not borrowed: it is safe to try again.',
  'action.hold-not-placed': 'The lending service did not confirm the hold, and the patron’s holds show none was placed: it is safe to try again.',
  'action.still-on-loan': 'The lending service did not confirm the return, and the patron’s loans show the title is still on loan: it is safe to try again.',
  'action.hold-still-there': 'The lending service did not confirm the removal, and the patron’s holds show the hold is still in place: it is safe to try again.',
  'action.outcome-unknown': 'The lending service did not answer clearly, and the patron’s account could not be read to see whether it took effect: look at the account before trying again.',
  'profile.not-found': 'There is no connection profile "{id}".',
  'profile.sandbox-name-reserved': 'That profile name is reserved for the built-in sandbox.',
  'profile.sandbox-needs-no-credentials': 'The built-in sandbox needs no credentials.',
  'session.locked': 'The desk is locked. Enter your name to start a shift.',

  // ---- managed configuration (electron/policy): edits the policy refuses, why a policy source
  // was ignored ({source} is the file or registry key), and why automatic updates were refused.
  'policy.profile-locked': "This connection is set by your library's IT (policy) and cannot be changed here.",
  'policy.profile-locked-remove': "This connection is set by your library's IT (policy) and cannot be removed.",
  'policy.sandbox-off': "The sandbox is turned off on this computer by your library's IT.",
  'policy.idle-lock-locked': "The idle lock is set by your library's IT (policy) and cannot be changed here.",
  'policy.profiles-frozen': "Connections cannot be added, changed or removed while the policy from your library's IT is ignored (see Settings).",
  'policy.wrong-owner': '{source} is owned by user {owner}, not by {expected}.',
  'policy.writable-by-others': '{source} can be changed by users other than {expected} (permissions {mode}).',
  'policy.symbolic-link': '{source} is a symbolic link; the policy must be the file itself.',
  'policy.not-a-file': '{source} is not a regular file.',
  'policy.unreadable': '{source} could not be read ({code}).',
  'policy.too-large': '{source} is larger than {limit} KiB.',
  'policy.not-json': '{source} is not valid JSON ({detail}).',
  'policy.not-plist': '{source} could not be read as a property list ({detail}).',
  'policy.registry-type': '{source} holds {field} as {type}, which the policy does not accept there.',
  'policy.unknown-field': '{source} has a field Lending Desk does not know: {field}.',
  'policy.credential-field': '{source} holds a credential ({field}); user names and passwords are entered on each computer and kept in its keychain.',
  'policy.invalid-value': 'In {source}, {field} is not valid: {rule}',
  'updates.unverified-windows-build': 'this Windows build names no verified publisher (it was not signed), so the signature of an update could not be checked.',
  'updates.linux-auto': 'on Linux the policy may set updates to "it-managed" or "off" only: AppImage and deb packages carry no signature the app could check.',
} as const;

export type Reason = keyof typeof REASONS;

export function isReason(value: unknown): value is Reason {
  return typeof value === 'string' && Object.hasOwn(REASONS, value);
}

/** The English sentence of a reason with its parameters filled in (for main's log and `message`). */
export function reasonText(reason: Reason, params: Record<string, string | number> = {}): string {
  return REASONS[reason].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}
