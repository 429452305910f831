// Lost responses: the service commits a borrow or a hold, then the answer never arrives (the
// connection drops) or arrives garbled. The desk must not send the action twice — an Instant
// borrow costs the library money — and must tell staff what really happened.
import { figure, zero, type Scale, type Section } from './report.ts';
import { callAsStaff, holdableTitles } from './desk-work.ts';
import { addPatrons, startRig, type Rig } from './rig.ts';

type Loss = 'reset' | 'malformed-json';

interface Told {
  said: Map<string, number>;
}

function tell(told: Told, what: string): void {
  told.said.set(what, (told.said.get(what) ?? 0) + 1);
}

async function lose(rig: Rig, route: 'borrow' | 'placeHold', loss: Loss): Promise<void> {
  await rig.admin.addFault(loss === 'reset' ? { route, kind: 'reset', phase: 'after', times: 1 } : { route, kind: 'malformed-json', times: 1 });
}

export async function runLostResponses(scale: Scale): Promise<Section> {
  const rig = await startRig({ seed: 23, sandbox: { catalogSize: 20_000 } });
  const libraryId = 101;
  try {
    const [borrower, holder] = await addPatrons(rig, libraryId, '4471', 2);
    if (!borrower || !holder) throw new Error('no patrons');
    const instant = (await rig.admin.sampleContent(libraryId, { purchaseModel: 'INSTANT', active: true, count: scale.lostEach }));
    const flex = await holdableTitles(rig, libraryId, scale.lostEach, '66120');
    if (instant.length < scale.lostEach || flex.length < scale.lostEach) throw new Error('the sandbox catalog is too small for this run');
    const before = await rig.admin.requestCounts();
    const told: Told = { said: new Map() };

    const act = async (method: 'borrow' | 'placeHold', card: string, ids: number[], done: string, reread: string): Promise<void> => {
      for (const [index, contentId] of ids.entries()) {
        await lose(rig, method, index % 2 === 0 ? 'reset' : 'malformed-json');
        // Told to wait (the credential's minute spent), staff wait and try again: the lost answer is what is measured.
        const result = await callAsStaff(rig, method, { libraryId, card, contentId, title: `Title ${contentId}` });
        tell(told, result.ok
          ? `${method}: "${done}"${(result.value as { confirmedByReread: boolean }).confirmedByReread ? `, confirmed by re-reading the patron's ${reread}` : ''}`
          : `${method}: ${result.error.code}: ${result.error.message}`);
      }
    };
    await act('borrow', borrower, instant, 'Borrowed', 'loans');
    await act('placeHold', holder, flex, 'Hold placed', 'holds');

    const after = await rig.admin.requestCounts();
    const loans = (await rig.admin.patronState(libraryId, borrower)).loans;
    const holds = (await rig.admin.patronState(libraryId, holder)).holds;
    const duplicateLoans = loans.length - new Set(loans).size;
    const duplicateHolds = holds.length - new Set(holds).size;
    const borrowRequests = after.borrow - before.borrow;
    const holdRequests = after.placeHold - before.placeHold;
    const actions = (await rig.call('listActions', { offset: 0, limit: 500 }));
    const logged = actions.ok ? (actions.value as { entries: { action: string; outcome: string; confirmedByReread?: boolean }[] }).entries : [];
    const confirmed = logged.filter((e) => e.outcome === 'ok' && e.confirmedByReread && (e.action === 'borrow' || e.action === 'place-hold')).length;
    const n = scale.lostEach;
    return {
      title: `Lost responses (${n} borrows and ${n} holds committed by the service, then the answer dropped or garbled, alternately)`,
      figures: [
        figure('loans afterwards', loans.length, String(n), loans.length === n, 'every borrow whose answer was lost exists exactly once'),
        figure('holds afterwards', holds.length, String(n), holds.length === n, 'every hold whose answer was lost exists exactly once'),
        zero('duplicate loans or holds', duplicateLoans + duplicateHolds, 'nothing was charged or queued twice'),
        figure('borrow and hold requests sent', borrowRequests + holdRequests, String(2 * n), borrowRequests + holdRequests === 2 * n,
          'one request per action: the lost answer was settled by reading the account, never by sending again'),
        figure('action-log entries confirmed by re-reading', confirmed, String(2 * n), confirmed === 2 * n, 'the log says which actions were settled by a re-read'),
        zero('crashes', rig.unexpected.length, 'nothing escaped the contract as an unexpected error'),
      ],
      notes: [...told.said].map(([what, times]) => `told staff ${times}×: ${what}`),
    };
  } finally {
    await rig.close();
  }
}
