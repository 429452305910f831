// The library mirror's role password as IT's install tooling puts it in a desk's keychain (issue
// #25): the Linux command docs/it-deployment.md gives, run as written against the real Secret
// Service (`npm test` starts gnome-keyring), must leave an entry the desk's own keychain reader
// finds and reads as the password — so the documented line and the code cannot drift apart.
// Only the keychain's service name is swapped for one these tests alone use.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import keytar from 'keytar';
import { afterEach, describe, expect, it } from 'vitest';
import { DESK_RECORDS, keychainDeskRecords } from '../../../../electron/main/credentials/desk-keychain.ts';
import { DEFAULT_KEYCHAIN_SERVICE } from '../../../../electron/main/credentials/index.ts';
import { libraryMirrorView } from '../../../../electron/main/desk/library-fill-settings.ts';
import { policySchema } from '../../../../electron/main/policy/index.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';

const SERVICE = `Lending Desk install test ${process.pid}`;
const DOCS = readFileSync(join(REPO_ROOT, 'docs', 'it-deployment.md'), 'utf8');

/** The documented secret-tool line, with its service name swapped for the test's. */
function documentedCommand(): string {
  const lines = DOCS.split('\n').map((line) => line.trim()).filter((line) => line.includes('| secret-tool store '));
  expect(lines).toHaveLength(1);
  const line = lines[0] as string;
  expect(line).toContain(`service '${DEFAULT_KEYCHAIN_SERVICE}'`);
  expect(line).toContain(`account '${DESK_RECORDS.libraryMirrorPassword}'`);
  return line.replace(`service '${DEFAULT_KEYCHAIN_SERVICE}'`, `service '${SERVICE}'`);
}

afterEach(async () => {
  await keytar.deletePassword(SERVICE, DESK_RECORDS.libraryMirrorPassword);
});

describe('the library mirror password put in the keychain by IT (Linux, secret-tool)', () => {
  it('is found and read whole by the desk, as docs/it-deployment.md says to store it', async () => {
    const password = 'Xy7-généré "quoted" $HOME';
    const run = spawnSync('sh', ['-c', documentedCommand()], { env: { ...process.env, LIBRARY_MIRROR_PASSWORD: password }, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const keychain = keychainDeskRecords({ service: SERVICE });
    expect(await keychain.read(DESK_RECORDS.libraryMirrorPassword)).toBe(password);
    // What Settings then says on a desk whose policy names the mirror.
    const policy = policySchema.parse({ libraryMirror: { host: 'db.library.example.org', database: 'library_mirror', user: 'library_mirror_desk' } }).libraryMirror;
    expect(await libraryMirrorView(policy, keychain)).toMatchObject({ passwordEntry: 'keychain', passwordSaved: true });
  });
});
