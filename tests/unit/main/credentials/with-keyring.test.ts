// `npm test` and every `npm run bench*` set up the desk's keychain the same way
// (scripts/with-keyring.sh): on a headless Linux machine with no Secret Service, a private D-Bus
// session with an unlocked keyring of its own. Run here from an environment that has none (no
// session bus, not marked ready), as a new developer's shell would be.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../support/repo-root.ts';

const ROUND_TRIP = `
const keytar = (await import('keytar')).default;
await keytar.setPassword('lending-desk-with-keyring-test', 'probe', 'kept');
process.stdout.write(String(await keytar.getPassword('lending-desk-with-keyring-test', 'probe')));
`;

/** This process's environment without a session bus or the mark that a keyring is ready. */
function bare(): NodeJS.ProcessEnv {
  const { DBUS_SESSION_BUS_ADDRESS: _bus, LENDING_DESK_KEYRING_READY: _ready, ...rest } = process.env;
  return rest;
}

const run = (command: string[]) => spawnSync(command[0]!, command.slice(1), { cwd: REPO_ROOT, env: bare(), encoding: 'utf8', timeout: 60_000 });

describe.runIf(process.platform === 'linux')('the keychain for tests and benches (scripts/with-keyring.sh)', () => {
  it('gives a command a working keychain where the machine has no Secret Service', () => {
    const without = run([process.execPath, '--input-type=module', '-e', ROUND_TRIP]);
    expect(without.status, 'without it, keytar finds no Secret Service').not.toBe(0);
    const within = run(['bash', 'scripts/with-keyring.sh', process.execPath, '--input-type=module', '-e', ROUND_TRIP]);
    expect(within.stdout, within.stderr).toBe('kept');
  });

  // The README's test command is `bash scripts/node24.sh npm test` (Node 24, the packages, the
  // system's); a bench does the same set-up itself, so `npm run bench` works where the system Node is older.
  it('is how the tests and every bench start', () => {
    const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const benches = Object.entries(scripts).filter(([name]) => name === 'bench' || name.startsWith('bench:'));
    expect(benches.length).toBeGreaterThanOrEqual(4);
    for (const [name, command] of benches) expect(command, name).toMatch(/^bash scripts\/node24\.sh bash scripts\/with-keyring\.sh node bench\//);
    expect(readFileSync(join(REPO_ROOT, 'scripts', 'run-tests.sh'), 'utf8')).toContain('exec bash scripts/with-keyring.sh bash scripts/run-tests.sh');
  });
});
