// The layers, checked. The type check step (npm run typecheck) compiles each process as a
// composite project that lists only the files that process may import (tsconfig.renderer.json,
// tsconfig.shared.json, tsconfig.node.json, tsconfig.main.json, tsconfig.mirror-owner.json,
// server/tsconfig.json); an import of any other file is
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
      "import { backoffMs } from '../electron/node/partner/retry.ts';",
      "export type Words = typeof import('../electron/main/sandbox/words.ts');",
      "export const later = () => import('../electron/main/sandbox/random.ts');",
      "export { maskCard } from '../electron/shared/card-mask.ts';",
      "export * from '../electron/main/policy/location.ts';",
      'export const used = [METHODS, backoffMs];',
    ])).toEqual([2, 3, 4, 6]);
  });

  it('electron/shared: itself and zod only', () => {
    expect(refusedLines('tsconfig.shared.json', 'electron/shared/layering-probe.ts', [
      "import { z } from 'zod';",
      "import { DeskError } from './desk-error.ts';",
      "import { errorForStatus } from '../node/partner/status-codes.ts';",
      "import type { LifecycleEvent } from '../../src/lifecycle.ts';",
      'export const used = [z, DeskError, errorForStatus];',
      'export type Used = LifecycleEvent;',
    ])).toEqual([3, 4]);
  });

  it("main's code outside its Electron entry and the preload: neither Electron's packages, src/ nor the owner thread's code", () => {
    expect(refusedLines('tsconfig.node.json', 'electron/main/desk/layering-probe.ts', [
      "import { readFileSync } from 'node:fs';",
      "import { DeskError } from '../../shared/desk-error.ts';",
      "import { app } from 'electron';",
      "import { useGateway } from '../../../src/gateway/gateway.ts';",
      'export const used = [readFileSync, DeskError, app, useGateway];',
    ])).toEqual([3, 4]);
    expect(refusedLines('tsconfig.node.json', 'electron/main/desk/layering-probe.ts', ["export { MirrorDatabase } from '../../mirror-owner/mirror-database.ts';"])).toEqual([1]);
    expect(refusedLines('tsconfig.node.json', 'electron/main/settings/layering-probe.ts', ["export type { default as Store } from 'electron-store';"])).toEqual([1]);
    expect(refusedLines('tsconfig.node.json', 'electron/main/policy/layering-probe.ts', ["export const updater = () => import('electron-updater');"])).toEqual([1]);
  });

  it('the mirror owner thread: electron/node and electron/shared; never main, src/ or Electron', () => {
    expect(refusedLines('tsconfig.mirror-owner.json', 'electron/mirror-owner/layering-probe.ts', [
      "import { readPage } from '../node/sync/page-reading.ts';",
      "import { DeskError } from '../shared/desk-error.ts';",
      "import { DeskService } from '../main/desk/desk-service.ts';",
      "import { en } from '../../src/i18n/en.ts';",
      'export const used = [readPage, DeskError, DeskService, en];',
    ])).toEqual([3, 4]);
    expect(refusedLines('tsconfig.mirror-owner.json', 'electron/mirror-owner/layering-probe.ts', ["import { app } from 'electron';", 'export const used = app;'])).toEqual([1]);
  });

  it('the library server (server/, a headless process): electron/node and electron/shared; never the desk, its owner thread, src/ or Electron', () => {
    expect(refusedLines('server/tsconfig.json', 'server/layering-probe.ts', [
      "import { PartnerClient } from '../electron/node/partner/client.ts';",
      "import type { SourceState } from '../electron/shared/collection.ts';",
      "import { runSync } from '../electron/node/sync/engine.ts';",
      "import { DeskService } from '../electron/main/desk/desk-service.ts';",
      "export type Main = typeof import('../electron/main/app/app-files.ts');",
      "import { en } from '../src/i18n/en.ts';",
      'export const used = [PartnerClient, runSync, DeskService, en];',
      'export type Used = SourceState;',
    ])).toEqual([4, 5, 6]);
    expect(refusedLines('server/tsconfig.json', 'server/layering-probe.ts', ["import { MirrorOwner } from '../electron/mirror-owner/mirror-owner.ts';", 'export const used = MirrorOwner;'])).toEqual([1]);
    expect(refusedLines('server/tsconfig.json', 'server/layering-probe.ts', ["export { startSandbox } from '../electron/main/sandbox/server.ts';"])).toEqual([1]);
    expect(refusedLines('server/tsconfig.json', 'server/layering-probe.ts', ["import { app } from 'electron';", 'export const used = app;'])).toEqual([1]);
  });

  it('electron/main and electron/preload: Electron, electron/node and electron/shared, never src/ or the owner thread\'s code', () => {
    expect(refusedLines('tsconfig.main.json', 'electron/main/app/layering-probe.ts', [
      "import { app } from 'electron';",
      "import { DeskService } from '../desk/desk-service.ts';",
      "import { en } from '../../../src/i18n/en.ts';",
      "import { MirrorOwner } from '../../mirror-owner/mirror-owner.ts';",
      'export const used = [app, DeskService, en, MirrorOwner];',
    ])).toEqual([3, 4]);
  });
});

// ---- what the compiler does not check ----

