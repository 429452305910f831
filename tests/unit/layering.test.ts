// The layers, checked. The type check step (npm run typecheck) compiles each process as a
// composite project that lists only the files that process may import (tsconfig.renderer.json,
// tsconfig.shared.json, tsconfig.node.json, tsconfig.main.json); an import of any other file is
// refused by the compiler (TS6307). This test proves each of those projects refuses what it must
// and accepts what it may — a deliberate violation is compiled beside the real files and must be
// reported on exactly its line — and checks what a compiler cannot: every import points down the
// one declared order of layers (scripts/layering/import-order.ts), the renderer's modules import
// one another without a cycle, and only the gateway touches window.lendingDesk.
import { readFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { checkTree, importsOf, ORDERS, scriptOf, sourceModules, unplaced, upwardImports } from '../../scripts/layering/import-order.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The lines of `probe` (1-based) the project reports as importing a file outside it. */
function refusedLines(config: string, probePath: string, lines: string[]): number[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, config), {}, {
    ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
  });
  if (!parsed) throw new Error(`${config} could not be read`);
  expect(parsed.options.composite, `${config} must be composite: only a composite project refuses files outside its list`).toBe(true);
  const probe = join(ROOT, probePath);
  const text = lines.join('\n');
  const host = ts.createCompilerHost(parsed.options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => file === probe || fileExists.call(host, file);
  host.readFile = (file) => (file === probe ? text : readFile.call(host, file));
  host.getSourceFile = (file, language, ...rest) => (file === probe ? ts.createSourceFile(file, text, language) : getSourceFile.call(host, file, language, ...rest));
  const program = ts.createProgram({ rootNames: [...parsed.fileNames, probe], options: parsed.options, host });
  const source = program.getSourceFile(probe)!;
  return program.getSemanticDiagnostics(source)
    .filter((d) => d.code === 6307 && d.file === source)
    .map((d) => source.getLineAndCharacterOfPosition(d.start!).line + 1);
}

// The compiler reports a file outside the project once, at its first import: each kind of
// import gets a file of its own, and each forbidden package a program of its own (they share
// the file they are mapped to).
describe('each process compiles only what it may import', () => {
  it('the renderer: electron/shared and nothing else of electron/, however it is imported', () => {
    expect(refusedLines('tsconfig.renderer.json', 'src/layering-probe.ts', [
      "import { METHODS } from '../electron/shared/contract.ts';",
      "import { backoffMs } from '../electron/partner/retry.ts';",
      "export type Words = typeof import('../electron/sandbox/words.ts');",
      "export const later = () => import('../electron/sandbox/random.ts');",
      "export { maskCard } from '../electron/shared/card-mask.ts';",
      "export * from '../electron/policy/location.ts';",
      'export const used = [METHODS, backoffMs];',
    ])).toEqual([2, 3, 4, 6]);
  });

  it('electron/shared: itself and zod only', () => {
    expect(refusedLines('tsconfig.shared.json', 'electron/shared/layering-probe.ts', [
      "import { z } from 'zod';",
      "import { DeskError } from './desk-error.ts';",
      "import { errorForStatus } from '../partner/status-codes.ts';",
      "import type { LifecycleEvent } from '../../src/lifecycle.ts';",
      'export const used = [z, DeskError, errorForStatus];',
      'export type Used = LifecycleEvent;',
    ])).toEqual([3, 4]);
  });

  it("electron/ outside main and preload: neither Electron's packages nor src/", () => {
    expect(refusedLines('tsconfig.node.json', 'electron/desk/layering-probe.ts', [
      "import { readFileSync } from 'node:fs';",
      "import { DeskError } from '../shared/desk-error.ts';",
      "import { app } from 'electron';",
      "import { useGateway } from '../../src/gateway/gateway.ts';",
      'export const used = [readFileSync, DeskError, app, useGateway];',
    ])).toEqual([3, 4]);
    expect(refusedLines('tsconfig.node.json', 'electron/settings/layering-probe.ts', ["export type { default as Store } from 'electron-store';"])).toEqual([1]);
    expect(refusedLines('tsconfig.node.json', 'electron/policy/layering-probe.ts', ["export const updater = () => import('electron-updater');"])).toEqual([1]);
  });

  it('electron/library-mirror (a headless service): the partner client, the mirror and shared code; never the desk, its connection, main, src/ or Electron', () => {
    expect(refusedLines('tsconfig.library-mirror.json', 'electron/library-mirror/layering-probe.ts', [
      "import { PartnerClient } from '../partner/client.ts';",
      "import type { SourceState } from '../shared/collection.ts';",
      "import { RequestBudget } from '../partner/request-budget.ts';",
      "import { DeskService } from '../desk/desk-service.ts';",
      "export type Main = typeof import('../main/app-files.ts');",
      "import { en } from '../../src/i18n/en.ts';",
      'export const used = [PartnerClient, RequestBudget, DeskService, en];',
      'export type Used = SourceState;',
    ])).toEqual([4, 5, 6]);
    expect(refusedLines('tsconfig.library-mirror.json', 'electron/library-mirror/layering-probe.ts', ["import { Connection } from '../connection/connection.ts';", 'export const used = Connection;'])).toEqual([1]);
    // The desk's modules import the sandbox themselves: a program of its own, or it is reported there.
    expect(refusedLines('tsconfig.library-mirror.json', 'electron/library-mirror/layering-probe.ts', ["export { startSandbox } from '../sandbox/server.ts';"])).toEqual([1]);
    expect(refusedLines('tsconfig.library-mirror.json', 'electron/library-mirror/layering-probe.ts', ["import { app } from 'electron';", 'export const used = app;'])).toEqual([1]);
  });

  it('electron/main and electron/preload: Electron, all of electron/, never src/', () => {
    expect(refusedLines('tsconfig.main.json', 'electron/main/layering-probe.ts', [
      "import { app } from 'electron';",
      "import { DeskService } from '../desk/desk-service.ts';",
      "import { en } from '../../src/i18n/en.ts';",
      'export const used = [app, DeskService, en];',
    ])).toEqual([3]);
  });
});

