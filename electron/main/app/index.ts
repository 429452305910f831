// Electron entry: refuses debugging and network-altering switches in a packaged build, serves the renderer from
// app://desk, wires DeskService to Electron (desk-assembly.ts), registers the contract behind a
// sender check pinned to that origin and opens one locked-down window. A start that fails at any
// step shows main's own page (start-page.ts: what failed, where the log is, in both languages)
// and quits when it is closed, so the next launch starts afresh; quitting waits, a few seconds at
// most, for the desk to close (quit.ts). Runs in Vitest under a recording Electron stand-in
// (tests/unit/main/app/startup.test.ts).
import fs from 'node:fs';
import { basename, join } from 'node:path';
import { app, BrowserWindow, clipboard, ClipboardItem, dialog, ipcMain, Menu, net, powerMonitor, protocol, session, shell } from 'electron';
import electronUpdater from 'electron-updater';
import { catalogFolder, localAppFolder, moveCatalogFolder } from '../connection/catalog-folder.ts';
import { channelOf } from '../../shared/contract.ts';
import { reasonText } from '../../shared/reasons.ts';
import { START_REFUSALS_FR, type StartRefusal } from '../../shared/start-refusals.ts';
import { registerContract, senderCheck } from '../ipc/register.ts';
import { createFileLogger, type Logger } from '../../node/logging/logger.ts';
import { loadMachinePolicy, logMachinePolicy } from '../policy/index.ts';
import { appFiles, rendererEntry } from './app-files.ts';
import { applicationMenuTemplate } from './app-menu.ts';
import { runDeskCheck, wantsDeskCheck } from './check-desk-run.ts';
import { APP_SCHEME, createRendererHandler, PRIVILEGED_SCHEMES } from './app-protocol.ts';
import { readBuildInfo } from './build-info.ts';
import { createDesk } from './desk-assembly.ts';
import { certificateTrust, interceptionAware } from './certificate-trust.ts';
import { applyChromiumSwitches } from './chromium-switches.ts';
import { removeRoamingChromiumData } from './chromium-data.ts';
import { electronClipboard } from './electron-clipboard.ts';
import { installedForAllUsers } from './install-kind.ts';
import { closeBeforeQuit } from './quit.ts';
import { endShiftBeforeQuit } from './quit-ends-shift.ts';
import { watchScreenLock } from './screen-lock.ts';
import { contentSecurityPolicy, guardContents, isAllowedExternalUrl, secureWebPreferences } from './security.ts';
import { refusedNetworkOptions, refusedStartFlags } from './start-flags.ts';
import { dataUrl, failurePage, movingPage } from './start-page.ts';
import { fill, START_TEXTS, type StartStep } from './start-texts.ts';
import { testVariables } from './test-variables.ts';
import { watchWaysOut, type WaysOut } from './ways-out.ts';
import { configureUpdates, scheduleUpdateChecks, windowsPublisherVerified, type UpdateSchedule } from './updates.ts';

const files = appFiles(import.meta.dirname);
/** A data folder and keychain entries of its own: honoured only by an unpackaged app (test-variables.ts). */
const chosen = testVariables(process.env, app.isPackaged);
/** The window on screen: the desk's, or main's own page (the catalog moving, a start that failed). */
let window: BrowserWindow | undefined;

/** Logoff, shutdown, restart, SIGTERM and a relaunch while quitting, each turned into the one quit (ways-out.ts). */
let ways: WaysOut | undefined;

/** What the start has opened so far, closed (in reverse) when the app quits. */
const opened: { logger?: Logger & { close(): void; readonly path: string }; closers: Array<() => Promise<void> | void> } = { closers: [] };

/** Events for the desk's page; never to a window or page that is gone (the app quitting, a start that failed). */
function send(channel: string, payload: unknown): void {
  if (!window || window.isDestroyed() || window.webContents.isDestroyed()) return;
  window.webContents.send(channel, payload);
}

