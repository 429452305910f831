// Staff at a library desk (issue #32), end to end on the Chromium host: IT's policy names the
// library server (a real one, with PostgreSQL and the sandbox over HTTP, its desk endpoint over
// TLS with a test CA). The desk first asks for IT's enrolment code; then staff sign in as
// themselves; five wrong PINs and the server makes the account wait (said on the sign-in screen);
// a manager opens the server's audit trail with Alt+L; the credential's minute is spent and a
// lookup waits, saying how long; IT revokes the desk (issue #31: the refusal
// in the staff's words); the server stops (unreachable, said at the sign-in). Keyboard only,
// English and French, 1280x800 and 1024x700, each screen photographed.
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type pg from 'pg';
import { DESK_RECORDS, keychainDeskRecords } from '../../electron/main/credentials/desk-keychain.ts';
import { LibraryServerLink } from '../../electron/main/connection/library-server-fetch.ts';
import { PartnerClient } from '../../electron/node/partner/client.ts';
import { startSandbox, type SandboxHandle } from '../../electron/main/sandbox/server.ts';
import { StaffAdmin } from '../../server/staff.ts';
import { WorkstationAdmin } from '../../server/workstations.ts';
import { makeCertificateAuthority } from '../support/certificates.ts';
import { deskTarget } from '../support/library-server.ts';
import { createLibraryMirrorDatabase, type LibraryMirrorDatabase } from '../support/library-mirror-database.ts';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.ts';
import { runLibraryServer, type RunningLibraryServer } from '../support/running-library-server.ts';
import { removeServiceConfigs } from '../unit/server/service-process.ts';
import { LANGUAGES, say, scan, screenshots, type Language } from './desk-steps.ts';
import { SCREENSHOT_DIR, expect, test } from './hosts.ts';

mkdirSync(SCREENSHOT_DIR, { recursive: true });

const root = mkdtempSync(join(tmpdir(), 'lending-desk-e2e-server-'));
chmodSync(root, 0o755);
const policyFile = join(root, 'policy.json');
const caFile = join(root, 'library-server-ca.pem');
let cluster: PostgresCluster;
let db: LibraryMirrorDatabase;
let partner: SandboxHandle;
let server: RunningLibraryServer;
let admin: pg.Client;
let mirrorPassword = '';
// The server's and the partner's clock: real time, moved ahead past the server's 30 s read of
// revoked workstations and to the end of a spent minute (never waited out).
let ahead = 0;

test.use({ policy: { platform: 'linux', linux: { path: policyFile, trustRoot: root }, protectedPlaces: { trustRoot: root } } });
test.beforeAll(async ({}, testInfo) => {
  testInfo.skip(testInfo.project.name === 'electron',
    'Electron host: the app reads only the machine\'s own policy (/etc/lending-desk/policy.json here), never a folder a test names; this spec runs on the Chromium host.');
  testInfo.setTimeout(180_000);
  cluster = await startPostgresCluster();
  db = await createLibraryMirrorDatabase(cluster);
  // The partner counts the credential's minute by the same clock as the server, as a real one does by the same real time.
  partner = await startSandbox({ password: 'e2e-partner-secret', catalogSize: 800, now: () => Date.now() + ahead });
  const work = mkdtempSync(join(tmpdir(), 'lending-desk-e2e-server-ca-'));
  const ca = await makeCertificateAuthority(work, 'server-ca');
  server = await runLibraryServer(db, partner, {
    dir: work, ca, name: 'desk-api', overrides: { libraries: [{ libraryId: 101, countries: ['US'] }] }, deps: { now: () => Date.now() + ahead },
  });
  await server.log.waitFor('first-full-sync-done');
  copyFileSync(ca.certFile, caFile);
  chownSync(caFile, 0, 0);
  admin = await db.admin();
  await new StaffAdmin(admin).add('Ana Lopez', 'desk-staff', '482913');
  await new StaffAdmin(admin).add('Mo Chen', 'manager', '730518');
  await new StaffAdmin(admin).add('Lee Park', 'desk-staff', '915274');
  const named = deskTarget(db, root);
  mirrorPassword = named.password;
  writeFileSync(policyFile, JSON.stringify({
    version: 1,
    profiles: [{ id: 'city', name: 'Riverside', baseUrl: 'https://partner.invalid', libraries: [{ libraryId: 101, name: 'Riverside Public Library' }], country: 'US' }],
    libraryMirror: named.target,
    libraryServer: { url: server.url, caFile },
  }), { mode: 0o644 });
  chownSync(policyFile, 0, 0);
});
test.afterAll(async () => {
  await admin?.end();
  await server?.service.stop();
  await partner?.close();
  await cluster?.stop();
  removeServiceConfigs();
  rmSync(root, { recursive: true, force: true });
});

