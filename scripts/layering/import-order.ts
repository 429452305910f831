// Which part of the code may import which: each program's layers, lowest first. A module may
// import modules of its own entry (folder or file) and of any lower layer; an import of its own
// layer's other entries or of a higher layer is an upward import. A module is checked in every
// program that holds it, so an order cannot be dodged by a folder being in two. Every module of
// electron/ and src/ must have a place: a new folder is placed here before it is imported.
// tests/unit/layering.test.ts checks the tree against this table; docs/architecture.md says why
// the order is what it is. `node scripts/layering/import-order.ts` lists what breaks it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** A program's layers, lowest first; each layer lists folders or single files (paths from the repository root). */
export type Order = readonly (readonly string[])[];

export const ORDERS: Readonly<Record<string, Order>> = {
  // The desk's main process (electron/main) and its preload: never the mirror's owner thread's
  // code, which runs on a thread of its own (electron/mirror-owner), nor the library server's.
  // The library mirror's sessions (electron/node/library-mirror) only for IT's headless check
  // (electron/main/check-desk), which runs instead of the desk, with no window.
  main: [
    ['electron/shared'],
    ['electron/node/partner'],
    ['electron/node/logging', 'electron/node/pin', 'electron/node/library-server-protocol.ts', 'electron/main/settings', 'electron/main/credentials', 'electron/main/sandbox'],
    ['electron/node/library-mirror'],
    ['electron/node/sync'],
    ['electron/node/mirror-interface.ts'],
    ['electron/main/policy'],
    ['electron/main/action-log'],
    ['electron/main/mirror'],
    ['electron/main/connection'],
    ['electron/main/desk'],
    ['electron/main/check-desk'],
    ['electron/main/ipc'],
    ['electron/main/app', 'electron/preload'],
  ],
  // The mirror's owner thread: the one holder of the mirror's SQLite file.
  'mirror-owner': [
    ['electron/shared'],
    ['electron/node/partner'],
    ['electron/node/logging'],
    ['electron/node/library-mirror'],
    ['electron/node/sync'],
    ['electron/node/mirror-interface.ts'],
    ['electron/mirror-owner'],
  ],
  // The window: of electron/ only the shared layer (tsconfig.renderer.json refuses the rest).
  renderer: [
    ['electron/shared', 'src/styles.css'],
    ['src/i18n', 'src/lifecycle.ts', 'src/env.d.ts', 'src/shims-vue.d.ts'],
    ['src/gateway'],
    ['src/stores', 'src/composables'],
    ['src/components'],
    ['src/App.vue'],
    ['src/main.ts'],
  ],
  // The library server: a headless process of its own, never the desk's main or its owner thread.
  server: [
    ['electron/shared'],
    ['electron/node/partner'],
    ['electron/node/logging', 'electron/node/pin', 'electron/node/library-server-protocol.ts'],
    ['electron/node/library-mirror'],
    ['electron/node/sync'],
    ['server'],
  ],
};

/** The folders whose modules the orders must place. */
export const SOURCE_ROOTS = ['electron', 'src', 'server'] as const;

export interface ImportEdge {
  /** The importing module and the module it names, from the repository root. */
  from: string;
  to: string;
  /** The import as written. */
  written: string;
}

/** A module's code: a .vue file's is in its script blocks. */
export function scriptOf(file: string, text: string): string {
  if (!file.endsWith('.vue')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

/** Every relative import of one module (type-only ones and dynamic ones too: a layer is about ideas as well as code). */
export function importsOf(file: string, text: string): ImportEdge[] {
  return ts.preProcessFile(scriptOf(file, text), true, true).importedFiles
    .map((ref) => ref.fileName)
    .filter((written) => written.startsWith('.'))
    .map((written) => ({ from: file, to: posix.join(posix.dirname(file), written), written }));
}

/** Every module under the source roots, as [path from the root with forward slashes, text]. */
export function sourceModules(root: string): [string, string][] {
  return SOURCE_ROOTS.flatMap((dir) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|vue)$/.test(name))
    .map((name): [string, string] => [posix.join(dir, name.split(sep).join('/')), readFileSync(join(root, dir, name), 'utf8')]));
}

const holds = (entry: string, file: string): boolean => file === entry || file.startsWith(`${entry}/`);

/** Where a module sits in an order: its layer and entry, or undefined when the order does not hold it. */
function placeIn(order: Order, file: string): { layer: number; entry: string } | undefined {
  for (const [layer, entries] of order.entries()) {
    const entry = entries.find((e) => holds(e, file));
    if (entry) return { layer, entry };
  }
  return undefined;
}

/** The modules no order places. */
export function unplaced(files: Iterable<string>, orders: Readonly<Record<string, Order>> = ORDERS): string[] {
  return [...files].filter((file) => Object.values(orders).every((order) => !placeIn(order, file))).sort();
}

/** Each import that goes sideways or up in an order holding its module, in words that name the file and the import. */
export function upwardImports(edges: Iterable<ImportEdge>, orders: Readonly<Record<string, Order>> = ORDERS): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    for (const [program, order] of Object.entries(orders)) {
      const from = placeIn(order, edge.from);
      if (!from) continue;
      const to = placeIn(order, edge.to);
      if (to?.entry === from.entry) continue;
      if (!to) found.push(`${edge.from} imports '${edge.written}': ${edge.to} has no place in ${program}'s order`);
      else if (to.layer >= from.layer) {
        found.push(`${edge.from} imports '${edge.written}': ${to.entry} is ${to.layer === from.layer ? 'beside' : 'above'} ${from.entry} in ${program}'s order`);
      }
    }
  }
  return found;
}

/** The whole tree's upward imports and unplaced modules. */
export function checkTree(root: string): { upward: string[]; unplaced: string[] } {
  const modules = sourceModules(root);
  return {
    upward: upwardImports(modules.flatMap(([file, text]) => importsOf(file, text))),
    unplaced: unplaced(modules.map(([file]) => file)),
  };
}

if (import.meta.main) {
  const root = resolve(import.meta.dirname, '..', '..');
  const { upward, unplaced: lost } = checkTree(root);
  for (const line of [...upward, ...lost.map((file) => `${file} has no place in any order`)]) console.log(line);
  console.log(upward.length + lost.length === 0 ? 'No upward imports.' : `${upward.length} upward import(s), ${lost.length} module(s) without a place (${relative(process.cwd(), import.meta.filename)}).`);
  process.exitCode = upward.length + lost.length === 0 ? 0 : 1;
}
