// The credential vault against the real OS keychain (gnome-keyring inside dbus-run-session on
// Linux, as `npm test` provides), under a service name only these tests use.
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import keytar from 'keytar';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeytarVault, createMemoryVault, type KeytarLike } from '../../../../electron/main/credentials/index.ts';
import { DeskError } from '../../../../electron/shared/desk-error.ts';

const SERVICE = `Lending Desk vault test ${process.pid}`;
const vault = createKeytarVault({ service: SERVICE });

afterEach(async () => {
  for (const entry of await keytar.findCredentials(SERVICE)) await keytar.deletePassword(SERVICE, entry.account);
});

async function refusal(promise: Promise<unknown>): Promise<DeskError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

/** A keytar stand-in that records every call, to prove a refusal never reached the keychain. */
function recordingKeytar(failure?: (call: string) => Error): KeytarLike & { calls: string[] } {
  const calls: string[] = [];
  const act = async <T>(name: string, value: T): Promise<T> => {
    calls.push(name);
    if (failure) throw failure(name);
    return value;
  };
  return {
    calls,
    getPassword: () => act('getPassword', null),
    setPassword: () => act('setPassword', undefined),
    deletePassword: () => act('deletePassword', true),
  };
}

const ORIGIN = 'https://lending.example.org';

describe('keychain vault (real Secret Service)', () => {
  it('saves credentials to the keychain and reads them back', async () => {
    await vault.save('main-branch', { username: 'desk-user', password: 'p@ss wörd "quoted"' }, ORIGIN);
    const saved = { username: 'desk-user', password: 'p@ss wörd "quoted"', origin: ORIGIN };
    expect(await vault.read('main-branch')).toEqual(saved);
    expect(await vault.has('main-branch')).toBe(true);
    // Really in the keychain, as JSON under the profile id with the origin it was saved for, not just held by this object.
    const stored = await keytar.getPassword(SERVICE, 'main-branch');
    expect(JSON.parse(stored ?? 'null')).toEqual(saved);
    expect(await createKeytarVault({ service: SERVICE }).read('main-branch')).toEqual(saved);
  });

  it('binds an entry to an origin (scheme, host and port), never to a path or a user', async () => {
    for (const origin of ['https://lending.example.org/api', 'lending.example.org', 'https://u:p@lending.example.org', '']) {
      expect((await refusal(vault.save('main-branch', { username: 'u', password: 'p' }, origin))).code, origin).toBe('invalid-input');
    }
    expect(await keytar.getPassword(SERVICE, 'main-branch')).toBeNull();
  });

  it('reads an entry saved before origins were kept as bound to none', async () => {
    await keytar.setPassword(SERVICE, 'old-entry', JSON.stringify({ username: 'u', password: 'p' }));
    expect(await vault.read('old-entry')).toEqual({ username: 'u', password: 'p' });
  });

  it('replaces an earlier entry', async () => {
    await vault.save('main-branch', { username: 'old-user', password: 'old-password' }, ORIGIN);
    await vault.save('main-branch', { username: 'new-user', password: 'new-password' }, ORIGIN);
    expect(await vault.read('main-branch')).toEqual({ username: 'new-user', password: 'new-password', origin: ORIGIN });
    expect(await keytar.findCredentials(SERVICE)).toHaveLength(1);
  });

  it('forgets an entry, and forgetting twice is no error', async () => {
    await vault.save('main-branch', { username: 'desk-user', password: 'secret-1' }, ORIGIN);
    await vault.forget('main-branch');
    expect(await vault.read('main-branch')).toBeUndefined();
    expect(await vault.has('main-branch')).toBe(false);
    expect(await keytar.getPassword(SERVICE, 'main-branch')).toBeNull();
    await vault.forget('main-branch');
    await vault.forget('never-saved');
  });

  it('keeps profiles apart', async () => {
    await vault.save('north', { username: 'north-user', password: 'north-password' }, ORIGIN);
    await vault.save('south', { username: 'south-user', password: 'south-password' }, ORIGIN);
    await vault.forget('north');
    expect(await vault.read('north')).toBeUndefined();
    expect(await vault.read('south')).toEqual({ username: 'south-user', password: 'south-password', origin: ORIGIN });
    expect(await vault.has('east')).toBe(false);
  });

  it('treats a secret it did not write as absent, and leaves it in place', async () => {
    await keytar.setPassword(SERVICE, 'foreign', 'not json at all');
    await keytar.setPassword(SERVICE, 'wrong-shape', JSON.stringify({ user: 'x' }));
    expect(await vault.read('foreign')).toBeUndefined();
    expect(await vault.has('wrong-shape')).toBe(false);
    expect(await keytar.getPassword(SERVICE, 'foreign')).toBe('not json at all');
  });
});

