// Partner credentials live only in a CredentialVault. Callers see this small interface, so
// keytar (archived upstream) can be replaced by another keychain binding or Electron's
// safeStorage without touching them.

export interface PartnerCredentials {
  username: string;
  password: string;
}

/**
 * What the keychain holds for a profile: the credentials and the service origin they were
 * entered for. A password is only ever sent to that origin; an entry from before origins were
 * kept has none, and is sent nowhere until staff enter it again.
 */
export interface SavedCredentials extends PartnerCredentials {
  origin?: string;
}

export interface CredentialVault {
  read(profileId: string): Promise<SavedCredentials | undefined>;
  /** Replaces any earlier entry for the profile; `origin` is the service they were tested against. */
  save(profileId: string, credentials: PartnerCredentials, origin: string): Promise<void>;
  /** No error when there is nothing to forget. */
  forget(profileId: string): Promise<void>;
  has(profileId: string): Promise<boolean>;
}

/** The three keytar functions the vault uses; tests pass a stand-in. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}
