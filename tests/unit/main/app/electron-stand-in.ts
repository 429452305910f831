// A recording stand-in for the `electron` module, for running main's start-up in Vitest. It
// models the calls main makes, with Electron's own rules about `ready` (protocol schemes only
// before it; protocol.handle, sessions, windows, net and powerMonitor only after), records them
// in order, and throws on anything it does not model, so main cannot lean on an API the test
// never sees.
import type { CustomScheme, MenuItemConstructorOptions } from 'electron';
import { chromiumFetch, type VerifyProc } from './chromium-tls.ts';

const INSPECTION_KEYS = new Set(['then', 'toJSON', 'asymmetricMatch', '$$typeof', 'nodeType', 'constructor', 'prototype', '@@__IMMUTABLE_ITERABLE__@@', '@@__IMMUTABLE_RECORD__@@']);

/** The object, refusing every property it does not have (symbols and the keys test tools probe pass). */
export function strict<T extends object>(name: string, target: T): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'symbol' || key in object || INSPECTION_KEYS.has(key)) return Reflect.get(object, key, receiver);
      throw new Error(`Electron stand-in: ${name}.${key} is not modelled`);
    },
  });
}

type Listener = (...args: never[]) => unknown;
type IpcListener = (event: unknown, ...args: unknown[]) => Promise<unknown>;
type ProtocolHandler = (request: Request) => Response | Promise<Response>;
type HeadersListener = (details: { responseHeaders?: Record<string, string[]> }, callback: (response: { responseHeaders: Record<string, string[]> }) => void) => void;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  add(event: string, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => unknown)(...args);
  }
}

export interface StandInOptions {
  packaged: boolean;
  /** The command line after the executable, as Chromium parses it for app.commandLine. */
  args?: string[];
  /** Where app.getPath('userData') points until main moves it. */
  userData: string;
  version?: string;
  singleInstance?: boolean;
  /** app.getLocale() (the OS's language). */
  locale?: string;
  /** app.getAppPath(): where the app's own package.json is. */
  appPath?: string;
  /** Failures to play: the app:// protocol's registration, the desk's window, its page, or every window. */
  fail?: { protocol?: boolean; deskWindow?: boolean; deskPage?: boolean; everyWindow?: boolean };
  /** Root certificates (PEM) this PC's user added to their own store: net.fetch trusts them, as Chromium does the OS store. */
  userRoots?: string[];
}

export interface RecordedWindow {
  options: { webPreferences: Record<string, unknown> } & Record<string, unknown>;
  /** Every URL loaded, in order (a page main re-renders is loaded again). */
  loads: string[];
  destroyed: boolean;
  progress?: number;
  webContents: { sent: Array<{ channel: string; payload: unknown }> };
  /** The webContents object main holds (the IPC sender of this window's frames). */
  contents: object;
  events: Emitter;
  loadedUrl?: string;
  bounds: { x: number; y: number; width: number; height: number };
  maximized: boolean;
}

