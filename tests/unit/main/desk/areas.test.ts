// The desk's areas (electron/main/desk/areas/) depend one way: the shift at the bottom, connections on
// it, the action log on both, the patron desk and the Collection on top. An area never imports
// DeskService (which composes them) or the lock gate (which DeskService puts in front of them);
// read from the import lines, type-only imports included.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../support/repo-root.ts';

const AREAS = join(REPO_ROOT, 'electron', 'main', 'desk', 'areas');

/** What each area file may import of the other areas' files. */
const ALLOWED: Record<string, string[]> = {
  'desk-pin.ts': [],
  'shift-area.ts': ['desk-pin.ts'],
  'connections-area.ts': ['shift-area.ts'],
  'action-log-area.ts': ['connections-area.ts', 'shift-area.ts'],
  'patron-desk-area.ts': ['action-log-area.ts', 'connections-area.ts'],
  'collection-area.ts': ['connections-area.ts'],
};

function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(join(AREAS, file), 'utf8'), true, true).importedFiles.map((ref) => ref.fileName);
}

describe("the desk's areas", () => {
  it('are each listed here, and import only the areas below them', () => {
    const files = readdirSync(AREAS).filter((file) => file.endsWith('.ts')).sort();
    expect(files).toEqual(Object.keys(ALLOWED).sort());
    for (const file of files) {
      const areas = importsOf(file).filter((name) => name.startsWith('./')).map((name) => basename(name)).sort();
      expect(areas, file).toEqual(ALLOWED[file]);
    }
  });

  it('never import what composes them: DeskService or the lock gate', () => {
    for (const file of Object.keys(ALLOWED)) {
      expect(importsOf(file).filter((name) => /desk-service|lock-gate/.test(name)), file).toEqual([]);
    }
  });
});
