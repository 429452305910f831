// @vitest-environment happy-dom
// The Collection and the Sync page on a fake contract: a window of rows out of
// 600,000, the filters and sort sent to the mirror, a detail with almost nothing in it,
// borrowing from the detail once, and a progress bar that follows sync events.
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { BrowseRow } from '../../../electron/shared/contract.ts';
import { FIRST_ROWS } from '../../../src/stores/collection.ts';
import { PATRON, buttonNamed, inputLabelled, mountApp, ok, sandboxInfo, syncView } from './fake-desk.ts';

const TOTAL = 1_000_000;
const row = (i: number): BrowseRow => ({ contentId: i + 1, title: `Title ${i + 1}`, artist: 'A. Writer', format: 'EBOOK', purchaseModel: i % 2 ? 'FLEX' : 'INSTANT', active: true });

async function openView(wrapper: VueWrapper, name: string): Promise<void> {
  const tab = wrapper.findAll('[role="tab"]').find((t) => t.text() === name);
  if (!tab) throw new Error(`no tab ${name}`);
  await tab.trigger('click');
  await flushPromises();
}

describe('collection browser', () => {
  it('renders only a window of a 1,000,000-title collection, fetches pages by offset, and reaches the end', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.collectionBrowse.mockImplementation(async (args) => ok({ total: TOTAL, rows: Array.from({ length: args!.limit ?? 100 }, (_, i) => row(args!.offset! + i)) }));
    await openView(wrapper, 'Collection');
    await flushPromises();
    const grid = wrapper.get('[role="grid"]');
    expect(grid.attributes('aria-rowcount')).toBe(String(TOTAL + 1));
    const rendered = wrapper.findAll('[role="rowgroup"] [role="row"]');
    // A window of rows (here the few laid out past the edge: happy-dom gives the view no height), not a million.
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(60);
    expect(wrapper.text()).toContain('1,000,000 titles');
    expect(desk.collectionBrowse).toHaveBeenCalledWith(expect.objectContaining({ libraryId: 101, offset: 0, limit: FIRST_ROWS, sort: 'title', direction: 'asc' }));

    // 52 million px of rows would pass the browser's height cap: the scrollbar is scaled to 15 million.
    const viewport = wrapper.get('[role="rowgroup"]').element as HTMLElement;
    const spacer = viewport.firstElementChild as HTMLElement;
    expect(spacer.style.height).toBe('15000000px');
    viewport.scrollTop = 7_500_000; // half way
    viewport.dispatchEvent(new Event('scroll'));
    await flushPromises();
    expect(desk.collectionBrowse).toHaveBeenCalledWith(expect.objectContaining({ offset: 499_900 }));
    await flushPromises();
    expect(wrapper.text()).toContain('Title 500001');
    viewport.scrollTop = 15_000_000; // the very end
    viewport.dispatchEvent(new Event('scroll'));
    await flushPromises();
    await flushPromises();
    expect(desk.collectionBrowse).toHaveBeenCalledWith(expect.objectContaining({ offset: 999_900 }));
    expect(wrapper.text()).toContain('Title 1000000');
    expect(wrapper.findAll('[role="rowgroup"] [role="row"]').length).toBeLessThan(60);
  });

  it('sends filters and search to the mirror, and sorting toggles aria-sort', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { wrapper, desk } = await mountApp(sandboxInfo());
      desk.collectionBrowse.mockImplementation(async () => ok({ total: 2, rows: [row(0), row(1)] }));
      await openView(wrapper, 'Collection');
      const set = (id: string, value: string) => {
        const control = document.getElementById(id) as HTMLInputElement | HTMLSelectElement;
        control.value = value;
        control.dispatchEvent(new Event(control.tagName === 'SELECT' ? 'change' : 'input'));
      };
      set('collection-text', 'salt');
      set('collection-format', 'EBOOK');
      set('collection-model', 'FLEX');
      await vi.advanceTimersByTimeAsync(300);
      await flushPromises();
      expect(desk.collectionBrowse).toHaveBeenLastCalledWith(expect.objectContaining({ text: 'salt', formats: ['EBOOK'], model: 'FLEX', offset: 0 }));
      const header = () => wrapper.findAll('[role="columnheader"]').find((h) => h.text().startsWith('Author'))!;
      expect(header().attributes('aria-sort')).toBe('none');
      await header().get('button').trigger('click');
      await flushPromises();
      expect(header().attributes('aria-sort')).toBe('ascending');
      await header().get('button').trigger('click');
      await flushPromises();
      expect(header().attributes('aria-sort')).toBe('descending');
      expect(desk.collectionBrowse).toHaveBeenLastCalledWith(expect.objectContaining({ sort: 'artist', direction: 'desc' }));
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a nearly empty record without "undefined", and borrows once for the patron on the desk', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.collectionBrowse.mockImplementation(async () => ok({ total: 1, rows: [{ contentId: 77, purchaseModel: 'INSTANT', active: true }] }));
    desk.collectionTitle.mockResolvedValue(ok({ contentId: 77, purchaseModel: 'INSTANT', active: true, availability: { status: 'BORROW', readAt: Date.now() - 60_000 },
      record: { id: 77, artists: [], genres: [], countries: [], purchaseModels: [], ratings: [], ppuPrices: [], segments: [], episodes: [] } }));
    desk.borrow.mockResolvedValue(ok({ value: { contentId: 77 }, confirmedByReread: false }));
    // a patron on the desk first
    const card = inputLabelled('Library card') as HTMLInputElement;
    card.value = '2110100002';
    card.dispatchEvent(new Event('input'));
    card.form?.dispatchEvent(new Event('submit'));
    await flushPromises();
    expect(desk.lookupPatron).toHaveBeenCalled();
    await openView(wrapper, 'Collection');
    await flushPromises();
    await wrapper.get('[role="rowgroup"] button.link').trigger('click');
    await flushPromises();
    const dialog = wrapper.get('[role="dialog"]');
    expect(dialog.text()).toContain('Title 77');
    for (const junk of ['undefined', 'NaN', '1970']) expect(dialog.text()).not.toContain(junk);
    const borrow = buttonNamed(wrapper, 'Borrow for ••••0002: Title 77');
    await borrow.trigger('click');
    await borrow.trigger('click');
    await flushPromises();
    expect(desk.borrow).toHaveBeenCalledTimes(1);
    expect(desk.borrow).toHaveBeenCalledWith(expect.objectContaining({ libraryId: 101, contentId: 77 }));
    void PATRON;
  });

  it("a title's details say what staff are asked on the phone, the rating the library's country gives, and each episode's running time", async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.collectionBrowse.mockResolvedValue(ok({ total: 1, rows: [{ contentId: 'ep/5/1', title: 'Harbour Lights', purchaseModel: 'INSTANT', active: true }] }));
    desk.collectionTitle.mockResolvedValue(ok({ contentId: 'ep/5/1', purchaseModel: 'INSTANT', active: true, record: {
      id: 'ep/5/1', title: 'Harbour Lights', format: 'TELEVISION', duration: '47m 0s', fiction: true, parentalAdvisory: true,
      ratings: [{ country: 'CA', value: '14A' }, { country: 'US', value: 'PG-13' }], language: 'ENGLISH', subtitleLanguage: 'FRENCH',
      artists: [], genres: [], countries: [], purchaseModels: [], ppuPrices: [], segments: [],
      episodes: [{ season: 1, episode: 1, title: 'Pilot', seconds: 2_820 }],
    } }));
    await openView(wrapper, 'Collection');
    await flushPromises();
    await wrapper.get('[role="rowgroup"] button.link').trigger('click');
    await flushPromises();
    const text = wrapper.get('[role="dialog"]').text();
    for (const part of ['Running time0:47', 'KindFiction', 'Parental ratingPG-13', 'Parental advisory: explicit content', 'SubtitlesFrench', 'Pilot · 0:47']) {
      expect(text).toContain(part);
    }
    expect(desk.collectionTitle).toHaveBeenCalledWith({ libraryId: 101, contentId: 'ep/5/1' });
  });
});

