// A mirror belongs to (profile, origin): its file name says both, a profile's other origins
// are cleared when it opens, a removed profile's files go, and nobody else's do.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mirrorPath, prepareMirror, removeMirrors } from '../../../../electron/main/connection/mirror-files.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'mirror-files-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const touch = (name: string): void => writeFileSync(join(dir, name), 'x');

describe('mirror files', () => {
  it('name one file per profile and origin', () => {
    const a = mirrorPath(dir, 'main', 'https://a.example.org');
    expect(mirrorPath(dir, 'main', 'https://a.example.org')).toBe(a);
    expect(mirrorPath(dir, 'main', 'https://b.example.org')).not.toBe(a);
    expect(mirrorPath(dir, 'main-2', 'https://a.example.org')).not.toBe(a);
  });

  it('opening a profile at one origin clears its mirrors of other origins, and no other profile\'s', () => {
    const other = mirrorPath(dir, 'main', 'https://old.example.org');
    const neighbour = mirrorPath(dir, 'main-2', 'https://old.example.org');
    for (const path of [other, `${other}-wal`, neighbour]) writeFileSync(path, 'x');
    const path = prepareMirror(dir, 'main', 'https://new.example.org');
    expect(existsSync(other)).toBe(false);
    expect(existsSync(`${other}-wal`)).toBe(false);
    expect(existsSync(neighbour)).toBe(true);
    expect(path).toBe(mirrorPath(dir, 'main', 'https://new.example.org'));
  });

  it('keeps a mirror from before origins were in the name as the current origin\'s', () => {
    touch('catalog-main.db');
    touch('catalog-main.db-wal');
    const path = prepareMirror(dir, 'main', 'https://a.example.org');
    expect(existsSync(path)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(true);
    expect(existsSync(join(dir, 'catalog-main.db'))).toBe(false);
  });

  it("renames this origin's file from the name an earlier version gave it, once, WAL and all; its other origins' earlier files go", () => {
    const earlier = (origin: string): string => mirrorPath(dir, 'main', origin).replace(/mirror-main-/, 'catalog-main-');
    const a = earlier('https://a.example.org');
    const b = earlier('https://b.example.org');
    for (const file of [a, `${a}-wal`, b]) writeFileSync(file, file);
    const path = prepareMirror(dir, 'main', 'https://a.example.org');
    expect(path).toBe(mirrorPath(dir, 'main', 'https://a.example.org'));
    expect(path).toMatch(/mirror-main-[0-9a-f]{12}\.db$/);
    expect(readdirSync(dir).sort()).toEqual([path, `${path}-wal`].map((p) => p.slice(dir.length + 1)).sort());
    expect(readFileSync(path, 'utf8')).toBe(a); // the same file, not a new one
    expect(prepareMirror(dir, 'main', 'https://a.example.org')).toBe(path); // once: nothing left to rename
  });

  it('a removed profile loses all its mirror files', () => {
    for (const origin of ['https://a.example.org', 'https://b.example.org']) writeFileSync(mirrorPath(dir, 'main', origin), 'x');
    writeFileSync(mirrorPath(dir, 'main-2', 'https://a.example.org'), 'x');
    touch('catalog-main.db-shm');
    touch(mirrorPath(dir, 'main', 'https://c.example.org').slice(dir.length + 1).replace(/^mirror-/, 'catalog-'));
    expect(removeMirrors(dir, 'main')).toBe(4);
    expect(readdirSync(dir)).toEqual([mirrorPath(dir, 'main-2', 'https://a.example.org').slice(dir.length + 1)]);
  });
});

describe('who builds a partner client', () => {
  it('only the connection module, in the product code', () => {
    const root = REPO_ROOT;
    const hits = execFileSync('grep', ['-rln', 'new PartnerClient(', join(root, 'electron'), join(root, 'server')], { encoding: 'utf8' }).trim().split('\n').map((f) => f.slice(root.length + 1)).sort();
    // connection.ts builds a connection's client, connections.ts the one-off probe of unsaved credentials; client.ts its own priority views;
    // the library mirror service (a process of its own on a server, no desk) its one client.
    expect(hits).toEqual(['electron/main/connection/connection.ts', 'electron/main/connection/connections.ts', 'electron/node/partner/client.ts', 'server/service.ts']);
  });
});
