// The fault mix: a simulated desk day on a service that misbehaves the way real ones do —
// 5% server errors, 2% dropped connections (half before, half after the service acted), 1%
// garbled JSON, 1% answers that never come, and bursts of 429 with Retry-After — while staff
// look patrons up, search, borrow, return, place and remove holds, a catalog delta syncs and
// availability refreshes. Every action ends completed or with a message staff can read out;
// none fails silently. The desk's heap and RSS are sampled over the day (the sandbox runs in
// a process of its own, so they are the desk's).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SyncStatusView } from '../../electron/shared/contract.ts';
import { unclearBecause } from './clear-message.ts';
import { count, newTally, oneAction, prepareDesk, tallyNotes, type ActionResult, type Desk } from './desk-work.ts';
import { figure, zero, type Scale, type Section } from './report.ts';
import { startRig, type Rig } from './rig.ts';

const MIB = 1024 * 1024;

/** Node's gc, without asking the caller for --expose-gc: a heap sample after a collection is comparable. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function switchFaultsOn(rig: Rig): Promise<void> {
  await rig.admin.addFault({ route: '*', kind: 'server-error', probability: 0.05, status: 503 });
  await rig.admin.addFault({ route: '*', kind: 'reset', phase: 'before', probability: 0.01 });
  await rig.admin.addFault({ route: '*', kind: 'reset', phase: 'after', probability: 0.01 });
  await rig.admin.addFault({ route: '*', kind: 'malformed-json', probability: 0.01 });
  await rig.admin.addFault({ route: '*', kind: 'stall', probability: 0.01 });
}

/** A sync or refresh judged like an action: its status must say what failed, if anything did. */
function judgeSync(kind: string, result: Awaited<ReturnType<Rig['call']>>): ActionResult {
  if (!result.ok) {
    const unclear = unclearBecause(result.error);
    return unclear ? { kind, verdict: 'silent', why: unclear, error: result.error } : { kind, verdict: 'clear-failure', error: result.error };
  }
  const failed = (result.value as SyncStatusView | undefined)?.sources?.find((s) => s.lastError !== undefined && s.lastAttemptAt !== s.lastSuccessAt);
  if (failed) return { kind, verdict: 'clear-failure', error: { code: 'server', message: failed.lastError ?? '' } };
  return { kind, verdict: 'completed' };
}

interface MemorySample { minute: number; heap: number; rss: number }

export async function runFaultMix(scale: Scale): Promise<Section> {
  const rig = await startRig({ sandboxProcess: true, sandbox: { catalogSize: 5000 }, networkMs: 150, timeoutMs: 1000, seed: 31, ratePerMinute: 100 });
  const crashes: string[] = [];
  const onCrash = (error: unknown): void => void crashes.push(String(error));
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  const gc = collector();
  try {
    const desk = await prepareDesk(rig, { patrons: 20, prefix: '3391', holdable: 8 });
    const initial = await rig.call('syncNow', { full: true });
    if (!initial.ok) throw new Error(`the first sync failed before any fault: ${initial.error.message}`);
    await switchFaultsOn(rig);

    const tally = newTally();
    const memory: MemorySample[] = [];
    const dayMs = scale.dayMinutes * 60_000;
    const start = rig.clock.now();
    const elapsed = (): number => rig.clock.now() - start;
    const bursts = { done: 0, every: 4 * 60_000 };
    let deltaDone = false;
    let refreshes = 0;
    let actions = 0;
    const realStart = Date.now();
    while (elapsed() < dayMs) {
      rig.clock.advance(1000 + Math.floor(rig.random() * 2000)); // a patron at the desk or on the phone
      if (elapsed() >= (bursts.done + 1) * bursts.every) {
        bursts.done += 1;
        await rig.admin.addFault({ route: '*', kind: 'rate-limit', times: 4, retryAfterSeconds: 2 });
      }
      if (!deltaDone && elapsed() >= dayMs / 2) {
        deltaDone = true;
        await rig.admin.applyCatalogChanges({ add: 20, modify: desk.instant.slice(0, 20) });
        count(tally, judgeSync('syncNow (delta)', await rig.call('syncNow', { full: false })));
      } else if (elapsed() >= (refreshes + 1) * (dayMs / 4)) {
        refreshes += 1;
        const ids = desk.holdable.concat(desk.instant.slice(0, 12));
        count(tally, judgeSync('collectionLiveAvailability', await rig.call('collectionLiveAvailability', { libraryId: desk.libraryId, contentIds: ids })));
        count(tally, judgeSync('collectionBrowse', await rig.call('collectionBrowse', { libraryId: desk.libraryId, model: 'FLEX', limit: 50 })));
      } else {
        count(tally, await oneAction(desk));
      }
      actions += 1;
      if (actions % 10 === 0) {
        gc();
        const usage = process.memoryUsage();
        memory.push({ minute: elapsed() / 60_000, heap: usage.heapUsed, rss: usage.rss });
      }
    }
    const realMs = Date.now() - realStart;
    return report(scale, rig, tally, memory, crashes, realMs, desk);
  } finally {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    await rig.close();
  }
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

function report(scale: Scale, rig: Rig, tally: ReturnType<typeof newTally>, memory: MemorySample[], crashes: string[], realMs: number, desk: Desk): Section {
  // Warm-up is the first quarter of the day: caches, the mirror's statements, JIT.
  const settled = memory.slice(Math.floor(memory.length / 4));
  const third = Math.max(1, Math.floor(settled.length / 3));
  const early = settled.slice(0, third);
  const late = settled.slice(-third);
  const heapGrowth = (mean(late.map((s) => s.heap)) - mean(early.map((s) => s.heap))) / MIB;
  const rssGrowth = (mean(late.map((s) => s.rss)) - mean(early.map((s) => s.rss))) / MIB;
  const peakRss = Math.max(...memory.map((s) => s.rss)) / MIB;
  const c = tally.counts;
  const total = c.completed + c.rules + c['clear-failure'] + c.silent;
  return {
    title: `Fault mix (a ${scale.dayMinutes}-minute simulated desk day, ${total} actions, ${desk.cards.length} patrons; ${(realMs / 1000).toFixed(1)} s of real time)`,
    figures: [
      figure('actions completed', c.completed + c.rules, `most of ${total}`, c.completed + c.rules > total * 0.8,
        `${c.rules} of them were answers of the lending rules, read out as they came`),
      figure('actions failed with a clear message', c['clear-failure'], 'any', true, 'staff were told what failed and whether it is safe to retry'),
      zero('actions failed silently', c.silent, 'nothing reported done that was not, or failed that had happened, or failed unreadably'),
      zero('crashes', rig.unexpected.length + crashes.length, 'no unexpected error and no uncaught exception in the desk'),
      zero('requests beyond the rate limit', rig.wire.sentDuringRetryAfter, 'no request sent while a Retry-After the desk had received was still running'),
      figure('heap growth after warm-up', `${heapGrowth.toFixed(1)} MiB`, '≤ 5 MiB (flat)', heapGrowth <= 5,
        `heap sampled after a collection every 10 actions (${memory.length} samples); mean of the last third against the first after warm-up`),
      figure('RSS growth after warm-up', `${rssGrowth.toFixed(1)} MiB`, '≤ 20 MiB (flat)', rssGrowth <= 20, `peak RSS ${peakRss.toFixed(0)} MiB, the desk process alone`),
    ],
    notes: [`the desk's client sent ${rig.wire.requests.toLocaleString('en-US')} requests; ${rig.wire.faulted} met a 5xx, a 429, a dropped connection or a stall`, ...tallyNotes(tally)],
  };
}
