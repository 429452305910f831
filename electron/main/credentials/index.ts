export type { CredentialVault, KeytarLike, PartnerCredentials, SavedCredentials } from './vault.ts';
export { createKeytarVault, DEFAULT_KEYCHAIN_SERVICE } from './keytar-vault.ts';
export { createMemoryVault } from './memory-vault.ts';
