// What IT's pages tell IT to run, read from the pages themselves, so the tests run the documented
// step and the page and the product cannot drift apart. A block a test runs is marked in the page
// with a comment naming the test (`<!-- run as written by tests/…: name -->`) before its fence.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './repo-root.ts';

export const readDoc = (name: string): string => readFileSync(join(REPO_ROOT, 'docs', name), 'utf8');

/** The fenced block marked `name` in `doc`; throws when the page has no such block. */
export function documentedBlock(doc: string, name: string): string {
  const marker = new RegExp(`<!-- run as written by tests/[\\w/.-]+\\.test\\.ts: ${name} -->`);
  const found = marker.exec(doc);
  if (!found) throw new Error(`The page marks no block "${name}" (${String(marker)}).`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(doc.slice(found.index + found[0].length));
  if (!block) throw new Error(`No fenced block follows the marker "${name}".`);
  return block[1] as string;
}

/** The page's lines (trimmed) that hold every one of `parts`. */
export const documentedLines = (doc: string, ...parts: string[]): string[] =>
  doc.split('\n').map((line) => line.trim()).filter((line) => parts.every((part) => line.includes(part)));
