// A managed desk, end to end: a policy file a desk user wrote (or one with a value it may not
// have) is refused and the desk fails closed — nobody signs in, and the lock and first-run screens
// tell IT which rule failed, in English and in French; a policy with a setting this version does
// not know is applied without it and Settings lists it; a policy asking for automatic updates on
// Linux keeps the rest and says why updates stay off. The policy file is real (owner, mode) in
// a folder of the spec's own, which the Chromium host is told to read as the machine's policy.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startSandbox, type SandboxHandle } from '../../electron/main/sandbox/server.ts';
import { SCREENSHOT_DIR, TEST_DESK_PIN, expect, test } from './hosts.ts';

mkdirSync(SCREENSHOT_DIR, { recursive: true });

const root = mkdtempSync(join(tmpdir(), 'lending-desk-e2e-policy-'));
chmodSync(root, 0o755);
const policyFile = join(root, 'policy.json');
const DESK_USER = 1000;

test.use({ policy: { platform: 'linux', linux: { path: policyFile, trustRoot: root } } });
test.beforeAll(({}, testInfo) => {
  testInfo.skip(testInfo.project.name === 'electron',
    'Electron host: the app reads only the machine\'s own policy (/etc/lending-desk/policy.json here), never a folder a test names; these specs run on the Chromium host.');
});
test.afterEach(() => rmSync(policyFile, { force: true }));
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

function writePolicy(policy: object, owner = 0): void {
  writeFileSync(policyFile, JSON.stringify(policy), { mode: 0o644 });
  chmodSync(policyFile, 0o644);
  chownSync(policyFile, owner, owner);
}

/** The desk PIN alone (issue #35: no typed name; the header says "desk PIN"). */
async function startShift(page: Page): Promise<void> {
  await page.getByLabel('PIN', { exact: true }).fill(TEST_DESK_PIN);
  await page.keyboard.press('Enter');
  await expect(page.getByText('On shift: desk PIN')).toBeVisible();
}

