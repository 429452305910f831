// A vault held in memory: for the sandbox profile (whose demo credentials are no secret and
// must not clutter the keychain) and for component tests. It validates like the real one so
// tests see the same refusals.
import { checkCredentials, checkOrigin, checkProfileId } from './validation.ts';
import type { CredentialVault, SavedCredentials } from './vault.ts';

export function createMemoryVault(): CredentialVault {
  const entries = new Map<string, SavedCredentials>();
  return {
    async read(profileId) {
      const entry = entries.get(checkProfileId(profileId));
      return entry ? { ...entry } : undefined;
    },
    async save(profileId, credentials, origin) {
      const account = checkProfileId(profileId);
      entries.set(account, { ...checkCredentials(credentials), origin: checkOrigin(origin) });
    },
    async forget(profileId) {
      entries.delete(checkProfileId(profileId));
    },
    async has(profileId) {
      return entries.has(checkProfileId(profileId));
    },
  };
}
