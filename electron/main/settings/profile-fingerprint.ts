// What a connection is, for telling whether settings.json was edited outside the desk: its kind,
// its service address (as the desk sends requests to it) and its libraries. The desk records this
// fingerprint in the keychain when staff save a connection (desk/connection-records.ts); a
// profile whose address or libraries no longer match was changed by someone with Notepad, and is
// refused rather than used or asked a password for. Names and the ws-api value are not in it:
// a renamed profile sends nothing anywhere new.
import { createHash } from 'node:crypto';
import { normalizeBaseUrl } from '../../node/partner/transport.ts';
import type { ConnectionProfile } from './schema.ts';

/** 22 characters (128 bits of SHA-256): short enough for the keychain record, far beyond a search for a look-alike address. */
export function profileFingerprint(profile: Pick<ConnectionProfile, 'kind' | 'baseUrl' | 'libraries'>): string {
  const address = profile.kind === 'partner' ? canonicalAddress(profile.baseUrl) : '';
  const libraries = profile.libraries.map((library) => library.libraryId).sort((a, b) => a - b);
  return createHash('sha256').update(JSON.stringify([profile.kind, address, libraries]), 'utf8').digest('base64url').slice(0, 22);
}

function canonicalAddress(baseUrl: string): string {
  try {
    return normalizeBaseUrl(baseUrl);
  } catch {
    // Not an address the desk would send to: kept as written, so it matches nothing the desk recorded.
    return baseUrl;
  }
}