export function createElectronStandIn(options: StandInOptions) {
  const calls: string[] = [];
  const callWaiters: Array<{ prefix: string; resolve: () => void }> = [];
  const record = (call: string): void => {
    calls.push(call);
    for (const waiter of callWaiters.filter((w) => call.startsWith(w.prefix))) {
      callWaiters.splice(callWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  let isReady = false;
  let becomeReady!: () => void;
  const ready = new Promise<void>((resolve) => { becomeReady = resolve; });
  let signalLoaded!: (url: string) => void;
  const loaded = new Promise<string>((resolve) => { signalLoaded = resolve; });
  const requireReady = (api: string): void => {
    if (!isReady) throw new Error(`Electron stand-in: ${api} cannot be used before the app is ready (as in Electron)`);
  };

  const paths = new Map<string, string>([['userData', options.userData]]);
  const appEvents = new Emitter();
  const powerEvents = new Emitter();
  /** What powerMonitor.getSystemIdleState answers (Linux's only way to learn that the session locked). */
  const systemIdle = { state: 'active' as 'active' | 'idle' | 'locked' | 'unknown', asked: 0 };
  const privileged: CustomScheme[] = [];
  const protocolHandlers = new Map<string, ProtocolHandler>();
  const ipcHandlers = new Map<string, IpcListener>();
  const headerHooks: Array<{ filter: { urls: string[] }; listener: HeadersListener }> = [];
  const errorBoxes: Array<{ title: string; content: string }> = [];
  const openedExternally: string[] = [];
  /** The system clipboard's text and every format of its last write (Electron 45's clipboard is promise-based), and who waits for its next write. */
  const clipboard = { text: '', formats: {} as Record<string, string | Blob>, waiting: [] as Array<(text: string) => void> };
  /** Electron's ClipboardItem: MIME types (or raw OS formats) and their payloads. */
  class ClipboardItem {
    readonly items: Record<string, string | Blob>;
    constructor(items: Record<string, string | Blob>) { this.items = items; }
  }
  const windows: RecordedWindow[] = [];
  const menus: { built: MenuItemConstructorOptions[][]; applied: unknown[] } = { built: [], applied: [] };
  const permissions: { request?: (...args: unknown[]) => void; check?: (...args: unknown[]) => boolean } = {};
  /** What main set with setCertificateVerifyProc (Chromium asks it about every https certificate). */
  let certificateVerifyProc: VerifyProc | undefined;
  const netFetch = chromiumFetch({ userRoots: options.userRoots ?? [], verifyProc: () => certificateVerifyProc });
  let exitCode: number | undefined;
  const quitWaiting: Array<() => void> = [];

  /** Chromium's parse of the line: each switch's value (the last one given wins, as in Chromium). */
  const switches = new Map((options.args ?? []).flatMap((arg) => {
    const match = /^--?([^=]+)(?:=(.*))?$/.exec(arg);
    return match ? [[match[1]!, match[2] ?? ''] as const] : [];
  }));

  const app = strict('app', {
    get isPackaged() { return options.packaged; },
    commandLine: strict('app.commandLine', {
      hasSwitch: (name: string) => switches.has(name),
      getSwitchValue: (name: string) => switches.get(name) ?? '',
      appendSwitch(name: string, value?: string) {
        record(`app.commandLine.appendSwitch ${name}${value === undefined ? '' : `=${value}`}`);
        switches.set(name, value ?? '');
      },
    }),
    setPath(name: string, value: string) { record(`app.setPath ${name}`); paths.set(name, value); },
    getPath(name: string) {
      // Electron's sessionData is the user data folder until main moves it.
      const path = paths.get(name) ?? (name === 'sessionData' ? paths.get('userData') : undefined);
      if (path === undefined) throw new Error(`Electron stand-in: app.getPath('${name}') is not modelled`);
      return path;
    },
    getVersion: () => options.version ?? '0.1.0',
    requestSingleInstanceLock() { record('app.requestSingleInstanceLock'); return options.singleInstance ?? true; },
    on(event: string, listener: Listener) { record(`app.on ${event}`); appEvents.add(event, listener); return app; },
    quit() {
      record('app.quit');
      for (const resolve of quitWaiting.splice(0)) resolve();
    },
    getLocale: () => options.locale ?? 'en-US',
    getAppPath: () => options.appPath ?? '/nonexistent/app',
    releaseSingleInstanceLock() { record('app.releaseSingleInstanceLock'); },
    exit(code = 0) { record(`app.exit ${code}`); exitCode = code; },
    relaunch() { record('app.relaunch'); },
    whenReady() { record('app.whenReady'); return ready; },
  });

  const defaultSession = strict('session.defaultSession', {
    webRequest: strict('session.defaultSession.webRequest', {
      onHeadersReceived(filter: { urls: string[] }, listener: HeadersListener) { record('webRequest.onHeadersReceived'); headerHooks.push({ filter, listener }); },
    }),
    setPermissionRequestHandler(handler: (...args: unknown[]) => void) { permissions.request = handler; },
    setPermissionCheckHandler(handler: (...args: unknown[]) => boolean) { permissions.check = handler; },
    setCertificateVerifyProc(proc: VerifyProc | null) { record('session.setCertificateVerifyProc'); certificateVerifyProc = proc ?? undefined; },
  });

  class BrowserWindow {
    readonly recorded: RecordedWindow;
    readonly webContents: object;

    constructor(windowOptions: RecordedWindow['options']) {
      requireReady('new BrowserWindow');
      const desk = windowOptions.webPreferences.preload !== undefined;
      if (options.fail?.everyWindow || (desk && options.fail?.deskWindow)) throw new Error('Electron stand-in: the window could not be created');
      record(desk ? 'new BrowserWindow' : 'new BrowserWindow (main\'s page)');
      const events = new Emitter();
      const sent: RecordedWindow['webContents']['sent'] = [];
      const contentEvents = new Emitter();
      const recorded: RecordedWindow = {
        options: windowOptions, webContents: { sent }, contents: {}, events, bounds: { x: 10, y: 20, width: 1280, height: 800 }, maximized: false, loads: [], destroyed: false,
      };
      this.recorded = recorded;
      windows.push(recorded);
      this.webContents = strict('webContents', {
        session: defaultSession,
        on(event: string, listener: Listener) { contentEvents.add(event, listener); },
        setWindowOpenHandler(handler: (details: { url: string }) => unknown) { contentEvents.add('window-open-handler', handler as Listener); },
        send(channel: string, payload: unknown) {
          if (recorded.destroyed) throw new Error('Electron stand-in: Object has been destroyed (a send to a closed window)');
          sent.push({ channel, payload });
        },
        isDestroyed: () => recorded.destroyed,
        loadURL(url: string) {
          record(`webContents.loadURL ${url.startsWith('data:') ? 'data:…' : url}`);
          recorded.loadedUrl = url;
          recorded.loads.push(url);
          if (desk && options.fail?.deskPage) return Promise.reject(new Error('ERR_FILE_NOT_FOUND (-6) loading the desk'));
          signalLoaded(url);
          return Promise.resolve();
        },
        contentEvents,
      });
      recorded.contents = this.webContents;
      return strict('BrowserWindow', this);
    }

    maximize() { this.recorded.maximized = true; }
    isDestroyed() { return this.recorded.destroyed; }
    /** Closes now, without 'close' (as Electron's destroy). */
    destroy() {
      record('BrowserWindow.destroy');
      this.recorded.destroyed = true;
      this.recorded.events.emit('closed');
    }
    close() {
      record('BrowserWindow.close');
      this.recorded.events.emit('close');
      this.recorded.destroyed = true;
      this.recorded.events.emit('closed');
    }
    setProgressBar(progress: number) { this.recorded.progress = progress; }
    isMaximized() { return this.recorded.maximized; }
    isMinimized() { return false; }
    restore() {}
    focus() { record('BrowserWindow.focus'); }
    show() { record('BrowserWindow.show'); }
    getNormalBounds() { return { ...this.recorded.bounds }; }
    on(event: string, listener: Listener) { this.recorded.events.add(event, listener); return this; }
    once(event: string, listener: Listener) { this.recorded.events.add(event, listener); return this; }
    loadURL(url: string) { return (this.webContents as { loadURL(url: string): Promise<void> }).loadURL(url); }
  }

  const autoUpdater = strict('electron-updater autoUpdater', {
    feeds: [] as unknown[],
    checks: 0,
    autoDownload: false,
    autoInstallOnAppQuit: false,
    allowDowngrade: true,
    allowPrerelease: true,
    disableWebInstaller: false,
    setFeedURL(feed: unknown) { record('autoUpdater.setFeedURL'); autoUpdater.feeds.push(feed); },
    checkForUpdates() { record('autoUpdater.checkForUpdates'); autoUpdater.checks += 1; return Promise.resolve(null); },
  });

  const module = {
    app,
    BrowserWindow: strict('BrowserWindow (class)', BrowserWindow),
    ClipboardItem,
    dialog: strict('dialog', {
      showErrorBox(title: string, content: string) { record('dialog.showErrorBox'); errorBoxes.push({ title, content }); },
    }),
    ipcMain: strict('ipcMain', {
      handle(channel: string, listener: IpcListener) { ipcHandlers.set(channel, listener); },
      removeHandler(channel: string) { ipcHandlers.delete(channel); },
    }),
    Menu: strict('Menu', {
      buildFromTemplate(template: MenuItemConstructorOptions[]) { record('Menu.buildFromTemplate'); menus.built.push(template); return { template }; },
      setApplicationMenu(menu: unknown) { record('Menu.setApplicationMenu'); menus.applied.push(menu); },
    }),
    net: strict('net', {
      fetch(input: string | URL | Request, init?: RequestInit) { requireReady('net.fetch'); return netFetch(input, init); },
    }),
    powerMonitor: strict('powerMonitor', {
      on(event: string, listener: Listener) { requireReady('powerMonitor'); powerEvents.add(event, listener); },
      getSystemIdleState() { requireReady('powerMonitor'); systemIdle.asked += 1; return systemIdle.state; },
    }),
    protocol: strict('protocol', {
      registerSchemesAsPrivileged(schemes: CustomScheme[]) {
        if (isReady) throw new Error('Electron stand-in: protocol.registerSchemesAsPrivileged must be called before the app is ready (as in Electron)');
        record('protocol.registerSchemesAsPrivileged');
        privileged.push(...schemes);
      },
      handle(scheme: string, handler: ProtocolHandler) {
        requireReady('protocol.handle');
        if (options.fail?.protocol) throw new Error(`Electron stand-in: the scheme "${scheme}" could not be handled`);
        record(`protocol.handle ${scheme}`);
        protocolHandlers.set(scheme, handler);
      },
    }),
    session: strict('session', {
      get defaultSession() { requireReady('session.defaultSession'); return defaultSession; },
    }),
    shell: strict('shell', {
      openExternal(url: string) { openedExternally.push(url); return Promise.resolve(); },
    }),
    clipboard: strict('clipboard', {
      async readText() { return clipboard.text; },
      async write(items: ClipboardItem[]) {
        record('clipboard.write');
        if (items.length !== 1 || !(items[0] instanceof ClipboardItem)) throw new Error('Electron stand-in: clipboard.write takes the ClipboardItem objects Electron makes');
        const text = items[0].items['text/plain'];
        if (typeof text !== 'string') throw new Error('Electron stand-in: the desk writes its text as text/plain');
        clipboard.text = text;
        clipboard.formats = items[0].items;
        for (const resolve of clipboard.waiting.splice(0)) resolve(text);
      },
    }),
  };

  return {
    module,
    autoUpdater,
    calls,
    privileged,
    protocolHandlers,
    ipcHandlers,
    headerHooks,
    errorBoxes,
    openedExternally,
    clipboard,
    windows,
    menus,
    permissions,
    appEvents,
    powerEvents,
    systemIdle,
    paths,
    get exitCode() { return exitCode; },
    /** Resolves when main next makes a call starting with `prefix` (as `calls` records it). */
    whenCalled(prefix: string): Promise<void> { return new Promise((resolve) => callWaiters.push({ prefix, resolve })); },
    /** Resolves at the next app.quit(). */
    nextQuit(): Promise<void> { return new Promise((resolve) => quitWaiting.push(resolve)); },
    /** The text of the clipboard's next write. */
    nextClipboardWrite(): Promise<string> { return new Promise((resolve) => clipboard.waiting.push(resolve)); },
    /** Fires `ready` and resolves once main has loaded its page. */
    async startUp(): Promise<string> {
      record('ready');
      isReady = true;
      becomeReady();
      return loaded;
    },
  };
}

export type ElectronStandIn = ReturnType<typeof createElectronStandIn>;
