export type { ConnectionProfile, DeskSettings, LibraryRef, WindowState } from './schema.ts';
export { connectionProfileSchema, deskSettingsSchema } from './schema.ts';
export { defaultSettings, migrate, SETTINGS_VERSION } from './migrations.ts';
export { readSettingsFile, removeInterruptedWrites } from './store-file.ts';
export { Settings, type SettingsPatch, type SettingsStore } from './settings.ts';
export { profileFingerprint } from './profile-fingerprint.ts';
