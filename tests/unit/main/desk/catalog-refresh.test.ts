// Issue #34, goal 3, through the contract on the sandbox over HTTP: a desk on its own keeps its
// copy current by itself. A fresh desk starts its first sync with no one pressing Sync; every
// other day (or as IT's policy says) it runs the catalog's and holdings' deltas, so a title
// added to the catalog and bought by the library reaches the Collection with its record, and
// the Sync page says when the next refresh runs. Between refreshes, a Flex title newly entitled
// comes to the 10-minute availability refresh with its record, never as a bare row.
// Time is the test's clock, shared by the desk and the sandbox: nothing waits.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { createMemoryVault } from '../../../../electron/main/credentials/memory-vault.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import type { Policy } from '../../../../electron/main/policy/index.ts';
import { createSandboxService, type SandboxService } from '../../../../electron/main/sandbox/server.ts';
import type { MethodName, SyncStatusView } from '../../../../electron/shared/contract.ts';
import { createClock, type Clock } from '../../../support/clock.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { createNodeDesk } from '../../../support/node-desk.ts';
import { answerOf } from '../../../support/desk-calls.ts';

const DAY = 86_400_000;
const LIB = 101;
let dir: string;
let clock: Clock;
let desk: DeskService;
let sandbox: SandboxService;
let closeLog: () => void;

async function open(policy?: Policy): Promise<void> {
  const created = createNodeDesk({
    dir, vault: createMemoryVault(), now: clock.now, policy,
    sandbox: async () => inProcessSandbox((sandbox = createSandboxService({ catalogSize: 600, now: clock.now }))),
  });
  desk = created.desk;
  closeLog = () => created.logger.close();
  await ok('useSandbox');
  await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'catalog-refresh-'));
  clock = createClock();
});
afterEach(async () => {
  await desk.close();
  closeLog();
  rmSync(dir, { recursive: true, force: true });
});

async function ok<T = any>(name: MethodName, args?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return answerOf<T>(desk, name, args);
}

/** The Collection's row for a content id, as staff see it (undefined: not in the Collection). */
async function row(contentId: number): Promise<{ title?: string; coverUrl?: string } | undefined> {
  const [found] = await ok('collectionLiveAvailability', { libraryId: LIB, contentIds: [contentId] });
  return found;
}

const logLines = (): string[] => readdirSync(join(dir, 'logs')).flatMap((file) => readFileSync(join(dir, 'logs', file), 'utf8').split('\n'));

/** The catalog gains `count` titles and the library buys them as Flex titles. */
function newTitles(count: number): number[] {
  const { added } = sandbox.control.applyCatalogChanges({ add: count });
  sandbox.control.applyCatalogChanges({ entitle: { libraryId: LIB, contentIds: added, purchaseModel: 'FLEX' } });
  return added;
}

describe('a desk on its own keeps its copy current', () => {
  it('a fresh desk starts its first sync by itself; then nothing until two days have passed', async () => {
    await open();
    expect((await ok<SyncStatusView>('syncStatus')).catalogRefresh).toEqual({ everyDays: 2, setBy: 'default' });
    expect(await desk.background.runNow('catalog-refresh')).toBe(true);
    const status = await ok<SyncStatusView>('syncStatus');
    expect(status.sources.length).toBeGreaterThan(0);
    expect(status.sources.every((s) => s.lastSuccessAt === clock.now())).toBe(true);
    expect(status.catalogRefresh).toEqual({ everyDays: 2, setBy: 'default', lastAt: clock.now(), nextAt: clock.now() + 2 * DAY });
    expect(logLines().some((line) => line.includes('"catalog-refresh.started"') && line.includes('"first":true'))).toBe(true);

    clock.advance(2 * DAY - 60_000);
    expect(await desk.background.runNow('catalog-refresh')).toBe(false);
    clock.advance(60_000);
    expect(await desk.background.runNow('catalog-refresh')).toBe(true);
    expect((await ok<SyncStatusView>('syncStatus')).catalogRefresh.nextAt).toBe(clock.now() + 2 * DAY);
  });

  it('titles added to the catalog and bought by the library arrive with their records at the next refresh', async () => {
    await open();
    await desk.background.runNow('catalog-refresh');
    clock.advance(DAY);
    const added = newTitles(2);
    clock.advance(DAY);
    sandbox.control.resetRequestCounts();
    expect(await desk.background.runNow('catalog-refresh')).toBe(true);
    expect(sandbox.control.requestCounts().globalContents).toBeGreaterThan(0); // the catalog's delta, not only the holdings'
    for (const id of added) expect((await row(id))?.title).toBeTruthy();
  });

  it('a Flex title bought between refreshes comes to the 10-minute refresh with its record, not as a bare row', async () => {
    await open();
    await desk.background.runNow('catalog-refresh');
    clock.advance(10 * 60_000);
    const [added] = newTitles(1);
    clock.advance(10 * 60_000);
    await desk.background.runNow('availability-refresh');
    const found = await row(added!);
    expect(found?.title).toBeTruthy();
    expect(found?.title).not.toMatch(/^Title \d+$/);
    expect(await desk.background.runNow('catalog-refresh')).toBe(false); // still a day and more to the next refresh
  });

  it("IT's policy sets how often: every day here", async () => {
    await open({ version: 1, catalogRefreshDays: 1 });
    expect((await ok<SyncStatusView>('syncStatus')).catalogRefresh).toEqual({ everyDays: 1, setBy: 'policy' });
    await desk.background.runNow('catalog-refresh');
    clock.advance(DAY);
    expect(await desk.background.runNow('catalog-refresh')).toBe(true);
  });
});
