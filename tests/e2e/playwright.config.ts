import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { DeskHostOptions } from './host/desk-host.ts';

// The same specs on two hosts (DESIGN.md, Tests): the real Electron app where its binary can be
// had (global-setup.ts tries the electron package's own download once per run), and the built
// renderer in Debian's Chromium with the test host answering the contract. Screenshots land in test-results/screenshots/ (ignored by git).
export default defineConfig<{ sandbox: DeskHostOptions['sandbox'] }>({
  testDir: import.meta.dirname,
  testMatch: '**/*.spec.ts',
  globalSetup: join(import.meta.dirname, 'global-setup.ts'),
  outputDir: join(import.meta.dirname, '..', '..', 'test-results', 'e2e'),
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list'], ['json', { outputFile: join(import.meta.dirname, '..', '..', 'test-results', 'e2e.json') }]],
  projects: [
    { name: 'chromium-host' },
    { name: 'electron' },
    // The phone-call specs again, on a sandbox that reads content ids as the published guidance
    // does (titleIds that are other titles' content ids, episodes with string ids): issue #24.
    { name: 'chromium-host-published', testMatch: ['**/phone-call-*.spec.ts', '**/search-series.spec.ts'], use: { sandbox: { ids: 'published' } } },
  ],
});