// ---- what the compiler does not check ----

describe('every import points down the one declared order (scripts/layering/import-order.ts)', () => {
  it('no module of electron/ or src/ imports a layer beside or above its own, and every module has a place in an order', () => {
    const { upward, unplaced: lost } = checkTree(ROOT);
    expect(upward).toEqual([]);
    expect(lost).toEqual([]);
  });

  it('places the mirror (#23) in main and the library mirror service (#25) beside it, with the mirror below both', () => {
    const layerOf = (program: string, entry: string): number => ORDERS[program]!.findIndex((layer) => layer.includes(entry));
    expect(layerOf('main', 'electron/mirror')).toBeGreaterThan(layerOf('main', 'electron/partner'));
    expect(layerOf('main', 'electron/mirror')).toBeLessThan(layerOf('main', 'electron/connection'));
    expect(layerOf('main', 'electron/library-mirror')).toBe(-1);
    expect(layerOf('library-mirror', 'electron/mirror')).toBeLessThan(layerOf('library-mirror', 'electron/library-mirror'));
    expect(unplaced(['electron/mirror/sync.ts', 'electron/library-mirror/service.ts', 'electron/reports/daily.ts', 'src/widgets/Chart.vue'])).toEqual(['electron/reports/daily.ts', 'src/widgets/Chart.vue']);
  });

  it("the app's error type is the shared layer's: every program has it at its lowest layer, and nothing outside electron/partner imports an error class from there", () => {
    for (const order of Object.values(ORDERS)) expect(order[0]).toContain('electron/shared');
    const namedImports = (text: string): { names: string[]; from: string }[] => [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)]
      .map((m) => ({ names: m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean), from: m[2]! }));
    const errorImports = (modules: [string, string][]): string[] => modules
      .filter(([file]) => !file.startsWith('electron/partner/'))
      .flatMap(([file, text]) => namedImports(scriptOf(file, text))
        .filter(({ from }) => posix.join(posix.dirname(file), from).startsWith('electron/partner/'))
        .flatMap(({ names, from }) => names.filter((name) => /Error$/.test(name)).map((name) => `${file}: ${name} from '${from}'`)));
    expect(errorImports(sourceModules(ROOT))).toEqual([]);
    expect(errorImports([['electron/settings/settings.ts', "import { ServiceError, type ErrorCode } from '../partner/service-error.ts';"]]))
      .toEqual(["electron/settings/settings.ts: ServiceError from '../partner/service-error.ts'"]);
    expect(sourceModules(ROOT).filter(([file, text]) => /\bclass DeskError\b/.test(text) && file !== 'electron/shared/desk-error.ts')).toEqual([]);
  });

  it('names the file and the import of each one that goes up or sideways, and lets the downward ones be', () => {
    const edges = [
      ...importsOf('electron/policy/schema.ts', "import { pinHashProblem } from '../desk/pin-hash.ts';"),
      ...importsOf('src/stores/patron.ts', "import { maskCard } from '../components/patron/mask.ts';"),
      ...importsOf('electron/settings/settings.ts', "import type { Vault } from '../credentials/vault.ts';"),
      ...importsOf('electron/mirror/sync.ts', "export const later = () => import('../connection/connection.ts');"),
      ...importsOf('electron/library-mirror/service.ts', "export type Budget = typeof import('../connection/request-budget.ts');"),
      ...importsOf('src/components/collection/Rows.vue', '<template><p /></template>\n<script setup lang="ts">\nimport { useCollectionStore } from \'../../stores/collection.ts\';\n</script>'),
      ...importsOf('electron/desk/desk-service.ts', "import { DeskError } from '../shared/desk-error.ts';"),
      ...importsOf('electron/desk/desk-service.ts', "import { IdleClock } from './idle-clock.ts';"),
      ...importsOf('src/stores/collection.ts', "import type { SortKey } from '../../electron/shared/collection.ts';"),
    ];
    expect(upwardImports(edges)).toEqual([
      "electron/policy/schema.ts imports '../desk/pin-hash.ts': electron/desk is above electron/policy in main's order",
      "src/stores/patron.ts imports '../components/patron/mask.ts': src/components is above src/stores in renderer's order",
      "electron/settings/settings.ts imports '../credentials/vault.ts': electron/credentials is beside electron/settings in main's order",
      "electron/mirror/sync.ts imports '../connection/connection.ts': electron/connection is above electron/mirror in main's order",
      "electron/mirror/sync.ts imports '../connection/connection.ts': electron/connection/connection.ts has no place in library-mirror's order",
      "electron/library-mirror/service.ts imports '../connection/request-budget.ts': electron/connection/request-budget.ts has no place in library-mirror's order",
    ]);
  });
});

