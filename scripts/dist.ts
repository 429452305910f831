// `npm run dist`: the installers. Checks the packaging configuration first (signing and release
// mode, then electron-builder's own schema), builds the app with electron-vite, and packages it
// with electron-builder, which downloads its own Electron zip (and its packaging tools) the first
// time. Where that download cannot be reached (no route to GitHub, as on this project's build
// machine) it says so; in release mode that is a failure (exit 1), before anything is built.
// Otherwise it packs the app's layout instead (resources/app.asar and what is unpacked beside it,
// through electron-builder's own `dir` target over a stand-in Electron executable), says plainly
// that no installer was built, what it did and what it could not do, and exits 2: a script or a
// CI step that asked for installers must not take a layout for them (issue #33: it exited 0).
//
//   node scripts/dist.ts [--win] [--mac] [--linux] [--dir] [--release]
//
// --release (or LENDING_DESK_RELEASE=1) refuses to build anything unsigned or to end without
// installers; --dir packages an unpacked app only (no installer), for a quick look.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Configuration } from 'electron-builder';
import { createBuilderConfig, isReleaseMode, platformsFromArgs, type TargetPlatform } from '../electron-builder.config.ts';
import { electronDownloadProblem } from './electron-binary.ts';

const ROOT = join(import.meta.dirname, '..');

export interface DistArgs {
  platforms: TargetPlatform[];
  release: boolean;
  dirOnly: boolean;
}

export function parseDistArgs(args: readonly string[], env: Record<string, string | undefined>, host: NodeJS.Platform = process.platform): DistArgs {
  return { platforms: platformsFromArgs(args, host), release: isReleaseMode(args, env), dirOnly: args.includes('--dir') };
}

/** The Electron version electron-builder packages: the electron package's. */
function electronVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Why electron-builder cannot get Electron here, or undefined when it can: Electron's download
 * (GitHub, or ELECTRON_MIRROR) must answer. Bounded (scripts/electron-binary.ts), so a network
 * that drops packets costs seconds, not electron-builder's own minutes of retries.
 */
export async function electronUnavailableReason(root: string, env: Record<string, string | undefined>, probe: typeof electronDownloadProblem = electronDownloadProblem): Promise<string | undefined> {
  const version = electronVersion(root);
  const problem = await probe(version, env);
  if (!problem) return undefined;
  return `Installers not built: electron-builder downloads Electron ${version} (and its packaging tools) from GitHub, and ${problem}. `
    + 'Run npm run dist where GitHub is reachable, or set ELECTRON_MIRROR and ELECTRON_BUILDER_BINARIES_MIRROR to mirrors you have.';
}

