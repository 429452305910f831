// The packaged app without an Electron binary: electron-builder's own `dir` target over a
// stand-in Electron executable (scripts/dist.ts) produces the app.asar the installers would
// contain, and it is read with @electron/asar: main's app:// handler serves every file the page
// needs from inside it, keytar's native module is unpacked, main's paths and imports resolve.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix, relative } from 'node:path';
import asar from '@electron/asar';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFiles } from '../../../electron/main/app/app-files.ts';
import { keytarEntry } from '../../../electron/main/credentials/keytar-module.ts';
import { APP_ORIGIN, contentTypeOf, createRendererHandler } from '../../../electron/main/app/app-protocol.ts';
import { contentSecurityPolicy } from '../../../electron/main/app/security.ts';
import { buildPackagedLayout, describeLayout, type PackagedLayout } from '../../../scripts/dist.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let outputDir: string;
let layout: PackagedLayout;
/** Every file in the ASAR, relative and with forward slashes. */
let files: Set<string>;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) throw new Error('No build in out/: run `npx electron-vite build` first (npm test builds before Vitest).');
  outputDir = mkdtempSync(join(tmpdir(), 'lending-desk-layout-'));
  layout = await buildPackagedLayout({ outputDir });
  files = new Set(asar.listPackage(layout.asar, { isPack: false }).map((file) => file.replaceAll('\\', '/').replace(/^\//, '')));
}, 180_000);
afterAll(() => { if (outputDir) rmSync(outputDir, { recursive: true, force: true }); });

/** Reads a file of the ASAR by its absolute path under `layout.asar`, like Electron's fs would. */
async function readFromAsar(file: string): Promise<Uint8Array> {
  const inside = relative(layout.asar, file).replaceAll('\\', '/');
  if (!files.has(inside)) throw Object.assign(new Error(`${inside} is not in app.asar`), { code: 'ENOENT' });
  return asar.extractFile(layout.asar, inside);
}

const text = (file: string): string => asar.extractFile(layout.asar, file).toString('utf8');

/** The files a page, style sheet or module asks for, relative to the renderer folder. */
function references(file: string, body: string): string[] {
  const found = new Set<string>();
  const add = (spec: string) => {
    if (/^(?:[a-z]+:|\/\/|#)/i.test(spec)) return; // data:, https:, fragments: not ours to serve
    const clean = spec.split(/[?#]/)[0]!;
    // Vite writes base-relative "assets/…" and importer-relative "./…" references.
    found.add(clean.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), clean)) : posix.normalize(clean));
  };
  if (file.endsWith('.html')) for (const match of body.matchAll(/\s(?:src|href)="([^"]+)"/g)) add(match[1]!);
  if (file.endsWith('.css')) for (const match of body.matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g)) add(match[1]!);
  // In a bundle only paths count: its text also quotes bare names ('from "vue"' in warnings).
  if (file.endsWith('.js')) for (const match of body.matchAll(/["'`]((?:\.{1,2}\/|assets\/)[\w.\/-]+\.(?:js|css|svg|png|jpe?g|webp|gif|ico|woff2?|ttf|json))["'`]/g)) add(match[1]!);
  return [...found];
}

/** Bare package names a bundle imports (node builtins and Electron itself excluded). */
function bareImports(body: string): string[] {
  const names = new Set<string>();
  for (const match of body.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)["']([^"'./\s][^"'\s]*)["']/g)) {
    const spec = match[1]!;
    if (spec.startsWith('node:') || builtinModules.includes(spec) || spec === 'electron') continue;
    names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
  }
  return [...names];
}

/** Node's lookup: node_modules folders from `from` upwards, inside the ASAR. */
function resolvesInAsar(name: string, from: string): boolean {
  for (let dir = from; ; dir = posix.dirname(dir)) {
    if (files.has(posix.join(dir === '.' ? '' : dir, 'node_modules', name, 'package.json'))) return true;
    if (dir === '.' || dir === '') return false;
  }
}

describe('the app.asar electron-builder makes', () => {
  it('holds the built app and its production dependencies, not the sources or the tools', () => {
    const pkg = JSON.parse(text('package.json')) as { main: string };
    expect(files.has(pkg.main)).toBe(true);
    expect(pkg.main).toBe('out/main/index.js');
    expect([...files].filter((file) => /^(electron|src|tests|scripts|bench|resources)\//.test(file))).toEqual([]);
    expect([...files].filter((file) => file.startsWith('out/') && file.endsWith('.map'))).toEqual([]);
    for (const tool of ['electron', 'electron-builder', 'vitest', 'vite', '@playwright/test', 'typescript']) {
      expect(files.has(`node_modules/${tool}/package.json`), tool).toBe(false);
    }
  });

  it('unpacks keytar\'s native module beside the ASAR, where Electron loads it from', () => {
    const native = 'node_modules/keytar/build/Release/keytar.node';
    expect((asar.statFile(layout.asar, native) as { unpacked?: boolean }).unpacked).toBe(true);
    expect(existsSync(join(`${layout.asar}.unpacked`, native))).toBe(true);
    expect(layout.unpacked.filter((file) => file.endsWith('.node'))).toEqual([join('node_modules', 'keytar', 'build', 'Release', 'keytar.node')]);
  });

  it('holds keytar where main loads it from by absolute path: the app\'s own node_modules (issue #33)', () => {
    const modules = appFiles(join(layout.asar, 'out', 'main')).modules;
    expect(files.has(relative(layout.asar, keytarEntry(modules)).replaceAll('\\', '/'))).toBe(true);
    expect((asar.statFile(layout.asar, relative(layout.asar, join(modules, 'keytar', 'build', 'Release', 'keytar.node'))) as { unpacked?: boolean }).unpacked).toBe(true);
  });

  it('has the preload, the mirror worker and the renderer where main looks for them', () => {
    const mainDir = join(layout.asar, 'out', 'main');
    const expected = appFiles(mainDir);
    for (const file of [expected.preload, expected.mirrorWorker, join(expected.renderer, 'index.html')]) {
      expect(files.has(relative(layout.asar, file).replaceAll('\\', '/')), file).toBe(true);
    }
  });

  it('resolves every relative import of main, the worker and the preload inside it', () => {
    const bundles = [...files].filter((file) => /^out\/(main|preload)\/.*\.(c?js)$/.test(file));
    expect(bundles).toEqual(expect.arrayContaining(['out/main/index.js', 'out/main/mirror-worker.js', 'out/preload/index.cjs']));
    let imports = 0;
    for (const bundle of bundles) {
      for (const match of text(bundle).matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'](\.{1,2}\/[^"'\s]+)["']/g)) {
        expect(files.has(posix.normalize(posix.join(posix.dirname(bundle), match[1]!))), `${bundle} → ${match[1]}`).toBe(true);
        imports += 1;
      }
    }
    expect(imports).toBeGreaterThan(0); // main and the worker share a chunk
  });

  it('resolves every package main imports, and every dependency of every packed package, inside it', () => {
    const mainBundles = [...files].filter((file) => /^out\/main\/.*\.js$/.test(file));
    const imported = new Set(mainBundles.flatMap((bundle) => bareImports(text(bundle))));
    expect([...imported]).toEqual(expect.arrayContaining(['electron-store', 'electron-updater', 'zod']));
    for (const name of imported) expect(resolvesInAsar(name, 'out/main'), name).toBe(true);
    // The preload runs sandboxed: it may need nothing but electron.
    expect(bareImports(text('out/preload/index.cjs'))).toEqual([]);

    const packages = [...files].filter((file) => /(^|\/)node_modules\/(@[^/]+\/)?[^/@]+\/package\.json$/.test(file));
    expect(packages.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const manifest of packages) {
      const dir = posix.dirname(manifest);
      const { dependencies = {} } = JSON.parse(text(manifest)) as { dependencies?: Record<string, string> };
      for (const name of Object.keys(dependencies)) if (!resolvesInAsar(name, dir)) missing.push(`${dir} → ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('flips the fuses in the executable at the path electron-builder gives it', async () => {
    const wire = await getCurrentFuseWire(layout.executable);
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
  });

  it('carries the update metadata electron-updater reads', () => {
    expect(readFileSync(join(layout.appOutDir, 'resources', 'app-update.yml'), 'utf8')).toMatch(/provider: generic/);
  });

  it('is described by npm run dist, with what could not be done here', () => {
    const lines = describeLayout(layout, outputDir).join('\n');
    expect(lines).toContain('linux-unpacked/resources/app.asar');
    expect(lines).toContain('node_modules/keytar/build/Release/keytar.node');
    expect(lines).toMatch(/Not done here[\s\S]*installers[\s\S]*keytar rebuilt[\s\S]*signing/);
  });
});

describe('the renderer served from inside app.asar', () => {
  it('serves index.html and everything it references, and what those reference, with their types and the CSP', async () => {
    const serve = createRendererHandler({ root: join(layout.asar, 'out', 'renderer'), readFile: readFromAsar });
    const seen = new Set<string>();
    const queue = ['index.html'];
    while (queue.length > 0) {
      const file = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const response = await serve(new Request(`${APP_ORIGIN}/${file}`));
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toBe(contentTypeOf(file));
      expect(response.headers.get('content-security-policy'), file).toBe(contentSecurityPolicy());
      const type = contentTypeOf(file) ?? '';
      if (/html|css|javascript/.test(type)) queue.push(...references(file, await response.text()));
    }
    expect([...seen]).toEqual(expect.arrayContaining(['index.html']));
    expect([...seen].some((file) => file.endsWith('.js'))).toBe(true);
    expect([...seen].some((file) => file.endsWith('.css'))).toBe(true);
    // Nothing the build made is left unreachable and unchecked.
    const built = [...files]
      .filter((file) => file.startsWith('out/renderer/') && !('files' in asar.statFile(layout.asar, file)))
      .map((file) => file.slice('out/renderer/'.length));
    expect(built.filter((file) => !seen.has(file))).toEqual([]);
  });

  it('serves nothing from elsewhere in the ASAR', async () => {
    const serve = createRendererHandler({ root: join(layout.asar, 'out', 'renderer'), readFile: readFromAsar });
    for (const path of ['/../main/index.js', '/%2e%2e/main/index.js', '/..%2f..%2fpackage.json', '/../../node_modules/keytar/lib/keytar.js']) {
      expect((await serve({ url: `${APP_ORIGIN}${path}`, method: 'GET' })).status, path).toBe(404);
    }
  });
});
