// @vitest-environment happy-dom
// Typing in the Collection's search (issue #30), on a contract whose answers come when the test
// says: one first page is asked at a time, and keystrokes made while it is on its way are asked
// as one, the newest text, when it comes back; an answer for text staff have typed past is never
// shown. Meanwhile the rows on screen stay on the page, hidden and busy, and neither Enter nor
// Alt+B acts on them; the answer for the text in the box is then written into those same rows.
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { ArgsOf, BrowseRow, CollectionPage, Result } from '../../../electron/shared/contract.ts';
import { FIRST_ROWS } from '../../../src/stores/collection.ts';
import { useSessionStore } from '../../../src/stores/session.ts';
import { installFakeDesk, mountApp, ok, sandboxInfo } from './fake-desk.ts';
import { openCollection, typeInSearch } from './collection-steps.ts';
import { press } from './patron-desk-helpers.ts';

const rows = (word: string, n = 3): BrowseRow[] => Array.from({ length: n }, (_, i) => ({ contentId: i + 1, title: `${word} ${i + 1}`, format: 'EBOOK', purchaseModel: 'INSTANT', active: true }));

type FakeDesk = ReturnType<typeof installFakeDesk>;

interface Asked { args: ArgsOf<'collectionBrowse'>; answer: (page: CollectionPage) => Promise<void> }

/** Every Collection query waits for the test to answer it; exact counts are answered at once (they are not what is tested). */
function answeredByHand(desk: FakeDesk): Asked[] {
  const asked: Asked[] = [];
  desk.collectionBrowse.mockImplementation((args?: ArgsOf<'collectionBrowse'>) => {
    if (args?.exactCount) return Promise.resolve(ok({ total: 3, rows: [] }));
    return new Promise<Result<CollectionPage>>((resolve) => {
      asked.push({ args: args!, answer: async (page) => { resolve(ok(page)); await flushPromises(); } });
    });
  });
  return asked;
}

/** The app on the Collection, its first query answered with `first`; `before`: what staff did first (a patron looked up). */
async function collectionShowing(first: CollectionPage, before: (desk: FakeDesk) => Promise<void> = async () => {}) {
  const { wrapper, desk } = await mountApp(sandboxInfo());
  await before(desk);
  const asked = answeredByHand(desk);
  await openCollection(wrapper);
  await asked[0]!.answer(first);
  return { wrapper, desk, asked };
}

const grid = () => document.querySelector('[role="grid"]') as HTMLElement;
const rowGroup = () => document.querySelector('[role="rowgroup"]') as HTMLElement;
const staleCover = () => document.querySelector('.stale-cover') as HTMLElement;
const titles = () => [...document.querySelectorAll('[role="rowgroup"] .col-title button')].map((b) => b.textContent?.trim());

