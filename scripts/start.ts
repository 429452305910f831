// `npm start`: builds the app and runs it in Electron. The electron package downloads its binary
// the first time it is used (since Electron 42, not at install); that download is tried first,
// bounded (scripts/electron-binary.ts), and where it cannot be done (no route to GitHub, as on
// locked-down build machines) this says why instead of failing obscurely.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { obtainElectron } from './electron-binary.ts';

const root = join(import.meta.dirname, '..');

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status ?? 1;
}

if (run('npx', ['electron-vite', 'build']) !== 0) process.exit(1);
const electron = await obtainElectron(root, process.env, { log: (line) => console.log(line) });
if (!electron.ok) {
  console.error(`\nLending Desk was built (out/), but it cannot start here: ${electron.reason}`);
  process.exit(1);
}
process.exit(run('npx', ['electron-vite', 'preview']));
