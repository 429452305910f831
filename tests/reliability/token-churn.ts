// Token churn: tokens that live 2 seconds, a desk that keeps working for minutes of simulated
// time, the network taking its share of each request, while the mirror syncs in the
// background and staff look at the Collection. Staff must never see a token expire, the sync
// must finish, and the one connection must renew about once a lifetime, not in a storm.
import type { Result } from '../../electron/shared/contract.ts';
import { count, mirrorRead, newTally, oneAction, prepareDesk, tallyNotes } from './desk-work.ts';
import { figure, zero, type Scale, type Section } from './report.ts';
import { startRig } from './rig.ts';

const LIFETIME_S = 2;

export async function runTokenChurn(scale: Scale): Promise<Section> {
  // The rate limit is lifted here: this desk clicks every 0.1–0.5 s, faster than the service's
  // 100 a minute, and waiting for the budget would move the simulated clock past many token
  // lifetimes at once. The fault-mix run holds the desk to the real limit.
  const rig = await startRig({ sandbox: { tokenLifetimeSeconds: LIFETIME_S }, networkMs: 300, seed: 11, ratePerMinute: 100_000 });
  try {
    const desk = await prepareDesk(rig, { patrons: 12, prefix: '5512', holdable: 6 });
    const tally = newTally();
    const tokensBefore = rig.wire.tokenRequests;
    const refusedBefore = rig.wire.refusedTokens;
    const started = rig.clock.now();
    // A full sync from the first action, a delta halfway: the same connection, token and budget as the desk.
    const syncs: Promise<Result<unknown>>[] = [rig.call('syncNow', { full: true })];
    for (let i = 0; i < scale.churnActions; i++) {
      rig.clock.advance(100 + Math.floor(rig.random() * 400)); // staff between two clicks
      count(tally, await (i % 10 === 5 ? mirrorRead(desk) : oneAction(desk)));
      if (i === Math.floor(scale.churnActions / 2)) syncs.push(syncs[0]!.then(() => rig.call('syncNow', { full: false })));
    }
    const syncResults = await Promise.all(syncs);
    const syncFailures = syncResults.filter((r) => !r.ok).length;
    const simulatedMs = rig.clock.now() - started;
    const tokens = rig.wire.tokenRequests - tokensBefore;
    const lifetimes = simulatedMs / (LIFETIME_S * 1000);
    const times = rig.wire.tokenTimes.filter((t) => t >= started);
    let storm = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] as number) - (times[j] as number) >= LIFETIME_S * 1000) j++;
      storm = Math.max(storm, i - j + 1);
    }
    const perLifetime = tokens / lifetimes;
    const failures = tally.counts['clear-failure'] + tally.counts.silent;
    return {
      title: `Token churn (tokens live ${LIFETIME_S} s; ${scale.churnActions.toLocaleString('en-US')} desk actions, a tenth of them in the Collection, and two catalog syncs over ${(simulatedMs / 60_000).toFixed(1)} simulated minutes)`,
      figures: [
        zero('user-visible failures', failures, 'an expiring token never reaches staff as an error'),
        zero('catalog syncs that failed', syncFailures, `${syncResults.length} syncs ran beside the desk on the same connection and token`),
        figure('token requests', tokens, `about ${Math.round(lifetimes)} (one per lifetime)`, perLifetime <= 1.5,
          `${perLifetime.toFixed(2)} per lifetime: renewed ahead of expiry, once, however many requests need it`),
        figure('most token requests in one lifetime', storm, '≤ 2', storm <= 2, 'no storm of renewals when many requests find the token dying'),
        figure('requests refused as expired', rig.wire.refusedTokens - refusedBefore, 'any (each renewed once, unseen)', true,
          'the network time pushed some requests past expiry; the client renewed and resent them'),
        zero('crashes', rig.unexpected.length, 'nothing escaped the contract as an unexpected error'),
      ],
      notes: tallyNotes(tally),
    };
  } finally {
    await rig.close();
  }
}
