// A shared desk trusts only what its user cannot forge, end to end in the Chromium host: a desk
// whose sign-in record in the keychain is not its own is set up again (never fresh), and says so
// in English and French; a connection whose address was edited in settings.json is refused, and
// nobody is asked to type the partner password for that address.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { DESK_RECORDS, keychainDeskRecords } from '../../electron/main/credentials/desk-keychain.ts';
import { startSandbox, type SandboxHandle } from '../../electron/main/sandbox/server.ts';
import { SCREENSHOT_DIR, TEST_DESK_PIN, expect, test } from './hosts.ts';

mkdirSync(SCREENSHOT_DIR, { recursive: true });

test.beforeAll(({}, testInfo) => {
  testInfo.skip(testInfo.project.name === 'electron', 'Edits the desk\'s keychain records and files between starts through the Chromium host\'s restart; these specs run on the Chromium host.');
});

let partner: SandboxHandle | undefined;
let theirs: SandboxHandle | undefined;
test.beforeAll(async () => {
  partner = await startSandbox({ password: 'e2e-partner-secret', catalogSize: 300 });
  theirs = await startSandbox({ password: 'someone-elses', catalogSize: 50 });
});
test.afterAll(async () => {
  await partner?.close();
  await theirs?.close();
});

/** At both sizes, the whole page (a form taller than the window scrolls; nothing may be cut at the side). */
async function screenshots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-1280x800.png`), fullPage: true });
  await page.setViewportSize({ width: 1024, height: 700 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-1024x700.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** First run on the partner service: the connection, then the desk PIN with its partner password, then a shift. */
async function setUpPartnerDesk(page: Page): Promise<void> {
  const form = page.getByRole('form', { name: 'Partner connection' });
  await form.getByLabel('Profile name').fill('Main branch');
  await form.getByLabel('Base URL').fill(partner!.url);
  await form.getByLabel('Username').fill(partner!.username);
  await form.getByLabel('Password').fill(partner!.password);
  await form.getByLabel('Library ids').fill(String(partner!.libraries[0]!.libraryId));
  await form.getByRole('button', { name: 'Save and connect' }).click();
  await expect(page.getByRole('heading', { name: 'Set the desk PIN' })).toBeVisible();
  await page.getByLabel('Partner password').fill(partner!.password);
  await page.getByLabel('New desk PIN', { exact: true }).fill('harbour-2026');
  await page.getByLabel('New desk PIN again').fill('harbour-2026');
  await page.getByRole('button', { name: 'Save the desk PIN' }).click();
  await signIn(page);
}

/** The desk PIN alone (issue #35: no typed name). */
async function signIn(page: Page, pin = 'harbour-2026'): Promise<void> {
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.keyboard.press('Enter');
  await expect(page.getByText('On shift: desk PIN')).toBeVisible();
}

test.describe('a desk nobody set a PIN on yet', () => {
  test.use({ deskPin: 'none' });

  test('a sign-in record that is not the desk\'s own: set up again with the partner password, after the wait, in English and French', async ({ desk }) => {
    await setUpPartnerDesk(desk.page);
    // Someone with the keychain open writes a record of their own: the desk does not take it, and does not start afresh either.
    await keychainDeskRecords({ service: desk.keychainService }).write(DESK_RECORDS.signIn, JSON.stringify({ v: 1, deskPin: 'theirs', failures: 0, shifts: 0 }));
    let page = await desk.restart();
    await expect(page.getByRole('heading', { name: 'Set this desk up again' })).toBeVisible();
    await expect(page.getByText("This desk's sign-in record in the system keychain was not written by this desk")).toBeVisible();
    await expect(page.getByText('Setting or changing the desk PIN takes the partner password of “Main branch”.')).toBeVisible();
    await expect(page.getByLabel('PIN', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('alert').filter({ hasText: /The desk takes the next try in \d+ seconds/ })).toBeVisible();
    await screenshots(page, 'sign-in-not-the-desks-own-en');

    // The wait runs (the count of wrong tries it had is unknown): a right partner password is not taken yet.
    await page.getByLabel('Partner password').fill(partner!.password);
    await page.getByLabel('New desk PIN', { exact: true }).fill('birch-2027');
    await page.getByLabel('New desk PIN again').fill('birch-2027');
    await page.getByRole('button', { name: 'Save the desk PIN' }).click();
    await expect(page.getByRole('alert').filter({ hasText: /The desk takes the next try in \d+ seconds/ })).toBeVisible();

    await page.evaluate(async () => { await window.lendingDesk.updatePreferences({ language: 'fr-CA' }); });
    page = desk.page;
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Configurer ce comptoir de nouveau' })).toBeVisible();
    await expect(page.getByText('n’a pas été écrit par ce comptoir')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: /Le comptoir acceptera le prochain essai dans \d+ secondes/ })).toBeVisible();
    await screenshots(page, 'sign-in-not-the-desks-own-fr');
  });

  test('a connection whose address was edited in settings.json is refused: nothing is sent there, and no password is asked for it', async ({ desk }) => {
    await setUpPartnerDesk(desk.page);
    const file = join(desk.userDataDir, 'settings.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(partner!.url, theirs!.url));
    const page = await desk.restart();
    await signIn(page);
    const card = page.getByLabel('Library card');
    await card.fill(partner!.libraries[0]!.cards[0]!);
    await card.press('Enter');
    await expect(page.getByText('The connection "Main branch" was changed outside Lending Desk').first()).toBeVisible();
    await expect(page.getByText(/Enter the password for/)).toHaveCount(0);
    expect(theirs!.control.requestCounts().token).toBe(0);
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByText('Changed outside the desk')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Replace credentials for Main branch' })).toHaveCount(0);
    await screenshots(page, 'settings-connection-changed-outside-en');
    expect(theirs!.control.requestCounts().token).toBe(0);
  });
});

test('the desk PIN on a fresh test desk still signs in (the keychain holds the test PIN\'s record)', async ({ desk }) => {
  const page = desk.page;
  await page.getByRole('button', { name: 'Use the built-in sandbox' }).click();
  await signIn(page, TEST_DESK_PIN);
});
