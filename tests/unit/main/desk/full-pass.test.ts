// Issue #24, goal 3, through the contract on a sandbox whose deltas never mark a removal
// (removals 'absent', as the published schemas show none): a title the library stopped holding
// stays in the Collection after a delta sync, and goes with the full entitlement pass — on the
// schedule IT's policy sets (a week by default), or when staff ask from the Sync page — with how
// many went on the Sync page and in the app log. The service's `metadata.warnings` reach both too.
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
import type { ContentId } from '../../../../electron/shared/content-id.ts';
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
    sandbox: async () => inProcessSandbox((sandbox = createSandboxService({ catalogSize: 800, removals: 'absent', now: clock.now }))),
  });
  desk = created.desk;
  closeLog = () => created.logger.close();
  await ok('useSandbox');
  await ok('startShift', { staffName: 'IT', pin: TEST_DESK_PIN });
  await ok('syncNow', { full: false });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'full-pass-'));
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

/** Every content id of the library's Collection on this desk. */
async function collection(): Promise<ContentId[]> {
  return (await ok('collectionBrowse', { libraryId: LIB, active: undefined, limit: 500, offset: 0 })).rows.map((r: { contentId: ContentId }) => r.contentId)
    .concat((await ok('collectionBrowse', { libraryId: LIB, limit: 500, offset: 500 })).rows.map((r: { contentId: ContentId }) => r.contentId));
}

/** What the service lists for the library, read whole. */
function listed(): ContentId[] {
  return sandbox.control.sampleContent(LIB, { count: 100_000 });
}

/** The library stops holding three titles (the service keeps them for other libraries); its delta will not say so. */
async function removeThree(): Promise<ContentId[]> {
  clock.advance(60_000);
  const gone = (await collection()).slice(4, 7) as number[];
  sandbox.control.applyCatalogChanges({ unentitle: { libraryId: LIB, contentIds: gone } });
  return gone;
}

const logLines = (): string[] => readdirSync(join(dir, 'logs')).flatMap((file) => readFileSync(join(dir, 'logs', file), 'utf8').split('\n'));

describe('the full entitlement pass', () => {
  it('a delta leaves what the service stopped listing; the pass staff ask for removes it, and says how many', async () => {
    await open();
    const gone = await removeThree();
    clock.advance(11 * 60_000);
    await ok('syncNow', { full: false });
    expect(await collection()).toEqual(expect.arrayContaining(gone)); // no delta marked them
    const before = await ok<SyncStatusView>('syncStatus');
    expect(before.fullPass).toMatchObject({ everyDays: 7, setBy: 'default', removed: 0 });

    const after = await ok<SyncStatusView>('syncNow', { full: true, entitlementsOnly: true });
    const now = await collection();
    expect(now.filter((id) => gone.includes(id as number))).toEqual([]);
    expect([...now].sort()).toEqual([...listed()].sort()); // the Collection matches the service
    expect(after.fullPass).toMatchObject({ removed: 3, lastAt: clock.now(), nextAt: clock.now() + 7 * DAY });
    const removedBySource = after.sources.filter((s) => s.source.startsWith('entitlements:101:')).map((s) => s.lastFullRemoved);
    expect(removedBySource.reduce((sum, n) => (sum ?? 0) + (n ?? 0), 0)).toBe(3);
    // Only the library's entitlements were read whole: the global catalog was left as it was.
    expect(after.sources.find((s) => s.source === 'global')?.lastFullAt).toBe(before.sources.find((s) => s.source === 'global')?.lastFullAt);
    expect(logLines().some((line) => line.includes('"full-pass.done"') && line.includes('"removed":3') && line.includes('"by":"staff"'))).toBe(true);
  });

  it('runs on its own when a week has passed since the last full run, not before', async () => {
    await open();
    const gone = await removeThree();
    expect(await desk.background.runNow('full-pass')).toBe(false); // the first sync was a full one, a minute ago
    clock.advance(7 * DAY - 2 * 60_000);
    expect(await desk.background.runNow('full-pass')).toBe(false);
    expect(await collection()).toEqual(expect.arrayContaining(gone));
    clock.advance(2 * 60_000);
    expect(await desk.background.runNow('full-pass')).toBe(true);
    expect((await collection()).filter((id) => gone.includes(id as number))).toEqual([]);
    expect((await ok<SyncStatusView>('syncStatus')).fullPass).toMatchObject({ removed: 3 });
    expect(logLines().some((line) => line.includes('"full-pass.done"') && line.includes('"by":"schedule"'))).toBe(true);
    expect(await desk.background.runNow('full-pass')).toBe(false);
  });

  it("IT's policy sets how often: every 2 days here", async () => {
    await open({ version: 1, entitlementFullPassDays: 2 });
    expect((await ok<SyncStatusView>('syncStatus')).fullPass).toMatchObject({ everyDays: 2, setBy: 'policy' });
    await removeThree();
    clock.advance(2 * DAY);
    expect(await desk.background.runNow('full-pass')).toBe(true);
    expect((await ok<SyncStatusView>('syncStatus')).fullPass.removed).toBe(3);
  });

  it("shows the service's warnings beside the entitlement pages on the Sync page and in the log", async () => {
    await open();
    sandbox.control.setShapes({ entitlementWarnings: ['Some titles are being re-licensed'] });
    clock.advance(11 * 60_000);
    const status = await ok<SyncStatusView>('syncNow', { full: false });
    expect(status.warnings).toEqual(expect.arrayContaining([{ source: 'entitlements:101:INSTANT', warnings: ['Some titles are being re-licensed.'] }]));
    expect(logLines().some((line) => line.includes('"sync.service-warnings"') && line.includes('re-licensed'))).toBe(true);
    sandbox.control.setShapes({ entitlementWarnings: [] });
    clock.advance(11 * 60_000);
    expect((await ok<SyncStatusView>('syncNow', { full: false })).warnings.filter((w) => w.source.startsWith('entitlements:'))).toEqual([]);
  });
});
