// The policy's `libraryServer` (issue #31): the library's own server, which carries every partner
// call of this desk (the partner's username, password and token never reach the desk). It names
// the server's address (and a second instance's, tried when the first does not answer) and the CA
// its certificate is verified with (absent: the public CAs Node carries, Mozilla's list, never the
// OS's store, which any user of the PC can add a root to). The desk proves which desk it is with
// the workstation secret it keeps in its keychain (enrolment: docs/library-server.md).
import { z } from 'zod';
import { posix, win32 } from 'node:path';

const URL_RULE = 'libraryServer.url and libraryServer.fallbackUrl must be https:// addresses without user name, query or fragment.';
const CA_RULE = 'libraryServer.caFile must be an absolute path to a PEM file.';

const serverUrl = z.string({ error: URL_RULE }).refine((value) => {
  if (!URL.canParse(value) || /[?#]/.test(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.username === '' && url.password === '';
}, { error: URL_RULE });

export const libraryServerPolicySchema = z.strictObject({
  url: serverUrl,
  fallbackUrl: serverUrl.optional(),
  caFile: z.string({ error: CA_RULE }).refine((path) => win32.isAbsolute(path) && !/[\u0000-\u001f]/.test(path), { error: CA_RULE }).optional(),
}, { error: (issue) => (issue.code === 'invalid_type' ? 'libraryServer must be an object with url (and, optionally, fallbackUrl and caFile).' : undefined) });

export type LibraryServerPolicy = z.output<typeof libraryServerPolicySchema>;

/** The server's addresses, the first tried first, each as an origin with its path. */
export const serverUrls = (policy: LibraryServerPolicy): string[] =>
  [policy.url, ...(policy.fallbackUrl ? [policy.fallbackUrl] : [])].map((u) => u.replace(/\/+$/, ''));

/** Why `caFile` cannot be read on the OS the policy was found on, or undefined (as libraryMirror.caFile). */
export function serverCaFileRule(server: LibraryServerPolicy | undefined, platform: NodeJS.Platform): string | undefined {
  if (server?.caFile === undefined) return undefined;
  const absolute = platform === 'win32' ? win32.isAbsolute : posix.isAbsolute;
  return absolute(server.caFile) ? undefined : CA_RULE;
}
