// The Collection end to end: sync the sandbox's collection to the desk, browse,
// filter, search, open a title, read its availability now, and borrow it for the patron on
// the desk.
import { join } from 'node:path';
import { openDesk } from './desk-steps.ts';
import { SCREENSHOT_DIR, expect, test } from './hosts.ts';

test('sync, browse, filter, search, open a title, refresh availability, borrow it for the patron', async ({ desk }) => {
  const { page } = desk;
  await openDesk(page, 'en');
  await page.keyboard.type('2110100001');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Card ••••0001')).toBeVisible();
  const loansBefore = await page.getByRole('heading', { name: /^Loans/ }).textContent();

  await page.getByRole('tab', { name: 'Sync' }).click();
  await expect(page.getByText('No sync has run on this desk yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByRole('progressbar', { name: 'Sync progress' })).toBeVisible();
  await expect(page.getByText(/^Titles in the Collection: [1-9]/)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('cell', { name: 'never' }).first()).toBeHidden();
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'sync-en-1280x800.png') });

  await page.getByRole('tab', { name: 'Collection' }).click();
  const grid = page.getByRole('grid', { name: "The library's titles" });
  await expect(grid.getByRole('row').nth(2)).toBeVisible();
  const total = Number((await grid.getAttribute('aria-rowcount')) ?? 0) - 1;
  expect(total).toBeGreaterThan(100);
  await page.locator('#collection-model').selectOption('INSTANT');
  await page.locator('#collection-active').selectOption('active');
  await page.locator('#collection-format').selectOption('EBOOK');
  await expect.poll(async () => Number(await grid.getAttribute('aria-rowcount')) - 1).toBeLessThan(total);
  // The rows of the last filters stay on the page, hidden, until the new ones come (issue #30): read the first once the grid is no longer busy.
  await expect(grid).toHaveAttribute('aria-busy', 'false');
  const firstTitle = (await grid.locator('[role="rowgroup"] button.link').first().textContent())!.trim();
  const word = firstTitle.split(/\s+/).find((w) => w.length > 3) ?? firstTitle;
  await page.getByLabel('Search the collection').fill(word);
  await expect(grid.getByRole('button', { name: firstTitle, exact: true })).toBeVisible();
  // The rows in view get their availability read without asking.
  await expect(grid.getByText(/^checked (just now|1 min ago)/).first()).toBeVisible({ timeout: 10_000 });
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'collection-en-1280x800.png') });
  await page.setViewportSize({ width: 1024, height: 700 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'collection-en-1024x700.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  await grid.getByRole('button', { name: firstTitle, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: firstTitle });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Refresh availability' }).click();
  await expect(dialog.getByText(/^checked (just now|1 min ago)/)).toBeVisible();
  await dialog.getByRole('button', { name: `Borrow for ••••0001: ${firstTitle}` }).click();
  await expect(page.getByRole('status').filter({ hasText: firstTitle }).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: 'Patron desk' }).click();
  await expect(page.getByRole('heading', { name: /^Loans/ })).not.toHaveText(loansBefore ?? '');
  await expect(page.getByText(firstTitle).first()).toBeVisible();
});
