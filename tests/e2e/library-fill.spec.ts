// A desk in a library, end to end (issue #25): IT's policy names the library mirror — a real
// PostgreSQL started by this spec, filled by the service's own sync from a sandbox over HTTP —
// and the desk's role password is in its keychain. Staff see the Collection filled from it, and
// the Sync view says "from the library mirror, updated <when>"; with the database stopped, the
// Sync view says how old the collection is and why. English and French, 1280x800 and 1024x700.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createKeytarVault } from '../../electron/main/credentials/index.ts';
import { DESK_RECORDS, keychainDeskRecords } from '../../electron/main/credentials/desk-keychain.ts';
import { startSandbox, type SandboxHandle } from '../../electron/main/sandbox/server.ts';
import { deskTarget, startLibraryServer, type LibraryServer } from '../support/library-server.ts';
import { createLibraryMirrorDatabase, type LibraryMirrorDatabase } from '../support/library-mirror-database.ts';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.ts';
import { LANGUAGES, say, screenshots, type Language } from './desk-steps.ts';
import { SCREENSHOT_DIR, TEST_DESK_PIN, expect, test } from './hosts.ts';

mkdirSync(SCREENSHOT_DIR, { recursive: true });

const root = mkdtempSync(join(tmpdir(), 'lending-desk-e2e-library-'));
chmodSync(root, 0o755);
const policyFile = join(root, 'policy.json');
let cluster: PostgresCluster;
let db: LibraryMirrorDatabase;
let partner: SandboxHandle;
let service: LibraryServer;
let password = '';

// The policy file, and the CA file it names (issue #33: only from where only root can write), judged with this folder for `/`.
test.use({ policy: { platform: 'linux', linux: { path: policyFile, trustRoot: root }, protectedPlaces: { trustRoot: root } } });
test.beforeAll(async ({}, testInfo) => {
  testInfo.skip(testInfo.project.name === 'electron',
    'Electron host: the app reads only the machine\'s own policy (/etc/lending-desk/policy.json here), never a folder a test names; this spec runs on the Chromium host.');
  testInfo.setTimeout(120_000);
  cluster = await startPostgresCluster();
  db = await createLibraryMirrorDatabase(cluster);
  partner = await startSandbox({ password: 'e2e-partner-secret', catalogSize: 3000 });
  service = await startLibraryServer(db, partner);
  await service.sync();
  const named = deskTarget(db, root);
  password = named.password;
  writeFileSync(policyFile, JSON.stringify({
    version: 1,
    profiles: [{ id: 'city', name: 'Riverside (library mirror)', baseUrl: partner.url, libraries: [{ libraryId: 101, name: 'Riverside Public Library' }], country: 'US' }],
    libraryMirror: named.target,
  }), { mode: 0o644 });
  chownSync(policyFile, 0, 0);
});
test.afterAll(async () => {
  await service?.stop();
  await partner?.close();
  await cluster?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** The desk in `language`, a shift started (keyboard only), on the Sync view. */
async function openIn(page: Page, language: Language): Promise<void> {
  await page.evaluate(async (lang) => { await window.lendingDesk.updatePreferences({ language: lang }); }, language);
  await page.reload();
  await page.getByLabel(say(language, 'pin.label'), { exact: true }).fill(TEST_DESK_PIN);
  await page.keyboard.press('Enter');
  await expect(page.getByText(say(language, 'desk.onShift', { name: say(language, 'log.deskPin') }))).toBeVisible();
  await page.getByRole('tab', { name: say(language, 'views.sync') }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(say(language, 'sync.libraryIntro'))).toBeVisible();
}

test('a desk in a library: its Collection from the library mirror, the Sync view saying so and how old it is when the mirror is down, in English and French', async ({ desk }) => {
  test.setTimeout(120_000);
  // IT's tooling at install: the partner password for the managed connection, the library mirror's role password.
  await createKeytarVault({ service: desk.keychainService }).save('city', { username: partner.username, password: partner.password }, new URL(partner.url).origin);
  await keychainDeskRecords({ service: desk.keychainService }).write(DESK_RECORDS.libraryMirrorPassword, password);
  const server = `${cluster.host}:${cluster.port}/${db.name}`;

  for (const language of LANGUAGES) {
    const page = await desk.restart();
    await openIn(page, language);
    // Sync now asks the library mirror (keyboard only).
    await page.getByRole('button', { name: say(language, 'sync.now') }).focus();
    await page.keyboard.press('Enter');
    const from = page.locator('.library-source');
    await expect(from).toHaveText(new RegExp(`^${escape(say(language, 'sync.fromLibrary', { server, when: '@' })).replace('@', '.*')}$`), { timeout: 30_000 });
    await expect(page.getByRole('button', { name: say(language, 'sync.full') })).toHaveCount(0);
    await expect(page.getByRole('rowheader', { name: say(language, 'sync.sources.libraryMirror') })).toBeVisible();
    await expect(page.locator('.library-stale')).toHaveCount(0);
    await screenshots(page, 'library-sync', language);

    await page.getByRole('tab', { name: say(language, 'views.collection') }).click();
    const grid = page.getByRole('grid');
    await expect(grid.getByRole('row').nth(2)).toBeVisible();
    expect(Number(await grid.getAttribute('aria-rowcount')) - 1).toBeGreaterThan(100);
    await screenshots(page, 'library-collection', language);
  }

  // The library mirror stops: the collection stays, the Sync view says how old it is and why.
  await cluster.stop();
  for (const language of LANGUAGES) {
    const page = await desk.restart();
    await openIn(page, language);
    await page.getByRole('button', { name: say(language, 'sync.now') }).click();
    const stale = page.locator('.library-stale');
    await expect(stale).toContainText(say(language, "reasons['library-mirror.unreachable']", { server }));
    await expect(stale).toContainText(say(language, 'sync.libraryStale', { attempt: '@', error: '@', when: '@' }).split('@').at(-2)!.trim());
    await expect(page.locator('.library-source')).toBeVisible();
    await screenshots(page, 'library-sync-stale', language);
    await page.getByRole('tab', { name: say(language, 'views.collection') }).click();
    await expect(page.getByRole('grid').getByRole('row').nth(2)).toBeVisible();
  }
});

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
