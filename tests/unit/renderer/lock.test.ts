// @vitest-environment happy-dom
// The lock as staff and the person at the counter see it: the idle countdown that warns and can
// be kept off with a key or the pointer, and a lock that leaves no patron trace in any store or
// on screen — the patron, recent patrons, the live search, the Collection's filters, open
// dialogs, outcome messages and today's actions — whoever locked (the timer, the button, main).
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCirculationStore } from '../../../src/stores/circulation.ts';
import { useCollectionStore } from '../../../src/stores/collection.ts';
import { useLiveSearchStore } from '../../../src/stores/live-search.ts';
import { usePatronStore } from '../../../src/stores/patron.ts';
import { buttonNamed, fail, inputLabelled, mountApp, ok, PATRON, sandboxInfo } from './fake-desk.ts';
import { button, click, dialog, hit, searchFor, text } from './patron-desk-helpers.ts';

async function scan(card: string): Promise<void> {
  const input = inputLabelled('Library card') as HTMLInputElement;
  input.value = card;
  input.dispatchEvent(new Event('input'));
  input.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await flushPromises();
}

/** The desk PIN alone: a desk-PIN desk asks for no name (issue #35). */
async function signIn(pin = '246813'): Promise<void> {
  const pinInput = inputLabelled('PIN') as HTMLInputElement;
  pinInput.value = pin;
  pinInput.dispatchEvent(new Event('input'));
  pinInput.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await flushPromises();
}

function expectNoPatronTrace(): void {
  const patron = usePatronStore();
  expect(patron.card).toBe('');
  expect(patron.view).toBeUndefined();
  expect(patron.error).toBeUndefined();
  expect(patron.loading).toBe(false);
  expect(patron.recent).toEqual([]);
  expect(useCirculationStore().outcome).toBeUndefined();
  const search = useLiveSearchStore();
  expect([search.query, search.format, search.purchaseModel, search.kidsMode, search.page]).toEqual(['', '', '', false, undefined]);
  const collection = useCollectionStore();
  expect(collection.filters).toEqual({ text: '', format: '', model: '', active: 'active', availableNow: false, noCopyFree: false, kids: false, content: '' });
  expect(collection.pages.size).toBe(0);
  expect(dialog()).toBeNull();
  for (const trace of ['The River Road', 'Night Garden', '••••', 'Book of the search', 'Borrowed', 'Today at this desk']) expect(text()).not.toContain(trace);
}

/** A desk in full use: a patron with recent patrons, an outcome on screen, a search with filters, the Collection filtered, the log open. */
async function busyDesk() {
  const mounted = await mountApp(sandboxInfo());
  const { desk } = mounted;
  desk.todaysActions.mockResolvedValue(ok([{ time: 1_773_000_000_000, staff: 'JD', profile: 'p', libraryId: 101, card: '••••2345', action: 'return', contentId: 11, title: 'The River Road', outcome: 'ok' }]));
  desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [hit({ titleId: 77, title: 'Book of the search', format: 'EBOOK' })] }));
  desk.returnTitle.mockResolvedValue(ok({ value: null, confirmedByReread: false }));
  await scan('0098765');
  await scan('0012345');
  expect(text()).toContain('Today at this desk');
  useLiveSearchStore().kidsMode = true;
  await searchFor('river');
  await useCirculationStore().run('return', 11, 'The River Road');
  await flushPromises();
  useCollectionStore().filters.text = 'what the patron asked for';
  useCollectionStore().filters.kids = true;
  useCollectionStore().filters.content = 'no-profanity';
  expect(useCirculationStore().outcome?.state).toBe('done');
  await click(button('Action log'));
  expect(dialog()).not.toBeNull();
  return mounted;
}

afterEach(() => vi.useRealTimers());