/**
 * Another desk of the library spends the credential's minute (the server's 100 requests), as a
 * busy morning does, ten patrons at a time until the window is full; then the server's clock is
 * moved on until the lookup's three requests would wait WAIT_SECONDS for the window (never waited
 * out). How full the window is, and the wait, are read from the server itself (what it would tell
 * a desk), not assumed: its own refresh may have spent part of the minute already.
 */
const WAIT_SECONDS = 6;
async function spendTheMinute(caPem: string): Promise<void> {
  const enrolled = await new WorkstationAdmin(admin).enrolDirectly(`Back office ${Date.now()}`);
  const link = new LibraryServerLink({ urls: [server.url], ca: caPem });
  const workstation = { username: enrolled.id, password: enrolled.secret };
  const session = await link.signIn(workstation, 'Lee Park', '915274');
  // The lookup's third request (two before it) waits the longest of the three.
  const thirdWaits = (): number => server.service.staffWaitMs(2) ?? 0;
  for (let batch = 0; thirdWaits() <= (WAIT_SECONDS + 1) * 1000; batch++) {
    expect(batch, 'the other desk\'s calls fill the window').toBeLessThan(30);
    // A client of its own each time: one refused as too long a wait would hold back its client's next calls.
    const client = new PartnerClient({ baseUrl: link.baseUrl, fetch: link.fetchWith(() => {}, () => session.token), credentials: workstation });
    await Promise.allSettled(Array.from({ length: 10 }, (_, i) => client.patronStatus(101, `BACK-OFFICE-${batch}-${i}`)));
  }
  link.close();
  ahead += thirdWaits() - WAIT_SECONDS * 1000;
  expect(thirdWaits()).toBeGreaterThan((WAIT_SECONDS - 1) * 1000);
}

async function inLanguage(page: Page, language: Language): Promise<void> {
  await page.evaluate(async (lang) => { await window.lendingDesk.updatePreferences({ language: lang }); }, language);
  await page.reload();
}

/** Name and own PIN, typed: Tab from the name to the PIN, Enter. */
async function signIn(page: Page, language: Language, name: string, pin: string): Promise<void> {
  const nameField = page.getByLabel(say(language, 'shift.staffNameServer'), { exact: true });
  await expect(nameField).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(pin);
  await page.keyboard.press('Enter');
}

