// The Collection's count while staff type (issue #15), in both languages at both window sizes:
// a search that matches many titles shows "1,000+" with its first rows at once, and the exact
// count once typing pauses. The page's clock is held so the "1,000+" moment can be looked at.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { openDesk } from './desk-steps.ts';
import { SCREENSHOT_DIR, expect, test } from './hosts.ts';

async function syncSandbox(page: Page): Promise<void> {
  await openDesk(page, 'en');
  await page.getByRole('tab', { name: 'Sync' }).click();
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByText(/^Titles in the Collection: [1-9]/)).toBeVisible({ timeout: 60_000 });
}

for (const language of ['en', 'fr-CA'] as const) {
  test(`a search matching many titles counts "1,000+" at once, then exactly (${language})`, async ({ desk }) => {
    const { page } = desk;
    await syncSandbox(page);
    if (language !== 'en') await page.evaluate(async (lang) => { await window.lendingDesk.updatePreferences({ language: lang }); }, language);
    await page.clock.install();
    await page.reload();
    const french = language === 'fr-CA';
    await page.getByRole('tab', { name: 'Collection' }).click();
    const grid = page.getByRole('grid', { name: french ? /titres de la bibliothèque/i : "The library's titles" });
    await expect(grid.getByRole('row').nth(2)).toBeVisible();
    await page.locator('#collection-text').fill('s'); // 1,059 of the sandbox library's 2,497 titles have a word beginning with s
    const capped = page.getByText(french ? /^1\s000\+ titres$/u : /^1,000\+ titles$/);
    await expect(capped).toBeVisible();
    await expect(grid.locator('[role="rowgroup"] button.link').first()).toBeVisible();
    for (const size of [{ width: 1280, height: 800 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `collection-count-${language}-${size.width}x${size.height}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.clock.runFor(1000); // typing has paused: the exact count is asked for
    await expect(capped).toBeHidden();
    const exact = await page.getByText(french ? /^[\d\s]+ titres$/u : /^[\d,]+ titles$/).textContent();
    expect(Number((exact ?? '').replace(/\D/g, ''))).toBeGreaterThan(1000);
  });
}
