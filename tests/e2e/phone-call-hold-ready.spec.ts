// Issue #14, item 1: "My hold is ready, check it out for me." A RESERVED hold offers Borrow now,
// as a button and as Alt+B on the selected hold; the borrow moves it to the loans (the service,
// and the sandbox playing it, accept a borrow of a copy set aside for the patron). Search
// results and title details for that title say it is set aside for this patron and offer Borrow.
import type { Page } from '@playwright/test';
import { expect, test } from './hosts.ts';
import { LANGUAGES, LIBRARY, STEERS_SANDBOX, axeViolations, focused, openDesk, patronState, result, row, say, scan, screenshots, syncCollection } from './desk-steps.ts';

const CARD = '2110100003'; // the sandbox's demo patron with a RESERVED hold

/** The demo patron's ready hold, as the service holds it before the test acts. */
async function readyHold(page: Page): Promise<{ contentId: number; title: string }> {
  const before = await page.evaluate(async ({ libraryId, card }) => window.lendingDesk.lookupPatron({ libraryId, card }), { libraryId: LIBRARY, card: CARD });
  if (!before.ok) throw new Error(before.error.message);
  const ready = before.value.holds.find((h) => h.status === 'RESERVED');
  if (!ready?.title) throw new Error(`card ${CARD} has no ready hold with a title`);
  return { contentId: ready.contentId as number, title: ready.title };
}

for (const language of LANGUAGES) {
  test(`a ready hold is borrowed from the hold list with Alt+B and moves to the loans (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    const ready = await readyHold(page);
    const title = ready.title;

    await scan(page, CARD);
    const hold = row(page, 'holds', title);
    await expect(hold.getByText(say(language, 'patron.holdStatus.RESERVED'), { exact: true })).toBeVisible();
    const borrowNow = hold.getByRole('button', { name: say(language, 'patron.borrowNowFor', { title, masked: '••••0003' }) });
    await expect(borrowNow).toBeVisible();
    await expect(borrowNow).toHaveAttribute('aria-keyshortcuts', 'Alt+B');
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'hold-ready', language);

    // Keyboard only: to the hold list, onto the ready hold, Alt+B.
    await hold.focus();
    await page.keyboard.press('Alt+B');
    const loan = row(page, 'loans', title);
    await expect(loan).toBeVisible();
    await expect(row(page, 'holds', title)).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: title }).first()).toBeVisible();
    // The new loan is selected (Alt+R acts on it); focus goes back to the card field for the next scan (issue #35).
    await expect(loan).toHaveAttribute('aria-current', 'true');
    await expect(page.locator('#card-entry-input'), await focused(page)).toBeFocused();
    const state = await patronState(page, CARD);
    expect(state.loans).toContain(ready.contentId);
    expect(state.holds).not.toContain(ready.contentId);
    await screenshots(page, 'hold-ready-borrowed', language);
  });
}

for (const language of LANGUAGES) {
  test(`search results and title details say a title is set aside for this patron and offer Borrow, which borrows it (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    await syncCollection(page); // a search result borrows what the desk's copy of the Collection says it is
    const ready = await readyHold(page);
    const title = ready.title;
    const setAside = say(language, 'catalog.ready');
    await scan(page, CARD);
    // Straight on to the search, as staff do while the lookup runs: the keys stay in the search field.
    await page.keyboard.press('F3');
    await page.keyboard.type(title);
    await page.keyboard.press('Enter');
    // (Another edition may share the title: the one the patron holds is the one set aside.)
    const hit = result(page, title).filter({ hasText: setAside });
    await expect(hit).toHaveCount(1);
    await expect(hit.getByText(say(language, 'catalog.readyUntil', { date: '' }).trim())).toBeVisible();
    await expect(hit.getByText(say(language, 'catalog.onHold'))).toHaveCount(0);
    await expect(hit.getByText(say(language, 'catalog.availability.HOLD'), { exact: false })).toHaveCount(0); // true for everyone else, misleading here
    const borrowNow = say(language, 'catalog.borrowNowTitleFor', { title, masked: '••••0003' });
    await expect(hit.getByRole('button', { name: borrowNow })).toHaveText(say(language, 'catalog.borrowNowFor', { masked: '••••0003' }));

    await hit.getByRole('button', { name: say(language, 'catalog.detailsFor', { title }) }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog.getByText(say(language, 'catalog.readyUntil', { date: '' }).trim())).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'hold-ready-details', language);
    await dialog.getByRole('button', { name: borrowNow }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row(page, 'loans', title)).toBeVisible();
    await expect(row(page, 'holds', title)).toHaveCount(0);
    await expect(result(page, title).filter({ hasText: say(language, 'catalog.onLoan') })).toHaveCount(1);
    await expect(result(page, title).filter({ hasText: setAside })).toHaveCount(0);
    expect((await patronState(page, CARD)).loans).toContain(ready.contentId);
  });
}
