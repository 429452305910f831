// Where the catalog lives, and its one move there, on a temporary folder: on Windows in local app
// data, moved from the roaming user data folder by a rename on one volume and by a copy with
// progress across volumes (a redirected %APPDATA% on a share), which a cut-short copy redoes.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogFolder, moveCatalogFolder, partialFolder, type MoveProgress } from '../../../../electron/main/connection/catalog-folder.ts';

let root: string;
let roaming: string;
let local: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'catalog-folder-'));
  roaming = join(root, 'Roaming', 'Lending Desk', 'catalog');
  local = join(root, 'Local', 'Lending Desk', 'catalog');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const acrossVolumes = (): never => { throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' }); };

function oldCatalog(): void {
  mkdirSync(roaming, { recursive: true });
  writeFileSync(join(roaming, 'catalog-main-0123456789ab.db'), Buffer.alloc(2 * 1024 * 1024 + 17, 1));
  writeFileSync(join(roaming, 'catalog-main-0123456789ab.db-wal'), Buffer.alloc(300_000, 2));
  writeFileSync(join(roaming, 'catalog-main-0123456789ab.db-shm'), Buffer.alloc(32_768, 3));
}

describe('catalogFolder', () => {
  const base = { userData: 'C:\\Users\\desk\\AppData\\Roaming\\Lending Desk', localAppData: 'C:\\Users\\desk\\AppData\\Local', appFolderName: 'Lending Desk', userDataChosen: false };

  it('on Windows: local app data, moved from the user data folder', () => {
    expect(catalogFolder({ ...base, platform: 'win32' })).toEqual({
      dir: join(base.localAppData, 'Lending Desk', 'catalog'),
      previous: join(base.userData, 'catalog'),
    });
  });

  it('elsewhere, for an isolated copy with a user data folder of its own, or without %LOCALAPPDATA%: the user data folder', () => {
    expect(catalogFolder({ ...base, platform: 'linux', userData: '/home/desk/.config/Lending Desk' })).toEqual({ dir: '/home/desk/.config/Lending Desk/catalog' });
    expect(catalogFolder({ ...base, platform: 'darwin' }).previous).toBeUndefined();
    expect(catalogFolder({ ...base, platform: 'win32', userDataChosen: true })).toEqual({ dir: join(base.userData, 'catalog') });
    expect(catalogFolder({ ...base, platform: 'win32', localAppData: undefined })).toEqual({ dir: join(base.userData, 'catalog') });
  });
});

describe('moveCatalogFolder', () => {
  it('renames on one volume', async () => {
    oldCatalog();
    await expect(moveCatalogFolder(roaming, local)).resolves.toEqual({ kind: 'renamed' });
    expect(readdirSync(local)).toHaveLength(3);
    expect(existsSync(roaming)).toBe(false);
  });

  it('copies across volumes, the files whole and the progress to the last byte, without the shared-memory file', async () => {
    oldCatalog();
    const progress: MoveProgress[] = [];
    let announced: number | undefined;
    const outcome = await moveCatalogFolder(roaming, local, { renameFolder: acrossVolumes, onCopyStart: (total) => { announced = total; }, onProgress: (p) => progress.push(p) });
    const total = 2 * 1024 * 1024 + 17 + 300_000;
    expect(outcome).toEqual({ kind: 'copied', files: 2, bytes: total });
    expect(announced).toBe(total);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toEqual({ done: total, total });
    expect(progress.every((p, i) => i === 0 || p.done >= progress[i - 1]!.done)).toBe(true);
    expect(readdirSync(local).sort()).toEqual(['catalog-main-0123456789ab.db', 'catalog-main-0123456789ab.db-wal']);
    expect(readFileSync(join(local, 'catalog-main-0123456789ab.db')).equals(Buffer.alloc(2 * 1024 * 1024 + 17, 1))).toBe(true);
    expect(existsSync(roaming)).toBe(false);
    expect(existsSync(partialFolder(local))).toBe(false);
  });

  it('a copy cut short is started again at the next launch, the old catalog untouched until the new one is whole', async () => {
    oldCatalog();
    mkdirSync(partialFolder(local), { recursive: true });
    writeFileSync(join(partialFolder(local), 'catalog-main-0123456789ab.db'), 'half');
    expect(existsSync(local)).toBe(false); // nothing half-copied is ever in use
    await expect(moveCatalogFolder(roaming, local, { renameFolder: acrossVolumes })).resolves.toMatchObject({ kind: 'copied', files: 2 });
    expect(readFileSync(join(local, 'catalog-main-0123456789ab.db')).length).toBe(2 * 1024 * 1024 + 17);
  });

  it('once moved, nothing more: a leftover old folder (the PC off before it went) goes, and a second run finds nothing', async () => {
    oldCatalog();
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, 'catalog-main-0123456789ab.db'), 'the moved one');
    await expect(moveCatalogFolder(roaming, local)).resolves.toEqual({ kind: 'finished-earlier' });
    expect(existsSync(roaming)).toBe(false);
    expect(readFileSync(join(local, 'catalog-main-0123456789ab.db'), 'utf8')).toBe('the moved one');
    await expect(moveCatalogFolder(roaming, local)).resolves.toEqual({ kind: 'nothing' });
  });

  it('a new desk has nothing to move', async () => {
    await expect(moveCatalogFolder(roaming, local)).resolves.toEqual({ kind: 'nothing' });
    expect(existsSync(local)).toBe(false);
  });

  it('a failure other than another volume is reported, the old catalog left where it was', async () => {
    oldCatalog();
    const locked = (): never => { throw Object.assign(new Error('EBUSY: resource busy or locked'), { code: 'EBUSY' }); };
    await expect(moveCatalogFolder(roaming, local, { renameFolder: locked })).rejects.toThrow('EBUSY');
    expect(readdirSync(roaming)).toHaveLength(3);
  });
});
