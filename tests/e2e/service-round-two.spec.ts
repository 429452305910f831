// Issue #34 as staff see it, in English and French at both sizes: a Collection row with its cover
// from the partner's own cover host (the renderer's content security policy let none through: every
// row a grey box), a title's details with its price per borrow and its content badges, and the
// sentence a staff call gets when the service asks the desk to wait longer than a few seconds.
// The sandbox serves real-looking cover addresses on the partner's host (covers: 'partner'); the
// browser is routed to a picture for them, as the real host would answer.
import type { Page } from '@playwright/test';
import { expect, test } from './hosts.ts';
import { LANGUAGES, STEERS_SANDBOX, axeViolations, openDesk, sandboxUrl, say, scan, screenshots, syncCollection } from './desk-steps.ts';

test.use({ sandbox: { covers: 'partner' } });

const COVER_HOST = 'https://cover.hoopladigital.com';
/** A cover, as the partner's host would send one. */
const COVER = `<svg xmlns="http://www.w3.org/2000/svg" width="270" height="400" viewBox="0 0 270 400">
  <rect width="270" height="400" fill="#23507a"/><rect x="18" y="18" width="234" height="364" fill="none" stroke="#f2c14e" stroke-width="6"/>
  <circle cx="135" cy="170" r="60" fill="#f2c14e"/><rect x="45" y="280" width="180" height="18" fill="#f7f3e8"/><rect x="70" y="310" width="130" height="12" fill="#f7f3e8"/>
</svg>`;

/** The browser reaches the partner's cover host through this route: every cover request answered with a picture. */
async function routeCovers(page: Page): Promise<string[]> {
  const asked: string[] = [];
  await page.route(`${COVER_HOST}/**`, async (route) => {
    asked.push(route.request().url());
    await route.fulfill({ status: 200, contentType: 'image/svg+xml', body: COVER });
  });
  return asked;
}

for (const language of LANGUAGES) {
  test(`covers from the partner's host, a title's price per borrow and badges, and the wait for the service (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    const asked = await routeCovers(page);
    await openDesk(page, language);
    await syncCollection(page);

    // A Collection row with a real-host cover: the picture loads (the policy lets the partner's host through).
    await page.keyboard.press('Alt+2');
    const grid = page.getByRole('grid', { name: say(language, 'collection.gridLabel') });
    const cover = grid.locator('[role="row"] img').first();
    await expect(cover).toHaveAttribute('src', new RegExp(`^${COVER_HOST}/[a-z]{3}_\\d{13}_270\\.jpeg$`));
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: 'the cover loaded' }).toBe(true);
    expect(asked.length).toBeGreaterThan(0);
    await screenshots(page, 'collection-cover', language);

    // A sample sold pay-per-use: its details say what one borrow costs the library, and show its badges.
    await page.locator('#collection-model').selectOption('INSTANT');
    await page.locator('#collection-content').selectOption('sample');
    const first = grid.locator('[role="row"][aria-selected="true"]');
    await expect(first.locator('.badge-sample')).toHaveText(say(language, 'flags.sample'));
    await grid.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    const fact = (key: string) => dialog.locator('dt', { hasText: say(language, `collection.fields.${key}`) }).locator('xpath=following-sibling::dd[1]');
    await expect(fact('pricePerBorrow')).toHaveText(language === 'en' ? /^\$\d+\.\d{2}$/ : /^\d+,\d{2}\s\$\s?(US)?$/);
    await expect(dialog.locator('.badge-sample')).toHaveText(say(language, 'flags.sample'));
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'title-price-flags', language);
    await dialog.getByRole('button', { name: say(language, 'collection.close'), exact: true }).click();

    // The service asks for two minutes: the staff call is told at once, in one sentence.
    await page.keyboard.press('Alt+1');
    const added = await fetch(`${sandboxUrl(page)}/__sandbox/faults`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ route: 'status', kind: 'rate-limit', retryAfterSeconds: 120, times: 1 }),
    });
    expect(added.status).toBe(204);
    await scan(page, '2110100002');
    const sentence = say(language, "reasons['service.wait']", { seconds: 120 });
    await expect(page.getByText(sentence)).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'service-wait', language);
  });
}

// The entitlement filters the spec does not name, ignored by the service: the Sync page says where
// the service answered otherwise than asked, and what the desk did about it.
test.describe('a service that ignores the entitlement filters', () => {
  test.use({ sandbox: { entitlementFilters: 'ignored' } });
  for (const language of LANGUAGES) {
    test(`the Sync page names the mismatches (${language})`, async ({ desk }, testInfo) => {
      test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
      const { page } = desk;
      await openDesk(page, language);
      await syncCollection(page);
      await page.keyboard.press('Alt+3');
      const mismatches = page.getByRole('region', { name: say(language, 'sync.mismatchesHeading') });
      await expect(mismatches.getByRole('listitem').first()).toBeVisible();
      await expect(mismatches).toContainText(language === 'en' ? 'titles listed as both Instant and Flex' : 'titres listés à la fois comme Instant et Flex');
      expect(await axeViolations(page)).toEqual([]);
      await screenshots(page, 'sync-mismatches', language, undefined, mismatches);
    });
  }
});
