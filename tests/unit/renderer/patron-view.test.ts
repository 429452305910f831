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
    expect(content).not.toContain('Instant borrows');
    expect(content).not.toContain('Due');
    expect(content).not.toContain('Borrowed');
    expect(content).not.toContain('Position');
    expect(content).not.toContain('Waiting');
    expect(content).not.toContain('Title page');
    expect(document.querySelectorAll('.cover img')).toHaveLength(0); // placeholders, no broken images
    expect(hasButton('Return early: Title 41')).toBe(true);
    expect(hasButton('Remove hold: Title 42')).toBe(true);
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
    expect(text()).toContain('Currently borrowed: 0');
    expect(document.querySelectorAll('a[href]')).toHaveLength(0);
  });

  it('shows the allowance with what it means, loans with dates, due in N days, message, link and cover; holds with queue and dates', async () => {
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
    expect(content).toContain('8 of 10 Instant borrows left this month');
    expect(content).toContain('Flex titles do not use the allowance.');
    expect(content).toContain('Borrowed Mar 6, 2026');
    expect(content).toContain('Due Mar 13, 2026 (in 3 days)');
    expect(content).toContain('Enjoy The River Road until March 13.');
    expect(content).toContain('Placed Mar 9, 2026');
    expect(content).toContain('Position 4 in the queue');
    const link = document.querySelector<HTMLAnchorElement>('a[href="https://sandbox.lending-desk.invalid/t/11"]')!;
    expect(link.target).toBe('_blank');
    expect(link.rel).toContain('noopener');
    expect(link.getAttribute('aria-label')).toBe('Title page for The River Road (opens in your browser)');
    const cover = document.querySelector<HTMLImageElement>('.cover img')!;
    expect(cover.getAttribute('alt')).toBe('');
    cover.dispatchEvent(new Event('error'));
    await flushPromises();
    expect(document.querySelectorAll('.cover img')).toHaveLength(0); // the host never resolves: a placeholder instead
  });

  it('says plainly when no Instant borrows are left', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(ok({ ...PATRON, status: { borrowsRemaining: 0, borrowsAllowedPerMonth: 10 } }));
    await scan('2110100004');
    expect(text()).toContain('No Instant borrows left this month (all 10 used)');
    expect(text()).toContain('Instant titles cannot be borrowed until next month. Flex titles still can.');
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

  it('does not take letter shortcuts from a text field, but F keys and Esc work there', async () => {
    const { desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    const card = inputLabelled('Library card');
    card.focus();
    await press('r', { code: 'KeyR', altKey: true });
    await press('?');
    await press('l', { code: 'KeyL', altKey: true });
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
    await press('Escape', {}, card);
    expect(text()).not.toContain('Card ••••2345');
    expect(desk.listActions).not.toHaveBeenCalled();
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
