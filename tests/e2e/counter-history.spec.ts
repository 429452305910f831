// Issue #35, goal 9 (with #33's fresh PIN before an export): a patron's reading history stays
// private. IT's policy gives each member of staff a PIN and a role. Desk staff read the action log
// but are offered neither its card filter nor its export — and the contract refuses both when they
// call it themselves; a manager filters by card and exports after typing their PIN again (a wrong
// one is refused and nothing is downloaded); each reading and export is an entry of the log, with
// who did it. Both languages, screenshots at both sizes.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { hashPin } from '../../electron/node/pin/pin-hash.ts';
import { expect, test } from './hosts.ts';
import { LANGUAGES, LIBRARY, STEERS_SANDBOX, addPatron, say, screenshots, titles, type Language } from './desk-steps.ts';
import { overflowingLabels, policyFolder } from './counter-steps.ts';

const policy = policyFolder();
test.use({ policy: policy.use });
const ANA = { name: 'Ana Lopez', pin: 'river-4821' };
const JO = { name: 'Jo Park', pin: 'maple-7350' };
const CARD = '2110177021';
test.beforeAll(async ({}, testInfo) => {
  testInfo.skip(testInfo.project.name === 'electron', `${STEERS_SANDBOX} The policy is a folder of this spec's own, which the Electron app never reads.`);
  const cost = { makeLog2: 16, floorLog2: 16 };
  policy.write({
    version: 1,
    staffPins: [
      { name: ANA.name, pinHash: await hashPin(ANA.pin, cost), role: 'manager' },
      { name: JO.name, pinHash: await hashPin(JO.pin, cost) },
    ],
  });
});
test.afterAll(() => policy.remove());

async function signIn(page: Page, language: Language, who: { name: string; pin: string }): Promise<void> {
  await page.getByLabel(say(language, 'shift.staffName')).fill(who.name);
  await page.getByLabel(say(language, 'pin.label'), { exact: true }).fill(who.pin);
  await page.keyboard.press('Enter');
}

for (const language of LANGUAGES) {
  test(`the log by card and its export are a manager's, with the PIN again; each is recorded (${language})`, async ({ desk }) => {
    const { page } = desk;
    if (language !== 'en') {
      await page.evaluate(async (lang) => { await window.lendingDesk.updatePreferences({ language: lang }); }, language);
      await page.reload();
    }
    await page.getByRole('button', { name: say(language, 'firstRun.useSandbox') }).click();
    await signIn(page, language, JO);
    await expect(page.getByText(say(language, 'desk.onShift', { name: JO.name }))).toBeVisible();
    await addPatron(page, CARD);
    const [title] = await titles(page, 'INSTANT', 'BORROW', 1);
    // Another desk lends it, title and all (the log keeps titles unless IT turns them off).
    const lent = await page.evaluate(async ({ libraryId, card, contentId, title }) => (await window.lendingDesk.borrow({ libraryId, card, contentId, title })).ok,
      { libraryId: LIBRARY, card: CARD, contentId: title!.contentId, title: title!.title });
    expect(lent).toBe(true);

    // Desk staff: the log, without its card filter or export.
    await page.keyboard.press('Alt+L');
    let log = page.getByRole('dialog', { name: say(language, 'log.title') });
    await expect(log.getByRole('row').nth(1)).toContainText(say(language, 'log.actions.log-read'));
    await expect(log.getByLabel(say(language, 'log.cardEnding'))).toHaveCount(0);
    await expect(log.getByRole('button', { name: say(language, 'log.export') })).toHaveCount(0);
    await expect(log).toContainText(say(language, 'log.managersOnly'));
    await screenshots(page, 'counter-log-desk-staff', language, async (size) => {
      expect(await overflowingLabels(page), `${size.width}x${size.height}`).toEqual([]);
    });
    // Nor by calling the contract themselves.
    const refused = await page.evaluate(async ({ pin }) => {
      const byCard = await window.lendingDesk.listActions({ cardEnding: '7021' });
      const exported = await window.lendingDesk.exportActions({ pin });
      return [byCard, exported].map((r) => (r.ok ? 'answered' : `${r.error.code} ${r.error.reason}`));
    }, JO);
    expect(refused).toEqual(['unauthorized log.managers-only', 'unauthorized log.managers-only']);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+L');

    // A manager: by card, and the export after the PIN again.
    await signIn(page, language, ANA);
    await expect(page.getByText(say(language, 'desk.onShiftManager', { name: ANA.name }))).toBeVisible();
    await page.keyboard.press('Alt+L');
    log = page.getByRole('dialog', { name: say(language, 'log.title') });
    await log.getByLabel(say(language, 'log.cardEnding')).fill('7021');
    await log.getByRole('button', { name: say(language, 'log.apply') }).click();
    await expect(log.getByRole('row')).toHaveCount(2); // the heading row and the borrow
    await expect(log.getByRole('row').nth(1)).toContainText(title!.title);
    await log.getByRole('button', { name: say(language, 'log.export') }).click();
    const pinField = log.getByLabel(say(language, 'log.exportPin'));
    await expect(pinField).toBeFocused();
    await pinField.fill(JO.pin);
    await page.keyboard.press('Enter');
    await expect(log.getByRole('alert')).toContainText(say(language, `reasons['log.export-pin-wrong']`));
    await screenshots(page, 'counter-log-export-pin', language, async (size) => {
      expect(await overflowingLabels(page), `${size.width}x${size.height}`).toEqual([]);
    });
    await pinField.fill(ANA.pin);
    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const csv = readFileSync((await (await downloading).path())!).toString('utf8');
    const lines = csv.slice(1).split('\r\n').filter(Boolean);
    expect(lines.length, csv).toBe(2); // the heading, the borrow for that card
    expect(lines[1]).toContain(`"${title!.title}"`);
    expect(lines[1]).toContain('"••••7021"');
    expect(csv).not.toContain(CARD);
    await page.keyboard.press('Escape');

    // Each reading and export is in the log: who, which filter.
    const audit = await page.evaluate(async () => {
      const page = await window.lendingDesk.listActions({ limit: 20 });
      return page.ok ? page.value.entries.filter((e) => e.action !== 'borrow').map((e) => `${e.action} ${e.staff} ${e.filter?.cardEnding ?? '-'}`) : [];
    });
    expect(audit.slice(0, 4)).toEqual([
      `log-read ${ANA.name} -`, // this reading
      `log-export ${ANA.name} 7021`,
      `log-read ${ANA.name} 7021`,
      `log-read ${ANA.name} -`,
    ]);
    expect(audit).toContain(`log-read ${JO.name} -`);
  });
}