describe('typing in the Collection search', () => {
  it('asks one first page at a time: what is typed meanwhile is asked as the newest text once it comes back, and its late answer never shows', async () => {
    const { wrapper, desk, asked } = await collectionShowing({ total: 3, rows: rows('Plain') });

    await typeInSearch('s');
    expect(asked.map((a) => a.args.text)).toEqual([undefined, 's']);
    await typeInSearch('sa');
    await typeInSearch('sal');
    await typeInSearch('salt');
    // Three keystrokes, no new question while the answer for "s" is on its way.
    expect(asked).toHaveLength(2);

    await asked[1]!.answer({ total: 1000, atLeast: true, rows: rows('Stale S') });
    // Answered for "s" while "salt" is in the box: dropped, and "salt" asked at once.
    expect(asked.map((a) => a.args.text)).toEqual([undefined, 's', 'salt']);
    expect(asked[2]!.args).toMatchObject({ offset: 0, limit: FIRST_ROWS });
    expect(wrapper.text()).not.toContain('Stale S');
    expect(wrapper.text()).not.toContain('1,000+');

    await asked[2]!.answer({ total: 2, rows: rows('Salt', 2) });
    expect(titles()).toEqual(['Salt 1', 'Salt 2']);
    expect(wrapper.text()).toContain('2 titles');
    expect(asked).toHaveLength(3);
    // Nothing was superseded on its way to main: no call needed cancelling.
    expect(desk.cancelCalls).not.toHaveBeenCalled();
  });

  it('a keystroke after the answer came asks at once (no waiting for typing to pause)', async () => {
    const { wrapper, desk, asked } = await collectionShowing({ total: 3, rows: rows('Plain') });
    for (const [i, text] of ['r', 'ri', 'riv'].entries()) {
      await typeInSearch(text);
      expect(asked).toHaveLength(i + 2);
      expect(asked[i + 1]!.args.text).toBe(text);
      await asked[i + 1]!.answer({ total: 3, rows: rows(`Answer ${text}`) });
      expect(titles()[0]).toBe(`Answer ${text} 1`);
    }
  });

  it('a space typed after a word asks nothing new: the rows stay shown, as they are', async () => {
    const { wrapper, desk, asked } = await collectionShowing({ total: 3, rows: rows('Plain') });
    await typeInSearch('summer');
    await asked[1]!.answer({ total: 2, rows: rows('Summer', 2) });
    await typeInSearch('summer ');
    expect(asked).toHaveLength(2);
    expect(rowGroup().classList.contains('stale')).toBe(false);
    expect(titles()).toEqual(['Summer 1', 'Summer 2']);
    await typeInSearch('summer s');
    expect(asked.map((a) => a.args.text)).toEqual([undefined, 'summer', 'summer s']);
  });

  it('a new search goes back to the top of the grid and its first row', async () => {
    const { wrapper, desk, asked } = await collectionShowing({ total: 500, rows: rows('Plain', 100) });
    rowGroup().scrollTop = 2600; // fifty rows down
    rowGroup().dispatchEvent(new Event('scroll'));
    await flushPromises();
    await typeInSearch('b');
    expect(rowGroup().scrollTop).toBe(0);
    await asked[asked.length - 1]!.answer({ total: 2, rows: rows('B', 2) });
    expect(rowGroup().scrollTop).toBe(0);
    expect(titles()).toEqual(['B 1', 'B 2']);
    expect(grid().getAttribute('aria-activedescendant')).toBe('collection-row-0');
  });

  it('a first answer carries the first screen of rows; the rest of page 0 is asked only when staff scroll past them', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    const asked = answeredByHand(desk);
    await openCollection(wrapper);
    expect(asked[0]!.args).toMatchObject({ offset: 0, limit: FIRST_ROWS });
    await asked[0]!.answer({ total: 500, rows: rows('Plain', FIRST_ROWS) });
    expect(asked).toHaveLength(1); // the first screen is all there: nothing more asked
    rowGroup().scrollTop = 52 * (FIRST_ROWS - 1);
    rowGroup().dispatchEvent(new Event('scroll'));
    await flushPromises();
    expect(asked).toHaveLength(2);
    expect(asked[1]!.args).toMatchObject({ offset: FIRST_ROWS, limit: 100 - FIRST_ROWS });
    await asked[1]!.answer({ total: 500, rows: Array.from({ length: 100 - FIRST_ROWS }, (_, i) => ({ contentId: 1000 + i, title: `Further ${i + 1}`, purchaseModel: 'INSTANT' as const, active: true })) });
    expect(titles()).toContain('Further 1');
    expect(titles()).toContain(`Plain ${FIRST_ROWS}`);
  });

  it('keeps the rows on the page while the answer is awaited, hidden and acted on by nothing, then writes the answer into the same rows', async () => {
    const { wrapper, desk, asked } = await collectionShowing({ total: 3, rows: rows('Plain') });
    const firstRow = document.getElementById('collection-row-0')!;
    expect(grid().getAttribute('aria-busy')).toBe('false');
    expect(rowGroup().classList.contains('stale')).toBe(false);

    await typeInSearch('river');
    // The same row element, hidden (the stale class) and the grid busy; the count is not shown for text not yet answered.
    expect(document.getElementById('collection-row-0')).toBe(firstRow);
    expect(rowGroup().classList.contains('stale')).toBe(true);
    expect(rowGroup().getAttribute('aria-hidden')).toBe('true');
    expect(grid().getAttribute('aria-busy')).toBe('true');
    expect(wrapper.find('p.status').text()).toBe('');
    // The cover over the rows takes the pointer meanwhile (they stay in view for the first 100 ms).
    expect(staleCover().classList.contains('stale')).toBe(true);
    // Enter on the grid, or a click that reaches a title's button, opens no title of the earlier search.
    grid().focus();
    await press('Enter', {}, grid());
    (firstRow.querySelector('.col-title button') as HTMLButtonElement).click();
    await flushPromises();
    expect(desk.collectionTitle).not.toHaveBeenCalled();
    expect(wrapper.find('[role="dialog"]').exists()).toBe(false);

    await asked[1]!.answer({ total: 2, rows: rows('River', 2) });
    expect(document.getElementById('collection-row-0')).toBe(firstRow);
    expect(firstRow.textContent).toContain('River 1');
    expect(rowGroup().classList.contains('stale')).toBe(false);
    expect(rowGroup().hasAttribute('aria-hidden')).toBe(false);
    expect(grid().getAttribute('aria-busy')).toBe('false');
    expect(staleCover().classList.contains('stale')).toBe(false);
    expect(document.getElementById('collection-row-2')).toBeNull();
    await press('Enter', {}, grid());
    expect(desk.collectionTitle).toHaveBeenCalledWith({ libraryId: 101, contentId: 1 });
  });

  it('Alt+B or a click borrows nothing from rows of an earlier search; Alt+B borrows the active row of the answer once it comes', async () => {
    const { desk, asked } = await collectionShowing({ total: 3, rows: rows('Plain') }, async (desk) => {
      desk.borrow.mockResolvedValue(ok({ value: { contentId: 1 }, confirmedByReread: false }));
      const card = document.getElementById('card-entry-input') as HTMLInputElement;
      card.value = '2110100002';
      card.dispatchEvent(new Event('input'));
      card.form?.dispatchEvent(new Event('submit'));
      await flushPromises();
      expect(desk.lookupPatron).toHaveBeenCalled();
    });

    await typeInSearch('harbour');
    await press('b', { code: 'KeyB', altKey: true }, document.body);
    // Nor a click that reaches a hidden row's button (the grid lets no pointer through meanwhile).
    (document.querySelector('#collection-row-1 button.row-action') as HTMLButtonElement).click();
    await flushPromises();
    expect(desk.borrow).not.toHaveBeenCalled();

    await asked[1]!.answer({ total: 1, rows: [{ contentId: 42, title: 'Harbour Lights', format: 'EBOOK', purchaseModel: 'INSTANT', active: true }] });
    await press('b', { code: 'KeyB', altKey: true }, document.body);
    expect(desk.borrow).toHaveBeenCalledTimes(1);
    expect(desk.borrow).toHaveBeenCalledWith(expect.objectContaining({ libraryId: 101, contentId: 42 }));
  });

  it('another library while a first page is on its way: its answer is dropped and the new library asked, once', async () => {
    const { wrapper, desk, asked } = await collectionShowing({ total: 3, rows: rows('Plain') });
    await typeInSearch('gar');
    useSessionStore().selectLibrary(202);
    await flushPromises();
    // The earlier library's rows go at once (not held as stale: they are another library's).
    expect(titles()).toEqual([]);
    await asked[1]!.answer({ total: 1, rows: rows('From 101', 1) });
    expect(wrapper.text()).not.toContain('From 101');
    const for202 = asked.filter((a) => a.args.libraryId === 202);
    expect(for202).toHaveLength(1);
    expect(for202[0]!.args).toMatchObject({ text: 'gar', offset: 0 });
    await for202[0]!.answer({ total: 1, rows: rows('From 202', 1) });
    expect(titles()).toEqual(['From 202 1']);
  });
});
