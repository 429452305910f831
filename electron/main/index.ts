// Electron entry: starts the built-in sandbox partner service (the default when nothing else
// is configured), opens one locked-down window, and answers the bridge's two calls.
import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, net, type IpcMainInvokeEvent } from 'electron';
import { CHANNELS, type BridgeResult, type ConnectionInfo } from '../bridge.ts';
import { PartnerClient } from '../partner/client.ts';
import { isPartnerError } from '../partner/errors.ts';
import { startSandbox, type SandboxHandle } from '../sandbox/server.ts';

let sandbox: SandboxHandle | undefined;
let client: PartnerClient | undefined;
let window: BrowserWindow | undefined;

/** Only our own window's main frame may call main. */
function fromOurWindow(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  return frame !== null && window !== undefined && event.sender === window.webContents && frame === window.webContents.mainFrame;
}

async function answer<T>(event: IpcMainInvokeEvent, work: () => Promise<T>): Promise<BridgeResult<T>> {
  if (!fromOurWindow(event)) return { ok: false, error: { code: 'invalid-input', message: 'Refused: unknown sender.' } };
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (isPartnerError(error)) return { ok: false, error: { code: error.code, message: error.message } };
    return { ok: false, error: { code: 'server', message: 'Something went wrong in Lending Desk.' } };
  }
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 700,
    title: 'Lending Desk',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.webContents.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  if (process.env.ELECTRON_RENDERER_URL && !app.isPackaged) void win.loadURL(process.env.ELECTRON_RENDERER_URL);
  else void win.loadFile(join(import.meta.dirname, '../renderer/index.html'));
  return win;
}

async function start(): Promise<void> {
  sandbox = await startSandbox();
  client = new PartnerClient({
    baseUrl: sandbox.url,
    credentials: { username: sandbox.username, password: sandbox.password },
    fetch: (input, init) => net.fetch(input, init),
  });
  ipcMain.handle(CHANNELS.connectionInfo, (event) =>
    answer<ConnectionInfo>(event, async () => ({ mode: 'sandbox', baseUrl: sandbox!.url, libraries: sandbox!.libraries })));
  ipcMain.handle(CHANNELS.testConnection, (event) =>
    answer(event, async () => {
      const started = Date.now();
      await client!.testConnection();
      return { tokenMs: Date.now() - started };
    }));
  window = createWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => window?.focus());
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => void sandbox?.close());
  void app.whenReady().then(start);
}
