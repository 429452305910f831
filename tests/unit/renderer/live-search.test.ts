// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { Result } from '../../../electron/shared/contract.ts';
import type { SearchPage } from '../../../electron/shared/model.ts';
import { LIVE_SEARCH_PAUSE_MS } from '../../../src/stores/live-search.ts';
import { usePatronStore } from '../../../src/stores/patron.ts';
import { announced, fail, inputLabelled, mountApp, ok, sandboxInfo } from './fake-desk.ts';
import { button, click, dialog, expectNoJunk, hasButton, hit, scan, searchFor, text } from './patron-desk-helpers.ts';

const page = (offset: number, count: number) => Array.from({ length: count }, (_, i) => hit({ titleId: 1000 + offset + i, title: `Title number ${offset + i + 1}`, format: 'EBOOK', purchaseModel: 'INSTANT' }));

describe('live search', () => {
  it('searches with the filters, pages with Previous/Next, and asks availability once per page', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValueOnce(ok({ found: 345, hits: page(0, 20) }));
    desk.liveSearch.mockResolvedValueOnce(ok({ found: 345, hits: page(20, 20) }));
    desk.liveAvailability.mockImplementation(async ({ contentIds }) => ok(contentIds.map((contentId) => ({ contentId, status: 'BORROW' as const, purchaseModel: 'INSTANT' as const }))));
    const format = inputLabelled('Format') as HTMLSelectElement;
    format.value = 'AUDIOBOOK';
    format.dispatchEvent(new Event('change'));
    const model = inputLabelled('Lending model') as HTMLSelectElement;
    model.value = 'FLEX';
    model.dispatchEvent(new Event('change'));
    const kids = document.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    kids.checked = true;
    kids.dispatchEvent(new Event('change'));
    await searchFor('  river  ');
    expect(desk.liveSearch).toHaveBeenLastCalledWith({ libraryId: 101, q: 'river', offset: 0, limit: 20, kidsMode: true, formats: ['AUDIOBOOK'], purchaseModel: 'FLEX' });
    expect(text()).toContain('Results 1–20 of 345');
    expect(announced('status')).toContain('Results 1–20 of 345');
    expect(desk.liveAvailability).toHaveBeenCalledTimes(1);
    expect(desk.liveAvailability).toHaveBeenLastCalledWith({ libraryId: 101, contentIds: page(0, 20).map((h) => h.titleId) });
    expect(button('Previous').disabled).toBe(true);
    await click(button('Next'));
    expect(desk.liveSearch).toHaveBeenLastCalledWith(expect.objectContaining({ q: 'river', offset: 20 }));
    expect(text()).toContain('Results 21–40 of 345');
    expect(desk.liveAvailability).toHaveBeenCalledTimes(2);
    expect(text()).toContain('Available');
  });

  it('before the first sync, looks the first five results up on the service and says so; the sixth when staff ask', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValueOnce(ok({ found: 6, hits: page(0, 6) }));
    desk.titleContents.mockResolvedValueOnce(ok(page(0, 6).map((h) => ({ titleId: h.titleId!, unresolved: 'no-mirror' as const }))));
    let answer!: () => void;
    desk.lookUpTitles.mockImplementationOnce(({ titleIds }) => new Promise((resolve) => {
      answer = () => resolve(ok(titleIds.map((titleId) => ({ titleId, contents: [{ contentId: titleId, purchaseModel: 'INSTANT' as const, active: true }] }))));
    }));
    desk.liveAvailability.mockImplementation(async ({ contentIds }) => ok(contentIds.map((contentId) => ({ contentId, status: 'BORROW' as const, purchaseModel: 'INSTANT' as const }))));
    await searchFor('river');
    expect(desk.lookUpTitles).toHaveBeenCalledWith({ libraryId: 101, titleIds: page(0, 5).map((h) => h.titleId) });
    expect(document.querySelectorAll('[role="status"]').length).toBeGreaterThanOrEqual(5);
    expect(text().split('Looking this title up on the service…').length - 1).toBe(5);
    expect(hasButton('Borrow Title number 1')).toBe(false);
    answer();
    await flushPromises();
    expect(text()).not.toContain('Looking this title up on the service…');
    expect(hasButton('Borrow Title number 1')).toBe(true);
    expect(desk.liveAvailability).toHaveBeenLastCalledWith({ libraryId: 101, contentIds: page(0, 5).map((h) => h.titleId) });
    // The sixth waits for staff: one request each is the credential's to spend.
    expect(text()).toContain('This desk has no copy of the Collection yet');
    await click(button('Look it up on the service'));
    expect(desk.lookUpTitles).toHaveBeenLastCalledWith({ libraryId: 101, titleIds: [1005] });
    expect(hasButton('Borrow Title number 6')).toBe(true);
  });

  it('a result the service has no title for under its number says so, and offers the sync', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValueOnce(ok({ found: 1, hits: page(0, 1) }));
    desk.titleContents.mockResolvedValueOnce(ok([{ titleId: 1000, unresolved: 'not-in-mirror' as const }]));
    desk.lookUpTitles.mockResolvedValueOnce(ok([{ titleId: 1000, unresolved: 'not-found-by-id' as const }]));
    await searchFor('river');
    expect(text()).toContain('Looked up on the service: the library’s list has no title under this result’s number.');
    expect(hasButton('Sync the Collection')).toBe(true);
    expect(hasButton('Look it up on the service')).toBe(false);
    expect(hasButton('Borrow Title number 1')).toBe(false);
  });

  it('refuses an empty query without calling main', async () => {
    const { desk } = await mountApp(sandboxInfo());
    await searchFor('   ');
    expect(desk.liveSearch).not.toHaveBeenCalled();
    expect(announced('alert')).toEqual(['Enter a word to search for.']);
  });

  it('shows a hit that has nothing but a titleId, and one with nothing at all, without junk', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValueOnce(ok({ found: 2, hits: [hit({ titleId: 77 }), hit({})] }));
    desk.liveAvailability.mockResolvedValueOnce(ok([{ contentId: 77 }]));
    await searchFor('x');
    expectNoJunk(text());
    expect(text()).toContain('Title 77');
    expect(text()).toContain('Untitled');
    expect(desk.liveAvailability).toHaveBeenCalledWith({ libraryId: 101, contentIds: [77] });
    // No patron on the desk: the button says what it does, not for whom.
    expect(hasButton('Borrow Title 77')).toBe(true);
    expect(hasButton('Borrow Untitled')).toBe(false); // no id, nothing to borrow
    await click(button('Details for Title 77'));
    expect(dialog()!.textContent).toContain('The service sent no other details for this title.');
    expectNoJunk(dialog()!.textContent ?? '');
  });

  it('groups TV episodes under their series in a collapsible list', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValueOnce(ok({ found: 1, hits: [hit({
      titleId: 500, title: 'Harbour Lights', format: 'TELEVISION',
      episodes: [{ titleId: 500, episode: 1, title: 'Arrival' }, { titleId: 100008002, episode: 2, title: 'Storm' }, { titleId: 100008003 }],
    })] }));
    await searchFor('harbour');
    const details = document.querySelector('ul.results details')!;
    expect(details.hasAttribute('open')).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Episodes (3)');
    expect(details.textContent).toContain('Episode 1: Arrival');
    expect(details.textContent).toContain('Episode 2: Storm');
    expect(details.textContent).toContain('Episode 3');
    expectNoJunk(text());
  });

  it('a title detail shows the metadata the hit has and can borrow; the action closes it', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValueOnce(ok({ found: 1, hits: [hit({
      titleId: 900, title: 'The Quiet Atlas', subtitle: 'Maps of nowhere', series: 'Atlas', publisher: 'North Press', language: 'FRENCH',
      isbn: '9780000000001', upc: '', genres: ['Travel', 'Essays'], format: 'EBOOK', purchaseModel: 'INSTANT', year: 2019,
      artists: [{ name: 'Ana Lima', role: 'AUTHOR' }, { name: 'Ana Lima', role: 'AUTHOR' }, { name: 'Bo Chen', role: 'READER' }],
      synopsis: 'A book of maps.',
    })] }));
    desk.liveAvailability.mockResolvedValue(ok([{ contentId: 900, status: 'BORROW', purchaseModel: 'INSTANT' }]));
    desk.borrow.mockResolvedValueOnce(ok({ value: { contentId: 900 }, confirmedByReread: false }));
    await scan('0012345');
    await searchFor('atlas');
    await click(button('Details for The Quiet Atlas'));
    const shown = dialog()!;
    const content = shown.textContent ?? '';
    for (const part of ['Maps of nowhere', 'Atlas', 'North Press', 'French', '9780000000001', 'Travel, Essays', 'Ana Lima (author); Bo Chen (reader)', 'A book of maps.', '2019', 'Instant (one monthly borrow each)']) {
      expect(content).toContain(part);
    }
    expect(content).not.toContain('UPC');
    await click(button('Borrow for ••••2345: The Quiet Atlas', shown));
    expect(dialog()).toBeNull();
    expect(desk.borrow).toHaveBeenCalledWith({ libraryId: 101, card: '0012345', contentId: 900, title: 'The Quiet Atlas' });
  });

  it("a title's details say what staff are asked on the phone: running time h:mm, pages, abridged, fiction, read-along, rating, languages, episodes with their times", async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValueOnce(ok({ found: 2, hits: [
      hit({ titleId: 910, title: 'Long Road Home', format: 'AUDIOBOOK', seconds: 11_100, abridged: true, fiction: false, language: 'ENGLISH' }),
      hit({ titleId: 911, title: 'Lantern Tales', format: 'EBOOK', pages: 48, readAlong: true, fiction: true, rating: 'G' }),
    ] }));
    desk.titleContents.mockResolvedValueOnce(ok([{ titleId: 910, unresolved: 'not-in-mirror' }, { titleId: 911, unresolved: 'not-in-mirror' }]));
    await searchFor('tales');
    await click(button('Details for Long Road Home'));
    let content = dialog()!.textContent ?? '';
    for (const part of ['Running time3:05', 'EditionAbridged', 'KindNon-fiction', 'LanguageEnglish']) expect(content).toContain(part);
    await click(button('Close', dialog()!));
    await click(button('Details for Lantern Tales'));
    content = dialog()!.textContent ?? '';
    for (const part of ['Pages48', 'KindFiction', 'Read-alongYes: the text is highlighted as it is read aloud', 'Parental ratingG']) expect(content).toContain(part);
    expect(content).not.toContain('Edition'); // "unabridged" on an ebook would be noise
    await click(button('Close', dialog()!));

    desk.liveSearch.mockResolvedValueOnce(ok({ found: 1, hits: [hit({
      titleId: 920, title: 'Harbour Lights', format: 'TELEVISION', rating: '14A', parentalAdvisory: true, subtitleLanguage: 'FRENCH', dubLanguage: 'SPANISH',
      episodes: [{ id: 'ep/920/1', episode: 1, title: 'Pilot', seconds: 2_820 }, { id: 'ep/920/2', episode: 2, title: 'Fog', seconds: 3_000 }],
    })] }));
    desk.titleContents.mockResolvedValueOnce(ok([{ titleId: 920, unresolved: 'not-in-mirror' }]));
    await searchFor('harbour');
    await click(button('Details for Harbour Lights'));
    content = dialog()!.textContent ?? '';
    for (const part of ['Parental rating14A', 'Parental advisory: explicit content', 'SubtitlesFrench', 'Dubbed inSpanish', 'Pilot · 0:47', 'Fog · 0:50']) expect(content).toContain(part);
  });

  it('a search that fails on the connection says so and Retry repeats it', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValueOnce(fail('server', 'HTTP 503'));
    desk.liveSearch.mockResolvedValueOnce(ok({ found: 0, hits: [] }));
    await searchFor('atlas');
    expect(announced('alert')[0]).toContain('The lending service has a problem right now.');
    await click(button('Retry'));
    expect(desk.liveSearch).toHaveBeenCalledTimes(2);
    expect(desk.liveSearch.mock.calls[1]).toEqual(desk.liveSearch.mock.calls[0]);
    expect(text()).toContain('No titles match “atlas”.');
  });

  it('search text, filters and results go at a lock (what a patron asked for), with the patron', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValueOnce(ok({ found: 1, hits: page(0, 1) }));
    await scan('0012345');
    await searchFor('title');
    await click(button('Lock'));
    const { useLiveSearchStore } = await import('../../../src/stores/live-search.ts');
    const { useCirculationStore } = await import('../../../src/stores/circulation.ts');
    expect(useLiveSearchStore().page).toBeUndefined();
    expect(useLiveSearchStore().query).toBe('');
    expect(useCirculationStore().outcome).toBeUndefined();
  });
});