describe('what staff use (issue #34)', () => {
  it("a pay-per-use title's details say what one borrow costs the library, in its currency, with the rating and the content badges", async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.collectionBrowse.mockResolvedValue(ok({ total: 1, rows: [{ contentId: 9, title: 'Salt Roads', purchaseModel: 'INSTANT', active: true, flags: ['sample', 'edited'] }] }));
    desk.collectionTitle.mockResolvedValue(ok({ contentId: 9, purchaseModel: 'INSTANT', active: true, availability: { status: 'HOLD', holdsQueuePosition: 4, readAt: Date.now() }, record: {
      id: 9, title: 'Salt Roads', format: 'EBOOK', price: 2.49, rating: 'PG', demo: true, edited: true, profanity: false, forChildren: true,
      ratings: [], ppuPrices: [{ country: 'US', price: 1.99 }], artists: [], genres: [], countries: [], purchaseModels: [], segments: [], episodes: [],
    } }));
    await openView(wrapper, 'Collection');
    await flushPromises();
    const rowText = wrapper.get('[role="rowgroup"] [role="row"]').text();
    expect(rowText).toContain('Sample');
    expect(rowText).toContain('Edited version');
    await wrapper.get('[role="rowgroup"] button.link').trigger('click');
    await flushPromises();
    const text = wrapper.get('[role="dialog"]').text();
    // The library's own price (library content) wins over the catalog's for its country.
    for (const part of ['Price per borrow$2.49', 'Parental ratingPG', 'Sample', 'Edited version', "Children's", 'Holds queue position4']) expect(text).toContain(part);
    expect(text).not.toContain('Explicit language');
  });

  it('a Flex title has no price per borrow; without the library\'s own price, the catalog\'s for its country shows', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    const record = { id: 9, title: 'Salt Roads', ratings: [], ppuPrices: [{ country: 'CA', price: 3.5 }, { country: 'US', price: 1.99 }], artists: [], genres: [], countries: [], purchaseModels: [], segments: [], episodes: [] };
    desk.collectionBrowse.mockResolvedValue(ok({ total: 1, rows: [{ contentId: 9, title: 'Salt Roads', purchaseModel: 'INSTANT', active: true }] }));
    desk.collectionTitle.mockResolvedValueOnce(ok({ contentId: 9, purchaseModel: 'FLEX', active: true, record }));
    await openView(wrapper, 'Collection');
    await flushPromises();
    await wrapper.get('[role="rowgroup"] button.link').trigger('click');
    await flushPromises();
    expect(wrapper.get('[role="dialog"]').text()).not.toContain('Price per borrow');
    await buttonNamed(wrapper, 'Close').trigger('click');
    desk.collectionTitle.mockResolvedValueOnce(ok({ contentId: 9, purchaseModel: 'INSTANT', active: true, record }));
    await wrapper.get('[role="rowgroup"] button.link').trigger('click');
    await flushPromises();
    expect(wrapper.get('[role="dialog"]').text()).toContain('Price per borrow$1.99');
  });

  it('the content filter asks the mirror for a flag, or for titles without it', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.collectionBrowse.mockImplementation(async () => ok({ total: 2, rows: [row(0), row(1)] }));
    await openView(wrapper, 'Collection');
    const content = document.getElementById('collection-content') as HTMLSelectElement;
    content.value = 'sample';
    content.dispatchEvent(new Event('change'));
    await flushPromises();
    expect(desk.collectionBrowse).toHaveBeenLastCalledWith(expect.objectContaining({ flags: ['sample'], offset: 0 }));
    content.value = 'no-profanity';
    content.dispatchEvent(new Event('change'));
    await flushPromises();
    expect(desk.collectionBrowse).toHaveBeenLastCalledWith(expect.objectContaining({ withoutFlags: ['profanity'], offset: 0 }));
    expect(desk.collectionBrowse.mock.lastCall?.[0]).not.toHaveProperty('flags');
  });
});

