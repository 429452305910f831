// Issue #14, item 2: what is read out on a call fits one screen. A patron with five loans and
// three holds: the allowance, each loan's title, format and due date, and each hold's title and
// status with its place in the queue are all inside the window without scrolling, at 1280x800
// and 1024x700, in English and in French, with the search column beside them; axe finds
// nothing.
import { expect, test } from './hosts.ts';
import {
  LANGUAGES, STEERS_SANDBOX, act, addPatron, axeViolations, expectOnScreen, openDesk, row, say, scan, screenshots, takeEveryCopy, titles,
} from './desk-steps.ts';

const CARD = '2110188005';

for (const language of LANGUAGES) {
  test(`five loans and three holds on one screen, both sizes (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    await addPatron(page, CARD);
    const flex = await titles(page, 'FLEX', 'BORROW', 5);
    const loans = [...await titles(page, 'INSTANT', 'BORROW', 3), ...flex.slice(0, 2)];
    const holds = flex.slice(2);
    for (const loan of loans) await act(page, 'borrow', CARD, loan.contentId);
    for (const hold of holds) {
      await takeEveryCopy(page, hold.contentId);
      await act(page, 'placeHold', CARD, hold.contentId);
    }

    await scan(page, CARD);
    await expect(page.getByRole('heading', { name: `${say(language, 'patron.loans')} (5)` })).toBeVisible();
    await expect(page.getByRole('heading', { name: `${say(language, 'patron.holds')} (3)` })).toBeVisible();
    // A search beside them, as on a call: results take the other column, not the patron's rows.
    await page.keyboard.press('F3');
    await page.keyboard.type('e');
    await page.keyboard.press('Enter');
    await expect(page.locator('ul.results > li').first()).toBeVisible();
    await page.keyboard.press('F2');
    expect(await axeViolations(page)).toEqual([]);

    const allowance = page.locator('.patron-strip .allowance strong');
    await expect(allowance).toHaveText(say(language, 'patron.allowance', { remaining: 7, allowed: 10 }, 10));
    await screenshots(page, 'one-screen-five-loans-three-holds', language, async (size) => {
      const where = `${language} ${size.width}x${size.height}`;
      await expectOnScreen(allowance, `the allowance (${where})`);
      for (const loan of loans) {
        const line = row(page, 'loans', loan.title);
        await expectOnScreen(line.getByText(loan.title, { exact: true }), `loan ${loan.title} (${where})`);
        await expectOnScreen(line.locator('.format'), `the format of ${loan.title} (${where})`);
        await expectOnScreen(line.locator('.due'), `the due date of ${loan.title} (${where})`);
        await expect(line.locator('.due')).toContainText(`${say(language, 'patron.columns.due')} `); // read out with the date
      }
      for (const hold of holds) {
        const line = row(page, 'holds', hold.title);
        await expectOnScreen(line.getByText(hold.title, { exact: true }), `hold ${hold.title} (${where})`);
        await expectOnScreen(line.getByText(say(language, 'patron.holdStatus.WAITING'), { exact: true }), `the status of ${hold.title} (${where})`);
        await expectOnScreen(line.locator('.position'), `the queue position of ${hold.title} (${where})`);
      }
      // The search column stays beside them, not below.
      const search = await page.getByRole('region', { name: say(language, 'catalog.heading') }).boundingBox();
      const patron = await page.locator('.patron-panel').boundingBox();
      expect(search!.x, where).toBeGreaterThan(patron!.x + patron!.width);
    });
  });
}
