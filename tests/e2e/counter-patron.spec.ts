// Issue #35, goals 1 and 3: whose account this is, on every tab, and nothing private left in view.
// A patron looked up: the card field empties (the strip shows the card masked), no recent-patron
// chip stays (none unless IT's policy keeps some), the strip names the patron with the allowance,
// the counts and a ready hold's deadline on the Patron desk, the Collection and Sync; every
// Borrow and Place hold says which card it acts for, and the confirmation too; the next card
// replaces the first everywhere. Both languages, both sizes, screenshots of each tab.
import type { Page } from '@playwright/test';
import { expect, test } from './hosts.ts';
import { LANGUAGES, LIBRARY, STEERS_SANDBOX, addPatron, act, openDesk, say, screenshots, syncCollection, takeEveryCopy, titles, type Language } from './desk-steps.ts';
import { overflowingLabels } from './counter-steps.ts';

const FIRST = '2110177001';
const SECOND = '2110177002';

async function scanCard(page: Page, card: string, language: Language): Promise<void> {
  await expect(page.locator('#card-entry-input')).toBeFocused();
  await page.keyboard.type(card);
  await page.keyboard.press('Enter');
  await expect(page.locator('#patron-strip-heading')).toHaveText(say(language, 'strip.card', { masked: `••••${card.slice(-4)}` }));
}

for (const language of LANGUAGES) {
  test(`the patron on every tab, every action naming the card, nothing private left (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    await addPatron(page, FIRST);
    await addPatron(page, SECOND);
    const [loaned] = await titles(page, 'INSTANT', 'BORROW', 1);
    const [free, held] = await titles(page, 'FLEX', 'BORROW', 2, [loaned!.contentId], 1);
    await act(page, 'borrow', FIRST, loaned!.contentId);
    await takeEveryCopy(page, held!.contentId);
    await act(page, 'placeHold', FIRST, held!.contentId);
    await syncCollection(page);

    await scanCard(page, FIRST, language);
    const strip = page.locator('.patron-strip');
    await expect(page.locator('#card-entry-input')).toHaveValue('');
    await expect(strip).toContainText(say(language, 'strip.loans', { count: 1 }, 1));
    await expect(strip).toContainText(say(language, 'patron.allowance', { remaining: 9, allowed: 10 }, 10));
    await expect(page.getByRole('navigation', { name: say(language, 'patron.recentHeading') })).toHaveCount(0);
    expect(await page.content()).not.toContain(FIRST);

    // The search result's button names the card it acts for.
    await page.keyboard.press('F3');
    await page.keyboard.type(free!.title);
    await page.keyboard.press('Enter');
    // (Another edition may share the title: each result's button names the card.)
    const borrow = page.getByRole('button', { name: say(language, 'catalog.borrowTitleFor', { title: free!.title, masked: '••••7001' }) }).first();
    await expect(borrow).toHaveText(say(language, 'catalog.borrowFor', { masked: '••••7001' }));
    await screenshots(page, 'counter-strip-patron-desk', language, async (size) => {
      expect(await overflowingLabels(page), `${size.width}x${size.height}`).toEqual([]);
    });

    // The Collection: the strip, and each row's action for that card.
    await page.keyboard.press('Alt+2');
    await expect(strip).toContainText(say(language, 'strip.card', { masked: '••••7001' }));
    await page.getByLabel(say(language, 'collection.search')).fill(free!.title);
    const rowAction = page.locator('.viewport .row').filter({ has: page.locator('button.row-action') }).first().locator('button.row-action');
    await expect(rowAction).toHaveAccessibleName(say(language, 'catalog.borrowTitleFor', { title: free!.title, masked: '••••7001' }));
    await expect(rowAction).toContainText('••••7001');
    await screenshots(page, 'counter-strip-collection', language, async (size) => {
      expect(await overflowingLabels(page), `${size.width}x${size.height}`).toEqual([]);
    });

    // Sync: the strip still says whose account the desk is on.
    await page.keyboard.press('Alt+3');
    await expect(strip).toContainText(say(language, 'strip.card', { masked: '••••7001' }));
    await screenshots(page, 'counter-strip-sync', language);

    // A confirmation names the card too.
    await page.keyboard.press('Alt+1');
    await page.keyboard.press('Alt+R');
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('button', { name: say(language, 'confirm.returnYes', { masked: '••••7001' }) })).toBeVisible();
    await page.keyboard.press('Escape');

    // The next card replaces the first everywhere: no button names the last patron.
    await page.keyboard.press('F2');
    await scanCard(page, SECOND, language);
    await expect(page.getByRole('button', { name: new RegExp('••••7001') })).toHaveCount(0);
    await expect(page.getByRole('button', { name: say(language, 'catalog.borrowTitleFor', { title: free!.title, masked: '••••7002' }) }).first()).toBeVisible();
    expect(await page.content()).not.toContain(SECOND);
    void LIBRARY;
  });
}
