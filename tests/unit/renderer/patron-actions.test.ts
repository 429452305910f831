// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { ActionOutcome, Result } from '../../../electron/shared/contract.ts';
import type { Loan } from '../../../electron/shared/model.ts';
import { announced, fail, mountApp, ok, PATRON, sandboxInfo, serviceFail } from './fake-desk.ts';
import { button, click, dialog, hasButton, hit, press, scan, searchFor, text } from './patron-desk-helpers.ts';

const INSTANT = hit({ titleId: 301, title: 'Paper Moons', format: 'EBOOK', purchaseModel: 'INSTANT' });
const FLEX = hit({ titleId: 302, title: 'Glass Rivers', format: 'AUDIOBOOK', purchaseModel: 'FLEX' });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

async function deskWithResults() {
  const mounted = await mountApp(sandboxInfo());
  mounted.desk.liveSearch.mockResolvedValue(ok({ found: 2, hits: [INSTANT, FLEX] }));
  mounted.desk.liveAvailability.mockResolvedValue(ok([
    { contentId: 301, status: 'BORROW', purchaseModel: 'INSTANT', available: true },
    { contentId: 302, status: 'BORROW', purchaseModel: 'FLEX', availableCopies: 1, totalCopies: 2, holdsQueueSize: 0 },
  ]));
  await scan('0012345');
  await searchFor('moons');
  return mounted;
}

const loanOf = (contentId: number, title: string): Result<ActionOutcome<Loan>> => ok({ value: { contentId, title }, confirmedByReread: false });

describe('returning early and removing a hold', () => {
  it('asks first, naming the title and the masked card; Esc cancels; Enter confirms once; the view refreshes', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.returnTitle.mockResolvedValue(ok({ value: null, confirmedByReread: false }));
    await scan('0012345');
    expect(desk.lookupPatron).toHaveBeenCalledTimes(1);
    button('Return early: The River Road, card ••••2345').focus(); // a browser focuses a clicked button; happy-dom does not
    await click(button('Return early: The River Road, card ••••2345'));
    const asked = dialog()!;
    expect(asked.getAttribute('aria-modal')).toBe('true');
    expect(asked.textContent).toContain('Return this title early?');
    expect(asked.textContent).toContain('Return The River Road for card ••••2345?');
    expect(asked.textContent).not.toContain('0012345');
    expect(document.activeElement).toBe(button('Yes, return it for ••••2345'));
    await press('Escape');
    expect(dialog()).toBeNull();
    expect(desk.returnTitle).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(button('Return early: The River Road, card ••••2345')); // back where it was

    await click(button('Return early: The River Road, card ••••2345'));
    desk.lookupPatron.mockResolvedValueOnce(ok({ ...PATRON, loans: PATRON.loans.slice(1) }));
    const confirm = button('Yes, return it for ••••2345');
    confirm.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true })); // from the dialog itself: Enter confirms
    dialog()?.querySelector('p')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    dialog()?.querySelector('p')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await flushPromises();
    expect(desk.returnTitle).toHaveBeenCalledTimes(1);
    expect(desk.returnTitle).toHaveBeenCalledWith({ libraryId: 101, card: '0012345', contentId: 11, title: 'The River Road' });
    expect(desk.lookupPatron).toHaveBeenCalledTimes(2);
    expect(announced('status')).toContain('The River Road is returned.');
    expect(text()).not.toContain('Return early: The River Road');
  });

  it('focus is trapped in the dialog', async () => {
    await mountApp(sandboxInfo());
    await scan('0012345');
    await click(button('Remove hold: Night Garden, card ••••2345'));
    const yes = button('Yes, remove it for ••••2345');
    const cancel = button('Cancel');
    expect(document.activeElement).toBe(yes);
    await press('Tab');
    expect(document.activeElement).toBe(cancel);
    await press('Tab', { shiftKey: true });
    expect(document.activeElement).toBe(yes);
  });

  it('removes a hold after confirmation, with the title in the call for the action log', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.removeHold.mockResolvedValue(ok({ value: null, confirmedByReread: false }));
    await scan('0012345');
    await click(button('Remove hold: Night Garden, card ••••2345'));
    expect(dialog()!.textContent).toContain('Remove the hold on Night Garden for card ••••2345?');
    await click(button('Yes, remove it for ••••2345'));
    expect(desk.removeHold).toHaveBeenCalledWith({ libraryId: 101, card: '0012345', contentId: 21, title: 'Night Garden' });
    expect(announced('status')).toContain('The hold on Night Garden is removed.');
  });
});

