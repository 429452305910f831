// The policy's `libraryMirror` (issue #25): the library system's shared mirror in PostgreSQL,
// which a desk fills its Collection from instead of the partner service. It names where the
// database is and which read-only role the desk signs in as; the role's password is never here
// (the policy file is readable by every user of the PC): IT's tooling puts it in the keychain,
// or IT types it in Settings where `passwordEntry` allows. TLS with the server's certificate
// verified (chain and host name) is not a choice: there is no setting to turn it off, only the
// CA to verify it with (absent: the public CAs Node carries, Mozilla's list, not the OS's store).
// Desks are other machines than the database's, so a Unix socket is not offered.
import { posix, win32 } from 'node:path';
import { z } from 'zod';

/** Host names and IP addresses as IT writes them: no scheme, path, user or spaces. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[?[0-9A-Fa-f:.]+\]?)$/;
/** PostgreSQL's identifiers are at most 63 bytes; no control characters, no quotes. */
const IDENTIFIER = /^[^\u0000-\u001f\u007f"]{1,63}$/;

const HOST_RULE = 'libraryMirror.host must be a host name or IP address (no scheme, port or path).';
const PORT_RULE = 'libraryMirror.port must be a whole number from 1 to 65535.';
const DATABASE_RULE = 'libraryMirror.database must be 1 to 63 characters without quotes or control characters.';
const USER_RULE = "libraryMirror.user (the desks' read-only role) must be 1 to 63 characters without quotes or control characters.";
const CA_RULE = 'libraryMirror.caFile must be an absolute path to a PEM file.';
export const PASSWORD_ENTRIES = ['keychain', 'settings'] as const;

export const libraryMirrorPolicySchema = z.strictObject({
  host: z.string({ error: HOST_RULE }).max(253, { error: HOST_RULE }).regex(HOST, { error: HOST_RULE }),
  port: z.number({ error: PORT_RULE }).int({ error: PORT_RULE }).min(1, { error: PORT_RULE }).max(65_535, { error: PORT_RULE }).default(5432),
  database: z.string({ error: DATABASE_RULE }).regex(IDENTIFIER, { error: DATABASE_RULE }),
  user: z.string({ error: USER_RULE }).regex(IDENTIFIER, { error: USER_RULE }),
  // Absolute on some OS here (a Windows path is absolute by win32's rules, a POSIX one by both);
  // absolute on the desk's own OS is checked where the policy was found (caFileRule, load.ts).
  caFile: z.string({ error: CA_RULE }).refine((path) => win32.isAbsolute(path) && !/[\u0000-\u001f]/.test(path), { error: CA_RULE }).optional(),
  /**
   * Where the role's password comes from: `keychain` (IT's tooling puts it there at install; the
   * default), or `settings`, where IT may also type it on the desk (Settings → Library mirror).
   */
  passwordEntry: z.enum(PASSWORD_ENTRIES, { error: `libraryMirror.passwordEntry must be one of ${PASSWORD_ENTRIES.map((e) => `'${e}'`).join(', ')}.` }).default('keychain'),
}, { error: (issue) => (issue.code === 'invalid_type' ? 'libraryMirror must be an object with host, database and user.' : undefined) });

export type LibraryMirrorPolicy = z.output<typeof libraryMirrorPolicySchema>;

/**
 * Why `caFile` cannot be read on the OS the policy was found on (a relative path would be read
 * from wherever the desk was started), or undefined. Checked for that OS rather than the one
 * running the check, so a Windows template's C:\… path is judged as Windows reads it.
 */
export function caFileRule(mirror: LibraryMirrorPolicy | undefined, platform: NodeJS.Platform): string | undefined {
  if (mirror?.caFile === undefined) return undefined;
  const absolute = platform === 'win32' ? win32.isAbsolute : posix.isAbsolute;
  return absolute(mirror.caFile) ? undefined : CA_RULE;
}
