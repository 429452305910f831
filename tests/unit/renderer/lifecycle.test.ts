// @vitest-environment happy-dom
// Lifecycle events on the whole desk: each is published once and every store that holds
// something it concerns clears itself — what goes and what stays for a lock, another library,
// another connection, Clear patron and another card — and an answer still on its way when the
// event came is never shown (an attacker's view: a slow answer carrying a patron after a lock).
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { ActionOutcome, CollectionPage, Result } from '../../../electron/shared/contract.ts';
import type { Loan, SearchPage } from '../../../electron/shared/model.ts';
import { useLifecycle, type LifecycleEvent } from '../../../src/lifecycle.ts';
import { useCirculationStore } from '../../../src/stores/circulation.ts';
import { useCollectionStore } from '../../../src/stores/collection.ts';
import { useLiveSearchStore } from '../../../src/stores/live-search.ts';
import { usePatronStore } from '../../../src/stores/patron.ts';
import { useSessionStore } from '../../../src/stores/session.ts';
import { mountApp, ok, partnerInfo, PATRON, sandboxInfo } from './fake-desk.ts';
import { button, click, hit, scan, searchFor, text } from './patron-desk-helpers.ts';

const INSTANT = hit({ titleId: 301, title: 'Paper Moons', format: 'EBOOK', purchaseModel: 'INSTANT' });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

/** A desk with a patron, a search page and the outcome of a borrow on screen. */
async function busyDesk(info = sandboxInfo()) {
  const mounted = await mountApp(info);
  mounted.desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [INSTANT] }));
  mounted.desk.liveAvailability.mockResolvedValue(ok([{ contentId: 301, status: 'BORROW', purchaseModel: 'INSTANT' }]));
  mounted.desk.borrow.mockResolvedValue(ok({ value: { contentId: 301, title: 'Paper Moons' }, confirmedByReread: false }));
  await scan('0012345');
  await searchFor('moons');
  await click(button('Borrow for ••••2345: Paper Moons'));
  expect(text()).toContain('Paper Moons is borrowed for card ••••2345.');
  return mounted;
}

function recorded(): LifecycleEvent[] {
  const events: LifecycleEvent[] = [];
  useLifecycle().on(['deskLocked', 'shiftEnded', 'connectionChanged', 'libraryChanged', 'patronCleared', 'patronChanged'], (e) => events.push(e));
  return events;
}

describe('lifecycle events', () => {
  it('another library: the patron, the search and the outcome go; recent patrons stay (they remember their library)', async () => {
    await busyDesk();
    const events = recorded();
    useSessionStore().selectLibrary(202);
    await flushPromises();
    expect(events).toEqual([{ type: 'libraryChanged', libraryId: 202 }]);
    expect(usePatronStore().view).toBeUndefined();
    expect(useLiveSearchStore().page).toBeUndefined();
    expect(useCirculationStore().outcome).toBeUndefined();
    expect(usePatronStore().recent.map((r) => r.masked)).toEqual(['••••2345']);
    expect(text()).not.toContain('Paper Moons');
  });

  it('another connection: everything goes, recent patrons included', async () => {
    const { desk } = await busyDesk();
    const events = recorded();
    desk.activateProfile.mockResolvedValueOnce(ok(partnerInfo()));
    await useSessionStore().activateProfile('metro');
    await flushPromises();
    expect(events).toContainEqual({ type: 'connectionChanged', profileId: 'metro' });
    expect(usePatronStore().view).toBeUndefined();
    expect(usePatronStore().recent).toEqual([]);
    expect(useLiveSearchStore().page).toBeUndefined();
    expect(useCirculationStore().outcome).toBeUndefined();
  });

  it('the lock: patron, recent patrons, outcome and the search go, published once with the shift ending', async () => {
    const { wrapper } = await busyDesk();
    const events = recorded();
    await wrapper.findAll('button').find((b) => b.text() === 'Lock')!.trigger('click');
    await flushPromises();
    expect(events).toHaveLength(2);
    expect(events).toContainEqual({ type: 'deskLocked', reason: 'staff' });
    expect(events).toContainEqual({ type: 'shiftEnded' });
    expect(usePatronStore().view).toBeUndefined();
    expect(usePatronStore().recent).toEqual([]);
    expect(useCirculationStore().outcome).toBeUndefined();
    expect(useLiveSearchStore().page).toBeUndefined();
    expect(text()).not.toContain('••••');
  });

  it('Clear patron: the patron and the outcome go; recent patrons and the search stay', async () => {
    await busyDesk();
    const events = recorded();
    await click(button('Clear patron'));
    expect(events).toEqual([{ type: 'patronCleared' }]);
    expect(usePatronStore().view).toBeUndefined();
    expect(useCirculationStore().outcome).toBeUndefined();
    expect(usePatronStore().recent).toHaveLength(1);
    expect(useLiveSearchStore().page?.hits).toHaveLength(1);
  });

  it("another card: the last patron's outcome goes as the lookup starts; the same card again keeps it", async () => {
    await busyDesk();
    const events = recorded();
    await scan('0012345');
    expect(events).toEqual([]);
    expect(useCirculationStore().outcome?.state).toBe('done');
    await scan('0098765');
    expect(events).toEqual([{ type: 'patronChanged', libraryId: 101 }]);
    expect(useCirculationStore().outcome).toBeUndefined();
    expect(usePatronStore().recent.map((r) => r.masked)).toEqual(['••••8765', '••••2345']);
  });
});

