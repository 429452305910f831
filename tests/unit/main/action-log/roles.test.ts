// Who may read a patron's history (issue #35, with #33's fresh PIN before an export). Tried as
// desk staff who skip the screens and call the contract themselves (the renderer's buttons are
// not the guard): looking the log up by a card's ending and exporting it are refused unless the
// shift's role is manager; a manager's export takes their PIN again, a wrong one counts as a
// wrong try; each reading and export is an entry of the log. And the desk PIN: the log records
// "desk PIN", never a typed name, unless staff chose a name from IT's list.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import { hashPin } from '../../../../electron/node/pin/pin-hash.ts';
import type { Policy } from '../../../../electron/main/policy/index.ts';
import type { ActionPage, AppInfo, MethodName } from '../../../../electron/shared/contract.ts';
import type { ErrorInfo } from '../../../../electron/shared/errors.ts';
import { createClock } from '../../../support/clock.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { TEST_PIN_COST } from '../../../support/weak-pin-cost.ts';
import { logDesk, type LogDesk } from './log-desk.ts';

let pc: LogDesk;
beforeEach(() => { pc = logDesk('log-roles-', createClock(new Date(2026, 10, 22, 10, 0).getTime())); });
afterEach(async () => { await pc.close(); });

async function refused(name: MethodName, args?: unknown): Promise<ErrorInfo> {
  const result = await dispatch(pc.desk, name, args);
  if (result.ok) throw new Error(`${name} was accepted`);
  return result.error;
}

const STAFF: Promise<Policy> = (async () => ({
  version: 1,
  staffPins: [
    { name: 'Ana Lopez', pinHash: await hashPin('ana-2468', TEST_PIN_COST), role: 'manager' },
    { name: 'Jo Park', pinHash: await hashPin('jo-1357', TEST_PIN_COST) },
  ],
}))();

/** A shift on the sandbox and one action for a demo patron (recorded whatever the service answers); returns that patron's card. */
async function shiftWithAHold(staffName: string, pin: string): Promise<string> {
  await pc.ok('useSandbox');
  await pc.ok('startShift', { staffName, pin });
  const { libraryId, cards } = (await pc.ok<AppInfo>('appInfo')).sandbox!.libraries[0]!;
  await dispatch(pc.desk, 'placeHold', { libraryId, card: cards[0], contentId: 41, title: 'A hold' });
  return cards[0]!;
}

describe('per-staff PINs with roles', () => {
  it('desk staff read the log but not by card, and cannot export it, even calling the contract themselves', async () => {
    await pc.start(await STAFF);
    const card = await shiftWithAHold('Jo Park', 'jo-1357');
    expect((await pc.ok<ActionPage>('listActions', {})).entries.map((e) => e.action)).toEqual(['log-read', 'place-hold']);
    expect(await refused('listActions', { cardEnding: card.slice(-4) })).toMatchObject({ code: 'unauthorized', reason: 'log.managers-only' });
    expect(await refused('exportActions', { pin: 'jo-1357' })).toMatchObject({ code: 'unauthorized', reason: 'log.managers-only' });
    // Neither refusal read the log: only the first reading is in it.
    const audit = (await pc.ok<ActionPage>('listActions', {})).entries.filter((e) => e.action.startsWith('log-'));
    expect(audit.map((e) => [e.action, e.filter])).toEqual([['log-read', {}], ['log-read', {}]]);
  });

  it('a manager looks the log up by card and exports it with their own PIN typed again; each is recorded', async () => {
    await pc.start(await STAFF);
    const card = await shiftWithAHold('Ana Lopez', 'ana-2468');
    const byCard = await pc.ok<ActionPage>('listActions', { cardEnding: card.slice(-4) });
    expect(byCard.entries.map((e) => e.action)).toEqual(['place-hold']);
    expect(await refused('exportActions', {})).toMatchObject({ code: 'invalid-input', reason: 'log.export-pin-needed' });
    expect(await refused('exportActions', { pin: 'jo-1357' })).toMatchObject({ code: 'unauthorized', reason: 'log.export-pin-wrong' });
    const exported = await pc.ok<{ entries: { action: string }[] }>('exportActions', { cardEnding: card.slice(-4), pin: 'ana-2468' });
    expect(exported.entries.map((e) => e.action)).toEqual(['place-hold']);
    const audit = (await pc.ok<ActionPage>('listActions', {})).entries.filter((e) => e.action.startsWith('log-'));
    expect(audit.map((e) => [e.action, e.staff, e.filter])).toEqual([
      ['log-read', 'Ana Lopez', {}],
      ['log-export', 'Ana Lopez', { cardEnding: card.slice(-4) }],
      ['log-read', 'Ana Lopez', { cardEnding: card.slice(-4) }],
    ]);
  });

  it('a wrong PIN at the export counts as a wrong try: five, and the desk waits before the next sign-in', async () => {
    await pc.start(await STAFF);
    await shiftWithAHold('Ana Lopez', 'ana-2468');
    const reasons = [];
    for (let n = 0; n < 5; n++) reasons.push((await refused('exportActions', { pin: `wrong-${n}0` })).reason);
    expect(reasons).toEqual(['log.export-pin-wrong', 'log.export-pin-wrong', 'log.export-pin-wrong', 'log.export-pin-wrong', 'sign-in.wait']);
    // Even the right one waits now, and so does the next sign-in, after a lock.
    expect(await refused('exportActions', { pin: 'ana-2468' })).toMatchObject({ code: 'rate-limited', reason: 'sign-in.wait' });
    await pc.ok('lockSession', { reason: 'staff' });
    expect(await refused('startShift', { staffName: 'Ana Lopez', pin: 'ana-2468' })).toMatchObject({ reason: 'sign-in.wait' });
  });
});

describe('the shared desk PIN', () => {
  it('records "desk PIN" (no name) unless staff chose one from IT\'s list; its shift is desk staff unless IT says manager', async () => {
    await pc.start({ version: 1, deskPinRole: 'desk', deskPinNames: ['Ana Lopez'] });
    await shiftWithAHold('Typed Anything', TEST_DESK_PIN);
    const [reading, hold] = (await pc.ok<ActionPage>('listActions', {})).entries;
    expect(hold).toMatchObject({ action: 'place-hold', staff: '', deskPin: true });
    expect(reading).toMatchObject({ action: 'log-read', staff: '', deskPin: true });
    expect(await refused('exportActions', { pin: TEST_DESK_PIN })).toMatchObject({ reason: 'log.managers-only' });

    await pc.ok('lockSession', { reason: 'staff' });
    await pc.start({ version: 1, deskPinNames: ['Jo Park'], deskPinRole: 'manager' });
    await pc.ok('startShift', { staffName: 'jo park', pin: TEST_DESK_PIN });
    const exported = await pc.ok<{ entries: { action: string; staff: string; deskPin?: true }[] }>('exportActions', { pin: TEST_DESK_PIN });
    expect(exported.entries.at(-1)).toMatchObject({ action: 'log-export', staff: 'Jo Park', deskPin: true });
  });
});
