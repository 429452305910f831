// Issue #35, goals 6, 7 and 8: say what staff are asked, in words a clerk can read aloud, in the
// French a Québec library writes. One name for the Instant model on every screen visited (never
// "always-available" or "pay per use"); the Collection says when each row was read and shows on
// request the titles with no copy free (a hold waits); the service's own words never replace the
// desk's sentence (folded, for IT, marked as the service's and as English); libraries by name,
// not number, on the header and Sync; in French the money reads "3,90 $ US", the keys Entrée,
// Début, Fin, Échap, and the patron's file closes rather than being "erased". Screenshots at
// both sizes, both languages.
import type { Page } from '@playwright/test';
import { expect, test } from './hosts.ts';
import { LANGUAGES, LIBRARY, STEERS_SANDBOX, openDesk, sandboxUrl, say, scan, screenshots, syncCollection, takeEveryCopy, titles, type Language } from './desk-steps.ts';
import { overflowingLabels } from './counter-steps.ts';

/** The lending model's retired names (issue #35: three names for one thing). */
const OTHER_NAMES = /always-available|always available|pay per use|\bPPU\b|toujours disponibles|paiement à l’utilisation/i;

async function bodyText(page: Page): Promise<string> {
  return page.locator('body').innerText();
}

for (const language of LANGUAGES) {
  test(`one name for Instant, the Collection's read times and titles with no copy free, the service's words for IT (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    await syncCollection(page);
    const [flex] = await titles(page, 'FLEX', 'BORROW', 1, [], 1);
    const [instant] = await titles(page, 'INSTANT', 'BORROW', 1);
    await takeEveryCopy(page, flex!.contentId);
    // The desk reads that title's availability (as a Collection row in view would): no copy free now.
    await page.evaluate(async ({ libraryId, contentId }) => { await window.lendingDesk.collectionLiveAvailability({ libraryId, contentIds: [contentId] }); }, { libraryId: LIBRARY, contentId: flex!.contentId });

    // Libraries by name: the picker says the library's name, not its number.
    const options = await page.locator('header select option').allTextContents();
    expect(options.some((o) => /\(\d+\)|\b101\b/.test(o)), options.join(' | ')).toBe(false);

    await scan(page, '2110100004'); // the month's Instant borrows used up
    await page.keyboard.press('F3');
    await page.keyboard.type(instant!.title);
    await page.keyboard.press('Enter');
    await expect(page.getByText(say(language, 'catalog.limitReached', { date: '' }).split(':')[0]!).first()).toBeVisible();
    expect(await bodyText(page)).not.toMatch(OTHER_NAMES);

    // The Collection: titles with no copy free, on request; each row says when it was read.
    await page.keyboard.press('Alt+2');
    const noCopyFree = page.getByLabel(say(language, 'collection.noCopyFree'));
    await noCopyFree.check();
    const row = page.locator('.viewport .row').filter({ hasText: flex!.title });
    await expect(row).toHaveCount(1);
    await expect(row.locator('.availability')).toContainText(say(language, 'catalog.availability.HOLD'));
    await expect(row.locator('.read')).toHaveText(say(language, 'collection.checkedMinutes', { n: 0 }, 0));
    const rows = page.locator('.viewport .row .col-availability');
    for (const text of await rows.allTextContents()) expect(text).toContain(say(language, 'catalog.availability.HOLD'));
    await screenshots(page, 'counter-collection-no-copy-free', language, async (size) => {
      expect(await overflowingLabels(page), `${size.width}x${size.height}`).toEqual([]);
    });
    await noCopyFree.uncheck();
    expect(await bodyText(page)).not.toMatch(OTHER_NAMES);

    // An Instant title's prices: the currency says the country, once ("3,90 $ US" in French).
    await page.getByLabel(say(language, 'collection.search')).fill(instant!.title);
    await page.locator('.viewport .row').filter({ hasText: instant!.title }).first().locator('.col-title button.link').click();
    const dialog = page.getByRole('dialog', { name: instant!.title });
    const prices = dialog.locator('dt', { hasText: say(language, 'collection.fields.prices') }).locator('xpath=following-sibling::dd[1]');
    if (language === 'fr-CA') {
      await expect(prices).toHaveText(/^\d+,\d\d\s\$\sUS/u);
      await expect(prices).not.toContainText('US 3');
    } else {
      await expect(prices).toHaveText(/^\$\d+\.\d\d/);
    }
    expect(await dialog.innerText()).not.toMatch(OTHER_NAMES);
    await screenshots(page, 'counter-title-prices', language);
    await page.keyboard.press('Escape');

    // Sync: libraries by name.
    await page.keyboard.press('Alt+3');
    await expect(page.getByRole('table').first()).toBeVisible();
    const syncText = await page.locator('#view-panel-sync').innerText();
    expect(syncText).toContain('Riverside Public Library');
    expect(syncText).not.toMatch(/library 101|bibliothèque 101/i);

    // The service's own words: folded, for IT, marked as the service's (and as English in French).
    await page.keyboard.press('Alt+1');
    const origin = sandboxUrl(page);
    await fetch(`${origin}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ route: 'search', kind: 'server-error' }) });
    try {
      await page.keyboard.press('F3');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('garden');
      await page.keyboard.press('Enter');
      const alert = page.getByRole('alert').filter({ has: page.locator('details') });
      await expect(alert.locator('p.error')).toHaveText(say(language, 'errors.server'), { timeout: 30_000 });
      const details = alert.locator('details');
      await expect(details).not.toHaveAttribute('open');
      await expect(details.locator('summary')).toHaveText(say(language, 'errors.serviceWordsSummary'));
      await expect(details.locator('[lang="en"]')).toBeHidden();
      await details.locator('summary').click();
      await expect(details.locator('[lang="en"]')).toContainText('Injected server error');
      await screenshots(page, 'counter-service-words', language);
    } finally {
      await fetch(`${origin}/__sandbox/faults`, { method: 'DELETE' });
    }
  });
}

test('French as a Québec library writes it: key names, closing the patron\'s file', async ({ desk }) => {
  const { page } = desk;
  const language: Language = 'fr-CA';
  await openDesk(page, language);
  await scan(page, '2110100002');
  await expect(page.getByRole('button', { name: 'Fermer le dossier' })).toBeVisible();
  expect(await bodyText(page)).not.toContain('Effacer l’usager');
  await page.keyboard.press('F1');
  const help = page.getByRole('dialog', { name: say(language, 'help.title') });
  const keys = await help.locator('kbd').allTextContents();
  expect(keys).toEqual(expect.arrayContaining(['Entrée', 'Début', 'Fin', 'Échap', 'Alt+O']));
  for (const english of ['Enter', 'Home', 'End', 'Esc']) expect(keys).not.toContain(english);
  await screenshots(page, 'counter-help', language, async (size) => {
    expect(await overflowingLabels(page), `${size.width}x${size.height}`).toEqual([]);
  });
});
