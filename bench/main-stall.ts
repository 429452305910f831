// Main never blocks: a DeskService wired as main wires it (tests/support/node-desk.ts: the
// connection, its request budget, the mirror's owner thread) against the 1,000,000-title
// sandbox in another process. Staff look a patron up every 200 ms throughout; main's event
// loop delay is watched (perf_hooks.monitorEventLoopDelay) while idle, during a full sync,
// the first Collection open after it, a 1% delta and the first Collection open after that.
// Printed beside the goals (delay ≤ 50 ms at worst; every lookup ≤ 2× its idle p99); nothing
// asserted. Beside each delay, main's own CPU time in it: on a loaded machine a delay can be
// main waiting for a core rather than main at work. The sandbox answers from one thread, but it
// makes the sync's pages and each full pull's count over every title in slices of about 2 ms and
// answers a lookup between two of them (electron/main/sandbox/slices.ts), as the service's farm would
// not make it wait for another client's page. What a lookup still waits for here is a core: the
// desk's main, its mirror thread and the sandbox share this machine's two. A bare request straight
// to the sandbox between two lookups shows the service's share of that wait.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createMemoryVault } from '../electron/main/credentials/index.ts';
import type { DeskService } from '../electron/main/desk/desk-service.ts';
import { TEST_DESK_PIN } from '../tests/support/desk-pin.ts';
import { createNodeDesk } from '../tests/support/node-desk.ts';
import { atMostGoal, quantile } from './figures.ts';
import { sandboxAdmin, sandboxToken, type SandboxProcess } from './sandbox-process.ts';

const LOOKUP_EVERY_MS = 200;
const IDLE_LOOKUPS = 40;
const STALL_GOAL_MS = 50;
const LOOKUP_GOAL_RATIO = 2;

export interface StallFigures {
  mainStallMaxMs: number;
  lookupDuringSyncVsIdle: number;
}

interface Phase {
  name: string; stallMaxMs: number; stallP99Ms: number; lookups: number[]; seconds: number;
  /** One bare request to the service (a patron's status, fetched by this process outside the desk), 100 ms after each lookup: the service's own answer time beside the desk's. */
  bare: number[];
  /** Main's own CPU time in its longest stall, and the most main ran without a turn of its loop: what main did, apart from waiting for a core. */
  busyInWorstMs: number; busyMaxMs: number;
}

/**
 * Main's turns, sampled every 5 ms: each gap between two turns and main's own CPU time in it
 * (process.threadCpuUsage). A long gap with little CPU is main waiting for a core on a loaded
 * machine; a long gap full of CPU is main blocked by its own work.
 */
function watchTurns(): () => { busyInWorstMs: number; busyMaxMs: number } {
  const cpuMs = () => { const u = process.threadCpuUsage(); return (u.user + u.system) / 1000; };
  let lastAt = performance.now();
  let lastCpu = cpuMs();
  let worstGap = 0;
  let busyInWorstMs = 0;
  let busyMaxMs = 0;
  const tick = setInterval(() => {
    const at = performance.now();
    const cpu = cpuMs();
    const gap = at - lastAt;
    const busy = cpu - lastCpu;
    if (gap > worstGap) { worstGap = gap; busyInWorstMs = busy; }
    busyMaxMs = Math.max(busyMaxMs, busy);
    lastAt = at;
    lastCpu = cpu;
  }, 5);
  return () => {
    clearInterval(tick);
    return { busyInWorstMs, busyMaxMs };
  };
}

/** A patron's status asked of the service directly, with a token of its own: no desk, no connection, no budget. */
type BareRequest = () => Promise<void>;

async function bareStatusRequest(sandbox: SandboxProcess, libraryId: number, card: string): Promise<BareRequest> {
  const accessToken = await sandboxToken(sandbox);
  const url = `${sandbox.url}/api/v1/libraries/${libraryId}/patrons/${encodeURIComponent(card)}/status`;
  return async () => {
    const answer = await fetch(url, { headers: { Authorization: `Bearer ${accessToken}` } });
    if (!answer.ok) throw new Error(`the sandbox answered ${answer.status} to a patron's status`);
    await answer.arrayBuffer();
  };
}

/** Lookups every 200 ms while `work` runs (a bare request to the service between them), and main's event loop delay over the same time. */
async function watched(name: string, desk: DeskService, libraryId: number, card: string, bareRequest: BareRequest, work: () => Promise<unknown>): Promise<Phase> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const lookups: number[] = [];
  const bare: number[] = [];
  let working = true;
  const started = performance.now();
  const turns = watchTurns();
  delay.enable();
  const staff = (async () => {
    while (working) {
      const asked = performance.now();
      await desk.lookupPatron({ libraryId, card });
      lookups.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, LOOKUP_EVERY_MS / 2 - (performance.now() - asked))));
      const bareAsked = performance.now();
      await bareRequest();
      bare.push(performance.now() - bareAsked);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, LOOKUP_EVERY_MS - (performance.now() - asked))));
    }
  })();
  try {
    await work();
  } finally {
    working = false;
    await staff;
    delay.disable();
  }
  return { name, stallMaxMs: delay.max / 1e6, stallP99Ms: delay.percentile(99) / 1e6, lookups, bare, seconds: (performance.now() - started) / 1000, ...turns() };
}

