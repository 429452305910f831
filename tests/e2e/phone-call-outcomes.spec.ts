// Issue #14, item 3: an outcome belongs to the patron it was for. A borrow's outcome says the
// due date and shows the service's own sentence (quoted as the service's); it goes when another
// card is looked up (a refusal too: no allowance alert beside "This card is not known"), when
// the library changes and when the desk locks.
import type { Page } from '@playwright/test';
import { expect, test } from './hosts.ts';
import { LANGUAGES, STEERS_SANDBOX, axeViolations, openDesk, result, say, scan, screenshots, takeEveryCopy, titles } from './desk-steps.ts';

async function searchFor(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F3');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(title);
  await page.keyboard.press('Enter');
  await expect(result(page, title).first()).toBeVisible();
}

async function patronLoans(page: Page, card: string): Promise<number[]> {
  return page.evaluate(async (card) => {
    const view = await window.lendingDesk.lookupPatron({ libraryId: 101, card });
    return view.ok ? view.value.loans.map((l) => l.contentId as number) : [];
  }, card);
}

const feedback = (page: Page) => page.locator('.action-feedback');
const library = (page: Page) => page.getByRole('combobox', { name: /^Library/ });

for (const language of LANGUAGES) {
  test(`a borrow's outcome says the due date and the service's own sentence (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    const [instant] = await titles(page, 'INSTANT', 'BORROW', 1);
    await scan(page, '2110100001');
    await searchFor(page, instant!.title);
    await result(page, instant!.title).getByRole('button', { name: say(language, 'catalog.borrowTitleFor', { title: instant!.title, masked: '••••0001' }) }).click();
    const status = page.getByRole('status').filter({ hasText: instant!.title });
    // "… is borrowed for card ••••0002, due <date>." with the date as the desk writes it.
    const loan = await page.evaluate(async () => {
      const view = await window.lendingDesk.lookupPatron({ libraryId: 101, card: '2110100001' });
      return view.ok ? view.value.loans : [];
    });
    const dueAt = loan.find((l) => l.contentId === instant!.contentId)!.dueAt!;
    const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(dueAt);
    await expect(status).toHaveText(say(language, 'actions.doneBorrowDue', { title: instant!.title, masked: '••••0001', date }));
    // The service's sentence, made to be read out, quoted and labelled as the service's.
    await expect(feedback(page)).toContainText(say(language, 'patron.serviceNote', { message: `Enjoy ${instant!.title} until ` }).replace(/[”»]\s*$/, '').trim());
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'outcome-borrowed', language);

    // Another card: the outcome goes with its patron.
    await scan(page, '2110100005');
    await expect(page.locator('#patron-strip-heading')).toHaveText(say(language, 'strip.card', { masked: '••••0005' }));
    await expect(feedback(page)).not.toContainText('••••0001');
    await expect(feedback(page)).not.toContainText(instant!.title);
  });
}

test('a refusal does not stay beside the next card, the library or the lock', async ({ desk }, testInfo) => {
  test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
  const { page } = desk;
  await openDesk(page);
  const [flex] = await titles(page, 'FLEX', 'BORROW', 1);
  await scan(page, '2110100002');
  await searchFor(page, flex!.title);
  await takeEveryCopy(page, flex!.contentId); // another desk takes the last copy meanwhile
  await result(page, flex!.title).getByRole('button', { name: `Borrow for ••••0002: ${flex!.title}` }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(`No copy of ${flex!.title} is free right now`);

  // An unknown card next: its own alert, alone.
  await scan(page, '9999999999');
  await expect(alert).toHaveCount(1);
  await expect(alert).toContainText('This card is not known to');
  await expect(page.getByText(`No copy of ${flex!.title}`, { exact: false })).toHaveCount(0);
  await screenshots(page, 'outcome-next-card', 'en');

  // A refusal, then another library (F4, then the arrow key): gone.
  await scan(page, '2110100002');
  await searchFor(page, flex!.title);
  await result(page, flex!.title).getByRole('button', { name: `Place hold for ••••0002: ${flex!.title}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Hold placed on ${flex!.title}` })).toBeVisible();
  await page.keyboard.press('F4');
  await expect(library(page)).toBeFocused();
  await library(page).selectOption({ index: 1 });
  await expect(page.getByRole('status').filter({ hasText: `Hold placed on ${flex!.title}` })).toHaveCount(0);
  await expect(page.getByText('Card ••••0002')).toHaveCount(0);

  // An outcome, then the lock key: the lock screen shows none of it.
  await library(page).selectOption({ index: 0 });
  await scan(page, '2110100002');
  const [instant] = await titles(page, 'INSTANT', 'BORROW', 1, [...(await patronLoans(page, '2110100002'))]);
  await searchFor(page, instant!.title);
  await result(page, instant!.title).getByRole('button', { name: `Borrow for ••••0002: ${instant!.title}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `${instant!.title} is borrowed for card ••••0002` })).toBeVisible();
  await page.keyboard.press('Control+L');
  await expect(page.getByRole('heading', { name: 'Desk locked' })).toBeVisible();
  expect(await page.content()).not.toContain(instant!.title);
  expect(await page.content()).not.toContain('••••0002');
});
