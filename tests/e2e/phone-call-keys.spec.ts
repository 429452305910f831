// Issue #14, item 4, as issue #35 left it: keys and focus that never get lost. After Borrow the
// new loan is selected, after Place hold the new hold, after a confirmed return the next loan,
// and after every outcome focus is back in the card field (the next scan lands there, and its
// Enter presses nothing the clerk did not choose); each outcome is announced (one live region). Alt shortcuts work from the
// card field; Esc in a text field empties it first and only outside one clears the patron;
// Ctrl+L locks; the arrow keys move through search results; the help lists every key.
// Every key press is counted: the figures staff get per task are asserted here.
import type { Page } from '@playwright/test';
import { expect, test } from './hosts.ts';
import {
  LANGUAGES, STEERS_SANDBOX, act, addPatron, axeViolations, focused, openDesk, row, say, screenshots, takeEveryCopy, titles,
} from './desk-steps.ts';

/** Presses keys and counts them (typed text counts as one: a scanner or a word typed). */
function keyboard(page: Page) {
  let count = 0;
  return {
    press: async (...keys: string[]) => { for (const key of keys) { await page.keyboard.press(key); count++; } },
    type: async (text: string) => { await page.keyboard.type(text); count++; },
    take: () => { const taken = count; count = 0; return taken; },
  };
}

const selectedRow = (page: Page, list: 'loans' | 'holds') => page.locator(`section[aria-labelledby="patron-${list}-heading"] li[aria-current="true"]`);

test('borrow, hold, return and clear from the keyboard: focus lands on the next thing, each outcome is announced', async ({ desk }, testInfo) => {
  test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
  const { page } = desk;
  await openDesk(page);
  const [instant] = await titles(page, 'INSTANT', 'BORROW', 1);
  const [flex] = await titles(page, 'FLEX', 'BORROW', 1);
  await takeEveryCopy(page, flex!.contentId);
  const keys = keyboard(page);
  const status = page.locator('.action-feedback [role="status"]');

  // Look up a card and borrow a title found by name: the card, F3, the title, Enter, ↓ to the result, Alt+B.
  await keys.type('2110100001');
  await keys.press('Enter');
  await expect(page.getByText('Card ••••0001')).toBeVisible();
  await keys.press('F3');
  await keys.type(instant!.title);
  await keys.press('Enter');
  await expect(page.locator('ul.results > li').first()).toBeVisible();
  await keys.press('ArrowDown');
  await expect(page.locator('ul.results > li').first()).toBeFocused();
  await keys.press('Alt+B');
  await expect(status).toContainText(`${instant!.title} is borrowed for card ••••0001, due `);
  await expect(selectedRow(page, 'loans')).toContainText(instant!.title);
  await expect(page.locator('#card-entry-input'), await focused(page)).toBeFocused();
  expect(keys.take(), 'keys to look a card up and borrow a title by name').toBe(7);

  // A hold on a title with no free copy: F3, the title, Enter, ↓, Alt+B (a hold when no copy is free).
  await keys.press('F3');
  await keys.type(flex!.title);
  await keys.press('Enter');
  await expect(page.locator('ul.results > li').filter({ hasText: flex!.title }).getByRole('button', { name: `Place hold for ••••0001: ${flex!.title}` })).toBeVisible();
  await keys.press('ArrowDown', 'Alt+B');
  await expect(status).toContainText(`Hold placed on ${flex!.title} for card ••••0001`);
  await expect(selectedRow(page, 'holds')).toContainText(flex!.title);
  await expect(page.locator('#card-entry-input'), await focused(page)).toBeFocused();
  expect(keys.take(), 'keys to place a hold on a title by name').toBe(5);
  await screenshots(page, 'keys-hold-placed', 'en');

  // A second loan, so a return has a next one to land on.
  await act(page, 'borrow', '2110100001', (await titles(page, 'INSTANT', 'BORROW', 1, [instant!.contentId]))[0]!.contentId);
  // The same card again (the field emptied once it was found): the account as it is now.
  await keys.press('Alt+C');
  await keys.type('2110100001');
  await keys.press('Enter');
  await expect(page.getByRole('heading', { name: /^Loans \(2\)/ })).toBeVisible();
  keys.take();
  // Return the first loan (the loan list is one Tab stop, a roving tabindex; the arrow keys choose in it).
  await row(page, 'loans', instant!.title).focus();
  await keys.press('Alt+R');
  await expect(page.getByRole('dialog', { name: 'Return this title early?' })).toBeVisible();
  await keys.press('Enter');
  await expect(status).toContainText(`${instant!.title} is returned.`);
  await expect(row(page, 'loans', instant!.title)).toHaveCount(0);
  await expect(selectedRow(page, 'loans')).toHaveCount(1); // the next loan, selected
  await expect(page.locator('#card-entry-input'), await focused(page)).toBeFocused();
  expect(keys.take(), 'keys to return the selected loan').toBe(2);

  // Clear: Esc in the empty card field; focus stays there.
  await keys.press('Escape');
  await expect(page.getByText('Card ••••0001')).toHaveCount(0);
  await expect(page.locator('#card-entry-input')).toBeFocused();
  expect(keys.take()).toBe(1);
});