test('staff at a library desk: IT\'s enrolment code, a sign-in at the server, a locked-out account, the manager\'s audit trail, in English and French', async ({ desk }) => {
  test.setTimeout(180_000);
  await keychainDeskRecords({ service: desk.keychainService }).write(DESK_RECORDS.libraryMirrorPassword, mirrorPassword);
  const workstations = new WorkstationAdmin(admin);

  for (const language of LANGUAGES) {
    // A fresh keychain record each language: the desk is not enrolled yet.
    await keychainDeskRecords({ service: desk.keychainService }).remove(DESK_RECORDS.workstation);
    const page = await desk.restart();
    await inLanguage(page, language);
    const codeField = page.getByLabel(say(language, 'pin.enrolCode'), { exact: true });
    await expect(codeField).toBeFocused();
    await expect(page.getByText(say(language, 'pin.enrolIntro', { server: new URL(server.url).host }))).toBeVisible();
    await screenshots(page, 'server-enrol', language);
    await page.keyboard.type((await workstations.createCode(`Front desk ${language}`)).code);
    await page.keyboard.press('Enter');

    // Five wrong PINs for Ana: the server makes her account wait, and the sign-in screen says so.
    await expect(page.getByText(say(language, 'pin.hintServer'))).toBeVisible();
    await screenshots(page, 'server-sign-in', language);
    for (let i = 0; i < 5; i++) {
      await page.getByLabel(say(language, 'shift.staffNameServer'), { exact: true }).focus();
      await page.keyboard.press('Control+A');
      await signIn(page, language, 'Ana Lopez', '000000');
      await expect(page.getByRole('alert')).toBeVisible();
    }
    await page.getByLabel(say(language, 'shift.staffNameServer'), { exact: true }).focus();
    await page.keyboard.press('Control+A');
    await signIn(page, language, 'Ana Lopez', '000000');
    await expect(page.getByRole('alert')).toContainText(say(language, "reasons['library-server.staff-wait']", { seconds: '@' }).split('@')[0]!.trim());
    await screenshots(page, 'server-locked-out', language);
    // The wait counts at this desk too (anyone's tries): here it passes without being waited out.
    await new StaffAdmin(admin).resetPin('Ana Lopez', '482913');
    await admin.query('DELETE FROM library_mirror.sign_in_failures');

    // The manager signs in and reads the trail (Alt+L), which lists the refused sign-ins.
    await page.getByLabel(say(language, 'shift.staffNameServer'), { exact: true }).focus();
    await page.keyboard.press('Control+A');
    await signIn(page, language, 'Mo Chen', '730518');
    await expect(page.locator('#card-entry-input')).toBeFocused();
    await page.keyboard.press('Alt+L');
    const trail = page.getByRole('dialog', { name: say(language, 'audit.title') });
    await expect(trail).toBeVisible();
    await expect(trail.getByRole('cell', { name: say(language, 'audit.actions.sign-in-refused') }).first()).toBeVisible();
    await screenshots(page, 'server-audit-trail', language);
    await page.keyboard.press('Escape');

    // The credential's minute spent by the other desks (issue #31): a lookup waits its turn, and
    // staff read how long, counting down, until the patron comes.
    await spendTheMinute(readFileSync(caFile, 'utf8'));
    await scan(page, partner.libraries.find((l) => l.libraryId === 101)!.cards[0]!);
    const wait = page.locator('.service-wait');
    await expect(wait).toBeVisible();
    await expect(wait).toContainText(say(language, 'desk.serviceWait', { seconds: '@' }).split('@')[0]!.trim());
    await screenshots(page, 'server-wait', language);
    await expect(page.getByRole('region', { name: say(language, 'patron.listsLabel') })).toBeVisible({ timeout: 20_000 });
    await expect(wait).toBeHidden();
    // IT revokes this desk: the next lookup is refused in the staff's words (issue #31).
    const enrolled = (await workstations.list()).find((w) => w.name === `Front desk ${language}`)!;
    await workstations.revoke(enrolled.id);
    ahead += 31_000;
    await scan(page, partner.libraries.find((l) => l.libraryId === 101)!.cards[0]!);
    await expect(page.getByText(say(language, "reasons['library-server.revoked']"))).toBeVisible();
    await screenshots(page, 'server-revoked', language);
  }

  // The server stops: signing in says it cannot be reached, and sends nothing elsewhere.
  await server.service.stop();
  for (const language of LANGUAGES) {
    const page = await desk.restart();
    await inLanguage(page, language);
    await signIn(page, language, 'Mo Chen', '730518');
    await expect(page.getByRole('alert')).toContainText(say(language, "reasons['library-server.unreachable']"));
    await screenshots(page, 'server-unreachable', language);
  }
});