describe('the lock clears every patron trace', () => {
  it('Lock: patron, recent patrons, search, Collection filters, the open dialog, the outcome and today\'s actions go; the sign-in is empty', async () => {
    const { wrapper, desk } = await busyDesk();
    // The Lock button is behind the dialog: staff press it after closing, or main locks; here the header's button.
    await buttonNamed(wrapper, 'Lock').trigger('click');
    await flushPromises();
    expect(desk.lockSession).toHaveBeenCalledWith({ reason: 'staff' });
    expect(wrapper.get('h1').text()).toBe('Desk locked');
    expect(wrapper.text()).toContain('JD was on shift.');
    expect(wrapper.text()).toContain('SANDBOX — training data, no real patrons');
    expectNoPatronTrace();
    expect(document.activeElement).toBe(inputLabelled('PIN'));

    await signIn();
    expect(desk.startShift).toHaveBeenCalledWith({ pin: '246813' });
    expect(wrapper.text()).toContain('On shift: desk PIN');
    expect((inputLabelled('Library card') as HTMLInputElement).value).toBe('');
    expect((inputLabelled('Search the catalog') as HTMLInputElement).value).toBe('');
    expectNoPatronTrace();
  });

  it('when main locks (the OS locked the screen) the same traces go, without asking main to lock again', async () => {
    const { wrapper, desk } = await busyDesk();
    desk.emit('sessionLocked', { reason: 'system' });
    await flushPromises();
    expect(wrapper.get('h1').text()).toBe('Desk locked');
    expect(desk.lockSession).not.toHaveBeenCalled();
    expectNoPatronTrace();
  });

  it("treats main's session-locked answer as a lock", async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(fail('session-locked', 'No staff shift is open.'));
    await scan('0012345');
    expect(wrapper.get('h1').text()).toBe('Desk locked');
    expectNoPatronTrace();
  });

  it('never shows a lookup that answers after the desk locked', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    let answer!: (value: ReturnType<typeof ok>) => void;
    desk.lookupPatron.mockReturnValueOnce(new Promise((resolve) => { answer = resolve as typeof answer; }));
    await scan('0012345');
    await buttonNamed(wrapper, 'Lock').trigger('click');
    answer(ok(PATRON));
    await flushPromises();
    expectNoPatronTrace();
    await signIn();
    expect(wrapper.text()).not.toContain('The River Road');
  });
});

describe('the idle countdown', () => {
  it('warns 30 seconds before the lock with the seconds left; a key keeps the session', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    vi.advanceTimersByTime(4.5 * 60_000 - 1);
    await flushPromises();
    expect(document.querySelector('.idle-warning')).toBeNull();
    vi.advanceTimersByTime(1);
    await flushPromises();
    const warning = document.querySelector('.idle-warning')!;
    expect(warning.getAttribute('role')).toBe('alert');
    expect(warning.textContent).toContain('The desk is about to lock');
    expect(warning.textContent).toContain('Locking in 30 s');
    expect(warning.textContent).toContain('The desk locks in 30 seconds unless someone uses it.');
    vi.advanceTimersByTime(12_000);
    await flushPromises();
    expect(document.querySelector('.idle-warning')!.textContent).toContain('Locking in 18 s');
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift', bubbles: true }));
    await flushPromises();
    expect(document.querySelector('.idle-warning')).toBeNull();
    vi.advanceTimersByTime(4 * 60_000);
    await flushPromises();
    expect(desk.lockSession).not.toHaveBeenCalled();
    expect(text()).toContain('The River Road');
  });

  it('a PC that slept past the deadline locks as soon as its timer runs, without another countdown', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    vi.setSystemTime(Date.now() + 6 * 60_000); // asleep: the clock moved, no timer ran
    vi.advanceTimersByTime(4.5 * 60_000);
    await flushPromises();
    expect(desk.lockSession).toHaveBeenCalledWith({ reason: 'idle' });
    expect(document.querySelector('.idle-warning')).toBeNull();
    expectNoPatronTrace();
  });

  it('the pointer moving during the warning keeps the session too; left alone, the desk locks at the end and clears', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { wrapper, desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    vi.advanceTimersByTime(4.75 * 60_000);
    await flushPromises();
    expect(document.querySelector('.idle-warning')!.textContent).toContain('Locking in 15 s');
    document.dispatchEvent(new Event('pointermove', { bubbles: true }));
    await flushPromises();
    expect(document.querySelector('.idle-warning')).toBeNull();
    vi.advanceTimersByTime(5 * 60_000 - 1);
    await flushPromises();
    expect(desk.lockSession).not.toHaveBeenCalled();
    expect(document.querySelector('.idle-warning')!.textContent).toContain('Locking in 1 s');
    vi.advanceTimersByTime(1);
    await flushPromises();
    expect(desk.lockSession).toHaveBeenCalledWith({ reason: 'idle' });
    expect(wrapper.get('h1').text()).toBe('Desk locked');
    expect(wrapper.text()).toContain('after a period without activity');
    expect(document.querySelector('.idle-warning')).toBeNull();
    expectNoPatronTrace();
  });
});
