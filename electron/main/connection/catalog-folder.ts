// Where the mirrors live, and their one move there. On Windows the catalog (up to 1.4 GiB
// and its WAL) belongs in local, non-roaming app data (%LOCALAPPDATA%): under the user data
// folder (%APPDATA%, Roaming) it is copied at every logon and logoff of a roaming profile, and a
// redirected %APPDATA% puts SQLite's WAL on a network share, where it does not work. Electron
// offers no local app data path (`sessionData` defaults to userData, i.e. Roaming), so main
// passes %LOCALAPPDATA% in. Settings, sign-in state and the action log stay in userData: they are
// small and are the user's. Elsewhere the catalog stays in userData (macOS and Linux profiles do
// not roam that way).
//
// The move runs once, before any connection opens a mirror (a move that fails leaves the catalog
// where it was for this run, and is tried again at the next start). On one volume it is a rename; across
// volumes (a redirected %APPDATA% on a share) it is a copy with progress, made into a folder
// beside the target and renamed into place only when whole, so a move cut short (the PC switched
// off) is redone from the start at the next launch and never leaves half a catalog in use. The
// old folder goes once the new one is in place.
import { createReadStream, createWriteStream, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface CatalogFolderInput {
  platform: NodeJS.Platform;
  userData: string;
  /** %LOCALAPPDATA%, on Windows. */
  localAppData: string | undefined;
  /** The product's folder name under it (userData's own name, "Lending Desk"). */
  appFolderName: string;
  /** A user data folder chosen for this run (a second, isolated copy; tests) keeps everything in it. */
  userDataChosen: boolean;
}

export interface CatalogFolder {
  dir: string;
  /** Where the catalog was before, when it moved. */
  previous?: string;
}

export function catalogFolder(input: CatalogFolderInput): CatalogFolder {
  const inUserData = join(input.userData, 'catalog');
  const local = localAppFolder(input);
  return local === undefined ? { dir: inUserData } : { dir: join(local, 'catalog'), previous: inUserData };
}

/**
 * The app's folder in local, non-roaming app data (%LOCALAPPDATA%\Lending Desk) on Windows, where
 * the catalog and Chromium's own session data (caches, storage) belong; undefined elsewhere, or
 * when a data folder was chosen for this run.
 */
export function localAppFolder(input: Omit<CatalogFolderInput, 'userData'>): string | undefined {
  if (input.platform !== 'win32' || input.userDataChosen || !input.localAppData) return undefined;
  return join(input.localAppData, input.appFolderName);
}

export interface MoveProgress { done: number; total: number }

export type MoveOutcome =
  | { kind: 'nothing' }
  | { kind: 'renamed' }
  | { kind: 'copied'; files: number; bytes: number }
  /** An earlier move had put the catalog in place; the old folder's leftovers went. */
  | { kind: 'finished-earlier' };

/** A copy in progress sits here, beside the target, until it is whole. */
export const partialFolder = (to: string): string => `${to}.moving`;

/** SQLite's shared-memory index is rebuilt from the WAL when the mirror opens: never copied. */
const movable = (name: string): boolean => !name.endsWith('-shm');

export interface MoveOptions {
  onCopyStart?: (total: number) => void;
  onProgress?: (progress: MoveProgress) => void;
  /** How the folder is first tried as a rename (fs.renameSync): a test plays a move across volumes (EXDEV) on one disk. */
  renameFolder?: (from: string, to: string) => void;
}

export async function moveCatalogFolder(from: string, to: string, options: MoveOptions = {}): Promise<MoveOutcome> {
  const { renameFolder = renameSync } = options;
  const partial = partialFolder(to);
  rmSync(partial, { recursive: true, force: true }); // a copy cut short: start again
  if (existsSync(to)) {
    if (!existsSync(from)) return { kind: 'nothing' };
    rmSync(from, { recursive: true, force: true });
    return { kind: 'finished-earlier' };
  }
  if (!existsSync(from)) return { kind: 'nothing' };
  await mkdir(dirname(to), { recursive: true });
  try {
    renameFolder(from, to);
    return { kind: 'renamed' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  const files = readdirSync(from, { withFileTypes: true }).filter((entry) => entry.isFile() && movable(entry.name)).map((entry) => entry.name);
  const total = files.reduce((sum, name) => sum + statSync(join(from, name)).size, 0);
  options.onCopyStart?.(total);
  await mkdir(partial, { recursive: true });
  let done = 0;
  for (const name of files) {
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        done += chunk.length;
        options.onProgress?.({ done, total });
        callback(null, chunk);
      },
    });
    await pipeline(createReadStream(join(from, name)), counted, createWriteStream(join(partial, name), { flags: 'wx' }));
  }
  renameSync(partial, to); // beside it, on its volume: whole or not at all
  rmSync(from, { recursive: true, force: true });
  return { kind: 'copied', files: files.length, bytes: done };
}