export async function benchMainStall(sandbox: SandboxProcess, catalogSize = 1_000_000): Promise<StallFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-stall-'));
  const { desk, logger } = createNodeDesk({ dir, vault: createMemoryVault() });
  const { libraryId, country, cards } = sandbox.libraries[0]!;
  const card = cards[1]!;
  try {
    await desk.savePartnerProfile({
      profile: { id: 'bench', name: 'Bench', baseUrl: sandbox.url, libraries: [{ libraryId }], wsApi: '2.1', country: country as 'US' },
      username: sandbox.username, password: sandbox.password,
    });
    await desk.startShift({ staffName: 'BENCH', pin: TEST_DESK_PIN });
    console.log(`Main never blocks: DeskService as main wires it, sandbox of ${catalogSize.toLocaleString('en')} titles in another process, library ${libraryId}; a patron lookup every ${LOOKUP_EVERY_MS} ms`);
    await desk.lookupPatron({ libraryId, card }); // the token and the connection made
    const bareRequest = await bareStatusRequest(sandbox, libraryId, card);
    let remaining = IDLE_LOOKUPS;
    const idle = await watched('idle', desk, libraryId, card, bareRequest, () => new Promise<void>((resolve) => {
      const tick = setInterval(() => { if (--remaining <= 0) { clearInterval(tick); resolve(); } }, LOOKUP_EVERY_MS);
    }));
    const open = () => desk.collectionBrowse({ libraryId, offset: 0, limit: 100, sort: 'title', direction: 'asc' });
    const phases = [
      await watched('full sync', desk, libraryId, card, bareRequest, () => desk.syncNow({ full: true, entitlementsOnly: false })),
      await watched('first Collection open after it', desk, libraryId, card, bareRequest, open),
    ];
    const changed = Array.from({ length: catalogSize / 100 }, (_, i) => 1 + i * 97);
    await sandboxAdmin(sandbox, 'POST', 'catalog-changes', { modify: changed });
    phases.push(
      await watched(`1% delta (${changed.length.toLocaleString('en')} titles changed)`, desk, libraryId, card, bareRequest, () => desk.syncNow({ full: false, entitlementsOnly: false })),
      await watched('first Collection open after it', desk, libraryId, card, bareRequest, open),
    );
    const idleP99 = quantile(idle.lookups, 0.99);
    const own = (p: Phase) => `main's own CPU in its longest stall ${p.busyInWorstMs.toFixed(1)} ms, in any 5 ms turn at most ${p.busyMaxMs.toFixed(1)} ms`;
    console.log(`  idle: the service alone p50 ${quantile(idle.bare, 0.5).toFixed(1)} ms, p99 ${quantile(idle.bare, 0.99).toFixed(1)} ms`);
    console.log(`  idle: lookup p50 ${quantile(idle.lookups, 0.5).toFixed(1)} ms, p99 ${idleP99.toFixed(1)} ms over ${idle.lookups.length}; main's loop delay max ${idle.stallMaxMs.toFixed(1)} ms (${own(idle)})`);
    for (const p of phases) {
      const worst = Math.max(...p.lookups);
      console.log(`  ${p.name} (${p.seconds.toFixed(1)} s): main's loop delay max ${p.stallMaxMs.toFixed(1)} ms, p99 ${p.stallP99Ms.toFixed(1)} ms (${own(p)}); lookups ${p.lookups.length}, p50 ${quantile(p.lookups, 0.5).toFixed(1)} ms, p99 ${quantile(p.lookups, 0.99).toFixed(1)} ms, worst ${worst.toFixed(1)} ms`);
      console.log(`    the service alone (one bare patron-status request between lookups): p50 ${quantile(p.bare, 0.5).toFixed(1)} ms, p99 ${quantile(p.bare, 0.99).toFixed(1)} ms, worst ${Math.max(...p.bare).toFixed(1)} ms`);
    }
    const mainStallMaxMs = Math.max(...phases.map((p) => p.stallMaxMs));
    const lookupDuringSyncVsIdle = Math.max(...phases.flatMap((p) => p.lookups)) / idleP99;
    console.log(`  main's event loop delay, worst of the four: ${atMostGoal(mainStallMaxMs, STALL_GOAL_MS, 'ms')}`);
    console.log(`  slowest lookup of the four / idle p99: ${atMostGoal(lookupDuringSyncVsIdle, LOOKUP_GOAL_RATIO, '×')}`);
    const bareWorst = Math.max(...phases.flatMap((p) => p.bare));
    console.log(`    beside it, the service alone: its slowest bare request of the four / its idle p99 ${(bareWorst / quantile(idle.bare, 0.99)).toFixed(2)} × (the sandbox, the desk's main and its mirror thread share this machine's cores)`);
    return { mainStallMaxMs: Math.round(mainStallMaxMs * 10) / 10, lookupDuringSyncVsIdle: Math.round(lookupDuringSyncVsIdle * 100) / 100 };
  } finally {
    await desk.close();
    logger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