describe('every import points down the one declared order (scripts/layering/import-order.ts)', () => {
  it('no module of electron/ or src/ imports a layer beside or above its own, and every module has a place in an order', () => {
    const { upward, unplaced: lost } = checkTree(ROOT);
    expect(upward).toEqual([]);
    expect(lost).toEqual([]);
  });

  it('places each thread and process in its own folder: main, the mirror owner, the renderer, the server; the sync engine below both of its users', () => {
    const layerOf = (program: string, entry: string): number => ORDERS[program]!.findIndex((layer) => layer.includes(entry));
    expect(layerOf('main', 'electron/node/sync')).toBeLessThan(layerOf('main', 'electron/main/mirror'));
    expect(layerOf('server', 'electron/node/sync')).toBeLessThan(layerOf('server', 'server'));
    expect(layerOf('main', 'electron/mirror-owner')).toBe(-1);
    expect(layerOf('main', 'server')).toBe(-1);
    expect(layerOf('mirror-owner', 'electron/main/mirror')).toBe(-1);
    expect(layerOf('server', 'electron/mirror-owner')).toBe(-1);
    expect(unplaced(['electron/node/sync/engine.ts', 'server/service.ts', 'electron/reports/daily.ts', 'src/widgets/Chart.vue'])).toEqual(['electron/reports/daily.ts', 'src/widgets/Chart.vue']);
  });

  it("the app's error type is the shared layer's: every program has it at its lowest layer, and nothing outside electron/node/partner imports an error class from there", () => {
    for (const order of Object.values(ORDERS)) expect(order[0]).toContain('electron/shared');
    const namedImports = (text: string): { names: string[]; from: string }[] => [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)]
      .map((m) => ({ names: m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean), from: m[2]! }));
    const errorImports = (modules: [string, string][]): string[] => modules
      .filter(([file]) => !file.startsWith('electron/node/partner/'))
      .flatMap(([file, text]) => namedImports(scriptOf(file, text))
        .filter(({ from }) => posix.join(posix.dirname(file), from).startsWith('electron/node/partner/'))
        .flatMap(({ names, from }) => names.filter((name) => /Error$/.test(name)).map((name) => `${file}: ${name} from '${from}'`)));
    expect(errorImports(sourceModules(ROOT))).toEqual([]);
    expect(errorImports([['electron/main/settings/settings.ts', "import { ServiceError, type ErrorCode } from '../../node/partner/service-error.ts';"]]))
      .toEqual(["electron/main/settings/settings.ts: ServiceError from '../../node/partner/service-error.ts'"]);
    expect(sourceModules(ROOT).filter(([file, text]) => /\bclass DeskError\b/.test(text) && file !== 'electron/shared/desk-error.ts')).toEqual([]);
  });

  it('names the file and the import of each one that goes up or sideways, and lets the downward ones be', () => {
    const edges = [
      ...importsOf('electron/main/policy/schema.ts', "import { pinHashProblem } from '../desk/pin-hash.ts';"),
      ...importsOf('src/stores/patron.ts', "import { maskCard } from '../components/patron/mask.ts';"),
      ...importsOf('electron/main/settings/settings.ts', "import type { Vault } from '../credentials/vault.ts';"),
      ...importsOf('electron/node/sync/engine.ts', "export const later = () => import('../../main/connection/connection.ts');"),
      ...importsOf('server/service.ts', "export type Budget = typeof import('../electron/main/connection/request-budget.ts');"),
      ...importsOf('src/components/collection/Rows.vue', '<template><p /></template>\n<script setup lang="ts">\nimport { useCollectionStore } from \'../../stores/collection.ts\';\n</script>'),
      ...importsOf('electron/main/desk/desk-service.ts', "import { DeskError } from '../../shared/desk-error.ts';"),
      ...importsOf('electron/main/desk/desk-service.ts', "import { IdleClock } from './idle-clock.ts';"),
      ...importsOf('src/stores/collection.ts', "import type { SortKey } from '../../electron/shared/collection.ts';"),
    ];
    expect(upwardImports(edges)).toEqual([
      "electron/main/policy/schema.ts imports '../desk/pin-hash.ts': electron/main/desk is above electron/main/policy in main's order",
      "src/stores/patron.ts imports '../components/patron/mask.ts': src/components is above src/stores in renderer's order",
      "electron/main/settings/settings.ts imports '../credentials/vault.ts': electron/main/credentials is beside electron/main/settings in main's order",
      "electron/node/sync/engine.ts imports '../../main/connection/connection.ts': electron/main/connection is above electron/node/sync in main's order",
      "electron/node/sync/engine.ts imports '../../main/connection/connection.ts': electron/main/connection/connection.ts has no place in mirror-owner's order",
      "electron/node/sync/engine.ts imports '../../main/connection/connection.ts': electron/main/connection/connection.ts has no place in server's order",
      "server/service.ts imports '../electron/main/connection/request-budget.ts': electron/main/connection/request-budget.ts has no place in server's order",
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
    const main = moduleGraph(join('electron', 'main', 'app', 'index.ts'));
    expect(main.has(join('electron', 'main', 'desk', 'desk-service.ts'))).toBe(true); // the graph reaches what main runs
    expect(main.has(join('electron', 'main', 'mirror', 'desk-mirror.ts'))).toBe(true);
    expect(importersOf(main, 'node:sqlite')).toEqual([]);
    expect([...main.keys()].filter((file) => file.startsWith(join('electron', 'mirror-owner')))).toEqual([]);
    const owner = moduleGraph(join('electron', 'mirror-owner', 'mirror-worker.ts'));
    expect(importersOf(owner, 'node:sqlite')).toContain(join('electron', 'mirror-owner', 'mirror-file.ts'));
    expect([...owner.keys()].filter((file) => file.startsWith(join('electron', 'main')))).toEqual([]);
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
