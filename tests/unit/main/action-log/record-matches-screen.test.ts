// The record says what the screen says (issue #35). A borrow whose answer was lost, and whose
// account could not be read again, may have gone through: the log keeps it as `unknown`, not as
// refused (the screen offers "check the account"). And today's actions for the patron on screen
// carry titles even where the entries keep none (IT turned titles off, or the action was sent
// without one): read from the desk's copy of the Collection for the screen, never written back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import type { ActionEntry, ActionPage, AppInfo, BrowseRow, CollectionPage } from '../../../../electron/shared/contract.ts';
import { createClock } from '../../../support/clock.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { logDesk, type LogDesk } from './log-desk.ts';

let pc: LogDesk;
beforeEach(() => { pc = logDesk('log-record-', createClock(new Date(2026, 10, 22, 10, 0).getTime())); });
afterEach(async () => { await pc.close(); });

async function onShift(): Promise<{ libraryId: number; card: string }> {
  await pc.ok('useSandbox');
  await pc.ok('startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
  const { libraryId, cards } = (await pc.ok<AppInfo>('appInfo')).sandbox!.libraries[0]!;
  return { libraryId, card: cards[0]! };
}

describe('an unknown outcome', () => {
  it('is logged as unknown, not as refused, with the reason the screen shows', async () => {
    await pc.start();
    const { libraryId, card } = await onShift();
    const { sandbox } = pc;
    const availability = await pc.ok<{ contentId: number; purchaseModel?: string; status?: string }[]>('liveAvailability', { libraryId, contentIds: Array.from({ length: 40 }, (_, i) => i + 1) });
    const instant = availability.find((a) => a.purchaseModel === 'INSTANT' && a.status === 'BORROW')!;
    // The borrow is done, then the answer lost; reading the loans back fails too.
    sandbox.control.addFault({ route: 'borrow', kind: 'reset', phase: 'after', times: 1 });
    sandbox.control.addFault({ route: 'checkouts', kind: 'server-error' });
    const answer = await dispatch(pc.desk, 'borrow', { libraryId, card, contentId: instant.contentId, title: 'Lost in transit' });
    expect(answer).toMatchObject({ ok: false, error: { reason: 'action.outcome-unknown' } });
    sandbox.control.clearFaults();
    const entry = (await pc.ok<ActionPage>('listActions', {})).entries.find((e) => e.action === 'borrow');
    expect(entry).toMatchObject({ outcome: 'unknown', title: 'Lost in transit' });
    const appLog = readFileSync(join(pc.dir, 'logs', 'lending-desk.log'), 'utf8');
    expect(appLog).toContain('"event":"patron.action","action":"borrow","outcome":"unknown"');
  });
});

describe("today's actions", () => {
  it('carry the title the Collection knows where the entry keeps none, without writing it into the log', async () => {
    await pc.start({ version: 1, actionLogTitles: false });
    const { libraryId, card } = await onShift();
    await pc.ok('syncNow', { full: false });
    const rows = (await pc.ok<CollectionPage>('collectionBrowse', { libraryId, model: 'FLEX', limit: 50 })).rows.filter((r: BrowseRow) => r.title);
    const [first, second] = rows as [BrowseRow, BrowseRow];
    await dispatch(pc.desk, 'placeHold', { libraryId, card, contentId: first.contentId, title: 'Kept out by policy' });
    await dispatch(pc.desk, 'placeHold', { libraryId, card, contentId: second.contentId });
    const today = await pc.ok<ActionEntry[]>('todaysActions', { libraryId, card });
    expect(today.map((e) => [e.contentId, e.title])).toEqual([[first.contentId, first.title], [second.contentId, second.title]]);
    // The log itself still keeps no title.
    const logged = (await pc.ok<ActionPage>('listActions', {})).entries.filter((e) => e.action === 'place-hold');
    expect(logged.map((e) => e.title)).toEqual([undefined, undefined]);
  });
});
