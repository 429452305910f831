// Issue #14, item 5: tell before the attempt, in words a patron understands. With no Instant
// borrow left, Borrow on an Instant title waits, with the reason and the day borrows come back
// (the first of next month, in the desk's language) beside it; Flex titles stay offered. When a
// refusal still happens (another desk spent the last borrow), it says the same in the desk's
// words and the date, without the service's English. The lending model has one name in every
// sentence (issue #35): Instant, never "always-available" or "pay per use".
import { expect, test } from './hosts.ts';
import { LANGUAGES, STEERS_SANDBOX, act, axeViolations, openDesk, result, say, scan, screenshots, titles } from './desk-steps.ts';
import { firstOfNextMonth } from '../../src/i18n/format.ts';

const MODEL_NAMES = /Instant|Flex/;
/** What issue #35 retired: three names for one lending model. */
const OTHER_NAMES = /always-available|pay per use|toujours disponibles|paiement à l’utilisation/i;

for (const language of LANGUAGES) {
  test(`no borrows left: Instant Borrow waits with the reason and the date; Flex stays offered (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    const [instant] = await titles(page, 'INSTANT', 'BORROW', 1);
    const [flex] = await titles(page, 'FLEX', 'BORROW', 1);
    const date = say(language, 'allowance.resetDate', { month: new Intl.DateTimeFormat(language, { month: 'long' }).format(firstOfNextMonth(Date.now())) });
    expect(date).toMatch(language === 'en' ? /^[A-Z][a-z]+ 1$/ : /^1er [a-zéû]+$/);

    await scan(page, '2110100004'); // the sandbox's patron with the month's allowance used up
    const line = page.locator('.patron-strip .allowance strong');
    await expect(line).toHaveText(say(language, 'patron.noneLeftOf', { allowed: 10, date }));
    await expect(line).not.toContainText(MODEL_NAMES); // read out to the patron

    for (const title of [instant!, flex!]) {
      await page.keyboard.press('F3');
      await page.keyboard.press('Control+A');
      await page.keyboard.type(title.title);
      await page.keyboard.press('Enter');
      await expect(result(page, title.title).first()).toBeVisible();
    }
    // The Flex title: offered as always.
    await expect(result(page, flex!.title).getByRole('button', { name: say(language, 'catalog.borrowTitleFor', { title: flex!.title, masked: '••••0004' }) })).toBeEnabled();
    // The Instant title: waits, and says why and until when, next to the button (its description).
    await page.keyboard.press('F3');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(instant!.title);
    await page.keyboard.press('Enter');
    const borrow = result(page, instant!.title).getByRole('button', { name: say(language, 'catalog.borrowTitleFor', { title: instant!.title, masked: '••••0004' }) });
    await expect(borrow).toBeDisabled();
    const reason = say(language, 'catalog.limitReached', { date });
    await expect(result(page, instant!.title).getByText(reason)).toBeVisible();
    await expect(borrow).toHaveAccessibleDescription(reason);
    expect(reason).not.toMatch(MODEL_NAMES);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'allowance-used-up', language, undefined, result(page, instant!.title));
  });
}

for (const language of LANGUAGES) {
  test(`a refusal after the attempt says the same in the desk’s words, with the date, not the service’s English (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    const [instant, other] = await titles(page, 'INSTANT', 'BORROW', 2);
    const date = say(language, 'allowance.resetDate', { month: new Intl.DateTimeFormat(language, { month: 'long' }).format(firstOfNextMonth(Date.now())) });
    await scan(page, '2110100005'); // one borrow left
    await expect(page.locator('.patron-strip .allowance strong')).toHaveText(say(language, 'patron.allowance', { remaining: 1, allowed: 10 }, 10));
    await page.keyboard.press('F3');
    await page.keyboard.type(instant!.title);
    await page.keyboard.press('Enter');
    await act(page, 'borrow', '2110100005', other!.contentId); // another desk spends it meanwhile
    await result(page, instant!.title).getByRole('button', { name: say(language, 'catalog.borrowTitleFor', { title: instant!.title, masked: '••••0005' }) }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(say(language, 'errors.limitReached', { allowed: 10 }));
    await expect(alert).toContainText(say(language, 'actions.allowanceBack', { date }));
    await expect(alert).not.toContainText(OTHER_NAMES);
    await expect(alert).not.toContainText(say(language, 'errors.detail', { message: '' }).split(/ ?:/)[0]!); // not the service's English
    await expect(alert).not.toContainText('allowance used up', { ignoreCase: true });
    await expect(alert.getByRole('button', { name: say(language, 'actions.dismiss') })).toBeVisible(); // nothing to retry
    await expect(page.locator('#card-entry-input')).toBeFocused(); // focus back in the card field for the next scan (issue #35)
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'allowance-refused', language);
  });
}
