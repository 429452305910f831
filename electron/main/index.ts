// Electron entry: refuses debugging and network-altering switches in a packaged build, serves the renderer from
// app://desk, wires DeskService to Electron (desk-assembly.ts), registers the contract behind a
// sender check pinned to that origin and opens one locked-down window. Runs in Vitest under a
// recording Electron stand-in (tests/unit/main/startup.test.ts).
import fs from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, net, powerMonitor, protocol, session, shell } from 'electron';
import electronUpdater from 'electron-updater';
import { channelOf } from '../shared/contract.ts';
import { reasonText } from '../shared/reasons.ts';
import { START_REFUSALS_FR, type StartRefusal } from '../shared/start-refusals.ts';
import { registerContract, senderCheck } from '../ipc/register.ts';
import { createFileLogger } from '../logging/logger.ts';
import { loadMachinePolicy, logMachinePolicy } from '../policy/index.ts';
import { appFiles, rendererEntry } from './app-files.ts';
import { applicationMenuTemplate } from './app-menu.ts';
import { APP_SCHEME, createRendererHandler, PRIVILEGED_SCHEMES } from './app-protocol.ts';
import { createDesk } from './desk-assembly.ts';
import { contentSecurityPolicy, guardContents, isAllowedExternalUrl, secureWebPreferences } from './security.ts';
import { refusedNetworkOptions, refusedStartFlags } from './start-flags.ts';
import { endShiftBeforeQuit } from './quit-ends-shift.ts';
import { watchScreenLock } from './screen-lock.ts';
import { configureUpdates, scheduleUpdateChecks, windowsPublisherVerified } from './updates.ts';

const files = appFiles(import.meta.dirname);
let window: BrowserWindow | undefined;

async function start(): Promise<void> {
  const packaged = app.isPackaged;
  const userData = app.getPath('userData');
  const logger = createFileLogger({ dir: join(userData, 'logs') });
  // The machine policy, only from where IT alone can write (never from an environment variable);
  // whether `auto` updates are allowed depends on this build's signing (app-update.yml).
  const policy = loadMachinePolicy({ windowsPublisherVerified: process.platform === 'win32' && windowsPublisherVerified(process.resourcesPath) });
  logMachinePolicy(policy, logger);
  const { desk, settings } = createDesk({
    userData,
    mirrorWorker: files.mirrorWorker,
    // A separate keychain entry name, for end-to-end tests and for IT staff who run a second,
    // isolated copy (e.g. a training desk).
    keychainService: process.env.LENDING_DESK_KEYCHAIN_SERVICE || undefined,
    policy,
    logger,
    fetch: (input, init) => net.fetch(input, init),
    clipboard,
    emit: (event, payload) => window?.webContents.send(channelOf(event), payload),
    version: app.getVersion(),
  });

  // Electron's fs reads inside app.asar; plain Node's could not.
  protocol.handle(APP_SCHEME, createRendererHandler({
    root: files.renderer,
    readFile: (file) => fs.promises.readFile(file),
    onError: (file, error) => logger.error('renderer.file-unreadable', { file, error }),
  }));
  const entry = rendererEntry(packaged, process.env);
  if (entry.devServer) {
    session.defaultSession.webRequest.onHeadersReceived({ urls: [`${entry.origin}/*`] }, (details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy()] } });
    });
  }
  Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenuTemplate({ packaged, platform: process.platform })));

  const state = settings.read().window;
  window = new BrowserWindow({
    ...(state.x === undefined || state.y === undefined ? {} : { x: state.x, y: state.y }),
    width: state.width,
    height: state.height,
    minWidth: 1024,
    minHeight: 700,
    title: 'Lending Desk',
    show: false,
    webPreferences: secureWebPreferences(files.preload, { devTools: !packaged }),
  });
  if (state.maximized) window.maximize();
  // Title pages open in the system browser: the sandbox's, and those on hosts the service named for a title (title-pages.ts).
  const opensExternally = (url: string): boolean => isAllowedExternalUrl(url) || desk.isTitlePage(url);
  guardContents(window.webContents, window.webContents.session, (url) => {
    if (opensExternally(url)) void shell.openExternal(url);
  }, opensExternally);

  const ours = window.webContents;
  registerContract(ipcMain, desk, senderCheck((sender) => sender === ours, [entry.origin]), logger);

  // The OS locking the session locks the desk (Linux by asking: Electron has no event there);
  // main's own idle lock holds when the renderer is frozen; quitting ends the shift first.
  const stopScreenLockWatch = watchScreenLock(powerMonitor, { platform: process.platform, onLocked: () => void desk.lock('system') });
  const stopIdleWatch = desk.startIdleWatch();
  endShiftBeforeQuit(app, () => desk.endShiftForQuit());
  const stopAvailabilityRefresh = desk.startAvailabilityRefresh();
  const stopActionLogRetention = desk.startActionLogRetention();
  const stopFullEntitlementPass = desk.startFullEntitlementPass();
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
    stopActionLogRetention();
    stopScreenLockWatch();
    stopIdleWatch();
    stopFullEntitlementPass();
    void desk.close().finally(() => logger.close());
  });

  await window.loadURL(entry.url);
  logger.info('app.start', { version: app.getVersion(), packaged, settingsProblem: settings.lastLoadProblem?.message });
}

/** Said in English and French: before any window or setting, the desk's language is not known. */
function refuseToStart(reason: StartRefusal, flags: string[]): void {
  const params = { flags: flags.join(', ') };
  const message = `${reasonText(reason, params)}\n\n${START_REFUSALS_FR[reason].replace('{flags}', params.flags)}`;
  console.error(message);
  // Before `ready` this is a dialog on Windows and macOS, and stderr on Linux.
  dialog.showErrorBox('Lending Desk', message);
  app.exit(1);
}

function boot(): void {
  // A separate data folder, for end-to-end tests and for a second, isolated copy.
  if (process.env.LENDING_DESK_USER_DATA_DIR) app.setPath('userData', process.env.LENDING_DESK_USER_DATA_DIR);
  // Must happen before `ready`.
  protocol.registerSchemesAsPrivileged(PRIVILEGED_SCHEMES);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
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

const refused = app.isPackaged ? refusedStartFlags(process.argv.slice(1), (name) => app.commandLine.hasSwitch(name), process.platform) : [];
const networkRefused = app.isPackaged ? refusedNetworkOptions(process.argv.slice(1), (name) => app.commandLine.hasSwitch(name), process.platform, process.env) : [];
if (refused.length > 0) refuseToStart('start.debugging-refused', refused);
else if (networkRefused.length > 0) refuseToStart('start.network-refused', networkRefused);
else boot();