describe('sync page: where the service answered otherwise (issue #34)', () => {
  it('says each mismatch in one sentence, newest first', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    const at = Date.now();
    desk.syncStatus.mockResolvedValue(ok(syncView({ mismatches: [
      { at, mismatch: { kind: 'model', libraryId: 101, asked: 'INSTANT', found: 'FLEX', count: 61, by: 'catalog' } },
      { at, mismatch: { kind: 'filter-ignored', libraryId: 101, count: 86 } },
      { at, mismatch: { kind: 'content-info', libraryId: 202, unasked: 8, unanswered: 4, ids: ['12', '40'] } },
    ] })));
    await openView(wrapper, 'Sync');
    await flushPromises();
    const items = wrapper.get('.mismatches').findAll('li').map((li) => li.text());
    expect(items).toHaveLength(3);
    expect(items[0]).toMatch(/library 202: availability answers about titles not asked for: 8 \(not used\); titles asked for and never answered: 4 \(shown as not known\)\. Ids: 12, 40\.$/);
    expect(items[1]).toMatch(/library 101: titles listed as both Instant and Flex .*: 86\./);
    expect(items[2]).toMatch(/library 101: titles listed as Instant whose catalog record \(sold one way only\) says Flex: 61\. The desk holds them as Flex\.$/);
  });
});

