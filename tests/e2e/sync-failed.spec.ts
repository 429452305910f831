// A sync that fails, as staff see it on the Sync page: which part failed and why, in the desk's
// language (main's English stays in the log), the error's own sentence not run into the
// template's, and the last good copy said to be still shown. Screenshots in English and French
// at 1280x800 and 1024x700.
import { expect, test } from './hosts.ts';
import { LANGUAGES, STEERS_SANDBOX, openDesk, sandboxUrl, say, screenshots } from './desk-steps.ts';

for (const language of LANGUAGES) {
  test(`a failed sync says which part failed and why, in the desk's language (${language})`, async ({ desk }, testInfo) => {
    test.skip(testInfo.project.name === 'electron', STEERS_SANDBOX);
    const { page } = desk;
    await openDesk(page, language);
    await page.getByRole('tab', { name: say(language, 'views.sync') }).click();
    const admin = sandboxUrl(page);
    // The global catalog answers 503 to every request, retries included, until the faults are cleared.
    await fetch(`${admin}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ route: 'globalContents', kind: 'server-error', status: 503 }) });
    try {
      await page.getByRole('button', { name: say(language, 'sync.now') }).click();
      const failed = page.getByRole('alert').filter({ hasText: say(language, 'sync.sources.global') });
      await expect(failed).toBeVisible({ timeout: 30_000 });
      const text = (await failed.textContent()) ?? '';
      expect(text).toContain(say(language, 'errors.server'));
      expect(text).toContain(say(language, 'sync.failed', { source: say(language, 'sync.sources.global'), when: 'WHEN', error: 'ERROR' }).split('ERROR')[1]!.trim());
      expect(text).not.toMatch(/\.\.|\)\)/); // neither sentence nor bracket closed twice
      expect(text).not.toMatch(/HTTP 503|The sync did not complete/); // main's English, for the log only
      await expect(page.getByRole('button', { name: say(language, 'sync.now') })).toBeEnabled();
      await screenshots(page, 'sync-failed', language, undefined, failed);
    } finally {
      await fetch(`${admin}/__sandbox/faults`, { method: 'DELETE' });
    }
  });
}
