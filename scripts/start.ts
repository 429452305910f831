// `npm start`: builds the app and runs it in Electron. Where the Electron binary cannot be had
// (no download route, as on locked-down build machines) it says so instead of failing obscurely.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const electronDir = join(root, 'node_modules', 'electron');

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status ?? 1;
}

function electronBinaryPresent(): boolean {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) return true;
  const pathFile = join(electronDir, 'path.txt');
  return existsSync(pathFile) && existsSync(join(electronDir, 'dist', readFileSync(pathFile, 'utf8')));
}

if (run('npx', ['electron-vite', 'build']) !== 0) process.exit(1);
if (!electronBinaryPresent()) {
  // electron's own loader downloads the binary on first use; try once, explain if it cannot.
  if (run(process.execPath, [join(electronDir, 'install.js')]) !== 0 || !electronBinaryPresent()) {
    console.error('\nLending Desk was built (out/), but the Electron binary could not be downloaded on this machine.\n'
      + 'Allow access to github.com (or set ELECTRON_MIRROR / ELECTRON_OVERRIDE_DIST_PATH) and run the command again.');
    process.exit(1);
  }
}
process.exit(run('npx', ['electron-vite', 'preview']));
