// keytar, loaded from the app's own files by its absolute path (issue #33). A bare `import('keytar')`
// goes through a resolver, and the ESM loader keeps a failed import for the life of the process:
// a keychain library missing at start (a Secret Service not yet up, a native module blocked) stayed
// missing until a restart, whatever the comment beside it said. CommonJS's loader drops a module
// whose evaluation threw, so the next call here tries the load again; and the path is the app's
// own node_modules (inside app.asar, the native module unpacked beside it), which main names
// (app-files.ts), not wherever a resolver looks.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { KeytarLike } from './vault.ts';

/**
 * node_modules beside this source tree: tests, the Chromium test host and the benches, which run
 * the sources. Main, bundled into out/main, always passes the app's own (app-files.ts).
 */
export const SOURCE_MODULES = join(import.meta.dirname, '..', '..', '..', 'node_modules');

const requireFile = createRequire(import.meta.url);

/** keytar's entry file under `modules` (it loads its native module relative to itself). */
export function keytarEntry(modules: string): string {
  return join(modules, 'keytar', 'lib', 'keytar.js');
}

/** keytar from `modules`; rejects when it cannot load, and tries again at the next call. */
export async function loadKeytar(modules: string = SOURCE_MODULES): Promise<KeytarLike> {
  return requireFile(keytarEntry(modules)) as KeytarLike;
}

/**
 * The keytar a keychain user asks for: a stand-in given by a test, or the app's own loaded on first
 * use. A successful load is kept; a failed one is not, so the next use loads again.
 */
export function keytarSource(options: { keytar?: KeytarLike; modules?: string }): () => Promise<KeytarLike> {
  let loaded: Promise<KeytarLike> | undefined = options.keytar ? Promise.resolve(options.keytar) : undefined;
  return () => {
    loaded ??= loadKeytar(options.modules).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}
