// The product's vault: the OS keychain through keytar (Keychain on macOS, Credential Manager
// on Windows, a Secret Service on Linux). One entry per connection profile; the secret is the
// JSON of { username, password, origin }, the origin being the service they were tested against. If the keychain cannot be reached we refuse, plainly: a
// plaintext fallback would leave partner passwords on shared desk PCs.
import { DeskError } from '../../shared/desk-error.ts';
import { reasonText } from '../../shared/reasons.ts';
import { keytarSource } from './keytar-module.ts';
import { checkCredentials, checkOrigin, checkProfileId, parseStoredSecret } from './validation.ts';
import type { CredentialVault, KeytarLike, SavedCredentials } from './vault.ts';

export const DEFAULT_KEYCHAIN_SERVICE = 'Lending Desk partner service';

/** Where keytar comes from: a test's stand-in, or the app's own node_modules (`modules`, keytar-module.ts). */
export interface KeychainOptions { service?: string; keytar?: KeytarLike; modules?: string }

export function createKeytarVault(options: KeychainOptions = {}): CredentialVault {
  const service = options.service ?? DEFAULT_KEYCHAIN_SERVICE;
  // Loaded on first use, so a machine where the native module is missing still starts and
  // can use the sandbox profile. A failed load is not kept: it is tried again next time.
  const keytar = keytarSource(options);

  async function withKeychain<T>(use: (keytar: KeytarLike) => Promise<T>, secrets: string[] = []): Promise<T> {
    try {
      return await use(await keytar());
    } catch (error) {
      throw keychainUnavailable(error, secrets);
    }
  }

  async function read(profileId: string): Promise<SavedCredentials | undefined> {
    const account = checkProfileId(profileId);
    const secret = await withKeychain((k) => k.getPassword(service, account));
    return parseStoredSecret(secret);
  }

  return {
    read,
    async save(profileId, credentials, origin) {
      const account = checkProfileId(profileId);
      const checked = checkCredentials(credentials);
      const secret = JSON.stringify({ username: checked.username, password: checked.password, origin: checkOrigin(origin) });
      // setPassword replaces an existing entry for the same service and account.
      // The stored JSON escapes some characters, so both spellings of the password are scrubbed.
      await withKeychain((k) => k.setPassword(service, account, secret), [secret, checked.password, JSON.stringify(checked.password).slice(1, -1)]);
    },
    async forget(profileId) {
      const account = checkProfileId(profileId);
      await withKeychain((k) => k.deletePassword(service, account));
    },
    async has(profileId) {
      return (await read(profileId)) !== undefined;
    },
  };
}

function keychainUnavailable(error: unknown, secrets: string[]): DeskError {
  // The underlying reason helps library IT ("Could not connect", "Cannot autolaunch D-Bus"),
  // but a native error is not ours to trust, so what we handed it is scrubbed all the same.
  let reason = error instanceof Error ? error.message : String(error);
  for (const secret of secrets) if (secret) reason = reason.split(secret).join('[redacted]');
  // Staff read the reason's sentence; the native reason is for the log and IT.
  return new DeskError('keychain-unavailable', `${reasonText('keychain.unavailable')} (Reason: ${reason})`, undefined, { reason: 'keychain.unavailable', params: {} });
}
