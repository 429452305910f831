// `npm run dist`: the installers. Checks the packaging configuration first (signing and release
// mode, then electron-builder's own schema), builds the app with electron-vite, and packages it
// with electron-builder. Installers need an Electron binary; where none can be had (no route to
// GitHub, as on this project's build machine) it packs the app's layout instead (resources/
// app.asar and what is unpacked beside it, through electron-builder's own `dir` target over a
// stand-in Electron executable), says what it did and what it could not do, and exits 0.
//
//   node scripts/dist.ts [--win] [--mac] [--linux] [--dir] [--release] [--e2e]
//
// --release (or LENDING_DESK_RELEASE=1) refuses to build anything unsigned; --e2e builds the
// end-to-end test variant (inspector fuse on), which release mode refuses; --dir packages an
// unpacked app only (no installer), for a quick look.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
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
    return 'Installers skipped: no Electron binary (node_modules/electron/path.txt is absent; the binary could not be downloaded on this machine). '
      + 'Run npm run dist where GitHub (or ELECTRON_MIRROR) is reachable to get the installers.';
  }
  if (!existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8')))) return 'Installers skipped: node_modules/electron/dist is incomplete.';
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

// ---------------------------------------------------------------- the layout, without Electron

/**
 * A stand-in for Electron's Linux dist: one executable holding a fuse wire as stock Electron
 * ships it (sentinel, wire version 1, length, one byte per fuse), so the afterPack hook flips
 * real fuses at the path electron-builder gives it. No Chromium: nothing here can start.
 */
export function writeStandInElectronDist(dir: string): void {
  const stockWire = Buffer.from('101100011', 'latin1');
  mkdirSync(join(dir, 'resources'), { recursive: true });
  writeFileSync(join(dir, 'electron'), Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stand-in Electron executable: not runnable" >&2\nexit 1\n'),
    Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX', 'latin1'), Buffer.from([1, stockWire.length]), stockWire, Buffer.from('\n'),
  ]), { mode: 0o755 });
}

/** A copy of a folder tree made of hard links (cheap), falling back to copies across devices. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
  }
}

/**
 * The folder electron-builder should package. Normally the project itself. Where node_modules is
 * a link (git worktrees sharing one install), `npm ls` sees each package as a link leading out
 * of the project and drops their own dependencies (conf, under electron-store, went missing), so
 * the project is staged with a real node_modules made of hard links.
 */
function packagingProject(root: string): { dir: string; cleanUp(): void } {
  if (!lstatSync(join(root, 'node_modules')).isSymbolicLink()) return { dir: root, cleanUp: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'lending-desk-stage-'));
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(root, file), join(dir, file));
  cpSync(join(root, 'out'), join(dir, 'out'), { recursive: true });
  linkTree(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'));
  return { dir, cleanUp: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface PackagedLayout {
  /** The unpacked app, as the installers would lay it out (linux-unpacked). */
  appOutDir: string;
  asar: string;
  /** The executable (the stand-in), named as the Linux packages name it. */
  executable: string;
  /** Files unpacked beside the ASAR, relative to app.asar.unpacked. */
  unpacked: string[];
}

/**
 * electron-builder's own `dir` target for Linux over the stand-in dist: the same file selection,
 * production dependencies, ASAR, asarUnpack and afterPack hook as the installers. keytar is not
 * rebuilt (that needs Electron's headers from the network), so the layout carries the build for
 * this machine's Node.
 */
export async function buildPackagedLayout(options: { outputDir: string; root?: string; variant?: BuildVariant; log?: (line: string) => void }): Promise<PackagedLayout> {
  const { outputDir, root = ROOT, variant = 'production', log = () => {} } = options;
  const { build, Platform, Arch } = await import('electron-builder');
  const electronDist = mkdtempSync(join(tmpdir(), 'lending-desk-stand-in-electron-'));
  writeStandInElectronDist(electronDist);
  const project = packagingProject(root);
  try {
    const config: Configuration = {
      ...createBuilderConfig({ env: {}, platforms: ['linux'], release: false, variant, log }),
      electronDist,
      npmRebuild: false,
      directories: { output: outputDir, buildResources: join(root, 'resources') },
    };
    await build({ projectDir: project.dir, targets: Platform.LINUX.createTarget('dir', Arch.x64), config, publish: 'never' });
  } finally {
    project.cleanUp();
    rmSync(electronDist, { recursive: true, force: true });
  }
  const appOutDir = join(outputDir, 'linux-unpacked');
  const unpackedDir = join(appOutDir, 'resources', 'app.asar.unpacked');
  return {
    appOutDir,
    asar: join(appOutDir, 'resources', 'app.asar'),
    executable: join(appOutDir, 'lending-desk'),
    unpacked: existsSync(unpackedDir) ? listFiles(unpackedDir).map((file) => relative(unpackedDir, file)) : [],
  };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** What `npm run dist` did and could not do on a machine without Electron. */
export function describeLayout(layout: PackagedLayout, root: string = ROOT): string[] {
  const at = (path: string) => relative(root, path) || path;
  const natives = layout.unpacked.filter((file) => file.endsWith('.node'));
  return [
    `Packed the app as the installers would contain it (electron-builder dir target over a stand-in Electron executable): ${at(layout.asar)}`,
    `  unpacked beside it: ${natives.length > 0 ? natives.join(', ') : 'no native module (keytar\'s .node should be there)'}`,
    `  fuses flipped on the stand-in executable by the afterPack hook: ${at(layout.executable)}`,
    'Not done here (each needs an Electron binary or the network):',
    '  - the installers: NSIS (.exe), dmg and zip, AppImage and deb',
    '  - keytar rebuilt for Electron\'s ABI (needs Electron\'s headers); the layout carries the build for this machine\'s Node',
    '  - fuses flipped in a real Electron binary, and code signing and notarization',
    '  - starting the app: see docs/release.md "First run of a packaged build"',
  ];
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
    console.log('== packaged layout (no Electron binary)');
    try {
      const outputDir = join(ROOT, 'dist', 'layout');
      rmSync(outputDir, { recursive: true, force: true });
      const layout = await buildPackagedLayout({ outputDir, variant: options.variant, log: (line) => console.log(line) });
      for (const line of describeLayout(layout)) console.log(line);
    } catch (error) {
      console.error(error instanceof Error ? error.message : String(error));
      return 1;
    }
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
