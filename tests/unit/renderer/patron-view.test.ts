// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PatronView } from '../../../electron/shared/contract.ts';
import { usePatronStore } from '../../../src/stores/patron.ts';
import { buttonNamed, inputLabelled, mountApp, ok, PATRON, sandboxInfo } from './fake-desk.ts';
import { button, dialog, expectNoJunk, hasButton, press, scan, text } from './patron-desk-helpers.ts';

afterEach(() => vi.useRealTimers());

const NOW = Date.UTC(2026, 2, 10, 15);
const DAY = 86_400_000;

describe('patron view', () => {
  it('shows what a bare account has and nothing else: loan with only contentId, hold with no status, status with nothing', async () => {
    const { desk } = await mountApp(sandboxInfo());
    const bare: PatronView = { libraryId: 101, status: {}, loans: [{ contentId: 41 }], holds: [{ contentId: 42 }], problems: [] };
    desk.lookupPatron.mockResolvedValueOnce(ok(bare));
    await scan('2110100009');
    const content = text();
    expectNoJunk(content);
    expect(content).toContain('Title 41');
    expect(content).toContain('Title 42');
    expect(content).not.toContain('borrows left');
    expect(content).not.toContain('Due');
    expect(document.querySelector('section[aria-labelledby="patron-loans-heading"]')?.textContent).not.toContain('Format');
    expect(content).not.toContain('Borrowed');
    expect(content).not.toContain('Position');
    expect(content).not.toContain('Waiting');
    expect(content).not.toContain('Title page');
    expect(hasButton('Return early: Title 41, card ••••0009')).toBe(true);
    expect(hasButton('Remove hold: Title 42, card ••••0009')).toBe(true);
  });

  it('treats zero and empty values as absent (no 1970, no empty links)', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(ok({
      libraryId: 101, status: { currentlyBorrowed: 0 },
      loans: [{ contentId: 5, title: '', borrowedAt: 0, dueAt: Number.NaN, url: '', coverImageUrl: '', message: '' }],
      holds: [{ contentId: 6, placedAt: 0, reserveUntil: -1, queuePosition: Number.NaN, url: 'javascript:alert(1)' }],
      problems: [],
    }));
    await scan('A1');
    expectNoJunk(text());
    expect(text()).toContain('1 loan · 1 hold');
    expect(document.querySelectorAll('a[href]')).toHaveLength(0);
  });

  it('shows the allowance with what it means, loans with dates, due in N days, message and link; holds with queue and dates', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const { desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(ok({
      libraryId: 101,
      status: { borrowsRemaining: 8, borrowsAllowedPerMonth: 10, currentlyBorrowed: 2 },
      loans: [{
        contentId: 11, title: 'The River Road', format: 'EBOOK', borrowedAt: NOW - 4 * DAY, dueAt: NOW + 3 * DAY,
        url: 'https://sandbox.lending-desk.invalid/t/11', coverImageUrl: 'https://sandbox.lending-desk.invalid/c/11.jpg',
        message: 'Enjoy The River Road until March 13.',
      }],
      holds: [{ contentId: 21, title: 'Night Garden', status: 'WAITING', queuePosition: 4, placedAt: NOW - DAY }],
      problems: [],
    }));
    await scan('2110100002');
    const content = text();
    expect(content).toContain('8 of 10 borrows left this month');
    expect(content).toContain('Instant titles use one borrow each; Flex titles use none.');
    expect(document.querySelector('.due')?.getAttribute('title')).toBe('Borrowed Mar 6, 2026');
    expect(content).toContain('Due Mar 13 (in 3 days)');
    expect(content).toContain('Enjoy The River Road until March 13.');
    expect(content).toContain('Placed Mar 9, 2026');
    expect(content).toContain('Position 4 in the queue');
    const link = document.querySelector<HTMLAnchorElement>('a[href="https://sandbox.lending-desk.invalid/t/11"]')!;
    expect(link.target).toBe('_blank');
    expect(link.rel).toContain('noopener');
    expect(link.getAttribute('aria-label')).toBe('Title page for The River Road (opens in your browser)');
  });

  it('says plainly when no Instant borrows are left, and the day they come back', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const { desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(ok({ ...PATRON, status: { borrowsRemaining: 0, borrowsAllowedPerMonth: 10 } }));
    await scan('2110100004');
    expect(text()).toContain('All 10 borrows of this month used: more from April 1');
    expect(text()).toContain('Instant titles wait until April 1; Flex titles can still be borrowed.');
  });

  it('keeps recent patrons masked, looks one up again without showing the card, and the lock forgets them', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    await scan('2110100002');
    await scan('00010112345');
    const recent = document.querySelector('nav[aria-labelledby="recent-heading"]')!;
    expect(recent.textContent).toContain('••••0002');
    expect(recent.textContent).toContain('••••2345');
    expect(document.body.innerHTML).not.toContain('2110100002');
    await buttonNamed(wrapper, 'Clear patron').trigger('click');
    button('Look up card ••••0002 again').click();
    await flushPromises();
    expect(desk.lookupPatron).toHaveBeenLastCalledWith({ libraryId: 101, card: '2110100002' });
    expect((inputLabelled('Library card') as HTMLInputElement).value).toBe('');
    expect(text()).toContain('Card ••••0002');
    expect(document.body.innerHTML).not.toContain('2110100002');

    await buttonNamed(wrapper, 'Lock').trigger('click');
    await flushPromises();
    expect(usePatronStore().recent).toEqual([]);
  });

  it('moves the selection with the arrow keys; Alt+R returns the selected loan, Alt+H removes the selected hold', async () => {
    const { desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    const loans = [...document.querySelectorAll<HTMLElement>('section[aria-labelledby="patron-loans-heading"] li')];
    expect(loans[0]!.getAttribute('aria-current')).toBe('true');
    expect(loans[0]!.tabIndex).toBe(0);
    loans[0]!.focus();
    await press('ArrowDown');
    expect(loans[1]!.getAttribute('aria-current')).toBe('true');
    expect(document.activeElement).toBe(loans[1]);
    await press('r', { code: 'KeyR', altKey: true });
    expect(dialog()?.textContent).toContain('Return Title 12 for card ••••2345?');
    await press('Escape');
    expect(dialog()).toBeNull();
    expect(desk.returnTitle).not.toHaveBeenCalled();
    expect(text()).toContain('Card ••••2345'); // Esc closed the dialog, the patron stays

    const holds = [...document.querySelectorAll<HTMLElement>('section[aria-labelledby="patron-holds-heading"] li')];
    holds[0]!.focus();
    await press('End');
    expect(holds[1]!.getAttribute('aria-current')).toBe('true');
    await press('h', { code: 'KeyH', altKey: true });
    expect(dialog()?.textContent).toContain('Remove the hold on Stone Harbour for card ••••2345?');
  });

  it('takes Alt, F keys and Esc from a text field, never a bare letter; Esc empties the field before it clears the patron', async () => {
    const { desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    const card = inputLabelled('Library card') as HTMLInputElement;
    card.focus();
    await press('?');
    await press('/');
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(card);
    await press('r', { code: 'KeyR', altKey: true });
    expect(dialog()?.textContent).toContain('Return The River Road for card ••••2345?');
    await press('Escape');
    expect(dialog()).toBeNull();
    card.focus();
    await press('ł', { code: 'KeyL', altKey: true, ctrlKey: true }); // AltGr+L types a character: no shortcut
    expect(dialog()).toBeNull();
    await press('F3');
    expect(document.activeElement).toBe(inputLabelled('Search the catalog'));
    await press('F2');
    expect(document.activeElement).toBe(card);
    await press('F1');
    expect(dialog()?.getAttribute('aria-labelledby')).toBeTruthy();
    expect(dialog()?.textContent).toContain('Keyboard shortcuts');
    expect(dialog()?.textContent).toContain('Alt+R');
    await press('Escape');
    expect(dialog()).toBeNull();
    expect(text()).toContain('Card ••••2345');
    // The card found left the field (issue #35); what is typed next is emptied first.
    expect(card.value).toBe('');
    card.value = '00';
    card.dispatchEvent(new Event('input'));
    await press('Escape', {}, card);
    expect(card.value).toBe(''); // the field first
    expect(text()).toContain('Card ••••2345');
    await press('Escape', {}, card);
    expect(text()).not.toContain('Card ••••2345'); // then the patron
    expect(desk.listActions).not.toHaveBeenCalled();
  });

  it("Esc in the live search box empties the query and keeps the patron", async () => {
    await mountApp(sandboxInfo());
    await scan('0012345');
    const query = inputLabelled('Search the catalog') as HTMLInputElement;
    query.focus();
    query.value = 'river';
    query.dispatchEvent(new Event('input'));
    await press('Escape', {}, query);
    expect(query.value).toBe('');
    expect(text()).toContain('Card ••••2345');
    expect(document.activeElement).toBe(query);
  });

  it('focus goes to search with / and Alt+S outside fields', async () => {
    await mountApp(sandboxInfo());
    (document.activeElement as HTMLElement).blur();
    await press('/', {}, document.body);
    expect(document.activeElement).toBe(inputLabelled('Search the catalog'));
    (document.activeElement as HTMLElement).blur();
    await press('c', { code: 'KeyC', altKey: true }, document.body);
    expect(document.activeElement).toBe(inputLabelled('Library card'));
    (document.activeElement as HTMLElement).blur();
    await press('s', { code: 'KeyS', altKey: true }, document.body);
    expect(document.activeElement).toBe(inputLabelled('Search the catalog'));
  });
});
