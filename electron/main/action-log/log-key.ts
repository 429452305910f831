// The action log's key: 256 random bits kept in the OS keychain under an account of its own
// beside the partner passwords (the same service name, so a development copy with its own
// LENDING_DESK_KEYCHAIN_SERVICE has its own key too; an installed app ignores that variable). Made on first use. Where no keychain
// can be reached the log is not written at all — there is no plaintext fallback and no key
// in a file — and the desk refuses on-behalf actions rather than do them unrecorded.
import { randomBytes } from 'node:crypto';
import { keytarSource } from '../credentials/keytar-module.ts';
import { DEFAULT_KEYCHAIN_SERVICE, type KeychainOptions } from '../credentials/keytar-vault.ts';
import { DeskError } from '../../shared/desk-error.ts';
import { KEY_BYTES } from './entry-cipher.ts';

/** Not a possible profile id (those are lowercase letters, digits and hyphens), so it never meets a partner entry. */
export const ACTION_LOG_KEY_ACCOUNT = 'lending-desk:action-log-key';

export interface LogKeySource {
  /** The key, made now when there was none (`created`); throws keychain-unavailable when the keychain cannot be reached. */
  get(): Promise<{ key: Buffer; created: boolean }>;
}

export function keychainLogKey(options: KeychainOptions = {}): LogKeySource {
  const service = options.service ?? DEFAULT_KEYCHAIN_SERVICE;
  const loadKeytar = keytarSource(options);
  return {
    async get() {
      const made = randomBytes(KEY_BYTES).toString('base64');
      try {
        const keytar = await loadKeytar();
        const stored = await keytar.getPassword(service, ACTION_LOG_KEY_ACCOUNT);
        const key = stored === null ? undefined : Buffer.from(stored, 'base64');
        if (key?.length === KEY_BYTES) return { key, created: false };
        await keytar.setPassword(service, ACTION_LOG_KEY_ACCOUNT, made);
        return { key: Buffer.from(made, 'base64'), created: true };
      } catch (error) {
        // A native error is not ours to trust: the key it was handed is scrubbed from its words.
        const why = (error instanceof Error ? error.message : String(error)).split(made).join('[redacted]');
        throw new DeskError('keychain-unavailable', `The action log's key could not be read from the system keychain (${why}).`, undefined, {
          reason: 'action-log.keychain-unavailable', params: {},
        });
      }
    },
  };
}

/** A key held in memory (tests and the reliability runs, which have no keychain of their own): a given key is an existing one, none a new one. */
export function memoryLogKey(existing?: Buffer): LogKeySource {
  const key = existing ?? randomBytes(KEY_BYTES);
  let created = existing === undefined;
  return {
    async get() {
      const answer = { key, created };
      created = false;
      return answer;
    },
  };
}
