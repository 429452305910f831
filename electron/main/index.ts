// Electron entry: wires DeskService to Electron (settings in electron-store, credentials in
// the keychain, logs in the user data folder, net.fetch for the system proxy), registers
// the contract behind the sender check and opens one locked-down window.
import { join } from 'node:path';
import { app, BrowserWindow, clipboard, ipcMain, net, powerMonitor, session, shell } from 'electron';
import Store from 'electron-store';
import electronUpdater from 'electron-updater';
import { channelOf } from '../shared/contract.ts';
import { ActionLog } from '../action-log/action-log.ts';
import { createKeytarVault } from '../credentials/index.ts';
import { DeskService } from '../desk/desk-service.ts';
import { registerContract, senderCheck } from '../ipc/register.ts';
import { createFileLogger } from '../logging/logger.ts';
import { loadMachinePolicy, logMachinePolicy } from '../policy/index.ts';
import { inProcessSandbox } from '../connection/sandbox-endpoint.ts';
import { readSettingsFile, Settings } from '../settings/index.ts';
import { contentSecurityPolicy, guardContents, isAllowedExternalUrl, secureWebPreferences } from './security.ts';
import { configureUpdates, scheduleUpdateChecks, windowsPublisherVerified } from './updates.ts';

let window: BrowserWindow | undefined;

// A separate data folder and keychain entry name, for end-to-end tests and for IT staff who
// run a second, isolated copy (e.g. a training desk).
if (process.env.LENDING_DESK_USER_DATA_DIR) app.setPath('userData', process.env.LENDING_DESK_USER_DATA_DIR);
const keychainService = process.env.LENDING_DESK_KEYCHAIN_SERVICE || undefined;

function rendererEntry(): { url?: string; file?: string } {
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  if (devUrl && !app.isPackaged) return { url: devUrl };
  return { file: join(import.meta.dirname, '../renderer/index.html') };
}

async function start(): Promise<void> {
  const logger = createFileLogger({ dir: join(app.getPath('userData'), 'logs') });
  const settings = new Settings(new Store({ name: 'settings', clearInvalidConfig: false, deserialize: readSettingsFile }));
  // The machine policy, only from where IT alone can write (never from an environment variable);
  // whether `auto` updates are allowed depends on this build's signing (app-update.yml).
  const policy = loadMachinePolicy({ windowsPublisherVerified: process.platform === 'win32' && windowsPublisherVerified(process.resourcesPath) });
  logMachinePolicy(policy, logger);
  const desk = new DeskService({
    settings,
    policy: policy.policy,
    policyProblem: policy.problems,
    vault: createKeytarVault(keychainService ? { service: keychainService } : {}),
    fetch: (input, init) => net.fetch(input, init),
    sandbox: async () => inProcessSandbox(),
    clipboard,
    logger,
    actionLog: new ActionLog(join(app.getPath('userData'), 'action-log.jsonl')),
    // The sync worker is bundled beside this file (electron.vite.config.ts).
    mirrors: { dir: join(app.getPath('userData'), 'catalog'), workerUrl: join(import.meta.dirname, 'sync-worker.js') },
    now: Date.now,
    version: app.getVersion(),
    emit: (event, payload) => window?.webContents.send(channelOf(event), payload),
  });
  const state = settings.read().window;

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy()] } });
  });

  window = new BrowserWindow({
    ...(state.x === undefined || state.y === undefined ? {} : { x: state.x, y: state.y }),
    width: state.width,
    height: state.height,
    minWidth: 1024,
    minHeight: 700,
    title: 'Lending Desk',
    show: false,
    webPreferences: secureWebPreferences(join(import.meta.dirname, '../preload/index.cjs')),
  });
  if (state.maximized) window.maximize();
  guardContents(window.webContents, window.webContents.session, (url) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
  });

  const entry = rendererEntry();
  const origins = entry.url ? [new URL(entry.url).origin] : ['file:'];
  const ours = window.webContents;
  registerContract(ipcMain, desk, senderCheck((sender) => sender === ours, origins), logger);

  powerMonitor.on('lock-screen', () => void desk.lock('system'));
  const stopAvailabilityRefresh = desk.startAvailabilityRefresh();
  window.on('close', () => {
    if (!window) return;
    const bounds = window.getNormalBounds();
    try {
      settings.update({ window: { ...bounds, maximized: window.isMaximized() } });
    } catch (error) {
      logger.warn('window.state-not-saved', { error });
    }
  });
  window.once('ready-to-show', () => window?.show());
  // Updates only for an installed app, and only as the policy allows (off without one).
  const updateChecks = app.isPackaged
    ? scheduleUpdateChecks(electronUpdater.autoUpdater, configureUpdates(electronUpdater.autoUpdater, policy, logger), logger)
    : undefined;
  app.on('will-quit', () => {
    updateChecks?.stop();
    stopAvailabilityRefresh();
    void desk.close();
  });

  if (entry.url) await window.loadURL(entry.url);
  else await window.loadFile(entry.file as string);
  logger.info('app.start', { version: app.getVersion(), settingsProblem: settings.lastLoadProblem });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
  void app.whenReady().then(start);
}
