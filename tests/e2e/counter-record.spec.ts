// Issue #35, goal 5: the record matches the screen. Today's actions name their titles, whether
// the entry keeps one (an action from the desk) or not (one another desk made through the contract,
// named from the desk's copy of the Collection). A borrow whose answer is lost, and whose account
// cannot be read back, may have gone through: the banner offers "check the account" first (no
// Retry), and the log and today's actions say "outcome unknown", not "refused". Read again once the
// service is back, the account shows the loan: the desk says so and offers no Retry. Both
// languages, screenshots at both sizes.
import { expect, test } from './hosts.ts';
import { LANGUAGES, STEERS_SANDBOX, act, addPatron, openDesk, result, sandboxUrl, say, screenshots, syncCollection, titles } from './desk-steps.ts';
import { overflowingLabels } from './counter-steps.ts';

const CARD = '2110177011';

for (const language of LANGUAGES) {
  test(`today's actions with titles; an unknown outcome checked, not retried, and logged as unknown (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    await addPatron(page, CARD);
    await syncCollection(page);
    const [viaDesk, viaContract, lost] = await titles(page, 'INSTANT', 'BORROW', 3);
    // Another desk borrows one through the contract, with no title: the entry keeps none.
    await act(page, 'borrow', CARD, viaContract!.contentId);
    await page.keyboard.type(CARD);
    await page.keyboard.press('Enter');
    await page.keyboard.press('F3');
    await page.keyboard.type(viaDesk!.title);
    await page.keyboard.press('Enter');
    await result(page, viaDesk!.title).getByRole('button', { name: say(language, 'catalog.borrowTitleFor', { title: viaDesk!.title, masked: '••••7011' }) }).click();
    const today = page.getByRole('region', { name: say(language, 'today.title') });
    const borrowWord = say(language, 'log.actions.borrow');
    await expect(today).toContainText(`${borrowWord} · ${say(language, 'log.titleAndId', { title: viaDesk!.title, id: viaDesk!.contentId })}`);
    await expect(today).toContainText(`${borrowWord} · ${say(language, 'log.titleAndId', { title: viaContract!.title, id: viaContract!.contentId })}`);
    await expect(today).not.toContainText(`${borrowWord} · ${say(language, 'log.idOnly', { id: viaContract!.contentId })} ·`);

    // The answer to the next borrow is lost after the service lent it, and the loans cannot be read back.
    await page.keyboard.press('F3');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(lost!.title);
    await page.keyboard.press('Enter');
    const origin = sandboxUrl(page);
    const fault = (body: object) => fetch(`${origin}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await fault({ route: 'borrow', kind: 'reset', phase: 'after', times: 1 });
    await fault({ route: 'checkouts', kind: 'server-error' });
    const alert = page.getByRole('alert');
    try {
      await result(page, lost!.title).getByRole('button', { name: say(language, 'catalog.borrowTitleFor', { title: lost!.title, masked: '••••7011' }) }).click();
      await expect(alert).toContainText(say(language, `reasons['action.outcome-unknown']`), { timeout: 30_000 });
      const check = alert.getByRole('button', { name: say(language, 'actions.checkAccount', { masked: '••••7011' }) });
      await expect(check).toHaveClass(/primary/);
      await expect(alert.getByRole('button', { name: new RegExp(`^${say(language, 'actions.retry')}`) })).toHaveCount(0);
      await expect(page.locator('#card-entry-input')).toBeFocused();
      // The record says what the screen says: unknown, not refused.
      await expect(today).toContainText(`${borrowWord} · ${say(language, 'log.titleAndId', { title: lost!.title, id: lost!.contentId })} · ${say(language, 'log.unknown')}`);
      await screenshots(page, 'counter-outcome-unknown', language, async (size) => {
        expect(await overflowingLabels(page), `${size.width}x${size.height}`).toEqual([]);
      });
    } finally {
      await fetch(`${origin}/__sandbox/faults`, { method: 'DELETE' });
    }
    // The service is back: Alt+O checks the account, which shows the loan; nothing to try again.
    await page.keyboard.press('Alt+O');
    await expect(alert).toContainText(say(language, 'actions.checked.took-effect', { masked: '••••7011', title: lost!.title }));
    await expect(alert.getByRole('button', { name: say(language, 'actions.retryFor', { masked: '••••7011' }) })).toHaveCount(0);
    await expect(page.locator('section[aria-labelledby="patron-loans-heading"]')).toContainText(lost!.title);
    await screenshots(page, 'counter-outcome-checked', language);

    await page.keyboard.press('Alt+L');
    const log = page.getByRole('dialog', { name: say(language, 'log.title') });
    await expect(log.getByRole('row').filter({ hasText: lost!.title })).toContainText(say(language, 'log.unknown'));
    await expect(log.getByRole('row').filter({ hasText: lost!.title })).not.toContainText(say(language, 'log.failed', { code: '' }).trim());
  });
}
