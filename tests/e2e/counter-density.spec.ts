// Issue #35, goals 4 and 6: dense where it matters at 1024x700, and what staff are asked said on
// screen. The search results are at least as wide as the patron's column; the patron strip stays
// in view while an episode far down a series is picked; the series says what borrowing all its
// Instant episodes takes of the patron's borrows left; the Collection keeps author and year and
// says when each row's availability was read; and no label is cut off or wrapped past two lines,
// on the Patron desk, the Collection, Sync, the shortcuts and the action log, at both sizes, in
// both languages. On the sandbox that reads ids as the published guidance does (episodes are
// contents of their own).
import type { Page } from '@playwright/test';
import { expect, test } from './hosts.ts';
import { LANGUAGES, LIBRARY, SIZES, STEERS_SANDBOX, openDesk, result, say, scan, screenshots, syncCollection } from './desk-steps.ts';
import { overflowingLabels } from './counter-steps.ts';

test.use({ sandbox: { ids: 'published' } });

/** An Instant series with several episodes that a search by its name finds alone. */
async function instantSeries(page: Page): Promise<{ title: string; episodes: number }> {
  const found = await page.evaluate(async (libraryId) => {
    const search = await window.lendingDesk.liveSearch({ libraryId, q: 'e', limit: 100, formats: ['TELEVISION'], purchaseModel: 'INSTANT' });
    if (!search.ok) throw new Error(search.error.message);
    for (const hit of search.value.hits) {
      if (!hit.title || hit.titleId === undefined || hit.episodes.length < 4) continue;
      const alone = await window.lendingDesk.liveSearch({ libraryId, q: hit.title, limit: 5 });
      if (alone.ok && alone.value.found === 1) return { title: hit.title, episodes: hit.episodes.length };
    }
    return undefined;
  }, LIBRARY);
  if (!found) throw new Error('No Instant series with several episodes found alone by its name');
  return found;
}

async function expectNoOverflow(page: Page, where: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    expect(await overflowingLabels(page), `${where} at ${size.width}x${size.height}`).toEqual([]);
  }
  await page.setViewportSize(SIZES[0]);
}

for (const language of LANGUAGES) {
  test(`1024x700: wide results, the patron in view while picking an episode, no label cut off (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    await syncCollection(page);
    const show = await instantSeries(page);
    await scan(page, '2110100005'); // one Instant borrow left this month
    await page.keyboard.press('F3');
    await page.keyboard.type(show.title);
    await page.keyboard.press('Enter');
    const hit = result(page, show.title);
    const summary = hit.locator('details.episode-offers summary');
    await expect(summary).toContainText(say(language, 'catalog.episodeOffers', { count: show.episodes }, show.episodes));
    await expect(hit.locator('.cost')).toHaveText(say(language, 'catalog.episodeInstantCostLeft', { count: show.episodes, remaining: 1 }, 1));
    await summary.click();
    const last = hit.locator('li.episode-offer').last();

    await page.setViewportSize({ width: 1024, height: 700 });
    const search = (await page.getByRole('region', { name: say(language, 'catalog.heading') }).boundingBox())!;
    const patron = (await page.locator('.patron-panel').boundingBox())!;
    expect(search.width, 'the results are at least as wide as the patron column').toBeGreaterThanOrEqual(patron.width - 1);
    await last.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY), 'the page scrolled to the last episode').toBeGreaterThan(0);
    const strip = (await page.locator('.patron-strip').boundingBox())!;
    expect(strip.y, 'the patron strip is still on screen').toBeGreaterThanOrEqual(0);
    expect(strip.y + strip.height).toBeLessThanOrEqual(700);
    const lastBox = (await last.boundingBox())!;
    expect(lastBox.y, 'the episode is not under the strip').toBeGreaterThanOrEqual(strip.y + strip.height - 1);
    await screenshots(page, 'counter-episode-with-strip', language, undefined, last);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectNoOverflow(page, 'the Patron desk with a series');

    // The Collection at 1024: author and year stay; each row says when its availability was read.
    await page.keyboard.press('Alt+2');
    await page.setViewportSize({ width: 1024, height: 700 });
    for (const column of ['artist', 'year'] as const) {
      await expect(page.getByRole('columnheader', { name: say(language, `collection.columns.${column}`) })).toBeVisible();
    }
    const firstRow = page.locator('.viewport .row').first();
    await expect(firstRow.locator('.col-artist')).toBeVisible();
    await expect(firstRow.locator('.col-year')).toBeVisible();
    await expect(page.locator('.viewport .read').first()).toBeVisible();
    await page.setViewportSize(SIZES[0]);
    await screenshots(page, 'counter-collection', language);
    await expectNoOverflow(page, 'the Collection');
    await page.locator('#collection-model').selectOption('FLEX');
    await expectNoOverflow(page, 'the Collection, Flex');

    await page.keyboard.press('Alt+3');
    await expectNoOverflow(page, 'Sync');
    await page.keyboard.press('F1');
    await expectNoOverflow(page, 'the shortcuts');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Alt+L');
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoOverflow(page, 'the action log');
  });
}