describe('answers that come after the event', () => {
  it('a lookup answering after the lock never reaches the screen or the store', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    const slow = deferred<Result<typeof PATRON>>();
    desk.lookupPatron.mockReturnValueOnce(slow.promise);
    await scan('0012345');
    desk.emit('sessionLocked', { reason: 'system' });
    slow.resolve(ok(PATRON));
    await flushPromises();
    expect(usePatronStore().view).toBeUndefined();
    expect(usePatronStore().recent).toEqual([]);
    expect(wrapper.html()).not.toContain('The River Road');
  });

  it('a borrow answering after Clear patron leaves no outcome and frees the title', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [INSTANT] }));
    desk.liveAvailability.mockResolvedValue(ok([{ contentId: 301, status: 'BORROW', purchaseModel: 'INSTANT' }]));
    const slow = deferred<Result<ActionOutcome<Loan>>>();
    desk.borrow.mockReturnValueOnce(slow.promise);
    await scan('0012345');
    await searchFor('moons');
    await click(button('Borrow for ••••2345: Paper Moons'));
    expect(useCirculationStore().isBusy(301)).toBe(true);
    await click(button('Clear patron'));
    slow.resolve(ok({ value: { contentId: 301, title: 'Paper Moons' }, confirmedByReread: false }));
    await flushPromises();
    expect(useCirculationStore().outcome).toBeUndefined();
    expect(useCirculationStore().isBusy(301)).toBe(false);
    expect(text()).not.toContain('is borrowed for card');
  });

  it('a search answering after another library was chosen does not show', async () => {
    const { desk } = await mountApp(sandboxInfo());
    const slow = deferred<Result<SearchPage>>();
    desk.liveSearch.mockReturnValueOnce(slow.promise);
    await searchFor('moons');
    useSessionStore().selectLibrary(202);
    slow.resolve(ok({ found: 1, hits: [INSTANT] }));
    await flushPromises();
    expect(useLiveSearchStore().page).toBeUndefined();
    expect(text()).not.toContain('Paper Moons');
  });

  it("a page of the last library's collection is dropped; the new library's first page is read", async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    const slow = deferred<Result<CollectionPage>>();
    desk.collectionBrowse.mockReturnValueOnce(slow.promise);
    await wrapper.findAll('[role="tab"]').find((t) => t.text() === 'Collection')!.trigger('click');
    await flushPromises();
    useSessionStore().selectLibrary(202);
    await flushPromises();
    slow.resolve(ok({ total: 1, rows: [{ contentId: 9, title: 'From library 101', purchaseModel: 'INSTANT', active: true }] }));
    await flushPromises();
    expect(useCollectionStore().rowAt(0)?.title).not.toBe('From library 101');
    expect(desk.collectionBrowse).toHaveBeenLastCalledWith(expect.objectContaining({ libraryId: 202, offset: 0 }));
    expect(text()).not.toContain('From library 101');
  });
});