describe('sync page', () => {
  it('shows each source with when it last succeeded and failed, and a progress bar that follows events', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    const now = Date.now();
    desk.syncStatus.mockResolvedValue(ok(syncView({ counts: { titles: 1234, entitlements: [{ libraryId: 101, model: 'FLEX', active: 40, total: 42 }] },
      sources: [
        { source: 'global', inProgress: false, items: 1234, lastSuccessAt: now - 3_600_000, lastAttemptAt: now - 3_600_000 },
        { source: 'entitlements:101:FLEX', inProgress: false, items: 42, lastSuccessAt: now - 7_200_000, lastAttemptAt: now - 60_000, lastError: 'The service is temporarily unavailable', lastErrorCode: 'network' },
      ] })));
    let finish: (v: unknown) => void = () => {};
    desk.syncNow.mockImplementation(() => new Promise((resolve) => { finish = resolve as (v: unknown) => void; }));
    await openView(wrapper, 'Sync');
    // The Collection's own count, from the entitlements (issue #35), not the catalog's records.
    expect(wrapper.text()).toContain('Titles in the Collection: 40 active of 42');
    expect(wrapper.text()).toContain('Global catalog');
    expect(wrapper.text()).toContain('Entitlements, Library 101, Flex');
    expect(wrapper.find('[role="alert"]').text()).toMatch(/Entitlements, Library 101, Flex: the last attempt, .*, failed\. Nothing answered at this service address\. Check the address and this computer’s network connection\. The data from the last successful sync is still shown\./);
    expect(wrapper.find('[role="alert"]').text()).not.toMatch(/\.\./); // the sentence for the code ends itself
    expect(wrapper.find('[role="alert"]').text()).not.toMatch(/temporarily unavailable/); // main's English stays in the log
    await buttonNamed(wrapper, 'Sync now').trigger('click');
    desk.emit('syncProgress', { source: 'global', done: 300, total: 1200, ratePerSecond: 150, etaSeconds: 6 });
    await flushPromises();
    const bar = wrapper.get('progress');
    expect(bar.attributes('value')).toBe('300');
    expect(bar.attributes('max')).toBe('1200');
    expect(wrapper.text()).toContain('Global catalog: 300 of 1,200');
    expect(buttonNamed(wrapper, 'Sync now').attributes('disabled')).toBeDefined();
    finish(ok(syncView({ counts: { titles: 1234, entitlements: [] } })));
    await flushPromises();
    expect(wrapper.find('progress').exists()).toBe(false);
  });

  it('shows the desk bringing an earlier copy up to date, reading the status again until it is done', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { wrapper, desk } = await mountApp(sandboxInfo());
      const base = { counts: { titles: 1234, entitlements: [] }, sources: [] };
      desk.syncStatus.mockResolvedValueOnce(ok(syncView({ ...base, running: { source: 'mirror-upgrade', done: 40, total: 100 } })))
        .mockResolvedValueOnce(ok(syncView({ ...base, running: { source: 'mirror-upgrade', done: 85, total: 100 } })))
        .mockResolvedValue(ok(syncView(base)));
      await openView(wrapper, 'Sync');
      expect(wrapper.get('.sync .progress').text()).toContain('Bringing this desk’s copy up to date (the collection can be used meanwhile): 40 of 100');
      expect(wrapper.get('progress').attributes('value')).toBe('40');
      expect(buttonNamed(wrapper, 'Sync now').attributes('disabled')).toBeUndefined(); // a sync may run meanwhile
      await vi.advanceTimersByTimeAsync(1000);
      await flushPromises();
      expect(wrapper.get('progress').attributes('value')).toBe('85');
      await vi.advanceTimersByTimeAsync(1000);
      await flushPromises();
      expect(wrapper.find('progress').exists()).toBe(false);
      const asked = desk.syncStatus.mock.calls.length;
      await vi.advanceTimersByTimeAsync(5000);
      expect(desk.syncStatus.mock.calls.length).toBe(asked); // done: no more asking
    } finally {
      vi.useRealTimers();
    }
  });

  it('says why a source failed in the desk\'s words when main gave a reason: the disk nearly full', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.syncStatus.mockResolvedValue(ok(syncView({ counts: { titles: 10, entitlements: [] }, sources: [
      { source: 'global', inProgress: true, items: 10, lastAttemptAt: Date.now() - 60_000, lastError: 'The Collection on this computer stopped growing…', lastErrorCode: 'server',
        lastErrorReason: 'mirror.disk-full', lastErrorParams: { freeMiB: 300, keptMiB: 512 } },
    ] })));
    await openView(wrapper, 'Sync');
    expect(wrapper.get('[role="alert"]').text()).toMatch(/Global catalog: the last attempt, .*, failed\. The Collection on this computer stopped growing: the disk has 300 MiB free and the desk keeps 512 MiB free/);
  });

  it('shows the full entitlement pass (when, how many went, when next, set by IT) and the service\'s warnings, and runs the pass on demand', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    const lastAt = Date.UTC(2026, 10, 20, 9, 30);
    desk.syncStatus.mockResolvedValue(ok(syncView({
      sources: [{ source: 'entitlements:101:FLEX', inProgress: false, items: 42, lastSuccessAt: lastAt, lastAttemptAt: lastAt, lastFullAt: lastAt, lastFullRemoved: 3 }],
      warnings: [{ source: 'entitlements:101:FLEX', warnings: ['Some titles are being re-licensed.'] }],
      fullPass: { everyDays: 3, setBy: 'policy', lastAt, nextAt: lastAt + 3 * 86_400_000, removed: 3 },
    })));
    await openView(wrapper, 'Sync');
    const text = wrapper.text();
    expect(text).toContain('Titles the library no longer holds');
    expect(text).toContain('every 3 days');
    expect(text).toMatch(/Last full check: .*\. 3 titles no longer listed were removed\. Next full check: /);
    expect(text).toContain("Set by your library's IT");
    expect(text).toContain('Entitlements, Library 101, Flex: “Some titles are being re-licensed.”');
    expect(wrapper.findAll('td').map((td) => td.text())).toContain('3');
    await buttonNamed(wrapper, 'Check for removed titles').trigger('click');
    await flushPromises();
    expect(desk.syncNow).toHaveBeenCalledWith({ full: true, entitlementsOnly: true });
  });

  it('says when a desk on its own last read the catalog\'s changes by itself and when it will next (issue #34), in English and French', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    const lastAt = Date.UTC(2026, 10, 27, 8, 0);
    desk.syncStatus.mockResolvedValue(ok(syncView({ catalogRefresh: { everyDays: 2, setBy: 'default', lastAt, nextAt: lastAt + 2 * 86_400_000 } })));
    await openView(wrapper, 'Sync');
    const section = wrapper.get('.catalog-refresh').text();
    expect(section).toContain('Catalog updates');
    expect(section).toContain('by itself, every 2 days');
    expect(section).toMatch(/Last read .*\. Next: /);
    expect(section).not.toContain("Set by your library's IT");
    wrapper.unmount();

    // Set by IT, never read yet, in French.
    const info = sandboxInfo();
    const french = await mountApp({ ...info, preferences: { ...info.preferences, language: 'fr-CA' } });
    french.desk.syncStatus.mockResolvedValue(ok(syncView({ catalogRefresh: { everyDays: 1, setBy: 'policy' } })));
    await openView(french.wrapper, 'Synchronisation');
    const fr = french.wrapper.get('.catalog-refresh').text();
    expect(fr).toContain('Mises à jour du catalogue');
    expect(fr).toContain('chaque jour');
    expect(fr).toContain('Prochaine : dès que le poste est ouvert et connecté.');
  });
});
