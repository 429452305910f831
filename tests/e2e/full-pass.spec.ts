// Issue #24, goal 3: the service's updates need not mark a removal (the published schemas show
// none), so on a sandbox whose deltas never do (removals 'absent'), titles the library stopped
// holding stay in the Collection after Sync now, and go with the full entitlement pass staff run
// from the Sync page ("Check for removed titles"), which then says when it ran, how many went and
// when the next one is due — in English and French.
import type { Page } from '@playwright/test';
import { expect, test } from './hosts.ts';
import { LANGUAGES, LIBRARY, STEERS_SANDBOX, axeViolations, openDesk, sandboxUrl, say, screenshots } from './desk-steps.ts';

test.use({ sandbox: { removals: 'absent' } });

async function collectionTotal(page: Page): Promise<number> {
  return page.evaluate(async (libraryId) => {
    const browse = await window.lendingDesk.collectionBrowse({ libraryId, limit: 1 });
    return browse.ok ? browse.value.total : -1;
  }, LIBRARY);
}

for (const language of LANGUAGES) {
  test(`the Sync page after a full entitlement pass that removed titles (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    await page.getByRole('tab', { name: say(language, 'views.sync') }).click();
    const syncNow = page.getByRole('button', { name: say(language, 'sync.now'), exact: true });
    await syncNow.click();
    await expect(syncNow).toBeEnabled({ timeout: 30_000 });
    await expect(page.getByText(say(language, 'sync.fullPassNext', { when: '' }).trim().replace(/[.:]$/, ''), { exact: false })).toBeVisible();
    const before = await collectionTotal(page);

    // The library stops holding three titles; the next delta says nothing of it.
    const gone = await page.evaluate(async (libraryId) => {
      const browse = await window.lendingDesk.collectionBrowse({ libraryId, limit: 3 });
      return browse.ok ? browse.value.rows.map((r) => r.contentId) : [];
    }, LIBRARY);
    const changed = await fetch(`${sandboxUrl(page)}/__sandbox/catalog-changes`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ unentitle: { libraryId: LIBRARY, contentIds: gone } }),
    });
    expect(changed.status).toBeLessThan(300);
    await syncNow.click();
    await expect(syncNow).toBeEnabled({ timeout: 30_000 });
    expect(await collectionTotal(page)).toBe(before);

    const check = page.getByRole('button', { name: say(language, 'sync.fullPassButton') });
    await check.click();
    await expect(check).toBeEnabled({ timeout: 30_000 });
    const removed = say(language, 'sync.fullPassLast', { when: '\u0000', count: 3 }, 3).split('\u0000')[1]!.trim();
    await expect(page.locator('.full-pass-last')).toContainText(removed);
    expect(await collectionTotal(page)).toBe(before - 3);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'sync-full-pass', language, undefined, page.locator('.full-pass'));
    // Issue #34: a desk on its own says when it reads the catalog's changes by itself next.
    await expect(page.locator('.catalog-refresh')).toContainText(say(language, 'sync.refreshHeading'));
    await expect(page.locator('.catalog-refresh-when')).toContainText(say(language, 'sync.refreshNext', { when: '\u0000' }).split('\u0000')[0]!.trim());
    await screenshots(page, 'sync-catalog-refresh', language, undefined, page.locator('.catalog-refresh'));
  });
}
