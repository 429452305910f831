// Where the parts of the built app are, seen from main's own folder (out/main, inside app.asar
// when packaged), and which page the window opens.
import { join } from 'node:path';
import { APP_INDEX_URL, APP_ORIGIN } from './app-protocol.ts';

export interface AppFiles {
  /** The sandboxed preload, one CommonJS file (electron.vite.config.ts). */
  preload: string;
  /** The thread that owns the mirror (mirror-worker.ts). */
  mirrorWorker: string;
  /** The folder index.html is in, served as app://desk/. */
  renderer: string;
  /**
   * The app's own node_modules (inside app.asar when packaged, native modules unpacked beside it):
   * keytar and native-reg are loaded from here by absolute path, never through a resolver.
   */
  modules: string;
}

export function appFiles(mainDir: string): AppFiles {
  return {
    preload: join(mainDir, '..', 'preload', 'index.cjs'),
    mirrorWorker: join(mainDir, 'mirror-worker.js'),
    renderer: join(mainDir, '..', 'renderer'),
    modules: join(mainDir, '..', '..', 'node_modules'),
  };
}

export interface RendererEntry {
  url: string;
  /** The one origin whose frames may call the contract. */
  origin: string;
  /** The electron-vite dev server, which sends no CSP of its own. */
  devServer: boolean;
}

/** The dev server's URL only for an unpackaged app: an installed one never loads anything but its own files. */
export function rendererEntry(packaged: boolean, env: Record<string, string | undefined>): RendererEntry {
  const devUrl = env.ELECTRON_RENDERER_URL;
  if (devUrl && !packaged) return { url: devUrl, origin: new URL(devUrl).origin, devServer: true };
  return { url: APP_INDEX_URL, origin: APP_ORIGIN, devServer: false };
}
