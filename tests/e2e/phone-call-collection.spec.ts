// Issue #14, item 7: the Collection's details. Active titles by default; the title dialog has a
// Close button and closes on a click beside it; Borrow or Place hold from the row (Alt+B on the
// active one); sorting reachable and operable by keyboard; availability checked "just now" or
// "3 min ago"; durations as h:mm and language names; plurals and French elision through the
// locale's rules. Screenshots in both languages at both sizes.
import type { Page } from '@playwright/test';
import { expect, test } from './hosts.ts';
import { axeViolations, focused, openDesk, say, scan, screenshots } from './desk-steps.ts';

async function sync(page: Page): Promise<void> {
  await page.keyboard.press('Alt+3');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByText(/^Titles in the Collection: [1-9]/)).toBeVisible({ timeout: 60_000 });
}

test('the Collection: active titles, keyboard sorting, Close and backdrop, h:mm and language names, Alt+B on a row, checked … ago', async ({ desk }) => {
  const { page } = desk;
  await openDesk(page);
  await scan(page, '2110100001');
  await expect(page.getByText('Card ••••0001')).toBeVisible();
  await sync(page);

  await page.keyboard.press('Alt+2');
  const grid = page.getByRole('grid', { name: "The library's titles" });
  await expect(grid.getByRole('row').nth(2)).toBeVisible();
  await expect(page.locator('#collection-active')).toHaveValue('active');
  await expect(grid.getByText('Inactive', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^[\d,]+ titles$/ })).toBeVisible();

  // Sorting from the keyboard: Tab reaches the column headings after the filters; Enter sorts, Enter again reverses.
  await page.locator('#collection-text').focus();
  for (let n = 0; n < 8; n++) await page.keyboard.press('Tab'); // format, model, shown to patrons, content, available now, no copy free, children's, the grid
  await expect(grid).toBeFocused();
  await page.keyboard.press('Tab'); // the grid's first column heading
  const titleHeading = grid.getByRole('columnheader', { name: 'Title' });
  await expect(titleHeading.getByRole('button'), await focused(page)).toBeFocused();
  await page.keyboard.press('Tab');
  const author = grid.getByRole('columnheader', { name: 'Author or artist' });
  await expect(author.getByRole('button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(author).toHaveAttribute('aria-sort', 'ascending');
  await expect(titleHeading).toHaveAttribute('aria-sort', 'none');
  await page.keyboard.press('Enter');
  await expect(author).toHaveAttribute('aria-sort', 'descending');

  // The rows in view get their availability checked without asking, said in words.
  await expect(grid.getByText('checked just now').first()).toBeVisible({ timeout: 10_000 });
  await expect(grid).not.toContainText(/\b1 of 1 copies\b|\b0 of 1 copies\b/);

  // Audiobooks have a duration: h:mm, and a language by its name.
  const rowsBefore = await grid.getAttribute('aria-rowcount');
  await page.locator('#collection-format').selectOption('AUDIOBOOK');
  await expect(grid).not.toHaveAttribute('aria-rowcount', rowsBefore!);
  await expect(grid.locator('[role="row"][aria-selected="true"] .col-format')).toHaveText('Audiobook');
  await grid.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const fact = (label: string) => dialog.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
  await expect(fact('Running time')).toHaveText(/^\d+:\d{2}$/);
  await expect(fact('Language')).toHaveText(/^(English|French|Spanish)$/);
  await expect(fact('Lending model')).toHaveText(/^(Instant|Flex)$/);
  expect(await axeViolations(page)).toEqual([]);
  await screenshots(page, 'collection-title', 'en');
  // Close, and a click beside the dialog.
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await grid.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.mouse.click(3, 300);
  await expect(dialog).toHaveCount(0);

  // Alt+B on the active row borrows it (or places a hold when no copy is free) for the patron on the desk.
  await page.locator('#collection-format').selectOption('EBOOK');
  await page.locator('#collection-model').selectOption('INSTANT');
  await expect(grid.locator('[role="row"][aria-selected="true"] .col-format')).toHaveText('eBook');
  await expect(grid.locator('[role="row"][aria-selected="true"] .col-title .tag').first()).toHaveText('Instant');
  await grid.focus();
  await page.keyboard.press('ArrowDown');
  const active = grid.locator('[role="row"][aria-selected="true"]');
  const title = (await active.locator('.col-title button.link').textContent())!.trim();
  await expect(active.getByRole('button', { name: `Borrow for ••••0001: ${title}` })).toBeVisible();
  await page.keyboard.press('Alt+B');
  await expect(page.getByRole('status').filter({ hasText: `${title} is borrowed for card ••••0001` })).toBeVisible();
  await expect(active.getByText('On loan', { exact: true })).toBeVisible();
  await expect(grid).toBeFocused(); // the Collection keeps the keyboard
  await screenshots(page, 'collection-row-borrowed', 'en');

  // In French: the same screen, its plurals and elisions.
  await page.evaluate(async () => { await window.lendingDesk.updatePreferences({ language: 'fr-CA' }); });
  await page.reload();
  await expect(page.locator('#card-entry-input')).toBeFocused();
  await page.keyboard.press('Alt+2');
  const grille = page.getByRole('grid', { name: say('fr-CA', 'collection.gridLabel') });
  await expect(grille.getByRole('row').nth(2)).toBeVisible();
  await expect(grille.getByText(/^vérifiée (à l’instant|il y a \d+ min)$/).first()).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('status').filter({ hasText: /^[\d\s ]+ titres?$/ })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await screenshots(page, 'collection', 'fr-CA');
  await page.keyboard.press('Alt+1');
  await page.keyboard.press('F3');
  await page.keyboard.type('a');
  await page.keyboard.press('Enter');
  await expect(page.locator('ul.results > li').first()).toBeVisible();
  // "de Amélie" is "d’Amélie": no "de" before a vowel in the results.
  expect(await page.locator('ul.results').innerText()).not.toMatch(/\bde [AEIOUYÀÂÉÈÊÎÔÛaeiouy]/);

  // Three minutes later (the page's clock moved on), a title's availability says how old it is.
  await page.keyboard.press('Alt+2');
  await expect(grille.getByRole('row').nth(2)).toBeVisible();
  await page.clock.install();
  await page.clock.fastForward('03:00');
  await grille.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByText('vérifiée il y a 3 min')).toBeVisible();
  await expect(page.getByRole('dialog').locator('dt', { hasText: 'Langue' }).locator('xpath=following-sibling::dd[1]')).toHaveText(/^(Anglais|Français|Espagnol)$/);
  expect(await axeViolations(page)).toEqual([]);
  await screenshots(page, 'collection-title', 'fr-CA');
  await page.keyboard.press('Escape');
});

test('the Collection in English at both sizes', async ({ desk }) => {
  const { page } = desk;
  await openDesk(page);
  await sync(page);
  await page.keyboard.press('Alt+2');
  const grid = page.getByRole('grid', { name: "The library's titles" });
  await expect(grid.getByText('checked just now').first()).toBeVisible({ timeout: 10_000 });
  expect(await axeViolations(page)).toEqual([]);
  await screenshots(page, 'collection', 'en');
});