/** A packaging failure that is a download failing (electron-builder fetches Electron and its tools on first use). */
export function isDownloadFailure(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String((error as { code?: unknown }).code ?? '')} ${String((error as { cause?: { code?: unknown } }).cause?.code ?? '')}` : String(error);
  return /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|fetch failed|getaddrinfo|socket hang up|cannot download/i.test(text);
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
export async function buildPackagedLayout(options: { outputDir: string; root?: string; log?: (line: string) => void }): Promise<PackagedLayout> {
  const { outputDir, root = ROOT, log = () => {} } = options;
  const { build, Platform, Arch } = await import('electron-builder');
  const electronDist = mkdtempSync(join(tmpdir(), 'lending-desk-stand-in-electron-'));
  writeStandInElectronDist(electronDist);
  const project = packagingProject(root);
  try {
    const config: Configuration = {
      ...createBuilderConfig({ env: {}, platforms: ['linux'], release: false, log }),
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
    '  - the installers: NSIS (.exe) and MSI, dmg and zip, deb',
    '  - keytar rebuilt for Electron\'s ABI (needs Electron\'s headers); the layout carries the build for this machine\'s Node',
    '  - fuses flipped in a real Electron binary, and code signing and notarization',
    '  - starting the app: see docs/release.md "First run of a packaged build"',
  ];
}

async function packLayoutInstead(): Promise<number> {
  console.log('== packaged layout (no installers)');
  try {
    const outputDir = join(ROOT, 'dist', 'layout');
    rmSync(outputDir, { recursive: true, force: true });
    const layout = await buildPackagedLayout({ outputDir, log: (line) => console.log(line) });
    for (const line of describeLayout(layout)) console.log(line);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  return 0;
}

/** What a run asked for, in words: each platform's installers, or the unpacked app. */
export function targetsAsked(options: DistArgs): string {
  const installers = { win: 'Windows (NSIS and MSI)', mac: 'macOS (dmg and zip)', linux: 'Linux (deb)' };
  return options.platforms.map((platform) => (options.dirOnly ? `the unpacked ${installers[platform].split(' ')[0]} app` : installers[platform])).join(', ');
}

/** The exit code of a run that packed the layout instead of what was asked (0 would read as success). */
export const NO_INSTALLER_EXIT = 2;

/** The steps `npm run dist` takes; a test gives stand-ins for the slow and network-bound ones. */
export interface DistSteps {
  electronUnavailable: () => Promise<string | undefined>;
  build: () => number;
  packageApp: (config: Configuration, options: DistArgs) => Promise<void>;
  packLayout: () => Promise<number>;
  validate: (config: Configuration) => Promise<void>;
}

const REAL_STEPS: DistSteps = {
  electronUnavailable: () => electronUnavailableReason(ROOT, process.env),
  build: () => run('npx', ['electron-vite', 'build']),
  packageApp,
  packLayout: packLayoutInstead,
  validate: validateWithElectronBuilder,
};

/** The layout instead of what was asked, then a plain word that no installer was built, and a non-zero exit. */
async function layoutInstead(steps: DistSteps, options: DistArgs): Promise<number> {
  const packed = await steps.packLayout();
  console.error(`No installer was built: asked for ${targetsAsked(options)}, which needs Electron's download (see above). `
    + (packed === 0 ? 'Only the app\'s layout was packed, in dist/layout/; it is not an installer and cannot start.' : 'The app\'s layout could not be packed either.'));
  return packed === 0 ? NO_INSTALLER_EXIT : 1;
}

export async function dist(argv: readonly string[], env: Record<string, string | undefined>, steps: DistSteps = REAL_STEPS): Promise<number> {
  const options = parseDistArgs(argv, env);
  console.log(`== packaging configuration (${options.platforms.join(', ')}${options.release ? '; release mode' : ''})`);
  let config: Configuration | undefined;
  const refusals: string[] = [];
  try {
    config = createBuilderConfig({ ...options, env, log: (line) => console.log(line) });
    await steps.validate(config);
    console.log('configuration valid (electron-builder schema)');
  } catch (error) {
    refusals.push(error instanceof Error ? error.message : String(error));
  }
  // Asked before anything is built: in release mode, no installers is a failure, said at once.
  const unavailable = await steps.electronUnavailable();
  if (unavailable && options.release) refusals.push(`${unavailable}\nRelease mode refuses to end without installers.`);
  if (refusals.length > 0 || !config) {
    for (const refusal of refusals) console.error(refusal);
    return 1;
  }

  console.log('== build (electron-vite)');
  if (steps.build() !== 0) return 1;

  console.log('== package (electron-builder)');
  if (unavailable) {
    console.log(unavailable);
    return layoutInstead(steps, options);
  }
  try {
    await steps.packageApp(config, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!isDownloadFailure(error)) {
      console.error(message);
      return 1;
    }
    console.error(`Installers not built: electron-builder could not download what it needs (${message}).`);
    if (options.release) return 1;
    return layoutInstead(steps, options);
  }
  return 0;
}

if (import.meta.main) process.exitCode = await dist(process.argv.slice(2), process.env);
