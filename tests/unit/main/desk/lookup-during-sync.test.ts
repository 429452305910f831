// Issue #23, goal 3: a patron lookup does not queue behind the sync on the desk's side. The
// sync's bulk page is held by the service (a stalled answer, over HTTP); the lookup still goes
// out on a connection of its own and past the request budget, and comes back with the patron.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMemoryVault } from '../../../../electron/main/credentials/index.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { createNodeDesk } from '../../../support/node-desk.ts';

let dir: string;
let sandbox: SandboxHandle;
let desk: DeskService;
let closeLog: () => void;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lookup-during-sync-'));
  sandbox = await startSandbox({ catalogSize: 2000 });
  const created = createNodeDesk({ dir, vault: createMemoryVault() });
  desk = created.desk;
  closeLog = () => created.logger.close();
  const { libraryId, country } = sandbox.libraries[0]!;
  await desk.savePartnerProfile({
    profile: { id: 'test', name: 'Test', baseUrl: sandbox.url, libraries: [{ libraryId }], wsApi: '2.1', country: country as 'US' },
    username: sandbox.username, password: sandbox.password,
  });
  await desk.startShift({ staffName: 'TEST', pin: TEST_DESK_PIN });
});

afterEach(async () => {
  await desk.close();
  closeLog();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

it('answers a patron lookup while the sync waits for a bulk page the service holds', async () => {
  const { libraryId, cards } = sandbox.libraries[0]!;
  const card = cards[1]!;
  await desk.lookupPatron({ libraryId, card }); // signed in, the connection made
  sandbox.control.addFault({ route: 'globalContents', kind: 'stall' });
  let syncEnded = false;
  const sync = desk.syncNow({ full: true, entitlementsOnly: false }).then(() => undefined, () => undefined).finally(() => { syncEnded = true; });
  while (sandbox.control.requestCounts().globalContents === 0) await new Promise((resolve) => setImmediate(resolve));

  const view = await desk.lookupPatron({ libraryId, card });

  expect(view.loans.length).toBeGreaterThan(0);
  expect(sandbox.control.requestCounts()).toMatchObject({ globalContents: 1, status: 2 });
  expect(syncEnded).toBe(false);
  await desk.close(); // cancels the sync: the held request is aborted
  await sync;
});