async function screenshots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-1280x800.png`) });
  await page.setViewportSize({ width: 1024, height: 700 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-1024x700.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function switchToFrench(page: Page): Promise<void> {
  await page.getByLabel('Language').selectOption('fr-CA');
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByRole('heading', { name: 'Paramètres' })).toBeVisible();
}

test.describe('a policy a desk user wrote', () => {
  let partner: SandboxHandle;
  test.beforeAll(async () => { partner = await startSandbox({ password: 'e2e-partner-secret', catalogSize: 300 }); });
  test.afterAll(async () => { await partner.close(); });

  test('is refused: the lock screen lets nobody in, not even with the desk PIN, and tells IT which rule failed, in English and French', async ({ desk }) => {
    let page = desk.page;
    // An unmanaged desk with its own partner connection and its desk PIN.
    const form = page.getByRole('form', { name: 'Partner connection' });
    await form.getByLabel('Profile name').fill('Partner test');
    await form.getByLabel('Base URL').fill(partner.url);
    await form.getByLabel('Username').fill(partner.username);
    await form.getByLabel('Password').fill(partner.password);
    await form.getByLabel('Library ids').fill(String(partner.libraries[0]!.libraryId));
    await form.getByRole('button', { name: 'Save and connect' }).click();
    await startShift(page);

    // A desk user puts a laxer policy of their own in place: it is refused, not half used, and the desk fails closed.
    writePolicy({ version: 1, idleLockMinutes: 240, sandboxOffered: true }, DESK_USER);
    page = await desk.restart();
    await expect(page.getByRole('heading', { name: 'Nobody can sign in on this computer' })).toBeVisible();
    await expect(page.getByText(`For IT, the rule that failed: ${policyFile} is owned by user ${DESK_USER}, not by root.`)).toBeVisible();
    await expect(page.getByText('IT: correct the policy (see docs/it-deployment.md), then start Lending Desk again.')).toBeVisible();
    await expect(page.getByLabel('PIN', { exact: true })).toHaveCount(0);
    // Nor through the contract: the desk PIN set before opens nothing.
    expect(await page.evaluate(async (pin) => (await window.lendingDesk.startShift({ staffName: 'JD', pin })).ok, TEST_DESK_PIN)).toBe(false);
    await screenshots(page, 'lock-policy-refused-en');

    await page.evaluate(async () => { await window.lendingDesk.updatePreferences({ language: 'fr-CA' }); });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Personne ne peut se connecter sur cet ordinateur' })).toBeVisible();
    await expect(page.getByText(`Pour le service informatique, la règle non respectée : ${policyFile} appartient à l’utilisateur ${DESK_USER}, et non à root.`)).toBeVisible();
    await screenshots(page, 'lock-policy-refused-fr');
  });
});

test.describe('a refused policy on a desk nobody set up yet', () => {
  test.use({ deskPin: 'none' });

  test('the first-run page offers nothing and tells IT which rule failed, in English and French', async ({ desk }) => {
    writePolicy({ version: 1, idleLockMinutes: 0, staffPins: [] });
    let page = await desk.restart();
    await expect(page.getByRole('heading', { name: 'Welcome to Lending Desk' })).toBeVisible();
    await expect(page.getByText('For IT, the rule that failed: In')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Use the built-in sandbox' })).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'Partner connection' })).toHaveCount(0);
    await screenshots(page, 'first-run-policy-refused-en');
    await page.evaluate(async () => { await window.lendingDesk.updatePreferences({ language: 'fr-CA' }); });
    page = desk.page;
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Personne ne peut se connecter sur cet ordinateur' })).toBeVisible();
    await screenshots(page, 'first-run-policy-refused-fr');
  });
});

test('a policy with a setting this version does not know is applied without it, and Settings lists it', async ({ desk }) => {
  writePolicy({ version: 1, idleLockMinutes: 3, kioskMode: true });
  const page = await desk.restart();
  await page.getByRole('button', { name: 'Use the built-in sandbox' }).click();
  await startShift(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByText('Settings in the policy this version of Lending Desk does not know (ignored): kioskMode.')).toBeVisible();
  await expect(page.getByLabel('Lock the desk after this many minutes without activity')).toHaveValue('3');
});

test('a policy asking for automatic updates on Linux keeps the rest and says why updates stay off', async ({ desk }) => {
  writePolicy({ version: 1, idleLockMinutes: 3, updates: { mode: 'auto', url: 'https://updates.library.example.org/lending-desk/' } });
  const page = await desk.restart();
  await page.getByRole('button', { name: 'Use the built-in sandbox' }).click();
  await startShift(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByText('Automatic updates refused: on Linux the policy may set updates to "it-managed" or "off" only')).toBeVisible();
  await expect(page.getByText('Policy ignored')).toHaveCount(0);
  await expect(page.getByLabel('Lock the desk after this many minutes without activity')).toHaveValue('3');
  await screenshots(page, 'settings-updates-refused-en');
  await switchToFrench(page);
  await expect(page.getByText('Mises à jour automatiques refusées : sous Linux, la politique ne peut régler')).toBeVisible();
  await screenshots(page, 'settings-updates-refused-fr');
});

test.describe('a Windows copy installed for all users (the MSI)', () => {
  test.use({ installedForAllUsers: true });

  test('Settings says it never updates itself and IT installs new versions, in English and French', async ({ desk }) => {
    const page = desk.page;
    await page.getByRole('button', { name: 'Use the built-in sandbox' }).click();
    await startShift(page);
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByText("Lending Desk is installed for all users of this computer, so it never updates itself: your library's IT installs new versions.")).toBeVisible();
    await screenshots(page, 'settings-installed-for-all-users-en');
    await switchToFrench(page);
    await expect(page.getByText('Lending Desk est installé pour tous les utilisateurs de cet ordinateur : il ne se met donc jamais à jour de lui-même.')).toBeVisible();
    await screenshots(page, 'settings-installed-for-all-users-fr');
    // Keyboard only: Escape closes Settings.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'Paramètres' })).toHaveCount(0);
  });
});