/** The renderer's modules, as [path, code]. */
const rendererModules = (): [string, string][] => sourceModules(ROOT).filter(([file]) => file.startsWith('src/'));

/** Every module of src/ to the src/ modules it imports (type-only imports included: a cycle of types is a cycle of ideas). */
function rendererImportGraph(): Map<string, string[]> {
  return new Map(rendererModules().map(([file, text]) => [file, importsOf(file, text).map((edge) => edge.to).filter((to) => to.startsWith('src'))]));
}

/** The first import cycle found, as the path around it, or undefined. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  function visit(node: string): string[] | undefined {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  }
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

// ---- one owner of the mirror: main holds no database ----

/** Every module `entry` loads, itself included, following relative imports (type-only ones too), each with the modules it names. */
function moduleGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string): void => {
    if (graph.has(file)) return;
    const named = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true).importedFiles.map((ref) => ref.fileName);
    graph.set(file, named);
    for (const name of named) if (name.startsWith('.')) visit(relative(ROOT, resolve(ROOT, file, '..', name)));
  };
  visit(entry);
  return graph;
}

/** The modules of a graph that import `module` themselves. */
const importersOf = (graph: Map<string, string[]>, module: string): string[] => [...graph].filter(([, named]) => named.includes(module)).map(([file]) => file).sort();

describe('main holds no database: only the mirror\'s owner thread opens it', () => {
  it('no module main loads imports node:sqlite; the owner thread\'s entry is where it is loaded', () => {
    const main = moduleGraph(join('electron', 'main', 'index.ts'));
    expect(main.has(join('electron', 'desk', 'desk-service.ts'))).toBe(true); // the graph reaches what main runs
    expect(main.has(join('electron', 'mirror', 'desk-mirror.ts'))).toBe(true);
    expect(importersOf(main, 'node:sqlite')).toEqual([]);
    const owner = moduleGraph(join('electron', 'mirror', 'mirror-worker.ts'));
    expect(importersOf(owner, 'node:sqlite')).toContain(join('electron', 'mirror', 'mirror-database.ts'));
  });

  it('finds one when there is', () => {
    const graph = new Map([['main.ts', ['./mirror.ts']], ['mirror.ts', ['node:sqlite', './model.ts']], ['model.ts', []]]);
    expect(importersOf(graph, 'node:sqlite')).toEqual(['mirror.ts']);
  });
});

describe('the renderer depends downward only', () => {
  it('has no import cycle among its modules (the stores once imported a reset list that imported them back)', () => {
    const graph = rendererImportGraph();
    expect(graph.get(join('src', 'stores', 'session.ts'))).toContain(join('src', 'lifecycle.ts'));
    expect(findCycle(graph)).toBeUndefined();
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['session', ['gateway', 'patron-data']], ['patron-data', ['patron']], ['patron', ['gateway', 'session']], ['gateway', ['lifecycle']], ['lifecycle', []],
    ]);
    expect(findCycle(graph)).toEqual(['session', 'patron-data', 'patron', 'session']);
    graph.set('patron', ['gateway']);
    expect(findCycle(graph)).toBeUndefined();
  });

  it('lets only the gateway touch window.lendingDesk (env.d.ts only declares its type)', () => {
    const touching = rendererModules().filter(([file, text]) => /\blendingDesk\b/.test(scriptOf(file, text))).map(([file]) => file);
    expect(touching.sort()).toEqual([join('src', 'env.d.ts'), join('src', 'gateway', 'gateway.ts')]);
  });
});
