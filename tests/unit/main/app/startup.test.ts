// Main's start-up, executed: electron/main/app/index.ts imported under a recording Electron stand-in
// (electron-stand-in.ts, which throws on anything it does not model), with the real DeskService,
// settings file, logger and keychain (run inside with-keyring) on a temporary user data folder.
// Main runs from its source, as if from its build folder: app-files.ts is asked about out/main,
// so the preload, mirror worker and renderer it names are the built ones.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { METHOD_NAMES, channelOf } from '../../../../electron/shared/contract.ts';
import { APP_ORIGIN } from '../../../../electron/main/app/app-protocol.ts';
import { appFiles } from '../../../../electron/main/app/app-files.ts';
import { contentSecurityPolicy } from '../../../../electron/main/app/security.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { en } from '../../../../src/i18n/en.ts';
import { frCA } from '../../../../src/i18n/fr-CA.ts';
import { createElectronStandIn, type ElectronStandIn, type StandInOptions } from './electron-stand-in.ts';
import { opensslFingerprint, startLoopbackTlsServer, type LoopbackTlsServer } from '../../../support/certificates.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';

const ROOT = REPO_ROOT;
const SOURCE_MAIN = join(ROOT, 'electron', 'main', 'app');
const BUILT_MAIN = join(ROOT, 'out', 'main');

const holder = vi.hoisted(() => ({
  electron: undefined as unknown as { module: Record<string, unknown>; autoUpdater: object; paths: Map<string, string> },
  /** Stands for the machine-wide policy file of an installed app (/etc, ProgramData, /Library). */
  machinePolicy: '' as string,
  policyPlatform: 'darwin' as NodeJS.Platform,
  sourceMain: '' as string,
  builtMain: '' as string,
  /** The start-up step made to throw (start-texts.ts START_STEPS). */
  failAt: undefined as string | undefined,
  /** Where the catalog is moved from and to, standing for Windows' roaming and local app data. */
  catalog: undefined as { dir: string; previous: string } | undefined,
  /**
   * The keychain service this test's desk stands in for the real one with: main passes none (the
   * default service) unless a test variable named one, and this keeps tests apart from each other.
   */
  keychainService: '' as string,
  /** What the desk's check finds, when a test plays it (its real checks: tests/unit/main/check-desk/); absent: the real check runs. */
  deskCheck: undefined as Array<{ ok: boolean; what: string; detail: string }> | undefined,
}));

// Vitest builds a mocked module once; each export forwards to the stand-in of the current run.
vi.mock('electron', () => {
  const current = (name: string) => holder.electron.module[name] as object;
  const forward = (name: string) => new Proxy(function standIn() {}, {
    get: (_target, key) => Reflect.get(current(name), key),
    set: (_target, key, value) => Reflect.set(current(name), key, value),
    has: (_target, key) => Reflect.has(current(name), key),
    construct: (_target, args) => Reflect.construct(current(name) as new (...a: unknown[]) => object, args),
  });
  const module = Object.fromEntries(['app', 'BrowserWindow', 'clipboard', 'ClipboardItem', 'dialog', 'ipcMain', 'Menu', 'net', 'powerMonitor', 'protocol', 'session', 'shell'].map((name) => [name, forward(name)]));
  return { ...module, default: module };
});
vi.mock('electron-updater', () => ({ default: { get autoUpdater() { return holder.electron.autoUpdater; } } }));
// electron-store is a thin subclass of conf (DESIGN.md, Tests); as a package outside Vitest's
// module graph it would load the real electron. This is its constructor, on the stand-in's app.
vi.mock('electron-store', async () => {
  const { default: Conf } = await import('conf');
  class ElectronStore extends Conf {
    constructor(options: { name?: string } & Record<string, unknown>) {
      const { name = 'config', ...rest } = options;
      super({ ...rest, configName: name, cwd: holder.electron.paths.get('userData')!, projectVersion: '0.1.0' });
    }
  }
  return { default: ElectronStore };
});
vi.mock('../../../../electron/main/app/app-files.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../electron/main/app/app-files.ts')>();
  return { ...real, appFiles: (dir: string) => real.appFiles(dir === holder.sourceMain ? holder.builtMain : dir) };
});
// The machine's policy source (/etc/lending-desk/policy.json on Linux) stands in a folder of the
// test's own, read by the same trusted-file rules with that folder as the top, and judged as on
// the platform the test names (automatic updates are refused on Linux, allowed on macOS).
vi.mock('../../../../electron/main/policy/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../electron/main/policy/index.ts')>();
  const { readLinuxPolicy } = await import('../../../../electron/main/policy/linux-source.ts');
  return {
    ...real,
    loadMachinePolicy: (options: { macSigned?: boolean; installedForAllUsers?: boolean } = {}) => {
      if (holder.failAt === 'policy') throw new Error('The policy could not be read (played by the test)');
      return real.checkedPolicy(
        readLinuxPolicy({ path: holder.machinePolicy, trustRoot: dirname(holder.machinePolicy), ownerUid: process.getuid?.() ?? 0 }),
        { platform: holder.policyPlatform, windowsPublisherVerified: false, macSigned: options.macSigned ?? false, installedForAllUsers: options.installedForAllUsers ?? false },
      );
    },
  };
});
vi.mock('../../../../electron/node/logging/logger.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../electron/node/logging/logger.ts')>();
  return {
    ...real,
    createFileLogger: (options: Parameters<typeof real.createFileLogger>[0]) => {
      if (holder.failAt === 'log') throw Object.assign(new Error(`EACCES: permission denied, mkdir '${options.dir}'`), { code: 'EACCES' });
      return real.createFileLogger(options);
    },
  };
});
// Windows keeps the catalog in local app data (catalog-folder.ts); here two folders stand for it,
// and the move is played as across volumes (a redirected %APPDATA%), so it is a copy with progress.
vi.mock('../../../../electron/main/connection/catalog-folder.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../electron/main/connection/catalog-folder.ts')>();
  return {
    ...real,
    catalogFolder: (input: Parameters<typeof real.catalogFolder>[0]) => holder.catalog ?? real.catalogFolder(input),
    localAppFolder: (input: Parameters<typeof real.localAppFolder>[0]) => (holder.catalog ? dirname(holder.catalog.dir) : real.localAppFolder(input)),
    moveCatalogFolder: (from: string, to: string, options: Parameters<typeof real.moveCatalogFolder>[2]) => real.moveCatalogFolder(from, to, {
      ...options, renameFolder: () => { throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' }); },
    }),
  };
});
// The desk's check for IT (--check-desk): the real one, unless a test says what it finds.
vi.mock('../../../../electron/main/check-desk/check-desk.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../electron/main/check-desk/check-desk.ts')>();
  return { ...real, checkDesk: (input: Parameters<typeof real.checkDesk>[0]) => (holder.deskCheck ? Promise.resolve(holder.deskCheck) : real.checkDesk(input)) };
});
// Recorded as main called it, and otherwise the real assembly (on the test's keychain service
// where main asked for the default one).
vi.mock('../../../../electron/main/app/desk-assembly.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../electron/main/app/desk-assembly.ts')>();
  return {
    createDesk: vi.fn((parts: Parameters<typeof real.createDesk>[0]) => {
      if (holder.failAt === 'desk') throw new Error('The settings could not be opened (played by the test)');
      return real.createDesk({ ...parts, keychainService: parts.keychainService ?? holder.keychainService });
    }),
  };
});