describe('refusals', () => {
  const badSaves: Array<[string, string, unknown, RegExp]> = [
    ['empty profile id', '', { username: 'u', password: 'p' }, /profile id/],
    ['long profile id', 'x'.repeat(101), { username: 'u', password: 'p' }, /profile id/],
    ['empty username', 'p1', { username: '', password: 'p' }, /username/],
    ['long username', 'p1', { username: 'u'.repeat(201), password: 'p' }, /username/],
    ['control character in username', 'p1', { username: 'desk\nuser', password: 'p' }, /control characters/],
    ['empty password', 'p1', { username: 'u', password: '' }, /password/],
    ['long password', 'p1', { username: 'u', password: 'p'.repeat(1001) }, /password/],
    ['missing credentials', 'p1', undefined, /username/],
  ];

  it.each(badSaves)('refuses %s without touching the keychain', async (_label, profileId, credentials, message) => {
    const fake = recordingKeytar();
    const error = await refusal(createKeytarVault({ keytar: fake }).save(profileId, credentials as never, ORIGIN));
    expect(error.code).toBe('invalid-input');
    expect(error.message).toMatch(message);
    expect(fake.calls).toEqual([]);
  });

  it('refuses a bad profile id on read, has and forget without touching the keychain', async () => {
    const fake = recordingKeytar();
    const faked = createKeytarVault({ keytar: fake });
    for (const call of [() => faked.read(''), () => faked.has(''), () => faked.forget('y'.repeat(101))]) {
      expect((await refusal(call())).code).toBe('invalid-input');
    }
    expect(fake.calls).toEqual([]);
  });

  it('accepts values at the limits', async () => {
    const fake = recordingKeytar();
    await createKeytarVault({ keytar: fake }).save('x'.repeat(100), { username: 'u'.repeat(200), password: 'p'.repeat(1000) }, ORIGIN);
    expect(fake.calls).toEqual(['setPassword']);
  });

  it('reports a failing keychain as keychain-unavailable, without the password', async () => {
    const password = 'planted-Pa55word';
    // A native error that echoes the secret it was given must not carry the password into the message.
    const fake = recordingKeytar((call) => new Error(call === 'setPassword' ? `refused to store ${password}` : 'Cannot create an item in a locked collection'));
    const faked = createKeytarVault({ keytar: fake });
    const calls = [() => faked.save('p1', { username: 'u', password }, ORIGIN), () => faked.read('p1'), () => faked.forget('p1'), () => faked.has('p1')];
    for (const call of calls) {
      const error = await refusal(call());
      expect(error.code).toBe('keychain-unavailable');
      expect(error.message).toMatch(/Secret Service/);
      expect(error.message).not.toContain(password);
    }
  });

  it('reports keychain-unavailable when no D-Bus session can be reached', async () => {
    const password = 'child-planted-S3cret';
    const vaultModule = pathToFileURL(fileURLToPath(new URL('../../../../electron/main/credentials/index.ts', import.meta.url))).href;
    const script = `
      const { createKeytarVault } = await import(${JSON.stringify(vaultModule)});
      const vault = createKeytarVault({ service: ${JSON.stringify(SERVICE)} });
      const outcome = async (call) => call.then(() => ({ code: 'none' }), (e) => ({ code: e.code, message: e.message }));
      console.log(JSON.stringify({
        read: await outcome(vault.read('p1')),
        save: await outcome(vault.save('p1', { username: 'u', password: ${JSON.stringify(password)} }, 'https://lending.example.org')),
      }));`;
    const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env });
    const result = JSON.parse(stdout) as Record<'read' | 'save', { code: string; message: string }>;
    for (const outcome of [result.read, result.save]) {
      expect(outcome.code).toBe('keychain-unavailable');
      expect(outcome.message).toMatch(/install and unlock a Secret Service/);
      expect(outcome.message).not.toContain(password);
    }
  });
});

describe('memory vault', () => {
  it('stores, replaces, forgets and validates like the keychain vault', async () => {
    const memory = createMemoryVault();
    await memory.save('sandbox', { username: 'a', password: 'b' }, ORIGIN);
    await memory.save('sandbox', { username: 'c', password: 'd' }, ORIGIN);
    expect(await memory.read('sandbox')).toEqual({ username: 'c', password: 'd', origin: ORIGIN });
    expect(await memory.has('other')).toBe(false);
    await memory.forget('sandbox');
    expect(await memory.has('sandbox')).toBe(false);
    expect((await refusal(memory.save('sandbox', { username: '', password: 'x' }, ORIGIN))).code).toBe('invalid-input');
  });
});