describe('nothing wasted (issue #34)', () => {
  /** Types `text` into the search box a letter at a time, as staff do. */
  function type(text: string): void {
    const input = inputLabelled('Search the catalog') as HTMLInputElement;
    for (const letter of text) {
      input.value += letter;
      input.dispatchEvent(new Event('input'));
    }
  }

  it('sends a live search once typing pauses, not a letter at a time', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    try {
      const { desk } = await mountApp(sandboxInfo());
      desk.liveSearch.mockResolvedValue(ok({ found: 0, hits: [] }));
      type('riv');
      await vi.advanceTimersByTimeAsync(LIVE_SEARCH_PAUSE_MS - 1);
      type('er');
      await vi.advanceTimersByTimeAsync(LIVE_SEARCH_PAUSE_MS - 1);
      expect(desk.liveSearch).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(desk.liveSearch).toHaveBeenCalledTimes(1);
      expect(desk.liveSearch).toHaveBeenLastCalledWith(expect.objectContaining({ q: 'river', offset: 0 }));
      expect(LIVE_SEARCH_PAUSE_MS).toBeGreaterThanOrEqual(300);
      expect(LIVE_SEARCH_PAUSE_MS).toBeLessThanOrEqual(500);
      // Enter sends at once, and the pause that follows sends nothing more (the same search).
      type(' road');
      (inputLabelled('Search the catalog') as HTMLInputElement).closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
      await vi.advanceTimersByTimeAsync(0);
      expect(desk.liveSearch).toHaveBeenCalledTimes(2);
      expect(desk.liveSearch).toHaveBeenLastCalledWith(expect.objectContaining({ q: 'river road' }));
      await vi.advanceTimersByTimeAsync(LIVE_SEARCH_PAUSE_MS * 2);
      expect(desk.liveSearch).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancels a search still under way that a newer one supersedes', async () => {
    const { desk } = await mountApp(sandboxInfo());
    let answerFirst: (result: Result<SearchPage>) => void = () => {};
    desk.liveSearch.mockImplementationOnce(() => new Promise((resolve) => { answerFirst = resolve; }));
    desk.liveSearch.mockResolvedValue(ok({ found: 0, hits: [] }));
    await searchFor('river');
    const first = desk.callIds.find((c) => c.method === 'liveSearch')!;
    expect(desk.cancelCalls).not.toHaveBeenCalled();
    await searchFor('harbour');
    expect(desk.cancelCalls).toHaveBeenCalledWith({ callIds: [first.callId] });
    answerFirst(ok({ found: 1, hits: [hit({ titleId: 5, title: 'Too late' })] }));
    await flushPromises();
    expect(text()).not.toContain('Too late');
  });

  it('cancels a lookup still under way when another card is looked up', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockImplementationOnce(() => new Promise(() => {}));
    const patron = usePatronStore();
    void patron.lookup(101, '2110100001');
    await flushPromises();
    const first = desk.callIds.find((c) => c.method === 'lookupPatron')!;
    await patron.lookup(101, '2110100002');
    expect(desk.cancelCalls).toHaveBeenCalledWith({ callIds: [first.callId] });
    expect(patron.viewCard).toBe('2110100002');
  });
});
