// keytar, loaded from the app's own node_modules by its absolute path, and loaded again after a
// failure without a restart (issue #33: `import('keytar')` kept its failure for the life of the
// process). The app's node_modules here is a copy of keytar in a temporary folder whose native
// module is missing at first, as on a desk where it was blocked or not yet in place; the keychain
// is the real one (gnome-keyring inside dbus-run-session).
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keychainLogKey } from '../../../../electron/main/action-log/log-key.ts';
import { DESK_RECORDS, keychainDeskRecords } from '../../../../electron/main/credentials/desk-keychain.ts';
import { createKeytarVault } from '../../../../electron/main/credentials/index.ts';
import { keytarEntry, SOURCE_MODULES } from '../../../../electron/main/credentials/keytar-module.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';

const SERVICE = `Lending Desk keytar load test ${process.pid}`;
const ORIGIN = 'https://lending.example.org';
let modules: string;

/** The app's node_modules with keytar's JavaScript and, once `nativeInPlace` ran, its native module. */
beforeAll(() => {
  modules = join(mkdtempSync(join(tmpdir(), 'lending-desk-keytar-')), 'node_modules');
  mkdirSync(join(modules, 'keytar', 'build', 'Release'), { recursive: true });
  cpSync(join(SOURCE_MODULES, 'keytar', 'lib'), join(modules, 'keytar', 'lib'), { recursive: true });
  copyFileSync(join(SOURCE_MODULES, 'keytar', 'package.json'), join(modules, 'keytar', 'package.json'));
});
afterAll(async () => {
  for (const entry of await keytar.findCredentials(SERVICE)) await keytar.deletePassword(SERVICE, entry.account);
  rmSync(join(modules, '..'), { recursive: true, force: true });
});

const nativeInPlace = (): void => copyFileSync(join(SOURCE_MODULES, 'keytar', 'build', 'Release', 'keytar.node'), join(modules, 'keytar', 'build', 'Release', 'keytar.node'));

describe('keytar from the app\'s own files', () => {
  it('is looked for at one path under the modules folder main names', () => {
    expect(keytarEntry(modules)).toBe(join(modules, 'keytar', 'lib', 'keytar.js'));
    expect(SOURCE_MODULES).toBe(join(REPO_ROOT, 'node_modules'));
  });

  it('a load that failed is tried again at the next use: the vault, the desk\'s records and the log\'s key recover without a restart', async () => {
    const vault = createKeytarVault({ service: SERVICE, modules });
    const records = keychainDeskRecords({ service: SERVICE, modules });
    const logKey = keychainLogKey({ service: SERVICE, modules });
    // The native module is not there yet: each says the keychain is unavailable (with keytar's own words for IT).
    await expect(vault.read('main-branch')).rejects.toMatchObject({ code: 'keychain-unavailable', message: expect.stringContaining('keytar.node') });
    await expect(records.read(DESK_RECORDS.signIn)).rejects.toMatchObject({ code: 'keychain-unavailable' });
    await expect(logKey.get()).rejects.toMatchObject({ code: 'keychain-unavailable' });

    nativeInPlace();
    await vault.save('main-branch', { username: 'desk-user', password: 'p4ss' }, ORIGIN);
    expect(await vault.read('main-branch')).toEqual({ username: 'desk-user', password: 'p4ss', origin: ORIGIN });
    await records.write(DESK_RECORDS.connections, '{"v":1}');
    expect(await records.read(DESK_RECORDS.connections)).toBe('{"v":1}');
    expect(await logKey.get()).toMatchObject({ created: true });
    // Really in the keychain, under the service these used.
    expect(JSON.parse(await keytar.getPassword(SERVICE, 'main-branch') ?? 'null')).toMatchObject({ username: 'desk-user' });
  });
});
