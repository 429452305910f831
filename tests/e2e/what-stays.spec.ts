// What stays on the desk holds (issue #33), as staff see it, in English and French at 1280x800
// and 1024x700: a connection a proxy or certificate on this PC intercepted, the lock at the end of
// the longest shift, and a change of the computer's time zone in the action log. The behaviour
// itself is proven in the unit tests (a real TLS server and Chromium's verdict: certificate-trust
// .test.ts; the shift's clock: shift-end.test.ts; processes started with TZ: time-zone.test.ts);
// here the desk is brought to each state and looked at.
import { mkdirSync } from 'node:fs';
import { DESK_RECORDS, keychainDeskRecords } from '../../electron/main/credentials/desk-keychain.ts';
import { LANGUAGES, openDesk, say, screenshots } from './desk-steps.ts';
import { SCREENSHOT_DIR, expect, test } from './hosts.ts';

mkdirSync(SCREENSHOT_DIR, { recursive: true });

for (const language of LANGUAGES) {
  test(`a connection intercepted by a proxy or a certificate on this PC is refused in words staff read (${language})`, async ({ desk }) => {
    const { page } = desk;
    test.skip(new URL(page.url()).protocol !== 'http:', 'Plays main\'s answer through the Chromium host\'s contract route: the host reaches servers with Node\'s fetch, not Chromium\'s network stack, whose verdict main sets (certificate-trust.test.ts runs that against a real TLS server).');
    // Main's answer when Chromium's verdict refused the server's certificate (interceptionAware, certificate-trust.ts).
    await page.route('**/__contract/testPartnerConnection', (route) => route.fulfill({ json: {
      ok: false,
      error: { code: 'network', message: 'connection.intercepted (main\'s English, never shown)', reason: 'connection.intercepted', params: { host: 'partner.library.example.org' } },
    } }));
    if (language !== 'en') {
      await page.evaluate(async (lang) => { await window.lendingDesk.updatePreferences({ language: lang }); }, language);
      await page.reload();
    }
    const form = page.getByRole('form', { name: say(language, 'partner.formLabel') });
    await form.getByLabel(say(language, 'partner.name')).fill('City Library');
    await form.getByLabel(say(language, 'partner.baseUrl')).fill('https://partner.library.example.org');
    await form.getByLabel(say(language, 'partner.username')).fill('city-library');
    await form.getByLabel(say(language, 'partner.password')).fill('not-a-real-password');
    await form.getByLabel(say(language, 'partner.libraryIds')).fill('4512');
    await form.getByRole('button', { name: say(language, 'partner.test') }).click();
    const alert = form.getByRole('alert');
    await expect(alert).toContainText(say(language, "reasons['connection.intercepted']", { host: 'partner.library.example.org' }));
    await expect(alert).not.toContainText('never shown');
    await screenshots(page, 'connection-intercepted', language, undefined, alert);
  });

  test(`the longest shift ends in a lock that says why (${language})`, async ({ desk }) => {
    const { page } = desk;
    test.skip(desk.service === undefined, 'Calls the desk\'s own lock through the Chromium host: main locks on its own clock (shift-end.test.ts plays the 12 hours).');
    await openDesk(page, language);
    // What main's own clock does at IT's longest shift (shift-area.ts): the same lock, with its reason.
    await desk.service!().lock('shift-length');
    await expect(page.getByRole('heading', { name: say(language, 'lock.title') })).toBeVisible();
    await expect(page.getByText(say(language, 'lock.reasonShiftLength'))).toBeVisible();
    await screenshots(page, 'lock-longest-shift', language);
  });

  test(`a change of the computer's time zone is an entry of the action log (${language})`, async ({ desk }) => {
    const { page } = desk;
    // The desk as set up elsewhere in the world: its keychain says it last saw another zone, so its next start finds the change.
    const keychain = keychainDeskRecords({ service: desk.keychainService });
    const machineZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const before = machineZone === 'Pacific/Kiritimati' ? 'Pacific/Niue' : 'Pacific/Kiritimati';
    await keychain.write(DESK_RECORDS.dayBoundary, JSON.stringify({ v: 1, zone: before, since: 0, seen: before }));
    await desk.restart();
    await openDesk(desk.page, language);
    await desk.page.getByRole('button', { name: say(language, 'desk.actionLog') }).click();
    const log = desk.page.getByRole('dialog', { name: say(language, 'log.title') });
    const row = log.getByRole('row').filter({ hasText: say(language, 'log.actions.zone-change') });
    await expect(row).toContainText(say(language, 'log.zoneChange', { from: before, to: machineZone }));
    await screenshots(desk.page, 'log-time-zone-changed', language, undefined, row);
  });
}
