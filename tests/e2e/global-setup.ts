// Once per Playwright run, before any spec: the Electron host's binary, obtained the way the
// electron package does now (its first-run download, bounded: scripts/electron-binary.ts). The
// outcome is handed to every worker through the environment, so each spec of the Electron
// project runs, or is skipped with the one reason, without trying the download again.
import { join } from 'node:path';
import { obtainElectron } from '../../scripts/electron-binary.ts';

export const ELECTRON_HOST_ENV = 'LENDING_DESK_ELECTRON_HOST_UNAVAILABLE';

export default async function globalSetup(): Promise<void> {
  const binary = await obtainElectron(join(import.meta.dirname, '..', '..'), process.env, { log: (line) => console.log(line) });
  if (binary.ok) {
    delete process.env[ELECTRON_HOST_ENV];
    if (binary.downloaded) console.log(`Electron host: downloaded ${binary.path}`);
    return;
  }
  const reason = `Electron host skipped: ${binary.reason} The same specs run in the Chromium host.`;
  console.log(reason);
  process.env[ELECTRON_HOST_ENV] = reason;
}