/** A window for main's own pages: no preload, no JavaScript, nothing it may open. */
function pageWindow(title: string): BrowserWindow {
  return new BrowserWindow({
    width: 720, height: 600, title, show: true, autoHideMenuBar: true,
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false, devTools: false },
  });
}

async function start(step: (name: StartStep) => void): Promise<void> {
  const packaged = app.isPackaged;
  const userData = app.getPath('userData');

  step('log');
  const logger = createFileLogger({ dir: join(userData, 'logs') });
  opened.logger = logger;
  ways?.useLog(logger);
  opened.closers.push(() => ways?.stop());
  closeBeforeQuit(app, closeEverything, logger, { afterwards: () => { ways?.afterClose(); logger.close(); } });
  if (chosen.ignored.length > 0) logger.warn('app.test-variables-ignored', { variables: chosen.ignored });

  step('policy');
  // The machine policy, only from where IT alone can write (never from an environment variable);
  // whether `auto` updates are allowed depends on how this build was signed and installed.
  const windows = process.platform === 'win32';
  const forAllUsers = windows && packaged && installedForAllUsers(process.execPath, app.getPath('home'));
  const policy = loadMachinePolicy({
    windowsPublisherVerified: windows && windowsPublisherVerified(process.resourcesPath),
    installedForAllUsers: forAllUsers,
    macSigned: readBuildInfo(readAppFile('package.json')).macSigned,
    nativeModules: files.modules,
  });
  logMachinePolicy(policy, logger);
  if (app.getPath('sessionData') !== userData) {
    const removed = removeRoamingChromiumData(userData);
    if (removed.length > 0) logger.info('chromium-data.moved', { from: userData, to: app.getPath('sessionData'), removed });
  }
  // Whom the desk trusts on the wire, before any request: no private root but the library's
  // inspection CA that IT's policy names (certificate-trust.ts).
  const trust = certificateTrust({ inspectionCas: policy.policy?.tlsInspectionCa ?? [], log: logger });
  session.defaultSession.setCertificateVerifyProc(trust.verify);
  const catalogDir = await catalogInPlace(userData, logger);

  step('desk');
  const { desk, settings } = createDesk({
    userData,
    catalogDir,
    mirrorWorker: files.mirrorWorker,
    // A separate keychain entry name, for end-to-end tests and development (never when packaged).
    keychainService: chosen.keychainService,
    modules: files.modules,
    policy,
    logger,
    fetch: interceptionAware((input, init) => net.fetch(input, init), trust),
    clipboard: electronClipboard(clipboard, ClipboardItem),
    emit: (event, payload) => send(channelOf(event), payload),
    version: app.getVersion(),
    installedForAllUsers: forAllUsers,
  });
  opened.closers.push(() => desk.close());

  step('window');
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
  const moving = window;
  const deskWindow = new BrowserWindow({
    ...(state.x === undefined || state.y === undefined ? {} : { x: state.x, y: state.y }),
    width: state.width,
    height: state.height,
    minWidth: 1024,
    minHeight: 700,
    title: 'Lending Desk',
    show: false,
    webPreferences: secureWebPreferences(files.preload, { devTools: !packaged }),
  });
  window = deskWindow;
  // The catalog's moving page gives way once the desk's window exists (never no window: that quits).
  if (moving && !moving.isDestroyed()) moving.close();
  if (state.maximized) deskWindow.maximize();
  // Title pages open in the system browser: the sandbox's, and those on hosts the service named for a title (title-pages.ts).
  const opensExternally = (url: string): boolean => isAllowedExternalUrl(url) || desk.isTitlePage(url);
  guardContents(deskWindow.webContents, deskWindow.webContents.session, (url) => {
    if (opensExternally(url)) void shell.openExternal(url);
  }, opensExternally);

  const ours = deskWindow.webContents;
  registerContract(ipcMain, desk, senderCheck((sender) => sender === ours, [entry.origin]), logger);

  // The OS locking the session locks the desk (Linux by asking: Electron has no event there);
  // main's own idle lock holds when the renderer is frozen; quitting ends the shift first.
  const stopScreenLockWatch = watchScreenLock(powerMonitor, { platform: process.platform, onLocked: () => void desk.lock('system') });
  endShiftBeforeQuit(app, () => desk.endShiftForQuit());
  ways?.watchWindow(deskWindow);
  ways?.watchShutdown(powerMonitor);
  // The areas' background tasks, as one (desk/background-tasks.ts): the idle lock, the Collection's refreshes, the log's retention.
  desk.background.start();
  // Updates only for an installed app, and only as the policy allows (off without one).
  const updateChecks: UpdateSchedule | undefined = packaged
    ? scheduleUpdateChecks(electronUpdater.autoUpdater, configureUpdates(electronUpdater.autoUpdater, policy, logger), logger)
    : undefined;
  opened.closers.push(async () => {
    updateChecks?.stop();
    stopScreenLockWatch();
    await desk.background.stop();
  });
  deskWindow.on('close', () => {
    if (deskWindow.isDestroyed()) return;
    const bounds = deskWindow.getNormalBounds();
    try {
      settings.update({ window: { ...bounds, maximized: deskWindow.isMaximized() } });
    } catch (error) {
      logger.warn('window.state-not-saved', { error });
    }
  });
  deskWindow.once('ready-to-show', () => {
    if (!deskWindow.isDestroyed()) deskWindow.show();
  });

  step('page');
  await deskWindow.loadURL(entry.url);
  logger.info('app.start', { version: app.getVersion(), packaged, settingsProblem: settings.lastLoadProblem?.message });
}

