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
  'connection.insecure-address': 'The service address must start with https:// (http:// only for this computer, such as a local sandbox).',
  'profile.not-found': 'There is no connection profile "{id}".',
  'profile.sandbox-name-reserved': 'That profile name is reserved for the built-in sandbox.',
  'profile.sandbox-needs-no-credentials': 'The built-in sandbox needs no credentials.',
  'session.locked': 'The desk is locked. Enter your name to start a shift.',
  // The desk as it ships (main's start-up)
  'start.debugging-refused': 'Lending Desk does not start with debugging options ({flags}). Start it from its usual shortcut, without extra options.',
} as const;

export type Reason = keyof typeof REASONS;

export function isReason(value: unknown): value is Reason {
  return typeof value === 'string' && Object.hasOwn(REASONS, value);
}

/** The English sentence of a reason with its parameters filled in (for main's log and `message`). */
export function reasonText(reason: Reason, params: Record<string, string | number> = {}): string {
  return REASONS[reason].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}
