// `npm run bench`: every benchmark of the project, figures and ratios printed beside their
// goals, nothing asserted; the last line is BENCH-JSON with the figures of issues #15, #23 and #34.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MirrorBenchFigures } from './mirror-bench.ts';
import { benchRefreshBudget } from './connection-budget.ts';
import { benchFreshDeskBorrow } from './fresh-desk-borrow.ts';
import { startSandboxProcess } from './sandbox-process.ts';
import { benchClientOverhead, benchLibraryContentExtraction } from './partner-client.ts';
import { benchMainStall } from './main-stall.ts';
import { benchPatronLookup } from './patron-lookup.ts';
import { benchStaffFirst } from './staff-first.ts';

const started = performance.now();
console.log(`Lending Desk benchmarks — Node ${process.versions.node}, ${new Date().toISOString()}\n`);
await benchClientOverhead();
console.log();
await benchLibraryContentExtraction();
console.log();
await benchPatronLookup();
console.log();
const staffFirst = await benchStaffFirst();
console.log();
// On one 1,000,000-title sandbox: the 10-minute refresh through the connection's request budget,
// then main's event loop and a patron lookup while the desk syncs the whole catalog, then a fresh
// desk borrowing from search during its first sync.
const sandbox = await startSandboxProcess(['--catalog-size', '1000000']);
const { refresh, stall, fresh } = await (async () => {
  const refreshFigures = await benchRefreshBudget(sandbox);
  console.log();
  const stallFigures = await benchMainStall(sandbox);
  console.log();
  return { refresh: refreshFigures, stall: stallFigures, fresh: await benchFreshDeskBorrow(sandbox) };
})().finally(() => sandbox.stop());
console.log();
// In a process of its own: its peak RSS is the mirror's, not this process's after the benchmarks above.
const dir = mkdtempSync(join(tmpdir(), 'bench-figures-'));
const ran = spawnSync(process.execPath, [join(import.meta.dirname, 'mirror-process.ts'), join(dir, 'mirror.json')], { stdio: 'inherit' });
if (ran.status !== 0) throw new Error(`the mirror benchmark failed (exit code ${ran.status})`);
const mirror = JSON.parse(readFileSync(join(dir, 'mirror.json'), 'utf8')) as MirrorBenchFigures;
rmSync(dir, { recursive: true, force: true });
console.log(`\nThe whole run took ${((performance.now() - started) / 60_000).toFixed(1)} minutes.`);
const { filterP95Ms, searchP95Ms, scrollP95Ms, sortP95Ms, ingestVsHttp, insertVsBulkLimit, bulkLimitPerSec, mirrorPeakRssMiB, deltaSeconds, uiKeyToRowsP95Ms, uiKeyToRowsFloorP95Ms, mirrorBytesPerEntitledTitle } = mirror;
console.log(`BENCH-JSON ${JSON.stringify({
  filterP95Ms, searchP95Ms, scrollP95Ms, sortP95Ms, ingestVsHttp, insertVsBulkLimit, bulkLimitPerSec, mirrorPeakRssMiB, deltaSeconds,
  refreshVsFloor: Number(refresh.refreshVsFloor.toFixed(3)), uiKeyToRowsP95Ms, uiKeyToRowsFloorP95Ms, mirrorBytesPerEntitledTitle,
  mainStallMaxMs: stall.mainStallMaxMs, lookupDuringSyncVsIdle: stall.lookupDuringSyncVsIdle,
  staffBehindBackgroundMaxMs: staffFirst.staffBehindBackgroundMaxMs, staffRoundTripMs: staffFirst.staffRoundTripMs,
  freshDeskSearchBorrowSeconds: fresh.freshDeskSearchBorrowSeconds,
})}`);
