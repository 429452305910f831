// Where a connection's catalog mirror lives: one file per (profile, service origin), so a
// profile re-added or edited to another address starts a fresh mirror instead of showing, or
// syncing into, another service's collection.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const SQLITE_SUFFIXES = ['', '-wal', '-shm'];

function originTag(origin: string): string {
  return createHash('sha256').update(origin).digest('hex').slice(0, 12);
}

export function mirrorPath(dir: string, profileId: string, origin: string): string {
  return join(dir, `catalog-${profileId}-${originTag(origin)}.db`);
}

/** Mirror files of this profile, by name (the database and its WAL and shared-memory files). */
function profileFiles(dir: string, profileId: string): string[] {
  if (!existsSync(dir)) return [];
  const prefix = `catalog-${profileId}-`;
  const legacy = `catalog-${profileId}.db`;
  return readdirSync(dir).filter((name) => {
    if (SQLITE_SUFFIXES.some((suffix) => name === legacy + suffix)) return true;
    if (!name.startsWith(prefix)) return false;
    // `catalog-main-<tag>.db`, not the files of a profile named `main-2`.
    return /^[0-9a-f]{12}\.db(-wal|-shm)?$/.test(name.slice(prefix.length));
  });
}

/**
 * Before a connection opens its mirror: mirrors of the same profile for other origins belong to
 * a service it no longer points at, and go. A mirror from before origins were part of the name
 * (`catalog-<profile>.db`) is kept as this origin's: its profile's address at the upgrade.
 */
export function prepareMirror(dir: string, profileId: string, origin: string): string {
  const path = mirrorPath(dir, profileId, origin);
  const own = new Set(SQLITE_SUFFIXES.map((suffix) => `${path.slice(dir.length + 1)}${suffix}`));
  const legacy = join(dir, `catalog-${profileId}.db`);
  if (existsSync(legacy) && !existsSync(path)) {
    for (const suffix of SQLITE_SUFFIXES) if (existsSync(legacy + suffix)) renameSync(legacy + suffix, path + suffix);
  }
  for (const name of profileFiles(dir, profileId)) if (!own.has(name)) rmSync(join(dir, name), { force: true });
  return path;
}

/** A removed profile's mirrors, whatever their origin. */
export function removeMirrors(dir: string, profileId: string): number {
  const files = profileFiles(dir, profileId);
  for (const name of files) rmSync(join(dir, name), { force: true });
  return files.length;
}