/** A file of the app itself (inside app.asar when packaged), or undefined. */
function readAppFile(name: string): string | undefined {
  try {
    return fs.readFileSync(join(app.getAppPath(), name), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The catalog's folder, moved there first if it was elsewhere (Windows: from roaming to local app
 * data; catalog-folder.ts). A move that fails keeps the catalog where it was for this run.
 */
async function catalogInPlace(userData: string, logger: Logger): Promise<string> {
  const folder = catalogFolder({
    platform: process.platform, userData, localAppData: process.env.LOCALAPPDATA, appFolderName: basename(userData),
    userDataChosen: chosen.userDataDir !== undefined,
  });
  if (!folder.previous) return folder.dir;
  const locale = app.getLocale();
  let page: BrowserWindow | undefined;
  let shownPercent = -1;
  try {
    const outcome = await moveCatalogFolder(folder.previous, folder.dir, {
      onCopyStart: (total) => {
        page = pageWindow(START_TEXTS.en.movingTitle);
        window = page;
        void page.loadURL(dataUrl(movingPage(folder.dir, { done: 0, total }, locale)));
      },
      onProgress: ({ done, total }) => {
        const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
        if (!page || page.isDestroyed() || percent === shownPercent) return;
        shownPercent = percent;
        page.setProgressBar(done / Math.max(total, 1));
        void page.loadURL(dataUrl(movingPage(folder.dir, { done, total }, locale)));
      },
    });
    if (outcome.kind !== 'nothing') logger.info('mirror.folder-moved', { from: folder.previous, to: folder.dir, ...outcome });
    return folder.dir;
  } catch (error) {
    logger.warn('mirror.folder-move-failed', { from: folder.previous, to: folder.dir, error });
    return folder.previous;
  } finally {
    if (page && !page.isDestroyed()) page.setProgressBar(-1);
  }
}

/** What quitting waits for: everything the start opened, the last first. */
async function closeEverything(): Promise<void> {
  for (const close of opened.closers.splice(0).reverse()) await close();
}

/**
 * A start that failed: the step and the log, on main's own page in both languages (a dialog when
 * not even that window can open). Closing it quits, through the same bounded closing as any quit.
 */
function startFailed(step: StartStep, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const logPath = opened.logger?.path ?? join(app.getPath('userData'), 'logs');
  if (opened.logger) opened.logger.error('app.start-failed', { step, error });
  else console.error(`Lending Desk could not start (${step}): ${message}`);
  const failure = { step, message, log: { path: logPath, written: opened.logger !== undefined } };
  const locale = app.getLocale();
  // The window on screen (the desk's, the catalog's moving page) gives way to the failure page
  // once that is open: with no window at all for a moment, the app would quit unseen.
  const previous = window;
  const givesWay = (): void => {
    if (previous && !previous.isDestroyed()) previous.destroy();
  };
  const quit = (): void => {
    // The next launch must not quit into this one while it closes.
    app.releaseSingleInstanceLock();
    app.quit();
  };
  try {
    const page = pageWindow(START_TEXTS.en.failedTitle);
    window = page;
    page.on('closed', quit);
    givesWay();
    void page.loadURL(dataUrl(failurePage(failure, locale)));
  } catch (pageError) {
    window = undefined;
    givesWay();
    opened.logger?.error('app.start-failure-page-failed', { error: pageError });
    const text = (['en', 'fr-CA'] as const).map((language) => {
      const t = START_TEXTS[language];
      return [t.failedTitle, fill(t.failedStep, { step: t.steps[step] }), fill(failure.log.written ? t.logAt : t.noLog, { path: logPath }), fill(t.details, { message })].join('\n');
    }).join('\n\n');
    dialog.showErrorBox('Lending Desk', text);
    quit();
  }
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
  // A separate data folder, for end-to-end tests and development (never when packaged).
  if (chosen.userDataDir) app.setPath('userData', chosen.userDataDir);
  // Chromium's own data (caches, storage) out of a roaming profile, beside the catalog (Windows; chromium-data.ts).
  const local = localAppFolder({ platform: process.platform, localAppData: process.env.LOCALAPPDATA, appFolderName: basename(app.getPath('userData')), userDataChosen: chosen.userDataDir !== undefined });
  if (local) app.setPath('sessionData', local);
  // Must happen before `ready`.
  protocol.registerSchemesAsPrivileged(PRIVILEGED_SCHEMES);
  applyChromiumSwitches(app.commandLine);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  ways = watchWaysOut({
    app, platform: process.platform, signals: process,
    showWindow: () => {
      if (!window || window.isDestroyed()) return false;
      if (window.isMinimized()) window.restore();
      window.focus();
      return true;
    },
  });
  app.on('window-all-closed', () => app.quit());
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
  let current: StartStep = 'log';
  void app.whenReady()
    .then(() => start((name) => { current = name; }))
    .catch((error: unknown) => startFailed(current, error));
}

/** IT's headless check of this desk (check-desk-run.ts): no window, no lock, nothing of the desk started. */
function checkThisDesk(): void {
  void runDeskCheck({
    userData: process.env.LENDING_DESK_USER_DATA_DIR || app.getPath('userData'),
    version: app.getVersion(),
    platform: process.platform,
    policy: () => loadMachinePolicy(),
    keychainService: process.env.LENDING_DESK_KEYCHAIN_SERVICE || undefined,
    print: (text) => {
      try {
        process.stdout.write(text);
      } catch {
        // No console to write to (a windowed start): the report file has it.
      }
    },
    exit: (code) => app.exit(code),
  });
}

const refused = app.isPackaged ? refusedStartFlags(process.argv.slice(1), (name) => app.commandLine.hasSwitch(name), process.platform) : [];
const networkRefused = app.isPackaged ? refusedNetworkOptions(process.argv.slice(1), (name) => app.commandLine.hasSwitch(name), process.platform, process.env) : [];
if (refused.length > 0) refuseToStart('start.debugging-refused', refused);
else if (networkRefused.length > 0) refuseToStart('start.network-refused', networkRefused);
else if (wantsDeskCheck(process.argv.slice(1))) checkThisDesk();
else boot();
