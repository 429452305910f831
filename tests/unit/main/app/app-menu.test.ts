// The application menu: nothing at a packaged desk reloads the page or opens DevTools.
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { applicationMenuTemplate } from '../../../../electron/main/app/app-menu.ts';

const DEVELOPER_ROLES = new Set(['reload', 'forceReload', 'toggleDevTools']);
const DEVELOPER_KEYS = /^(CmdOrCtrl|CommandOrControl|Ctrl|Control|Cmd|Command)\+(Shift\+)?(R|I)$|^Alt\+(CmdOrCtrl|Cmd|Command)\+I$|^F5$|^F12$/i;

/** Every item, depth first; a menu role whose default submenu holds developer items counts as them when it has no submenu of its own. */
function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
}

function developerEntries(template: MenuItemConstructorOptions[]): string[] {
  return items(template).flatMap((item) => {
    if (item.role && DEVELOPER_ROLES.has(item.role)) return [item.role];
    if (item.role === 'viewMenu' && item.submenu === undefined) return ['viewMenu (default submenu: reload, toggleDevTools)'];
    if (typeof item.accelerator === 'string' && DEVELOPER_KEYS.test(item.accelerator)) return [item.accelerator];
    return [];
  });
}

describe('application menu', () => {
  it.each(['win32', 'linux', 'darwin'] as const)('has no reload or DevTools entries when packaged (%s)', (platform) => {
    const template = applicationMenuTemplate({ packaged: true, platform });
    expect(developerEntries(template)).toEqual([]);
    expect(items(template).some((item) => item.role === 'editMenu')).toBe(true); // copy and paste keep working
  });

  it('keeps them for developers in an unpackaged build', () => {
    expect(developerEntries(applicationMenuTemplate({ packaged: false, platform: 'linux' }))).toEqual(['reload', 'forceReload', 'toggleDevTools']);
  });

  it('has the macOS application menu on macOS and a File menu elsewhere', () => {
    expect(applicationMenuTemplate({ packaged: true, platform: 'darwin' })[0]).toEqual({ role: 'appMenu' });
    expect(applicationMenuTemplate({ packaged: true, platform: 'win32' })[0]).toEqual({ role: 'fileMenu' });
  });
});
