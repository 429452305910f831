// Main's start-up, executed: electron/main/index.ts imported under a recording Electron stand-in
// (electron-stand-in.ts, which throws on anything it does not model), with the real DeskService,
// settings file, logger and keychain (run inside with-keyring) on a temporary user data folder.
// Main runs from its source, as if from its build folder: app-files.ts is asked about out/main,
// so the preload, mirror worker and renderer it names are the built ones.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { METHOD_NAMES, channelOf } from '../../../electron/shared/contract.ts';
import { APP_ORIGIN } from '../../../electron/main/app-protocol.ts';
import { appFiles } from '../../../electron/main/app-files.ts';
import { contentSecurityPolicy } from '../../../electron/main/security.ts';
import type { DeskService } from '../../../electron/desk/desk-service.ts';
import { createElectronStandIn, type ElectronStandIn } from './electron-stand-in.ts';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const SOURCE_MAIN = join(ROOT, 'electron', 'main');
const BUILT_MAIN = join(ROOT, 'out', 'main');

const holder = vi.hoisted(() => ({
  electron: undefined as unknown as { module: Record<string, unknown>; autoUpdater: object; paths: Map<string, string> },
  /** Stands for the machine-wide policy file of an installed app (/etc, ProgramData, /Library). */
  machinePolicy: '' as string,
  policyPlatform: 'darwin' as NodeJS.Platform,
  sourceMain: '' as string,
  builtMain: '' as string,
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
  const module = Object.fromEntries(['app', 'BrowserWindow', 'clipboard', 'dialog', 'ipcMain', 'Menu', 'net', 'powerMonitor', 'protocol', 'session', 'shell'].map((name) => [name, forward(name)]));
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
vi.mock('../../../electron/main/app-files.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../electron/main/app-files.ts')>();
  return { ...real, appFiles: (dir: string) => real.appFiles(dir === holder.sourceMain ? holder.builtMain : dir) };
});
// The machine's policy source (/etc/lending-desk/policy.json on Linux) stands in a folder of the
// test's own, read by the same trusted-file rules with that folder as the top, and judged as on
// the platform the test names (automatic updates are refused on Linux, allowed on macOS).
vi.mock('../../../electron/policy/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../electron/policy/index.ts')>();
  const { readLinuxPolicy } = await import('../../../electron/policy/linux-source.ts');
  return {
    ...real,
    loadMachinePolicy: () => real.checkedPolicy(
      readLinuxPolicy({ path: holder.machinePolicy, trustRoot: dirname(holder.machinePolicy), ownerUid: process.getuid?.() ?? 0 }),
      { platform: holder.policyPlatform, windowsPublisherVerified: false },
    ),
  };
});
// Recorded, and otherwise the real assembly.
vi.mock('../../../electron/main/desk-assembly.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../electron/main/desk-assembly.ts')>();
  return { createDesk: vi.fn(real.createDesk) };
});

interface Run {
  electron: ElectronStandIn;
  userData: string;
  /** The DeskService main assembled, once started. */
  desk?: DeskService;
  createDeskArgs?: { mirrorWorker: string; userData: string };
}

const runs: Run[] = [];
const folders: string[] = [];
const savedArgv = process.argv;

function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

function policyFile(url: string): string {
  const path = join(folder('lending-desk-policy-'), 'policy.json');
  writeFileSync(path, JSON.stringify({ version: 1, updates: { mode: 'auto', url } }));
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
}

