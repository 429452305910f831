// The desk app shell, end to end: first run on the sandbox, a partner connection with a
// wrong and then a right password (kept in the keychain across a restart), and the idle
// lock clearing patron data. Runs on the Chromium host and, where it exists, in Electron.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '../../electron/main/sandbox/server.ts';
import { createKeytarVault } from '../../electron/main/credentials/index.ts';
import { SCREENSHOT_DIR, TEST_DESK_PIN, expect, test } from './hosts.ts';
import type { Page } from '@playwright/test';

mkdirSync(SCREENSHOT_DIR, { recursive: true });

/** The shared desk PIN alone: the log records "desk PIN", no typed name (issue #35). */
async function startShift(page: Page): Promise<void> {
  await page.getByLabel('PIN', { exact: true }).fill(TEST_DESK_PIN);
  await page.keyboard.press('Enter');
  await expect(page.getByText('On shift: desk PIN')).toBeVisible();
}

async function lookUp(page: Page, card: string): Promise<void> {
  const field = page.getByLabel('Library card');
  await expect(field).toBeFocused();
  await page.keyboard.type(card); // a scanner types digits then Enter
  await page.keyboard.press('Enter');
  await expect(page.getByText(/borrows? left this month/)).toBeVisible();
}

test('first run: choose the sandbox, start a shift, the desk is ready', async ({ desk }) => {
  const { page } = desk;
  const cspViolations: string[] = [];
  page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text()); });
  await expect(page.getByRole('heading', { name: 'Welcome to Lending Desk' })).toBeVisible();
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'first-run-1280x800.png') });
  const useSandbox = page.getByRole('button', { name: 'Use the built-in sandbox' });
  await expect(useSandbox).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('SANDBOX — training data, no real patrons')).toBeVisible();
  await startShift(page);
  await expect(page.getByLabel('Library card')).toBeFocused();
  await lookUp(page, '2110100002');
  await expect(page.getByText('Card ••••0002')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Loans' })).toBeVisible();
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'desk-1280x800.png') });
  await page.setViewportSize({ width: 1024, height: 700 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'desk-1024x700.png') });
  expect(cspViolations).toEqual([]);
  // The CSP comes as a header of the app:// handler (on both hosts), read back from the page's own URL.
  const csp = await page.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'));
  expect(csp).toContain("script-src 'self'");
});

test.describe('a real partner service', () => {
  let partner: SandboxHandle; // a second sandbox plays the library's real partner service
  test.beforeAll(async () => { partner = await startSandbox({ password: 'e2e-partner-secret', catalogSize: 1000 }); });
  test.afterAll(async () => { await partner.close(); });

  test('wrong password: clear error, nothing saved; right password: saved, and a restarted app connects without asking', async ({ desk }) => {
    let page = desk.page;
    const form = page.getByRole('form', { name: 'Partner connection' });
    await form.getByLabel('Profile name').fill('Partner test');
    await form.getByLabel('Base URL').fill(partner.url);
    await form.getByLabel('Username').fill(partner.username);
    await form.getByLabel('Password').fill('not-the-password');
    await form.getByLabel('Library ids').fill(partner.libraries.map((l) => l.libraryId).join(', '));
    await form.getByRole('button', { name: 'Save and connect' }).click();
    await expect(page.getByRole('alert')).toContainText(/username or password/);
    await expect(form.getByLabel('Base URL')).toHaveValue(partner.url); // nothing typed is lost
    const vault = createKeytarVault({ service: desk.keychainService });
    expect(await vault.has('partner-test')).toBe(false);

    await form.getByLabel('Password').fill(partner.password);
    await form.getByRole('button', { name: 'Save and connect' }).click();
    await expect(page.getByLabel('PIN', { exact: true })).toBeVisible();
    expect(await vault.read('partner-test')).toEqual({ username: partner.username, password: partner.password, origin: new URL(partner.url).origin });
    await expect(page.getByText('SANDBOX — training data, no real patrons')).toHaveCount(0);

    page = await desk.restart();
    await startShift(page);
    await lookUp(page, partner.libraries[0]!.cards[1]!);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});

test('idle lock clears patron data and unlocks to an empty desk', async ({ desk }) => {
  const { page } = desk;
  await page.clock.install();
  await page.getByRole('button', { name: 'Use the built-in sandbox' }).click();
  await startShift(page);
  await lookUp(page, '2110100002');
  await expect(page.getByText('Card ••••0002')).toBeVisible();
  await page.clock.fastForward('06:00'); // default idle lock: 5 minutes
  await expect(page.getByRole('heading', { name: 'Desk locked' })).toBeVisible();
  await expect(page.getByText('The desk PIN was in use.')).toBeVisible();
  await expect(page.getByText('Card ••••0002')).toHaveCount(0);
  await expect(page.getByText(/Instant borrows left/)).toHaveCount(0);
  expect(await page.content()).not.toContain('2110100002');
  await expect(page.getByText('SANDBOX — training data, no real patrons')).toBeVisible();
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'lock-1280x800.png') });
  await startShift(page);
  await expect(page.getByLabel('Library card')).toHaveValue('');
  await expect(page.getByText(/Instant borrows left/)).toHaveCount(0);
});