test('Alt shortcuts from the card field, Esc empties a field first, Ctrl+L locks', async ({ desk }) => {
  const { page } = desk;
  await openDesk(page);
  const card = page.locator('#card-entry-input');
  await page.keyboard.type('2110100002');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Card ••••0002')).toBeVisible();
  await expect(card).toBeFocused(); // where it sits after every lookup
  await page.keyboard.press('Alt+2');
  await expect(page.getByRole('tab', { name: 'Collection' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Alt+1');
  await page.keyboard.press('Alt+C');
  await expect(card).toBeFocused();
  await page.keyboard.press('Alt+L');
  await expect(page.getByRole('dialog', { name: 'Action log' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByText('Card ••••0002')).toBeVisible(); // Esc closed the dialog only

  // Esc in the live search box: the query goes, the patron stays.
  await page.keyboard.press('F3');
  await page.keyboard.type('river');
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Search the catalog')).toHaveValue('');
  await expect(page.getByText('Card ••••0002')).toBeVisible();
  // In the card field: the text first, then (the field empty) the patron. The card found has left
  // the field (issue #35): what is typed next is emptied first.
  await page.keyboard.press('F2');
  await expect(card).toHaveValue('');
  await page.keyboard.type('21101');
  await page.keyboard.press('Escape');
  await expect(card).toHaveValue('');
  await expect(page.getByText('Card ••••0002')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByText('Card ••••0002')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Patron cleared.' })).toHaveCount(1);

  // The help lists every key, and axe finds nothing in it.
  await page.keyboard.press('F1');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  for (const key of ['F4', 'Alt+B', 'Alt+O', 'Alt+D', 'Ctrl+L']) await expect(help.getByText(key, { exact: true })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');

  await page.keyboard.press('Control+L');
  await expect(page.getByRole('heading', { name: 'Desk locked' })).toBeVisible();
});

for (const language of LANGUAGES) {
  test(`the arrow keys move through search results; Enter opens one, Esc brings focus back to it (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    await addPatron(page, '2110177001');
    await page.keyboard.type('2110177001');
    await page.keyboard.press('Enter');
    await page.keyboard.press('F3');
    await page.keyboard.type('e');
    await page.keyboard.press('Enter');
    const results = page.locator('ul.results > li');
    await expect(results.nth(2)).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(results.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(results.nth(2)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(results.nth(1)).toBeFocused();
    await expect(results.nth(1)).toHaveAttribute('tabindex', '0'); // Tab comes back to it
    await page.keyboard.press('Home');
    await expect(results.nth(0)).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(results.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(results.nth(1)).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'keys-search-results', language, undefined, results.nth(1));
    await expect(page.getByText(say(language, 'catalog.resultKeys'))).toHaveCount(1); // said to screen readers

    await page.keyboard.press('F1'); // from a search result
    await expect(page.getByRole('dialog', { name: say(language, 'help.title') })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'keys-help', language);
  });
}