/** Imports main afresh under a new stand-in; it runs up to waiting for `ready`. */
async function launch(options: Launch): Promise<Run> {
  vi.resetModules();
  const userData = options.userData ?? folder('lending-desk-main-');
  const electron = createElectronStandIn({ packaged: options.packaged, args: options.args ?? [], userData: join(userData, 'default-location') });
  holder.electron = electron;
  holder.machinePolicy = options.machinePolicy ?? join(folder('lending-desk-no-policy-'), 'policy.json');
  holder.policyPlatform = options.policyPlatform ?? 'darwin';
  holder.sourceMain = SOURCE_MAIN;
  holder.builtMain = BUILT_MAIN;
  process.argv = ['/opt/Lending Desk/lending-desk', ...(options.args ?? [])];
  vi.stubEnv('LENDING_DESK_USER_DATA_DIR', userData);
  vi.stubEnv('LENDING_DESK_KEYCHAIN_SERVICE', `Lending Desk main test ${randomUUID()}`);
  vi.stubEnv('LENDING_DESK_POLICY_FILE', '');
  vi.stubEnv('ELECTRON_RENDERER_URL', '');
  for (const [name, value] of Object.entries(options.env ?? {})) vi.stubEnv(name, value);
  await import('../../../electron/main/index.ts');
  const run: Run = { electron, userData };
  runs.push(run);
  return run;
}

/** Fires `ready` and waits for main to load its page. */
async function startUp(run: Run): Promise<Run> {
  const { createDesk } = await import('../../../electron/main/desk-assembly.ts');
  vi.mocked(createDesk).mockClear();
  await run.electron.startUp();
  const call = vi.mocked(createDesk).mock.calls.at(-1)?.[0];
  const result = vi.mocked(createDesk).mock.results.at(-1);
  if (call === undefined || result?.type !== 'return') throw new Error('main loaded its page without assembling DeskService');
  run.createDeskArgs = call;
  run.desk = result.value.desk;
  return run;
}

async function quit(run: Run): Promise<void> {
  run.electron.appEvents.emit('will-quit');
  await run.desk?.close();
}

afterEach(async () => {
  for (const run of runs.splice(0)) await quit(run);
  process.argv = savedArgv;
  vi.unstubAllEnvs();
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
    await expect(call('appInfo')).resolves.toMatchObject({ ok: true, value: { session: { staffName: 'JD' } } });
    await expect(call('copyText', { text: 'Loans of ••••0002: due 1 December', purpose: 'slip' })).resolves.toMatchObject({ ok: true });
    expect(run.electron.clipboard.text).toBe('Loans of ••••0002: due 1 December');
    run.electron.powerEvents.emit('lock-screen');
    await vi.waitFor(() => expect(run.electron.clipboard.text).toBe(''));
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
      await expect(call('appInfo')).resolves.toMatchObject({ value: { session: { staffName: 'JD' } } });
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

    const managed = await startUp(await launch({ packaged: true, machinePolicy: policyFile('https://updates.library.example/lending-desk/'), env: { LENDING_DESK_POLICY_FILE: attacker } }));
    expect(managed.electron.autoUpdater).toMatchObject({
      feeds: [{ provider: 'generic', url: 'https://updates.library.example/lending-desk/' }], checks: 1, allowDowngrade: false, autoInstallOnAppQuit: true,
    });
    await quit(managed);
    runs.splice(runs.indexOf(managed), 1);

    // The same policy on Linux: AppImage and deb carry no signature to check, so `auto` is refused.
    const linux = await startUp(await launch({ packaged: true, policyPlatform: 'linux', machinePolicy: policyFile('https://updates.library.example/lending-desk/') }));
    expect(linux.electron.autoUpdater).toMatchObject({ feeds: [], checks: 0 });
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
    await import('../../../electron/main/index.ts');
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
    const run = await startUp(await launch({ packaged: false, machinePolicy: policyFile('https://updates.library.example/lending-desk/') }));
    const info = await run.electron.ipcHandlers.get(channelOf('appInfo'))!(
      { senderFrame: { url: `${APP_ORIGIN}/index.html` }, sender: run.electron.windows[0]!.contents }, undefined,
    );
    expect(info).toMatchObject({ ok: true, value: { managed: { updateMode: 'auto' } } }); // the policy file was read
    expect(run.electron.autoUpdater).toMatchObject({ feeds: [], checks: 0 });
    expect(run.electron.calls.filter((call) => call.startsWith('autoUpdater'))).toEqual([]);
  });
});
