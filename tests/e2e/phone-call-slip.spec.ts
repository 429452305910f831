// Issue #14, item 8: a due-date slip. One key (Alt+D) copies a plain-text summary of the call
// (the library's name, the loans with due dates, the holds with their place in the queue) to
// the system clipboard through main, shows it as it prints, and offers Print, which prints the
// slip alone. No full card number anywhere in it.
import { expect, test } from './hosts.ts';
import { LANGUAGES, axeViolations, openDesk, say, scan, screenshots } from './desk-steps.ts';

const CARD = '2110100002'; // the sandbox's patron with loans and a waiting hold

for (const language of LANGUAGES) {
  test(`Alt+D copies the due-date slip of this call and shows it ready to print (${language})`, async ({ desk }) => {
    const { page } = desk;
    await openDesk(page, language);
    const view = await page.evaluate(async (card) => window.lendingDesk.lookupPatron({ libraryId: 101, card }), CARD);
    if (!view.ok) throw new Error(view.error.message);
    await scan(page, CARD);
    await expect(page.getByText(say(language, 'patron.cardMasked', { masked: '••••0002' }))).toBeVisible();

    await page.keyboard.press('Alt+D'); // from the card field, where focus is after the lookup
    const dialog = page.getByRole('dialog', { name: say(language, 'slip.title') });
    await expect(dialog.getByRole('status')).toHaveText(say(language, 'slip.copied'));
    const slip = (await dialog.locator('[data-slip]').textContent())!;
    const clipboard = (await (await fetch(new URL('/__clipboard', page.url()))).json()) as { text: string };
    expect(clipboard.text).toBe(slip);

    const lines = slip.split('\n');
    expect(lines[0]).toBe('Riverside Public Library (US)');
    expect(slip).toContain(say(language, 'slip.card', { masked: '••••0002' }));
    expect(slip).not.toContain(CARD);
    expect(slip).not.toMatch(/\d{6,}/); // no card, nor any long number
    for (const loan of view.value.loans) {
      const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(loan.dueAt!);
      expect(lines.some((line) => line.startsWith(`- ${loan.title}`) && line.endsWith(date)), `${loan.title} due ${date}`).toBe(true);
    }
    for (const hold of view.value.holds) {
      const position = say(language, 'slip.holdWaiting', { title: '', position: hold.queuePosition! }).replace(/^\s*:?\s*/, '');
      expect(lines.some((line) => line.startsWith(`- ${hold.title}`) && line.includes(position.split(' ').pop()!)), `${hold.title} in line`).toBe(true);
    }
    expect(slip).not.toMatch(/Instant|Flex/); // a patron reads it
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'slip', language);

    // Printing prints the slip alone: everything else is hidden in print.
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('[data-slip]')).toBeVisible();
    await expect(page.getByRole('heading', { name: say(language, 'slip.title') })).toBeHidden();
    await expect(page.locator('header h1')).toBeHidden();
    await page.emulateMedia({ media: 'screen' });
    await expect(dialog.getByRole('button', { name: say(language, 'slip.print') })).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.locator('#card-entry-input')).toBeFocused(); // back where Alt+D was pressed
  });
}

test('the slip button opens the same slip; a click beside it closes it; the lock takes it off the clipboard', async ({ desk }) => {
  const { page } = desk;
  await openDesk(page);
  await scan(page, CARD);
  await page.getByRole('button', { name: 'Slip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Due-date slip' });
  await expect(dialog.getByRole('status')).toHaveText('Copied to the clipboard: paste it into an email, or print it.');
  await page.mouse.click(5, 400); // the backdrop
  await expect(dialog).toHaveCount(0);
  await page.keyboard.press('Control+L');
  await expect(page.getByRole('heading', { name: 'Desk locked' })).toBeVisible();
  await expect.poll(async () => ((await (await fetch(new URL('/__clipboard', page.url()))).json()) as { text: string }).text).toBe('');
});
