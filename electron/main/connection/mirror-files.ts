// Where a connection's mirror lives: one file per (profile, service origin), so a profile
// re-added or edited to another address starts a fresh mirror instead of showing, or syncing
// into, another service's Collection. Files are named `mirror-<profile>-<origin tag>.db`; those
// an earlier version named `catalog-<profile>-<origin tag>.db`, or `catalog-<profile>.db` (from
// before origins were in the name), are renamed once when their profile next opens.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const SQLITE_SUFFIXES = ['', '-wal', '-shm'];
/** This version's prefix, and the one earlier versions used. */
const PREFIX = 'mirror-';
const EARLIER_PREFIX = 'catalog-';

function originTag(origin: string): string {
  return createHash('sha256').update(origin).digest('hex').slice(0, 12);
}

const fileName = (prefix: string, profileId: string, origin: string): string => `${prefix}${profileId}-${originTag(origin)}.db`;

export function mirrorPath(dir: string, profileId: string, origin: string): string {
  return join(dir, fileName(PREFIX, profileId, origin));
}

/** Mirror files of this profile, by name (the database and its WAL and shared-memory files), under this version's names or earlier ones. */
function profileFiles(dir: string, profileId: string): string[] {
  if (!existsSync(dir)) return [];
  const beforeOrigins = `${EARLIER_PREFIX}${profileId}.db`;
  return readdirSync(dir).filter((name) => {
    if (SQLITE_SUFFIXES.some((suffix) => name === beforeOrigins + suffix)) return true;
    const prefix = [PREFIX, EARLIER_PREFIX].map((p) => `${p}${profileId}-`).find((p) => name.startsWith(p));
    // `mirror-main-<tag>.db`, not the files of a profile named `main-2`.
    return prefix !== undefined && /^[0-9a-f]{12}\.db(-wal|-shm)?$/.test(name.slice(prefix.length));
  });
}

/**
 * Before a connection opens its mirror: this origin's file under an earlier name is renamed (a
 * mirror from before origins were part of the name is kept as this origin's: its profile's address
 * at the upgrade); mirrors of the same profile for other origins belong to a service it no longer
 * points at, and go.
 */
export function prepareMirror(dir: string, profileId: string, origin: string): string {
  const path = mirrorPath(dir, profileId, origin);
  for (const earlier of [join(dir, fileName(EARLIER_PREFIX, profileId, origin)), join(dir, `${EARLIER_PREFIX}${profileId}.db`)]) {
    if (existsSync(earlier) && !existsSync(path)) {
      for (const suffix of SQLITE_SUFFIXES) if (existsSync(earlier + suffix)) renameSync(earlier + suffix, path + suffix);
    }
  }
  const own = new Set(SQLITE_SUFFIXES.map((suffix) => `${path.slice(dir.length + 1)}${suffix}`));
  for (const name of profileFiles(dir, profileId)) if (!own.has(name)) rmSync(join(dir, name), { force: true });
  return path;
}

/** A removed profile's mirrors, whatever their origin. */
export function removeMirrors(dir: string, profileId: string): number {
  const files = profileFiles(dir, profileId);
  for (const name of files) rmSync(join(dir, name), { force: true });
  return files.length;
}