interface Run {
  electron: ElectronStandIn;
  userData: string;
  /** The DeskService main assembled, once started. */
  desk?: DeskService;
  createDeskArgs?: { mirrorWorker: string; userData: string; keychainService: string | undefined; fetch: (input: string, init: RequestInit) => Promise<Response> };
}

const runs: Run[] = [];
const folders: string[] = [];
/** One keychain service per data folder: a desk started again on its folder finds its own records. */
const keychainServices = new Map<string, string>();
const savedArgv = process.argv;

function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

/** An app folder whose package.json says how the build was signed (electron-builder.config.ts writes it). */
function builtApp(build: { macSigned: boolean }): string {
  const dir = folder('lending-desk-app-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'lending-desk', version: '0.1.0', lendingDeskBuild: build }));
  return dir;
}

function policyFile(url: string): string {
  return policyOf({ version: 1, updates: { mode: 'auto', url } });
}

/** A machine policy file holding `policy`. */
function policyOf(policy: Record<string, unknown>): string {
  const path = join(folder('lending-desk-policy-'), 'policy.json');
  writeFileSync(path, JSON.stringify(policy));
  return path;
}

interface Launch {
  packaged: boolean;
  args?: string[];
  env?: Record<string, string>;
  machinePolicy?: string;
  /** The platform the policy is judged for (default macOS, where `auto` updates are allowed). */
  policyPlatform?: NodeJS.Platform;
  userData?: string;
  locale?: string;
  /** Where the app's package.json is (the build's signing is read from it). */
  appPath?: string;
  fail?: StandInOptions['fail'];
  failAt?: string;
  /** Roots this PC's user added to their certificate store (StandInOptions). */
  userRoots?: string[];
  catalog?: { dir: string; previous: string };
  deskCheck?: Array<{ ok: boolean; what: string; detail: string }>;
}

/** Imports main afresh under a new stand-in; it runs up to waiting for `ready`. */
async function launch(options: Launch): Promise<Run> {
  vi.resetModules();
  const userData = options.userData ?? folder('lending-desk-main-');
  const keychainService = keychainServices.get(userData) ?? `Lending Desk main test ${randomUUID()}`;
  keychainServices.set(userData, keychainService);
  // A packaged app stays on its default data folder (it ignores the test variables): the test's
  // folder is that default. An unpackaged one is moved there by LENDING_DESK_USER_DATA_DIR.
  const electron = createElectronStandIn({
    packaged: options.packaged, args: options.args ?? [], userData: options.packaged ? userData : join(userData, 'default-location'),
    ...(options.locale ? { locale: options.locale } : {}), ...(options.appPath ? { appPath: options.appPath } : {}), ...(options.fail ? { fail: options.fail } : {}),
    ...(options.userRoots ? { userRoots: options.userRoots } : {}),
  });
  holder.electron = electron;
  holder.failAt = options.failAt;
  holder.catalog = options.catalog;
  holder.deskCheck = options.deskCheck;
  holder.machinePolicy = options.machinePolicy ?? join(folder('lending-desk-no-policy-'), 'policy.json');
  holder.policyPlatform = options.policyPlatform ?? 'darwin';
  holder.sourceMain = SOURCE_MAIN;
  holder.builtMain = BUILT_MAIN;
  holder.keychainService = keychainService;
  process.argv = ['/opt/Lending Desk/lending-desk', ...(options.args ?? [])];
  vi.stubEnv('LENDING_DESK_USER_DATA_DIR', options.packaged ? '' : userData);
  vi.stubEnv('LENDING_DESK_KEYCHAIN_SERVICE', options.packaged ? '' : keychainService);
  vi.stubEnv('LENDING_DESK_POLICY_FILE', '');
  vi.stubEnv('ELECTRON_RENDERER_URL', '');
  for (const [name, value] of Object.entries(options.env ?? {})) vi.stubEnv(name, value);
  await import('../../../../electron/main/app/index.ts');
  const run: Run = { electron, userData };
  runs.push(run);
  return run;
}

/** Fires `ready` and waits for main to load its page. */
async function startUp(run: Run): Promise<Run> {
  const { createDesk } = await import('../../../../electron/main/app/desk-assembly.ts');
  vi.mocked(createDesk).mockClear();
  await run.electron.startUp();
  const call = vi.mocked(createDesk).mock.calls.at(-1)?.[0];
  const result = vi.mocked(createDesk).mock.results.at(-1);
  if (call === undefined || result?.type !== 'return') throw new Error('main loaded its page without assembling DeskService');
  run.createDeskArgs = call;
  run.desk = result.value.desk;
  return run;
}

/** The contract as the desk's own page calls it (from app://desk, in main's window). */
function contractOf(run: Run): (name: string, args?: unknown) => Promise<unknown> {
  const event = { senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: run.electron.windows.find((w) => w.options.webPreferences.preload !== undefined)!.contents };
  return (name, args) => run.electron.ipcHandlers.get(channelOf(name as never))!(event, args);
}

/** Quits as Electron does: `will-quit`, which main may hold (preventDefault) until it has closed everything and quits again. */
async function quit(run: Run): Promise<{ held: boolean }> {
  let held = false;
  const quitAgain = run.electron.nextQuit();
  run.electron.appEvents.emit('will-quit', { preventDefault: () => { held = true; } });
  if (held) await quitAgain;
  return { held };
}

afterEach(async () => {
  for (const run of runs.splice(0)) await quit(run);
  // A start that failed before its closing was set up leaves its SIGTERM listener behind.
  process.removeAllListeners('SIGTERM');
  process.argv = savedArgv;
  vi.unstubAllEnvs();
  keychainServices.clear();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

beforeAll(() => {
  for (const file of Object.values(appFiles(BUILT_MAIN))) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npx electron-vite build\` first (npm test builds before Vitest).`);
  }
});

describe('a packaged start', () => {
  it('registers app: as a privileged scheme before ready, then serves and loads app://desk/index.html', async () => {
    const run = await startUp(await launch({ packaged: true }));
    const { calls } = run.electron;
    expect(calls.indexOf('protocol.registerSchemesAsPrivileged')).toBeGreaterThanOrEqual(0);
    expect(calls.indexOf('protocol.registerSchemesAsPrivileged')).toBeLessThan(calls.indexOf('ready'));
    expect(run.electron.privileged).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, supportFetchAPI: true, bypassCSP: false }) }]);
    expect(calls.indexOf('protocol.handle app')).toBeGreaterThan(calls.indexOf('ready'));
    expect(calls.indexOf('protocol.handle app')).toBeLessThan(calls.indexOf(`webContents.loadURL ${APP_ORIGIN}/index.html`));
    expect(run.electron.windows[0]?.loadedUrl).toBe(`${APP_ORIGIN}/index.html`);
    expect(run.electron.paths.get('userData')).toBe(run.userData);
  });

  it('turns off Chromium\'s deferral of the page\'s tasks after a keystroke before ready, keeping features the line already turns off', async () => {
    const plain = await startUp(await launch({ packaged: true }));
    const set = plain.electron.calls.indexOf('app.commandLine.appendSwitch disable-features=DeferRendererTasksAfterInput');
    expect(set).toBeGreaterThanOrEqual(0);
    expect(set).toBeLessThan(plain.electron.calls.indexOf('ready'));
    await quit(plain);
    runs.splice(runs.indexOf(plain), 1);
    const withOwn = await startUp(await launch({ packaged: true, args: ['--disable-features=Translate,MediaRouter'] }));
    expect(withOwn.electron.calls).toContain('app.commandLine.appendSwitch disable-features=Translate,MediaRouter,DeferRendererTasksAfterInput');
  });

  it('ignores the test variables (another keychain, another data folder), and names them in its log', async () => {
    const real = await startUp(await launch({ packaged: true }));
    await expect(contractOf(real)('setDeskPin', { pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    await quit(real);
    runs.splice(runs.indexOf(real), 1);

    // A desk user's own copy: the real data folder under keychain entries of their own, or a data folder of their own.
    const elsewhere = folder('lending-desk-elsewhere-');
    const attackerService = `Lending Desk attacker ${randomUUID()}`;
    const run = await startUp(await launch({ packaged: true, userData: real.userData, env: { LENDING_DESK_KEYCHAIN_SERVICE: attackerService, LENDING_DESK_USER_DATA_DIR: elsewhere } }));
    expect(run.createDeskArgs?.keychainService).toBeUndefined(); // the default service: the real desk's records
    expect(run.electron.paths.get('userData')).toBe(real.userData);
    expect(readdirSync(elsewhere)).toEqual([]);
    const call = contractOf(run);
    // No fresh desk PIN without proof, and no sign-in with one: the desk is the one already set up.
    await expect(call('setDeskPin', { pin: 'mallory-pin-9' })).resolves.toMatchObject({ ok: false });
    await expect(call('startShift', { staffName: 'Alice', pin: 'mallory-pin-9' })).resolves.toMatchObject({ ok: false });
    await expect(call('startShift', { staffName: 'JD', pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    const log = readFileSync(LOG_FILE(real.userData), 'utf8');
    const ignored = log.split('\n').filter((line) => line.includes('"app.test-variables-ignored"')).map((line) => JSON.parse(line) as { variables: string[] });
    expect(ignored.at(-1)?.variables).toEqual(expect.arrayContaining(['LENDING_DESK_KEYCHAIN_SERVICE', 'LENDING_DESK_USER_DATA_DIR']));
    // Names only: what they were set to is nobody's business in the log.
    expect(log).not.toContain(attackerService);
    expect(log).not.toContain(elsewhere);
  });

  it('serves the built renderer through the registered handler, with the CSP as a header', async () => {
    const run = await startUp(await launch({ packaged: true }));
    const serve = run.electron.protocolHandlers.get('app')!;
    const index = await serve(new Request(`${APP_ORIGIN}/index.html`));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    const html = await index.text();
    const assets = [...html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) expect((await serve(new Request(`${APP_ORIGIN}/${asset}`))).status, asset).toBe(200);
    expect((await serve(new Request(`${APP_ORIGIN}/%2e%2e/main/index.js`))).status).toBe(404);
    // No header hook: nothing but the handler answers for the page.
    expect(run.electron.headerHooks).toEqual([]);
  });

  it('opens one window with the secure web preferences, DevTools off, and the built preload', async () => {
    const run = await startUp(await launch({ packaged: true }));
    expect(run.electron.windows).toHaveLength(1);
    const { webPreferences } = run.electron.windows[0]!.options;
    expect(webPreferences).toMatchObject({ devTools: false, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(webPreferences.preload).toBe(join(ROOT, 'out', 'preload', 'index.cjs'));
    expect(existsSync(webPreferences.preload as string)).toBe(true);
    expect(run.createDeskArgs?.mirrorWorker).toBe(join(BUILT_MAIN, 'mirror-worker.js'));
    expect(existsSync(run.createDeskArgs!.mirrorWorker)).toBe(true);
    expect(run.electron.permissions.check?.()).toBe(false);
  });

  it('sets an application menu without reload or DevTools', async () => {
    const run = await startUp(await launch({ packaged: true }));
    expect(run.electron.menus.applied).toHaveLength(1);
    const text = JSON.stringify(run.electron.menus.built[0]);
    expect(text).not.toMatch(/toggleDevTools|"reload"|forceReload/);
    expect(text).toContain('viewMenu');
  });

  it('registers every contract method behind the sender check pinned to app://desk', async () => {
    const run = await startUp(await launch({ packaged: true }));
    const handlers = run.electron.ipcHandlers;
    expect([...handlers.keys()].sort()).toEqual(METHOD_NAMES.map(channelOf).sort());
    const ours = run.electron.windows[0]!.contents;
    const forged = [
      { senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: { id: 'another window' } },
      { senderFrame: null, sender: ours },
      { senderFrame: { url: 'file:///opt/Lending%20Desk/resources/app.asar/out/renderer/index.html' }, sender: ours },
      { senderFrame: { url: 'http://localhost:5173/' }, sender: ours },
      { senderFrame: { url: 'app://desk.evil/index.html' }, sender: ours },
      { senderFrame: { url: 'https://sandbox.lending-desk.invalid/titles/1' }, sender: ours },
    ];
    for (const name of METHOD_NAMES) {
      for (const event of forged) {
        const answer = await handlers.get(channelOf(name))!(event, {});
        expect(answer, `${name} from ${JSON.stringify(event.senderFrame)}`).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringMatching(/did not come from Lending Desk/) } });
      }
    }
    const info = await handlers.get(channelOf('appInfo'))!({ senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: ours }, undefined);
    expect(info).toMatchObject({ ok: true, value: { version: '0.1.0', mode: 'unconfigured' } });
    const log = readFileSync(join(run.userData, 'logs', 'lending-desk.log'), 'utf8');
    expect(log.match(/ipc\.refused-sender/g)).toHaveLength(METHOD_NAMES.length * forged.length);
  });

  it('locks the desk when the operating system locks the screen, and empties the clipboard of the desk\'s slip', async () => {
    const run = await startUp(await launch({ packaged: true }));
    const ours = run.electron.windows[0]!.contents;
    const event = { senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: ours };
    const call = (name: string, args?: unknown) => run.electron.ipcHandlers.get(channelOf(name as never))!(event, args);
    // A fresh desk sets its desk PIN first (nothing else to prove on a desk with no partner connection), then signs in with it.
    await expect(call('setDeskPin', { pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    await expect(call('startShift', { staffName: 'JD', pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    await expect(call('appInfo')).resolves.toMatchObject({ ok: true, value: { session: { signedInWith: 'desk-pin' } } });
    await expect(call('copyText', { text: 'Loans of ••••0002: due 1 December', purpose: 'slip' })).resolves.toMatchObject({ ok: true });
    expect(run.electron.clipboard.text).toBe('Loans of ••••0002: due 1 December');
    // Kept out of clipboard history and managers (issue #33): Windows' formats (DWORD 0), KDE's and macOS's hints.
    const formats = run.electron.clipboard.formats;
    const dword = async (name: string) => [...new Uint8Array(await (formats[`electron application/osclipboard;format="${name}"`] as Blob).arrayBuffer())];
    expect(await dword('CanIncludeInClipboardHistory')).toEqual([0, 0, 0, 0]);
    expect(await dword('CanUploadToCloudClipboard')).toEqual([0, 0, 0, 0]);
    expect(formats).toHaveProperty(['electron application/osclipboard;format="ExcludeClipboardContentFromMonitorProcessing"']);
    expect(formats['electron application/osclipboard;format="x-kde-passwordManagerHint"']).toBe('secret');
    expect(formats).toHaveProperty(['electron application/osclipboard;format="org.nspasteboard.ConcealedType"']);
    const cleared = run.electron.nextClipboardWrite();
    run.electron.powerEvents.emit('lock-screen');
    expect(await cleared).toBe('');
    expect(run.electron.clipboard.text).toBe('');
    const info = await call('appInfo') as { value: Record<string, unknown> };
    expect(info.value.session).toBeUndefined();
    expect(run.electron.windows[0]!.webContents.sent).toContainEqual({ channel: channelOf('sessionLocked'), payload: { reason: 'system' } });
  });

  it('on Linux, where Electron has no lock-screen event, asks the system every few seconds and locks when the session locks', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const run = await startUp(await launch({ packaged: true }));
      const ours = run.electron.windows[0]!.contents;
      const call = (name: string, args?: unknown) => run.electron.ipcHandlers.get(channelOf(name as never))!({ senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: ours }, args);
      await expect(call('setDeskPin', { pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
      await expect(call('startShift', { staffName: 'JD', pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
      vi.advanceTimersByTime(5_000);
      expect(run.electron.systemIdle.asked).toBeGreaterThan(0);
      await expect(call('appInfo')).resolves.toMatchObject({ value: { session: { signedInWith: 'desk-pin' } } });
      run.electron.systemIdle.state = 'locked';
      vi.advanceTimersByTime(5_000);
      await vi.waitFor(async () => expect(((await call('appInfo')) as { value: { session?: unknown } }).value.session).toBeUndefined());
      expect(run.electron.windows[0]!.webContents.sent).toContainEqual({ channel: channelOf('sessionLocked'), payload: { reason: 'system' } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('quitting ends the shift first: the desk\'s slip leaves the clipboard before the app goes', async () => {
    const run = await startUp(await launch({ packaged: true }));
    const ours = run.electron.windows[0]!.contents;
    const call = (name: string, args?: unknown) => run.electron.ipcHandlers.get(channelOf(name as never))!({ senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: ours }, args);
    await expect(call('setDeskPin', { pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    await expect(call('startShift', { staffName: 'JD', pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    await expect(call('copyText', { text: 'Loans of ••••0002: due 1 December', purpose: 'slip' })).resolves.toMatchObject({ ok: true });
    let held = 0;
    run.electron.appEvents.emit('before-quit', { preventDefault: () => { held += 1; } });
    expect(held).toBe(1);
    await vi.waitFor(() => expect(run.electron.calls.at(-1)).toBe('app.quit'));
    expect(run.electron.clipboard.text).toBe('');
    // The quit it asked for goes through.
    run.electron.appEvents.emit('before-quit', { preventDefault: () => { held += 1; } });
    expect(held).toBe(1);
  });

  it('saves the window\'s place on close and opens there next time', async () => {
    const first = await startUp(await launch({ packaged: true }));
    first.electron.windows[0]!.bounds = { x: 120, y: 80, width: 1400, height: 900 };
    first.electron.windows[0]!.events.emit('close');
    const saved = JSON.parse(readFileSync(join(first.userData, 'settings.json'), 'utf8')) as { window: unknown };
    expect(saved.window).toEqual({ x: 120, y: 80, width: 1400, height: 900, maximized: false });
    await quit(first);
    runs.splice(runs.indexOf(first), 1);

    const second = await startUp(await launch({ packaged: true, userData: first.userData }));
    expect(second.electron.windows[0]!.options).toMatchObject({ x: 120, y: 80, width: 1400, height: 900, minWidth: 1024, minHeight: 700 });
  });

  it('checks for updates only as the machine\'s policy allows, never from an environment variable', async () => {
    // An environment variable names no policy: a user could point it at any server.
    const attacker = policyFile('https://updates.attacker.example/');
    const none = await startUp(await launch({ packaged: true, env: { LENDING_DESK_POLICY_FILE: attacker } }));
    expect(none.electron.autoUpdater).toMatchObject({ feeds: [], checks: 0 });
    await quit(none);
    runs.splice(runs.indexOf(none), 1);

    // A macOS build signed with a Developer ID (the build wrote so into its package.json).
    const managed = await startUp(await launch({ packaged: true, appPath: builtApp({ macSigned: true }), machinePolicy: policyFile('https://updates.library.example/lending-desk/'), env: { LENDING_DESK_POLICY_FILE: attacker } }));
    expect(managed.electron.autoUpdater).toMatchObject({
      feeds: [{ provider: 'generic', url: 'https://updates.library.example/lending-desk/' }], checks: 1, allowDowngrade: false, autoInstallOnAppQuit: true,
    });
    await quit(managed);
    runs.splice(runs.indexOf(managed), 1);

    // The same policy on Linux: the packages carry no signature to check, so `auto` is refused.
    const linux = await startUp(await launch({ packaged: true, policyPlatform: 'linux', machinePolicy: policyFile('https://updates.library.example/lending-desk/') }));
    expect(linux.electron.autoUpdater).toMatchObject({ feeds: [], checks: 0 });
  });

  it('refuses automatic updates for a macOS build not signed with a Developer ID, and says why in Settings', async () => {
    const run = await startUp(await launch({ packaged: true, appPath: builtApp({ macSigned: false }), machinePolicy: policyFile('https://updates.library.example/lending-desk/') }));
    expect(run.electron.autoUpdater).toMatchObject({ feeds: [], checks: 0 });
    const info = await run.electron.ipcHandlers.get(channelOf('appInfo'))!({ senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: run.electron.windows[0]!.contents }, undefined);
    expect(info).toMatchObject({ ok: true, value: { managed: { updateMode: 'off', updatesRefused: { reason: 'updates.unsigned-mac-build', params: {} } } } });
  });

  it('ignores the dev server URL', async () => {
    const run = await startUp(await launch({ packaged: true, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173/' } }));
    expect(run.electron.windows[0]!.loadedUrl).toBe(`${APP_ORIGIN}/index.html`);
    expect(run.electron.headerHooks).toEqual([]);
  });

  it('denies new windows from any web contents', async () => {
    await launch({ packaged: true });
    const handlers: Array<() => unknown> = [];
    runs[0]!.electron.appEvents.emit('web-contents-created', {}, { setWindowOpenHandler: (handler: () => unknown) => handlers.push(handler) });
    expect(handlers.map((handler) => handler())).toEqual([{ action: 'deny' }]);
  });

  it('quits when another instance is running, before doing anything else', async () => {
    vi.resetModules();
    const userData = folder('lending-desk-main-');
    holder.electron = createElectronStandIn({ packaged: true, userData, singleInstance: false });
    const { calls } = holder.electron as ElectronStandIn;
    await import('../../../../electron/main/app/index.ts');
    expect(calls.at(-1)).toBe('app.quit');
    expect(calls).not.toContain('app.whenReady');
  });
});

describe('a packaged start with a debugging switch', () => {
  it.each([
    ['--remote-debugging-port=9222', '--remote-debugging-port'],
    ['--remote-debugging-pipe', '--remote-debugging-pipe'],
    ['--inspect', '--inspect'],
    ['--inspect=9229', '--inspect'],
    ['--inspect-brk=9229', '--inspect-brk'],
    ['--inspect-port=9229', '--inspect-port'],
    ['--js-flags=--allow-natives-syntax', '--js-flags'],
  ])('quits at once with a clear message for %s', async (arg, name) => {
    const run = await launch({ packaged: true, args: ['--lang=fr', arg] });
    expect(run.electron.exitCode).toBe(1);
    expect(run.electron.errorBoxes).toEqual([{ title: 'Lending Desk', content: expect.stringContaining(`does not start with debugging options (${name})`) }]);
    // Nothing else ran: no scheme, no single-instance lock, no waiting for ready, no window.
    expect(run.electron.calls).toEqual(['dialog.showErrorBox', 'app.exit 1']);
  });
});

describe('a packaged start with an option that changes how it reaches the network', () => {
  it.each([
    [['--proxy-server=http://10.0.0.9:8080'], {}, '--proxy-server'],
    [['--proxy-pac-url=http://x/p.pac'], {}, '--proxy-pac-url'],
    [['--proxy-bypass-list=*'], {}, '--proxy-bypass-list'],
    [['--no-proxy-server'], {}, '--no-proxy-server'],
    [['--proxy-auto-detect'], {}, '--proxy-auto-detect'],
    [['--host-resolver-rules=MAP * 10.0.0.9'], {}, '--host-resolver-rules'],
    [['--host-rules=MAP * 10.0.0.9'], {}, '--host-rules'],
    [['--ignore-certificate-errors'], {}, '--ignore-certificate-errors'],
    [['--ignore-certificate-errors-spki-list=abc'], {}, '--ignore-certificate-errors-spki-list'],
    [['--log-net-log=/tmp/net.json'], {}, '--log-net-log'],
    [['--net-log-capture-mode=Everything'], {}, '--net-log-capture-mode'],
    [[], { SSLKEYLOGFILE: '/tmp/keys.log' }, 'SSLKEYLOGFILE'],
  ])('quits at once, saying so in English and French, for %s %o', async (args, env, name) => {
    const run = await launch({ packaged: true, args: ['--lang=fr', ...args], env: env as Record<string, string> });
    expect(run.electron.exitCode).toBe(1);
    expect(run.electron.errorBoxes).toEqual([{ title: 'Lending Desk', content: expect.stringContaining(`does not start with options that change how it reaches the network (${name})`) }]);
    expect(run.electron.errorBoxes[0]!.content).toContain(`Lending Desk ne démarre pas avec des options qui changent sa façon de joindre le réseau (${name})`);
    expect(run.electron.errorBoxes[0]!.content).toContain("Your library's IT sets proxies in the operating system's settings");
    expect(run.electron.calls).toEqual(['dialog.showErrorBox', 'app.exit 1']);
  });

  it('an unpackaged start keeps them (development behind a proxy of one\'s own)', async () => {
    const run = await startUp(await launch({ packaged: false, args: ['--proxy-server=http://127.0.0.1:3128'], env: { SSLKEYLOGFILE: '/tmp/keys.log' } }));
    expect(run.electron.exitCode).toBeUndefined();
  });
});

describe('an unpackaged start (npm start, Playwright\'s Electron host)', () => {
  it('keeps the inspector switch working, and DevTools in the window and the menu', async () => {
    const run = await startUp(await launch({ packaged: false, args: ['--inspect=0', '--remote-debugging-port=0'] }));
    expect(run.electron.exitCode).toBeUndefined();
    // The test variables are heeded here: a data folder and keychain entries of its own.
    expect(run.electron.paths.get('userData')).toBe(run.userData);
    expect(run.createDeskArgs?.keychainService).toMatch(/^Lending Desk main test /);
    expect(run.electron.windows[0]!.options.webPreferences.devTools).toBe(true);
    expect(JSON.stringify(run.electron.menus.built[0])).toContain('toggleDevTools');
    expect(run.electron.windows[0]!.loadedUrl).toBe(`${APP_ORIGIN}/index.html`);
  });

  it('loads the dev server, sends it the CSP, and pins the sender check to its origin', async () => {
    const run = await startUp(await launch({ packaged: false, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173/' } }));
    expect(run.electron.windows[0]!.loadedUrl).toBe('http://localhost:5173/');
    expect(run.electron.headerHooks.map((hook) => hook.filter)).toEqual([{ urls: ['http://localhost:5173/*'] }]);
    let headers: Record<string, string[]> = {};
    run.electron.headerHooks[0]!.listener({ responseHeaders: { 'content-type': ['text/html'] } }, (response) => { headers = response.responseHeaders; });
    expect(headers).toEqual({ 'content-type': ['text/html'], 'Content-Security-Policy': [contentSecurityPolicy()] });
    const ours = run.electron.windows[0]!.contents;
    const appInfo = run.electron.ipcHandlers.get(channelOf('appInfo'))!;
    await expect(appInfo({ senderFrame: { url: 'http://localhost:5173/' }, sender: ours }, undefined)).resolves.toMatchObject({ ok: true });
    await expect(appInfo({ senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: ours }, undefined)).resolves.toMatchObject({ ok: false });
  });

  it('never checks for updates, even when the machine policy allows them', async () => {
    const run = await startUp(await launch({ packaged: false, appPath: builtApp({ macSigned: true }), machinePolicy: policyFile('https://updates.library.example/lending-desk/') }));
    const info = await run.electron.ipcHandlers.get(channelOf('appInfo'))!(
      { senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: run.electron.windows[0]!.contents }, undefined,
    );
    expect(info).toMatchObject({ ok: true, value: { managed: { updateMode: 'auto' } } }); // the policy file was read
    expect(run.electron.autoUpdater).toMatchObject({ feeds: [], checks: 0 });
    expect(run.electron.calls.filter((call) => call.startsWith('autoUpdater'))).toEqual([]);
  });
});

describe('whom the desk trusts on the wire', () => {
  let server: LoopbackTlsServer;
  beforeAll(async () => {
    server = await startLoopbackTlsServer((_request, response) => response.end('{"access_token":"t","expires_in":3600}'));
  });
  afterAll(() => server.close());

  it('sets its certificate verdict before the desk can send anything, and refuses a root this PC\'s user added (a proxy\'s)', async () => {
    const run = await startUp(await launch({ packaged: true, userRoots: [server.root.cert] }));
    const { calls } = run.electron;
    expect(calls.indexOf('session.setCertificateVerifyProc')).toBeGreaterThan(calls.indexOf('ready'));
    expect(calls.indexOf('session.setCertificateVerifyProc')).toBeLessThan(calls.indexOf('new BrowserWindow'));
    await expect(run.createDeskArgs!.fetch(`${server.origin}/api/v1/get-token`, { method: 'POST' })).rejects.toMatchObject({ code: 'network', detail: { reason: 'connection.intercepted', params: { host: '127.0.0.1' } } });
    expect(readFileSync(LOG_FILE(run.userData), 'utf8')).toMatch(/"event":"tls\.intercepted","host":"127\.0\.0\.1"/);
  });

  it('accepts it where IT\'s policy names it as the library\'s inspection CA', async () => {
    const machinePolicy = policyOf({ version: 1, tlsInspectionCa: [await opensslFingerprint(server.root.certFile)] });
    const run = await startUp(await launch({ packaged: true, userRoots: [server.root.cert], machinePolicy }));
    const response = await run.createDeskArgs!.fetch(`${server.origin}/api/v1/get-token`, { method: 'POST' });
    expect(await response.json()).toEqual({ access_token: 't', expires_in: 3600 });
  });
});

// ---- a start that fails, and quitting ----

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const LOG_FILE = (userData: string): string => join(userData, 'logs', 'lending-desk.log');
const pageOf = (window: { loadedUrl?: string } | undefined): string => decodeURIComponent((window?.loadedUrl ?? '').replace(/^data:text\/html;charset=utf-8,/, ''));
const mainsPages = (run: Run) => run.electron.windows.filter((w) => w.options.webPreferences.preload === undefined);

describe('a start that fails at any step', () => {
  it.each([
    ['log', { failAt: 'log' }],
    ['policy', { failAt: 'policy' }],
    ['desk', { failAt: 'desk' }],
    ['window', { fail: { protocol: true } }],
    ['window', { fail: { deskWindow: true } }],
    ['page', { fail: { deskPage: true } }],
  ] as const)('at %s (%o): shows what failed and where the log is, in both languages, and quits cleanly when closed', async (step, failure) => {
    const run = await launch({ packaged: true, locale: 'fr-CA', ...failure });
    await run.electron.startUp(); // main's own page is the one loaded
    const [page] = mainsPages(run);
    expect(page?.options.webPreferences).toMatchObject({ javascript: false, sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(page?.loadedUrl).toMatch(/^data:text\/html/);
    const html = pageOf(page);
    // The OS's language first, the other after it; every sentence from the locale files.
    expect(html.indexOf(frCA.start.failedTitle)).toBeGreaterThan(0);
    expect(html.indexOf(frCA.start.failedTitle)).toBeLessThan(html.indexOf(en.start.failedTitle));
    for (const texts of [en.start, frCA.start]) {
      expect(html).toContain(escapeHtml(texts.failedStep.replace('{step}', texts.steps[step])));
      expect(html).toContain(escapeHtml(texts.closeToQuit));
    }
    if (step === 'log') {
      expect(html).toContain(escapeHtml(en.start.noLog.split('{path}')[0]!));
      expect(html).toContain(join(run.userData, 'logs'));
    } else {
      expect(html).toContain(`<code>${LOG_FILE(run.userData)}</code>`);
      expect(readFileSync(LOG_FILE(run.userData), 'utf8')).toMatch(new RegExp(`"event":"app\\.start-failed".*"step":"${step}"`));
    }
    // No desk window is left behind it, and nothing is ever sent to one.
    expect(run.electron.windows.filter((w) => !w.destroyed)).toEqual([page]);

    // Closing the page quits: the single-instance lock goes first, so the next launch is not swallowed.
    const quitting = run.electron.nextQuit();
    page!.events.emit('closed');
    await quitting;
    const { calls } = run.electron;
    expect(calls.indexOf('app.releaseSingleInstanceLock')).toBeGreaterThan(-1);
    expect(calls.indexOf('app.releaseSingleInstanceLock')).toBeLessThan(calls.lastIndexOf('app.quit'));
    // The quit closes what the start had opened (a logger from the first step on), then quits again.
    expect((await quit(run)).held).toBe(step !== 'log');
    if (step !== 'log') expect(readFileSync(LOG_FILE(run.userData), 'utf8')).toContain('"event":"app.quit-closed"');

    // The next launch on the same folders starts as usual.
    const next = await startUp(await launch({ packaged: true, userData: run.userData }));
    expect(next.electron.windows[0]!.loadedUrl).toBe(`${APP_ORIGIN}/index.html`);
  });

  it('says it in a dialog, in both languages, when not even its own page can open, and quits', async () => {
    const run = await launch({ packaged: true, fail: { everyWindow: true } });
    const told = run.electron.whenCalled('dialog.showErrorBox');
    const quitting = run.electron.nextQuit();
    void run.electron.startUp();
    await told;
    await quitting;
    const [box] = run.electron.errorBoxes;
    for (const texts of [en.start, frCA.start]) {
      expect(box?.content).toContain(texts.failedTitle);
      expect(box?.content).toContain(texts.failedStep.replace('{step}', texts.steps.window));
      expect(box?.content).toContain(texts.logAt.replace('{path}', LOG_FILE(run.userData)));
    }
    expect(run.electron.calls).toContain('app.releaseSingleInstanceLock');
  });
});

describe('quitting', () => {
  it('holds the quit until the desk has closed its connection, its threads and its mirror, then quits again', async () => {
    const run = await startUp(await launch({ packaged: true }));
    const ours = run.electron.windows[0]!.contents;
    const call = (name: string, args?: unknown) => run.electron.ipcHandlers.get(channelOf(name as never))!({ senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: ours }, args);
    await expect(call('setDeskPin', { pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    await expect(call('useSandbox')).resolves.toMatchObject({ ok: true });
    await expect(call('startShift', { staffName: 'JD', pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    // The sandbox connection is open, with its mirror (and WAL) on disk.
    await expect(call('syncStatus')).resolves.toMatchObject({ ok: true, value: { available: true } });
    const catalog = join(run.userData, 'catalog');
    expect(readdirSync(catalog).some((name) => name.endsWith('.db-wal'))).toBe(true);

    const before = run.electron.calls.length;
    expect((await quit(run)).held).toBe(true);
    expect(run.electron.calls.slice(before)).toEqual(['app.quit']);
    // The last connection to the mirror closed: SQLite folded the WAL back into the file.
    expect(readdirSync(catalog).filter((name) => name.endsWith('.db-wal'))).toEqual([]);
    const log = readFileSync(LOG_FILE(run.userData), 'utf8');
    expect(log).toContain('"event":"app.quit-closed"');
    // A second quit (Electron's own, after main's) passes straight through.
    expect((await quit(run)).held).toBe(false);
  });

  it('never sends to a window that is gone', async () => {
    const run = await startUp(await launch({ packaged: true }));
    const ours = run.electron.windows[0]!.contents;
    const call = (name: string, args?: unknown) => run.electron.ipcHandlers.get(channelOf(name as never))!({ senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: ours }, args);
    await call('setDeskPin', { pin: 'desk-pin-1' });
    await expect(call('startShift', { staffName: 'JD', pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    await expect(call('copyText', { text: 'Loans of ••••0002', purpose: 'slip' })).resolves.toMatchObject({ ok: true });
    run.electron.windows[0]!.events.emit('close');
    run.electron.windows[0]!.destroyed = true; // closed, as at quit; the OS locks the screen meanwhile
    const cleared = run.electron.nextClipboardWrite();
    run.electron.powerEvents.emit('lock-screen');
    expect(await cleared).toBe(''); // the lock ran to its end: its event to the page was dropped, not thrown
    expect(run.electron.windows[0]!.webContents.sent.filter((m) => m.channel === channelOf('sessionLocked'))).toEqual([]);
  });
});

describe('every way out ends the shift (issue #33)', () => {
  /** A desk on shift with the desk's slip on the clipboard. */
  async function onShiftWithSlip(): Promise<Run> {
    const run = await startUp(await launch({ packaged: true }));
    const call = contractOf(run);
    await expect(call('setDeskPin', { pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    await expect(call('useSandbox')).resolves.toMatchObject({ ok: true });
    await expect(call('startShift', { staffName: 'JD', pin: 'desk-pin-1' })).resolves.toMatchObject({ ok: true });
    await expect(call('copyText', { text: 'Loans of ••••0002: due 1 December', purpose: 'slip' })).resolves.toMatchObject({ ok: true });
    return run;
  }

  /** Electron's quit as it goes once main asked for it: before-quit (held until the shift ended), then will-quit (held until the desk closed). */
  async function quitAsElectronDoes(run: Run): Promise<void> {
    const quits = (): number => run.electron.calls.filter((call) => call === 'app.quit').length;
    expect(quits()).toBe(1); // what the way out asked for
    let held = false;
    run.electron.appEvents.emit('before-quit', { preventDefault: () => { held = true; } });
    expect(held).toBe(true);
    await vi.waitFor(() => expect(quits()).toBe(2));
    expect((await quit(run)).held).toBe(true);
  }

  const endedAndClosed = (run: Run): void => {
    expect(run.electron.clipboard.text).toBe('');
    const log = readFileSync(LOG_FILE(run.userData), 'utf8');
    expect(log).toMatch(/"event":"session\.lock","staff":"","reason":"quit","clipboardCleared":true/);
    expect(log).toContain('"event":"app.quit-closed"');
    // The catalog's mirror was closed (its WAL folded back into the file).
    expect(readdirSync(join(run.userData, 'catalog')).filter((name) => name.endsWith('.db-wal'))).toEqual([]);
  };

  it.each([['logoff'], ['shutdown']])('Windows asks before a %s: the session\'s end is held while the shift ends and the desk closes, then the app quits', async (reason) => {
    const run = await onShiftWithSlip();
    let held = false;
    run.electron.windows[0]!.events.emit('query-session-end', { preventDefault: () => { held = true; }, reasons: [reason] });
    expect(held).toBe(true);
    await quitAsElectronDoes(run);
    endedAndClosed(run);
    expect(readFileSync(LOG_FILE(run.userData), 'utf8')).toMatch(new RegExp(`"event":"app\\.way-out","why":"session-ending","reasons":\\["${reason}"\\]`));
  });

  it('Windows ends the session without asking (session-end): the quit starts there all the same', async () => {
    const run = await onShiftWithSlip();
    run.electron.windows[0]!.events.emit('session-end', { preventDefault: () => {}, reasons: ['critical'] });
    await quitAsElectronDoes(run);
    endedAndClosed(run);
  });

  it('SIGTERM on Linux quits the same way', async () => {
    const run = await onShiftWithSlip();
    process.emit('SIGTERM', 'SIGTERM');
    await quitAsElectronDoes(run);
    endedAndClosed(run);
    expect(readFileSync(LOG_FILE(run.userData), 'utf8')).toContain('"event":"app.way-out","why":"SIGTERM"');
  });

  it('a shutdown announced on Linux or macOS (powerMonitor) is held while the desk quits', async () => {
    const run = await onShiftWithSlip();
    let held = false;
    run.electron.powerEvents.emit('shutdown', { preventDefault: () => { held = true; } });
    expect(held).toBe(true);
    await quitAsElectronDoes(run);
    endedAndClosed(run);
  });

  it('a launch while the desk is quitting opens the app again once it has closed; while it runs, brings its window forward', async () => {
    const run = await startUp(await launch({ packaged: true }));
    run.electron.appEvents.emit('second-instance', {}, [], '/');
    expect(run.electron.calls.at(-1)).toBe('BrowserWindow.focus');
    run.electron.appEvents.emit('before-quit', { preventDefault: () => {} });
    await vi.waitFor(() => expect(run.electron.calls.at(-1)).toBe('app.quit'));
    run.electron.appEvents.emit('second-instance', {}, [], '/');
    const before = run.electron.calls.length;
    await quit(run);
    expect(run.electron.calls.slice(before)).toEqual(['app.relaunch', 'app.quit']);
  });

  it('not while the session ends: the next session starts it', async () => {
    const run = await startUp(await launch({ packaged: true }));
    run.electron.windows[0]!.events.emit('query-session-end', { preventDefault: () => {}, reasons: ['logoff'] });
    run.electron.appEvents.emit('before-quit', { preventDefault: () => {} });
    run.electron.appEvents.emit('second-instance', {}, [], '/');
    await quit(run);
    expect(run.electron.calls).not.toContain('app.relaunch');
  });
});

describe('the catalog moved to local app data (Windows: out of a roaming profile)', () => {
  it('copies it across volumes with its progress on main\'s own page, then opens the desk on it', async () => {
    const root = folder('lending-desk-move-');
    const previous = join(root, 'Roaming', 'Lending Desk', 'catalog');
    const dir = join(root, 'Local', 'Lending Desk', 'catalog');
    mkdirSync(previous, { recursive: true });
    writeFileSync(join(previous, 'catalog-main-0123456789ab.db'), Buffer.alloc(3 * 1024 * 1024, 7));
    writeFileSync(join(previous, 'catalog-main-0123456789ab.db-wal'), Buffer.alloc(512 * 1024, 8));
    // What Chromium kept in the roaming folder before its data moved too (issue #33), beside the desk's own files.
    const userData = folder('lending-desk-main-');
    for (const name of ['Cache', 'Local Storage', 'Network']) mkdirSync(join(userData, name, 'sub'), { recursive: true });
    writeFileSync(join(userData, 'settings.json'), '{}');
    const run = await launch({ packaged: true, catalog: { dir, previous }, userData });
    // Chromium's own data goes beside the catalog, in local app data, set before ready.
    expect(run.electron.calls.indexOf('app.setPath sessionData')).toBeGreaterThan(-1);
    expect(run.electron.paths.get('sessionData')).toBe(join(root, 'Local', 'Lending Desk'));
    const deskLoaded = run.electron.whenCalled(`webContents.loadURL ${APP_ORIGIN}`);
    void run.electron.startUp();
    await deskLoaded;
    const [page] = mainsPages(run);
    // Shown while copying, its progress moving to the end (3.5 MiB, shown as 4 MB), in both languages.
    expect(page?.loads.length).toBeGreaterThanOrEqual(3);
    const last = decodeURIComponent(page!.loads.at(-1)!.replace(/^data:text\/html;charset=utf-8,/, ''));
    expect(last).toContain(escapeHtml(en.start.movingProgress.replace('{done}', '4').replace('{total}', '4')));
    expect(last).toContain(escapeHtml(frCA.start.movingProgress.replace('{done}', '4').replace('{total}', '4')));
    expect(page?.progress).toBe(-1);
    // It gave way to the desk's window once that existed (never no window: that would quit).
    const { calls } = run.electron;
    expect(calls.indexOf('BrowserWindow.close')).toBeGreaterThan(calls.indexOf('new BrowserWindow'));
    expect(page?.destroyed).toBe(true);
    const { createDesk } = await import('../../../../electron/main/app/desk-assembly.ts');
    expect(vi.mocked(createDesk).mock.calls.at(-1)?.[0].catalogDir).toBe(dir);
    expect(readdirSync(dir).sort()).toEqual(['catalog-main-0123456789ab.db', 'catalog-main-0123456789ab.db-wal']);
    expect(existsSync(previous)).toBe(false);
    expect(readFileSync(LOG_FILE(run.userData), 'utf8')).toMatch(/"event":"mirror\.folder-moved".*"kind":"copied"/);
    expect(calls.indexOf('app.setPath sessionData')).toBeLessThan(calls.indexOf('ready'));
    // The roaming leftovers went, and nothing of the desk's own.
    expect(readdirSync(run.userData).filter((name) => ['Cache', 'Local Storage', 'Network'].includes(name))).toEqual([]);
    expect(existsSync(join(run.userData, 'settings.json'))).toBe(true);
    expect(readFileSync(LOG_FILE(run.userData), 'utf8')).toMatch(/"event":"chromium-data\.moved".*"removed":\["Cache","Local Storage","Network"\]/);
  });
});

describe('--check-desk: IT\'s headless check of this desk, before a rollout', () => {
  /** A policy naming a library server that nothing answers at, for a profile of library 101. */
  async function policyNamingAServerDown(): Promise<{ path: string; url: string }> {
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `https://127.0.0.1:${port}`;
    const path = join(folder('lending-desk-policy-'), 'policy.json');
    writeFileSync(path, JSON.stringify({
      version: 1,
      profiles: [{ id: 'city', name: 'City Library', baseUrl: 'https://partner.example.org', libraries: [{ libraryId: 101 }], country: 'US' }],
      libraryServer: { url },
    }));
    return { path, url };
  }

  /** Everything main printed (its stdout) while `work` ran. */
  async function printed(work: () => Promise<void>): Promise<string> {
    let text = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => { text += String(chunk); return true; });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return text;
  }

  it('runs before anything of the desk (no ready, lock, scheme or window), checks the machine policy and this user\'s keychain, prints the report, keeps it in the log folder, and exits 1 when a check fails', async () => {
    const { path, url } = await policyNamingAServerDown();
    let run: Run | undefined;
    const text = await printed(async () => {
      run = await launch({ packaged: true, policyPlatform: 'linux', machinePolicy: path, args: ['--check-desk'] });
      await vi.waitFor(() => expect(run!.electron.exitCode).toBeDefined(), { timeout: 30_000 });
    });
    expect(run!.electron.exitCode).toBe(1);
    expect(run!.electron.calls).toEqual(['app.exit 1']);
    expect(run!.electron.windows).toEqual([]);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Lending Desk 0\.1\.0 check-desk, \d{4}-\d\d-\d\dT[\d:.]+Z, as \S+$/);
    expect(lines.slice(1)).toEqual([
      `ok      policy: ${path}; libraryServer; libraries 101 (profile city)`,
      'FAILED  keychain: no workstation credential (lending-desk:workstation): enrol this desk (docs/library-server.md §8)',
      expect.stringMatching(new RegExp(`^FAILED  library server ${url}: not reached \\(connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\)$`)),
      '2 checks failed.',
    ]);
    expect(readFileSync(join(run!.userData, 'logs', 'check-desk.txt'), 'utf8')).toBe(text);
    // Nothing of the desk's own was made: no settings, no catalog, no app log.
    expect(readdirSync(run!.userData).sort()).toEqual(['logs']);
    expect(readdirSync(join(run!.userData, 'logs'))).toEqual(['check-desk.txt']);
  }, 40_000);

  it('exits 0 when every check passes, saying so', async () => {
    let run: Run | undefined;
    const text = await printed(async () => {
      run = await launch({ packaged: true, args: ['--check-desk'], deskCheck: [{ ok: true, what: 'policy', detail: '/etc/lending-desk/policy.json; libraryServer' }] });
      await vi.waitFor(() => expect(run!.electron.exitCode).toBeDefined(), { timeout: 30_000 });
    });
    expect(run!.electron.exitCode).toBe(0);
    expect(text).toMatch(/\nok      policy: \/etc\/lending-desk\/policy\.json; libraryServer\nAll checks passed\.\n$/);
    expect(readFileSync(join(run!.userData, 'logs', 'check-desk.txt'), 'utf8')).toBe(text);
  });

  it('is no way around the refused switches: a packaged start with --check-desk and a debugging switch is refused, and checks nothing', async () => {
    const run = await launch({ packaged: true, args: ['--check-desk', '--remote-debugging-port=9222'], deskCheck: [{ ok: true, what: 'policy', detail: 'played' }] });
    expect(run.electron.exitCode).toBe(1);
    expect(run.electron.calls).toEqual(['dialog.showErrorBox', 'app.exit 1']);
    expect(existsSync(join(run.userData, 'logs', 'check-desk.txt'))).toBe(false);
  });
});
