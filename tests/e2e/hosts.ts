// The `desk` fixture: one Lending Desk, on whichever host the project names, with a fresh
// user data folder and a test-only keychain service, and a restart that keeps both.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, chromium, test as base, type Browser, type ElectronApplication, type Page } from '@playwright/test';
import { EVENT_NAMES, METHOD_NAMES } from '../../electron/shared/contract.ts';
import { createKeytarVault } from '../../electron/main/credentials/index.ts';
import type { LoadMachinePolicyOptions } from '../../electron/main/policy/index.ts';
import { ACTION_LOG_KEY_ACCOUNT } from '../../electron/main/action-log/log-key.ts';
import { DESK_RECORDS, keychainDeskRecords } from '../../electron/main/credentials/desk-keychain.ts';
import { installHostBridge } from './host/bridge-script.ts';
import { startDeskHost, type DeskHost, type DeskHostOptions } from './host/desk-host.ts';
import type { DeskService } from '../../electron/main/desk/desk-service.ts';
import { ELECTRON_HOST_ENV } from './global-setup.ts';
import { installedElectron } from '../../scripts/electron-binary.ts';
import { standInChromium } from './host/chromium-args.ts';

const ROOT = join(import.meta.dirname, '..', '..');
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');
/** The desk PIN a fresh test desk has (only its hash is written): sign in with it. */
export { TEST_DESK_PIN } from '../support/desk-pin.ts';

export interface DeskApp {
  page: Page;
  /** Closes the app (or host) and starts it again on the same settings and keychain. */
  restart(): Promise<Page>;
  userDataDir: string;
  keychainService: string;
  /** The Chromium host's DeskService, for what main does on its own (a lock on its own clock); undefined on the Electron host. */
  service?: () => DeskService;
}

/**
 * Why the Electron host cannot run, or undefined. global-setup.ts tried the electron package's
 * own download once for the whole run and left the reason here; a run without it (a single spec
 * started some other way) checks for a binary already downloaded, without loading the package.
 */
export function electronUnavailableReason(): string | undefined {
  if (ELECTRON_HOST_ENV in process.env) return process.env[ELECTRON_HOST_ENV];
  return installedElectron(ROOT, process.env) ? undefined : 'Electron host skipped: no Electron binary downloaded yet (run the whole suite: its global setup downloads it where it can).';
}

async function chromiumPage(browser: Browser, url: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.addInitScript(installHostBridge, { methods: [...METHOD_NAMES], events: [...EVENT_NAMES] });
  page.on('pageerror', (error) => { console.error(`page error: ${error.message}`); });
  await page.goto(url);
  return page;
}

export const test = base.extend<{ desk: DeskApp; policy: LoadMachinePolicyOptions | undefined; deskPin: 'test' | 'none'; sandbox: DeskHostOptions['sandbox']; installedForAllUsers: boolean }, { browser: Browser }>({
  /** Where the Chromium host reads the machine policy (a spec's own folder); the machine's own sources by default. */
  policy: [undefined, { option: true }],
  /** `none`: the Chromium host's desk has no desk PIN yet (the first run sets one). */
  deskPin: ['test', { option: true }],
  /** The Chromium host's sandbox in a strict mode (a project's `use`, or a spec's test.use). */
  sandbox: [undefined, { option: true }],
  /** The Chromium host's desk as a Windows copy installed for all users (the MSI). */
  installedForAllUsers: [false, { option: true }],
  browser: [async ({}, use) => {
    const browser = await chromium.launch(standInChromium());
    await use(browser);
    await browser.close();
  }, { scope: 'worker' }],
  desk: async ({ browser, policy, deskPin, sandbox, installedForAllUsers }, use, testInfo) => {
    const userDataDir = mkdtempSync(join(tmpdir(), 'lending-desk-e2e-'));
    const keychainService = `Lending Desk e2e ${randomUUID()}`;
    try {
      if (testInfo.project.name === 'electron') {
        const reason = electronUnavailableReason();
        if (reason) {
          console.log(reason);
          testInfo.skip(true, reason);
          return;
        }
        let app: ElectronApplication | undefined;
        const launch = async (): Promise<Page> => {
          app = await _electron.launch({
            args: [ROOT], // the project folder: its package.json names out/main/index.js and the product name
            env: { ...process.env, LENDING_DESK_USER_DATA_DIR: userDataDir, LENDING_DESK_KEYCHAIN_SERVICE: keychainService } as Record<string, string>,
          });
          const page = await app.firstWindow();
          await page.setViewportSize({ width: 1280, height: 800 });
          return page;
        };
        const desk: DeskApp = { page: await launch(), userDataDir, keychainService, restart: async () => {
          await app?.close();
          desk.page = await launch();
          return desk.page;
        } };
        await use(desk);
        await app?.close();
      } else {
        let host: DeskHost = await startDeskHost({ userDataDir, keychainService, policy, deskPin, sandbox, installedForAllUsers });
        const desk: DeskApp = { page: await chromiumPage(browser, host.url), userDataDir, keychainService, service: () => host.desk, restart: async () => {
          await desk.page.context().close();
          await host.close();
          host = await startDeskHost({ userDataDir, keychainService, policy, deskPin, sandbox, installedForAllUsers });
          desk.page = await chromiumPage(browser, host.url);
          return desk.page;
        } };
        await use(desk);
        await desk.page.context().close();
        await host.close();
      }
    } finally {
      rmSync(userDataDir, { recursive: true, force: true });
      for (const account of ['partner-test', ACTION_LOG_KEY_ACCOUNT]) await createKeytarVault({ service: keychainService }).forget(account).catch(() => undefined);
      for (const record of Object.values(DESK_RECORDS)) await keychainDeskRecords({ service: keychainService }).remove(record).catch(() => undefined);
    }
  },
});

export { expect } from '@playwright/test';
