// conf (and so electron-store) throws from its constructor when the file is not JSON, and its
// `clearInvalidConfig` would erase the file. Passing this as the store's `deserialize`
// option turns a damaged file into a marker that `migrate` reports, so the app starts on
// defaults, tells the user why, and leaves the file for library IT to look at.
import { UNREADABLE_FILE_KEY } from './migrations.ts';

export function readSettingsFile(text: string): Record<string, unknown> {
  const unreadable = (why: string): Record<string, unknown> => ({ [UNREADABLE_FILE_KEY]: why });
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return unreadable('The settings file does not hold a settings object.');
    }
    return value as Record<string, unknown>;
  } catch {
    // JSON.parse's own message quotes the file around the error, which is not for a log.
    return unreadable('The settings file is not valid JSON.');
  }
}
