// Token churn: tokens that live 2 seconds, a desk that keeps working for minutes of simulated
// time, the network taking its share of each request. Staff must never see a token expire,
// and the desk must renew about once a lifetime, not in a storm.
import { count, newTally, oneAction, prepareDesk, tallyNotes } from './desk-work.ts';
import { figure, zero, type Scale, type Section } from './report.ts';
import { startRig } from './rig.ts';

const LIFETIME_S = 2;

export async function runTokenChurn(scale: Scale): Promise<Section> {
  const rig = await startRig({ sandbox: { tokenLifetimeSeconds: LIFETIME_S }, networkMs: 300, seed: 11 });
  try {
    const desk = await prepareDesk(rig, { patrons: 12, prefix: '5512', holdable: 6 });
    const tally = newTally();
    const tokensBefore = rig.wire.tokenRequests;
    const refusedBefore = rig.wire.refusedTokens;
    const started = rig.clock.now();
    for (let i = 0; i < scale.churnActions; i++) {
      rig.clock.advance(100 + Math.floor(rig.random() * 400)); // staff between two clicks
      count(tally, await oneAction(desk));
    }
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
      title: `Token churn (tokens live ${LIFETIME_S} s; ${scale.churnActions.toLocaleString('en-US')} desk actions over ${(simulatedMs / 60_000).toFixed(1)} simulated minutes)`,
      figures: [
        zero('user-visible failures', failures, 'an expiring token never reaches staff as an error'),
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