describe('borrow and hold from search results', () => {
  it('a double click sends one borrow; the button waits while it is under way', async () => {
    const { desk } = await deskWithResults();
    const answer = deferred<Result<ActionOutcome<Loan>>>();
    desk.borrow.mockReturnValue(answer.promise);
    const borrow = button('Borrow for ••••2345: Paper Moons');
    borrow.click();
    borrow.click();
    borrow.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await flushPromises();
    expect(desk.borrow).toHaveBeenCalledTimes(1);
    expect(button('Borrow for ••••2345: Paper Moons').disabled).toBe(true);
    expect(announced('status')).toContain('Borrowing Paper Moons…');
    answer.resolve(loanOf(301, 'Paper Moons'));
    await flushPromises();
    expect(desk.borrow).toHaveBeenCalledWith({ libraryId: 101, card: '0012345', contentId: 301, title: 'Paper Moons' });
    expect(announced('status')).toContain('Paper Moons is borrowed for card ••••2345.');
    expect(desk.lookupPatron).toHaveBeenCalledTimes(2); // the patron view refreshes
    expect(desk.liveAvailability).toHaveBeenCalledTimes(2); // and the availability on screen
  });

  it('the store refuses a second identical action while the first is under way', async () => {
    const { desk } = await deskWithResults();
    const answer = deferred<Result<ActionOutcome<Loan>>>();
    desk.borrow.mockReturnValue(answer.promise);
    const { useCirculationStore } = await import('../../../src/stores/circulation.ts');
    const circulation = useCirculationStore();
    const first = circulation.run('borrow', 301, 'Paper Moons');
    expect(await circulation.run('borrow', 301, 'Paper Moons')).toBe(false);
    answer.resolve(loanOf(301, 'Paper Moons'));
    expect(await first).toBe(true);
    expect(desk.borrow).toHaveBeenCalledTimes(1);
  });

  it('no copy free: says how many wait and offers the hold, which places it', async () => {
    const { desk } = await deskWithResults();
    desk.borrow.mockResolvedValueOnce(serviceFail('unavailable', 'No copy is free to borrow right now; place a hold instead'));
    desk.liveAvailability.mockResolvedValueOnce(ok([{ contentId: 302, status: 'HOLD', availableCopies: 0, totalCopies: 2, holdsQueueSize: 3 }]));
    desk.placeHold.mockResolvedValueOnce(ok({ value: { contentId: 302, title: 'Glass Rivers', status: 'WAITING', queuePosition: 4 }, confirmedByReread: false }));
    await click(button('Borrow for ••••2345: Glass Rivers'));
    await flushPromises();
    const [alert] = announced('alert');
    expect(alert).toContain('No copy of Glass Rivers is free right now — 3 waiting. Place a hold?');
    expect(alert).toContain('Service message: “No copy is free to borrow right now; place a hold instead”');
    expect(hasButton('Retry')).toBe(false);
    // The offer waits for the clerk (Alt+O or a click), never for a scanner's Enter: focus is not on it (issue #35).
    expect(document.activeElement).not.toBe(button('Place a hold for ••••2345'));
    await click(button('Place a hold for ••••2345'));
    expect(desk.placeHold).toHaveBeenCalledWith({ libraryId: 101, card: '0012345', contentId: 302, title: 'Glass Rivers' });
    expect(announced('status')).toContain('Hold placed on Glass Rivers for card ••••2345: position 4 in the queue.');
    expect(announced('alert')).toEqual([]);
  });

  it('offers Place hold with the queue size when availability already says HOLD', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [FLEX] }));
    desk.liveAvailability.mockResolvedValue(ok([{ contentId: 302, status: 'HOLD', purchaseModel: 'FLEX', availableCopies: 0, totalCopies: 1, holdsQueueSize: 3 }]));
    await searchFor('glass');
    expect(text()).toContain('No copy free — 3 waiting. Place a hold?');
    expect(text()).toContain('0 of 1 copy free');
    expect(button('Place hold: Glass Rivers').disabled).toBe(true); // no patron yet
    expect(text()).toContain('Look up a patron to borrow or place holds.');
    await scan('0012345');
    expect(button('Place hold for ••••2345: Glass Rivers').disabled).toBe(false);
    expect(hasButton('Borrow for ••••2345: Glass Rivers')).toBe(false);
  });

  it.each([
    // The allowance: the desk's sentence says all the service's would, in words a patron reads, with the day borrows come back.
    ['limit-reached', 'Borrow for ••••2345: Paper Moons', 'The patron has used all 5 Instant borrows of this month.', false, false],
    ['invalid-patron', 'Borrow for ••••2345: Paper Moons', 'The lending service has no account for this card.', false, true],
    ['already-borrowed', 'Borrow for ••••2345: Paper Moons', 'The patron already has Paper Moons on loan.', false, true],
    ['not-found', 'Borrow for ••••2345: Paper Moons', 'The lending service no longer has that title, loan or hold.', false, true],
    ['network', 'Borrow for ••••2345: Paper Moons', 'The lending service cannot be reached.', true, true],
    ['timeout', 'Borrow for ••••2345: Paper Moons', 'The lending service is taking too long to answer.', true, true],
    ['server', 'Borrow for ••••2345: Paper Moons', 'The lending service has a problem right now.', true, true],
    ['rate-limited', 'Borrow for ••••2345: Paper Moons', 'The lending service is busy.', true, true],
  ] as const)('%s: a sentence to read out, the service message as detail where it adds to it, Retry only where it can help', async (code, name, sentence, retry, quoted) => {
    const { desk } = await deskWithResults();
    desk.borrow.mockResolvedValueOnce(serviceFail(code, `service says ${code}`));
    await click(button(name));
    const alerts = announced('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toContain(sentence);
    expect(alerts[0]!.includes(`Service message: “service says ${code}”`)).toBe(quoted);
    // Where the desk's words say it all (the allowance), the service's English is left out.
    expect(alerts[0]!.includes('service says')).toBe(quoted);
    expect(hasButton('Retry')).toBe(retry);
  });

  it('answer-mismatch: never shown as done; says what the service answered and what the account shows, and reads the account again', async () => {
    const { desk } = await deskWithResults();
    const lookups = desk.lookupPatron.mock.calls.length;
    desk.borrow.mockResolvedValueOnce(fail('answer-mismatch', 'The lending service answered about another title than the one asked for.', {
      reason: 'action.borrow-answered-other', params: { asked: '301', answered: '302' },
    }));
    await click(button('Borrow for ••••2345: Paper Moons'));
    const alerts = announced('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toContain('The lending service answered this borrow about another title (id 302) than the one asked for (id 301); the patron’s loans, read again, do not show 301.');
    expect(announced('status').some((s) => s.includes('is borrowed'))).toBe(false);
    expect(hasButton('Retry')).toBe(false); // sending it again could lend another title again
    expect(desk.lookupPatron.mock.calls.length).toBe(lookups + 1); // the account on screen read again
  });

  it('available-to-borrow on a hold offers the borrow', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [FLEX] }));
    desk.liveAvailability.mockResolvedValue(ok([{ contentId: 302, status: 'HOLD', holdsQueueSize: 1 }]));
    await scan('0012345');
    await searchFor('glass');
    desk.placeHold.mockResolvedValueOnce(fail('available-to-borrow', 'no hold needed'));
    desk.borrow.mockResolvedValueOnce(loanOf(302, 'Glass Rivers'));
    await click(button('Place hold for ••••2345: Glass Rivers'));
    expect(announced('alert')[0]).toContain('Glass Rivers has a free copy, so no hold is needed: borrow it instead.');
    await click(button('Borrow it for ••••2345'));
    expect(desk.borrow).toHaveBeenCalledWith({ libraryId: 101, card: '0012345', contentId: 302, title: 'Glass Rivers' });
  });

  it('Retry repeats exactly the request that failed', async () => {
    const { desk } = await deskWithResults();
    desk.borrow.mockResolvedValueOnce(fail('network', 'Could not reach the lending service.'));
    desk.borrow.mockResolvedValueOnce(loanOf(301, 'Paper Moons'));
    await click(button('Borrow for ••••2345: Paper Moons'));
    expect(desk.lookupPatron).toHaveBeenCalledTimes(1); // a connection failure: no pointless refresh
    await click(button('Retry'));
    expect(desk.borrow).toHaveBeenCalledTimes(2);
    expect(desk.borrow.mock.calls[1]).toEqual(desk.borrow.mock.calls[0]);
    expect(announced('alert')).toEqual([]);
    expect(announced('status')).toContain('Paper Moons is borrowed for card ••••2345.');
  });

  it('a lookup that fails on the connection offers Retry, which repeats it', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(fail('timeout', 'The lending service did not answer in time.'));
    await scan('0012345');
    expect(announced('alert')[0]).toContain('The lending service is taking too long to answer.');
    await click(button('Retry'));
    expect(desk.lookupPatron).toHaveBeenCalledTimes(2);
    expect(desk.lookupPatron.mock.calls[1]).toEqual([{ libraryId: 101, card: '0012345' }]);
    expect(text()).toContain('Card ••••2345');
  });

  it('Clear patron drops the outcome of the last action', async () => {
    const { desk } = await deskWithResults();
    desk.borrow.mockResolvedValueOnce(fail('limit-reached', 'allowance used up'));
    await click(button('Borrow for ••••2345: Paper Moons'));
    expect(announced('alert')).toHaveLength(1);
    await click(button('Clear patron'));
    expect(announced('alert')).toEqual([]);
    expect(button('Borrow Paper Moons').disabled).toBe(true);
  });
});
