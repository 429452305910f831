// Chromium's own data for the desk's window (its caches, storage and network state) lives in
// Electron's `sessionData` folder, which is the user data folder unless main moves it. On Windows
// that is roaming %APPDATA%: copied at every logon and logoff of a roaming profile, and on a network
// share under folder redirection (issue #33: only the catalog had moved). Main points sessionData at
// local app data before `ready` (index.ts, with the catalog: catalog-folder.ts), and what an earlier
// version left in the roaming folder goes once: these names only, each Chromium's, never the desk's
// own files (settings.json, the action log, logs/).
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** What Chromium keeps per session (StoragePartition) in the session data folder. */
export const CHROMIUM_SESSION_ENTRIES = [
  'Cache', 'Code Cache', 'GPUCache', 'DawnGraphiteCache', 'DawnWebGPUCache', 'Local Storage', 'Session Storage', 'Shared Dictionary',
  'SharedStorage', 'WebStorage', 'blob_storage', 'Network', 'Service Worker', 'IndexedDB', 'databases',
] as const;

/** Removes what Chromium left in `roamingFolder` before its data moved; the names it removed. */
export function removeRoamingChromiumData(roamingFolder: string): string[] {
  const removed: string[] = [];
  for (const name of CHROMIUM_SESSION_ENTRIES) {
    const path = join(roamingFolder, name);
    if (!existsSync(path)) continue;
    rmSync(path, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
