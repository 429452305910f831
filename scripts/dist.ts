// `npm run dist`: the installers. Checks the packaging configuration first (signing and release
// mode, then electron-builder's own schema), builds the app with electron-vite, and packages it
// with electron-builder. Packaging needs an Electron binary; where none can be had (no route to
// GitHub, as on this project's build machine) it stops there, says why, and exits 0.
//
//   node scripts/dist.ts [--win] [--mac] [--linux] [--dir] [--release] [--e2e]
//
// --release (or LENDING_DESK_RELEASE=1) refuses to build anything unsigned; --e2e builds the
// end-to-end test variant (inspector fuse on), which release mode refuses; --dir packages an
// unpacked app only (no installer), for a quick look.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Configuration } from 'electron-builder';
import { createBuilderConfig, isReleaseMode, platformsFromArgs, type BuildVariant, type TargetPlatform } from '../electron-builder.config.ts';

const ROOT = join(import.meta.dirname, '..');

export interface DistArgs {
  platforms: TargetPlatform[];
  release: boolean;
  variant: BuildVariant;
  dirOnly: boolean;
}

export function parseDistArgs(args: readonly string[], env: Record<string, string | undefined>, host: NodeJS.Platform = process.platform): DistArgs {
  return {
    platforms: platformsFromArgs(args, host),
    release: isReleaseMode(args, env),
    variant: args.includes('--e2e') || env.LENDING_DESK_BUILD_VARIANT === 'e2e' ? 'e2e' : 'production',
    dirOnly: args.includes('--dir'),
  };
}

/**
 * The same test as the end-to-end hosts (tests/e2e/hosts.ts): look for what the electron
 * package's installer leaves behind, without loading the package, whose loader would start a
 * download.
 */
export function electronUnavailableReason(root: string, env: Record<string, string | undefined>): string | undefined {
  if (env.ELECTRON_OVERRIDE_DIST_PATH) return undefined;
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) {
    return 'Packaging skipped: no Electron binary (node_modules/electron/path.txt is absent; the binary could not be downloaded on this machine). '
      + 'The app was built and the packaging configuration checked; run npm run dist where GitHub (or ELECTRON_MIRROR) is reachable to get the installers.';
  }
  if (!existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8')))) return 'Packaging skipped: node_modules/electron/dist is incomplete.';
  return undefined;
}

/** electron-builder's own schema check (the one `build` runs first), so a bad option fails here too. */
async function validateWithElectronBuilder(config: Configuration): Promise<void> {
  const require = createRequire(join(ROOT, 'package.json'));
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
    validateConfiguration(config: Configuration, debugLogger: { isEnabled: boolean; add(key: string, value: unknown): void }): Promise<void>;
  };
  await validateConfiguration(config, { isEnabled: false, add: () => {} });
}

function run(command: string, args: string[]): number {
  return spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;
}

async function packageApp(config: Configuration, options: DistArgs): Promise<void> {
  // Loaded only here: the build machine without Electron never needs it.
  const { build, Platform } = await import('electron-builder');
  const platform = { win: Platform.WINDOWS, mac: Platform.MAC, linux: Platform.LINUX };
  const targets = new Map();
  for (const name of options.platforms) {
    for (const [key, value] of platform[name].createTarget(options.dirOnly ? 'dir' : null)) targets.set(key, value);
  }
  const files = await build({ projectDir: ROOT, targets, config, publish: 'never' });
  console.log(`Installers:\n  ${files.join('\n  ')}`);
}

async function main(): Promise<number> {
  const options = parseDistArgs(process.argv.slice(2), process.env);
  console.log(`== packaging configuration (${options.platforms.join(', ')}; ${options.variant}${options.release ? '; release mode' : ''})`);
  let config: Configuration;
  try {
    config = createBuilderConfig({ ...options, env: process.env, log: (line) => console.log(line) });
    await validateWithElectronBuilder(config);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  console.log('configuration valid (electron-builder schema)');

  console.log('== build (electron-vite)');
  if (run('npx', ['electron-vite', 'build']) !== 0) return 1;

  const reason = electronUnavailableReason(ROOT, process.env);
  if (reason) {
    console.log(`== package (electron-builder)\n${reason}`);
    return 0;
  }
  console.log('== package (electron-builder)');
  try {
    await packageApp(config, options);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  return 0;
}

if (import.meta.main) process.exitCode = await main();
