// conf (and so electron-store) throws from its constructor when the file is not JSON, and its
// `clearInvalidConfig` would erase the file. Passing this as the store's `deserialize`
// option turns a damaged file into a marker that `migrate` reports, so the app starts on
// defaults, tells the user why, and leaves the file for library IT to look at.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Reason } from '../../shared/reasons.ts';
import { UNREADABLE_FILE_KEY } from './migrations.ts';

export function readSettingsFile(text: string): Record<string, unknown> {
  const unreadable = (why: Reason): Record<string, unknown> => ({ [UNREADABLE_FILE_KEY]: why });
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return unreadable('settings-file.not-object');
    }
    return value as Record<string, unknown>;
  } catch {
    // JSON.parse's own message quotes the file around the error, which is not for a log.
    return unreadable('settings-file.not-json');
  }
}

/** Older than this, a temporary file is no write in progress but the leftover of a crash. */
const STALE_MS = 60_000;

/**
 * The store writes atomically: a temporary `settings.json.tmp-<time><random>` beside the file,
 * then a rename. A process killed between the two leaves the temporary file behind (the crash
 * safety run found them); the settings themselves are whole, so the leftovers only take room.
 * Removes those older than a minute; never fails the start over it.
 */
export function removeInterruptedWrites(settingsPath: string, now = Date.now()): number {
  const prefix = `${basename(settingsPath)}.tmp-`;
  let removed = 0;
  try {
    for (const name of readdirSync(dirname(settingsPath))) {
      if (!name.startsWith(prefix) || !/^\d{10}[a-f0-9]{6}$/.test(name.slice(prefix.length))) continue;
      const path = join(dirname(settingsPath), name);
      if (now - statSync(path).mtimeMs < STALE_MS) continue;
      rmSync(path, { force: true });
      removed += 1;
    }
  } catch {
    // A folder that cannot be listed has nothing of ours to tidy.
  }
  return removed;
}
