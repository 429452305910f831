// The application menu. Electron's default menu has View → Reload, Force Reload and Toggle
// Developer Tools (Ctrl+R, Ctrl+Shift+I): at a desk the first drops the patron on screen and the
// second opens an inspector, so a packaged build gets a menu without them. Roles give the labels
// and the platform's own shortcuts (copy and paste on macOS need the Edit menu).
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  packaged: boolean;
  platform: NodeJS.Platform;
}

export function applicationMenuTemplate({ packaged, platform }: MenuOptions): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  // Unpackaged (npm start, tests): the developer's tools. An explicit submenu, because the
  // viewMenu role's default one carries them too.
  if (!packaged) view.push({ type: 'separator' }, { role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' });
  return [
    ...(platform === 'darwin' ? [{ role: 'appMenu' } as const] : [{ role: 'fileMenu' } as const]),
    { role: 'editMenu' },
    { role: 'viewMenu', submenu: view },
    { role: 'windowMenu' },
  ];
}
