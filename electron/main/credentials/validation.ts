// Inputs are checked before the keychain is touched, so a bad value can never create or
// overwrite an entry. Messages never quote the password.
import { DeskError } from '../../shared/desk-error.ts';
import type { PartnerCredentials, SavedCredentials } from './vault.ts';

const MAX_PROFILE_ID = 100;
const MAX_USERNAME = 200;
const MAX_PASSWORD = 1000;
// A control character in a username is a paste accident, and would corrupt the Basic header.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

export function checkProfileId(profileId: unknown): string {
  if (typeof profileId !== 'string' || profileId.length === 0 || profileId.length > MAX_PROFILE_ID) {
    throw DeskError.because('invalid-input', 'credentials.profile-id', { max: MAX_PROFILE_ID });
  }
  return profileId;
}

export function checkCredentials(credentials: unknown): PartnerCredentials {
  const { username, password } = (credentials ?? {}) as Partial<Record<keyof PartnerCredentials, unknown>>;
  if (typeof username !== 'string' || username.length === 0 || username.length > MAX_USERNAME) {
    throw DeskError.because('invalid-input', 'credentials.username-length', { max: MAX_USERNAME });
  }
  if (CONTROL_CHARACTER.test(username)) {
    throw DeskError.because('invalid-input', 'credentials.username-control');
  }
  if (typeof password !== 'string' || password.length === 0 || password.length > MAX_PASSWORD) {
    throw DeskError.because('invalid-input', 'credentials.password-length', { max: MAX_PASSWORD });
  }
  return { username, password };
}

/** The origin a secret is bound to: scheme, host and port only (never a path or credentials). */
export function checkOrigin(origin: unknown): string {
  if (typeof origin === 'string' && URL.canParse(origin) && new URL(origin).origin === origin) return origin;
  throw new DeskError('invalid-input', 'A saved password must be bound to a service origin such as https://lending.example.org.');
}

/** The stored secret, or undefined when it is not one we wrote (treated as absent). */
export function parseStoredSecret(secret: string | null): SavedCredentials | undefined {
  if (secret === null) return undefined;
  try {
    const value: unknown = JSON.parse(secret);
    if (typeof value !== 'object' || value === null) return undefined;
    const { username, password, origin } = value as Record<string, unknown>;
    if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) return undefined;
    return typeof origin === 'string' ? { username, password, origin } : { username, password };
  } catch {
    return undefined;
  }
}
