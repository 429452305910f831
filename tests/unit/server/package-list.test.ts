// The library server is a process of its own with its own package list (server/package.json):
// what its image installs. Every package its code loads — following imports from its entry,
// through electron/node and electron/shared — is on that list, no desk package is (Electron,
// keytar, electron-store…), and the Containerfile copies every folder the server loads.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/repo-root.ts';

const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');
const dependencies = (file: string): string[] => Object.keys((JSON.parse(read(file)) as { dependencies?: Record<string, string> }).dependencies ?? {});

/** Every module the entry loads (type-only imports too) and every bare package name they import. */
function loads(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const { fileName } of ts.preProcessFile(read(file), true, true).importedFiles) {
      if (fileName.startsWith('.')) visit(posix.normalize(posix.join(posix.dirname(file), fileName)));
      else if (!fileName.startsWith('node:') && !builtinModules.includes(fileName)) {
        packages.add(fileName.startsWith('@') ? fileName.split('/').slice(0, 2).join('/') : fileName.split('/')[0]!);
      }
    }
  };
  visit(entry);
  return { modules, packages };
}

describe("the library server's own package list", () => {
  const { modules, packages } = loads('server/main.ts');

  it('lists every package the server loads, and nothing the desk alone needs', () => {
    const listed = dependencies('server/package.json');
    expect([...packages].filter((p) => !p.startsWith('@types/')).sort()).toEqual([...listed].sort());
    const deskOnly = dependencies('package.json').filter((p) => !listed.includes(p));
    expect(deskOnly).toEqual(expect.arrayContaining(['keytar', 'electron-store', 'electron-updater', 'native-reg']));
    expect([...packages].filter((p) => deskOnly.includes(p) || p === 'electron')).toEqual([]);
  });

  it("loads only server/, electron/node and electron/shared: the folders its image copies", () => {
    const folders = new Set([...modules].map((m) => (m.startsWith('server/') ? 'server/' : m.split('/').slice(0, 2).join('/') + '/')));
    expect([...folders].sort()).toEqual(['electron/node/', 'electron/shared/', 'server/']);
    const copied = [...read('server/deploy/Containerfile').matchAll(/^COPY (\S+\/) /gm)].map((m) => m[1]);
    expect(copied.sort()).toEqual([...folders].sort());
  });

  it('finds a desk package when the server would load one', () => {
    // The walk itself, on the desk's entry: it reaches Electron and electron-store. (keytar and
    // native-reg are loaded by their paths in the app's files, never imported by name: issue #33.)
    const desk = loads('electron/main/app/index.ts').packages;
    expect(desk).toContain('electron');
    expect(desk).toContain('electron-store');
  });
});
