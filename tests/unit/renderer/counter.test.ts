// @vitest-environment happy-dom
// The desk as staff use it at the counter (issue #35), on a fake contract: a scanner's keys, the
// card rules IT's policy gives (nothing reaches main for a scan they refuse), the patron strip on
// every tab, nothing private left in view, an Enter that never presses what the clerk did not
// choose, an outcome nobody knows, what a series costs in Instant borrows, and the French a
// Québec library writes.
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppInfo, PatronView } from '../../../electron/shared/contract.ts';
import { LIBRARY_RULES, mapleCard, riversideCard, riversideItem, wrongDigit } from '../../support/library-rules.ts';
import { announced, fail, inputLabelled, mountApp, ok, PATRON, sandboxInfo } from './fake-desk.ts';
import { button, click, dialog, hasButton, hit, press, scan, searchFor, text } from './patron-desk-helpers.ts';

afterEach(() => vi.useRealTimers());

const CARD = riversideCard(42);
const OTHER = mapleCard(4);
const ITEM = riversideItem(12345);
const WRONG = wrongDigit(CARD, 1);
const withRules = (info: AppInfo = sandboxInfo()): AppInfo => ({ ...info, libraryRules: [...LIBRARY_RULES] });
const cardField = () => inputLabelled('Library card') as HTMLInputElement;

/** A scanner: each character as a key into what has focus, then Enter (what a USB scanner sends). */
async function scanKeys(card: string): Promise<void> {
  for (const key of card) {
    const target = document.activeElement ?? document.body;
    const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
    target.dispatchEvent(event);
    await flushPromises();
    // What a browser does with a key nobody prevented: a text field takes the character.
    const now = document.activeElement;
    if (!event.defaultPrevented && now instanceof HTMLInputElement && now === target) {
      now.value += key;
      now.dispatchEvent(new Event('input'));
    }
  }
  const field = document.activeElement;
  if (field instanceof HTMLInputElement && field.form) field.form.dispatchEvent(new Event('submit', { cancelable: true }));
  else (document.activeElement as HTMLElement | null)?.click();
  await flushPromises();
}

describe('scanner first', () => {
  it('refuses what breaks the card rules before any request, with the reason, and leaves the number selected for the next scan', async () => {
    const { desk } = await mountApp(withRules());
    await scan(WRONG);
    expect(announced('alert')[0]).toContain('This is not a card number of Riverside Public Library: its last digit (the check digit) does not match the others');
    await scan(ITEM);
    expect(announced('alert')[0]).toContain('This is an item barcode (from a book, disc or kit), not a library card.');
    await scan('2999900000011');
    expect(announced('alert')[0]).toContain('Cards of Riverside Public Library start with 21101, and this number does not.');
    expect(desk.lookupPatron).not.toHaveBeenCalled();
    expect(cardField().value).toBe('2999900000011');
    expect(document.activeElement).toBe(cardField());
    await scan(CARD);
    expect(desk.lookupPatron).toHaveBeenCalledWith({ libraryId: 101, card: CARD });
  });

  it('another library\'s card: says whose it is, sends nothing, and Alt+O switches to that library and looks it up', async () => {
    const { desk } = await mountApp(withRules());
    await scan(OTHER);
    expect(announced('alert')[0]).toContain('This is a card of Maple Valley Library, not of Riverside Public Library. Switch to Maple Valley Library to look it up.');
    expect(desk.lookupPatron).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(cardField()); // the offer is not focused: a scanner's Enter cannot take it
    await press('o', { code: 'KeyO', altKey: true });
    expect(desk.lookupPatron).toHaveBeenCalledWith({ libraryId: 202, card: OTHER });
    expect((inputLabelled('Library') as HTMLSelectElement).value).toBe('202');
  });

  it('a scan replaces the patron on screen cleanly: nothing stays offered for the last one while the next is looked up, or when it is refused', async () => {
    const { desk } = await mountApp({ ...withRules(), recentPatrons: 0 });
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [hit({ titleId: 301, title: 'Paper Moons', purchaseModel: 'INSTANT' })] }));
    desk.liveAvailability.mockResolvedValue(ok([{ contentId: 301, status: 'BORROW', purchaseModel: 'INSTANT' }]));
    await scan(CARD);
    await searchFor('moons');
    expect(hasButton(`Borrow for ••••${CARD.slice(-4)}: Paper Moons`)).toBe(true);
    let answer!: (view: ReturnType<typeof ok<PatronView>>) => void;
    desk.lookupPatron.mockImplementationOnce(() => new Promise((resolve) => { answer = resolve; }));
    const next = riversideCard(59);
    await scan(next);
    // Under way: the last patron's name is on no button, and the strip says a card is being looked up.
    expect(text()).not.toContain(`••••${CARD.slice(-4)}`);
    expect(button('Borrow Paper Moons').disabled).toBe(true);
    expect(text()).toContain('Looking up the patron…');
    answer(ok(PATRON));
    await flushPromises();
    expect(hasButton(`Borrow for ••••${next.slice(-4)}: Paper Moons`)).toBe(true);
    await scan(WRONG);
    expect(text()).not.toContain(`••••${next.slice(-4)}`);
    expect(button('Borrow Paper Moons').disabled).toBe(true);
  });

  it('keys typed on a button go to the card field: the scanner\'s Enter presses nothing the clerk did not choose', async () => {
    const { desk } = await mountApp(withRules());
    await scan(CARD);
    const slip = button('Slip');
    slip.focus();
    await scanKeys(riversideCard(59));
    expect(desk.lookupPatron).toHaveBeenLastCalledWith({ libraryId: 101, card: riversideCard(59) });
    expect(dialog()).toBeNull(); // the slip did not open
  });

  it('a scan while a return waits for its confirmation cancels it: the Enter never confirms for the last patron', async () => {
    const { desk } = await mountApp(withRules());
    await scan(CARD);
    await press('r', { code: 'KeyR', altKey: true });
    expect(dialog()?.textContent).toContain('Yes, return it for');
    await scanKeys(riversideCard(59));
    expect(dialog()).toBeNull();
    expect(desk.returnTitle).not.toHaveBeenCalled();
    expect(desk.lookupPatron).toHaveBeenLastCalledWith({ libraryId: 101, card: riversideCard(59) });
  });
});

describe('the patron strip and nothing private in view', () => {
  it('names the patron on every tab, with the allowance, the counts and a ready hold\'s deadline; the full number leaves the field', async () => {
    const { wrapper } = await mountApp(sandboxInfo());
    await scan('0012345');
    expect(cardField().value).toBe('');
    const strip = () => document.querySelector('.patron-strip')?.textContent ?? '';
    expect(strip()).toContain('Card ••••2345');
    expect(strip()).toContain('3 of 5 borrows left this month');
    expect(strip()).toMatch(/2 loans · 2 holds, 1 ready until \w+ \d+/);
    for (const tab of ['Collection', 'Sync']) {
      await wrapper.get(`#view-tab-${tab.toLowerCase()}`).trigger('click');
      await flushPromises();
      expect(strip(), tab).toContain('Card ••••2345');
      expect(document.getElementById('card-entry-input'), tab).not.toBeNull(); // and the card field, for the next scan
    }
    expect(strip()).not.toContain('0012345');
  });

  it('keeps no recent patrons unless IT\'s policy says how many', async () => {
    await mountApp({ ...sandboxInfo(), recentPatrons: 0 });
    await scan('0012345');
    await scan('0098765');
    expect(document.querySelector('[aria-labelledby="recent-heading"]')).toBeNull();
    expect(hasButton('Look up card ••••2345 again')).toBe(false);
  });
});

describe('the record matches the screen', () => {
  it('an outcome nobody knows offers to check the account first; read again, it says whether it went through, and Retry only then', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [hit({ titleId: 301, title: 'Paper Moons', purchaseModel: 'INSTANT' })] }));
    desk.liveAvailability.mockResolvedValue(ok([{ contentId: 301, status: 'BORROW', purchaseModel: 'INSTANT' }]));
    await scan('0012345');
    await searchFor('moons');
    desk.borrow.mockResolvedValueOnce(fail('network', 'lost', { reason: 'action.outcome-unknown', params: {} }));
    await click(button('Borrow for ••••2345: Paper Moons'));
    expect(announced('alert')[0]).toContain('could not be read to see whether it took effect');
    expect(hasButton('Retry')).toBe(false);
    expect(hasButton('Retry for ••••2345')).toBe(false);
    // Read again: the loan is there.
    desk.lookupPatron.mockResolvedValueOnce(ok({ ...PATRON, loans: [...PATRON.loans, { contentId: 301, title: 'Paper Moons' }] }));
    await press('o', { code: 'KeyO', altKey: true });
    expect(announced('alert')[0]).toContain('Read again, the account of ••••2345 shows it went through for Paper Moons: do not try again.');
    expect(hasButton('Retry for ••••2345')).toBe(false);
    expect(desk.borrow).toHaveBeenCalledTimes(1);
  });

  it('read again without the loan, Retry is offered (not as the first action)', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [hit({ titleId: 301, title: 'Paper Moons', purchaseModel: 'INSTANT' })] }));
    desk.liveAvailability.mockResolvedValue(ok([{ contentId: 301, status: 'BORROW', purchaseModel: 'INSTANT' }]));
    await scan('0012345');
    await searchFor('moons');
    desk.borrow.mockResolvedValueOnce(fail('timeout', 'lost', { reason: 'action.outcome-unknown', params: {} }));
    await click(button('Borrow for ••••2345: Paper Moons'));
    await click(button('Check the account of ••••2345'));
    expect(announced('alert')[0]).toContain('shows it did not go through for Paper Moons: it can be tried again.');
    desk.borrow.mockResolvedValueOnce(ok({ value: { contentId: 301, title: 'Paper Moons' }, confirmedByReread: false }));
    await click(button('Retry for ••••2345'));
    expect(desk.borrow).toHaveBeenCalledTimes(2);
  });
});

describe('say what staff are asked', () => {
  it('a series of Instant episodes says what borrowing them all takes of the patron\'s borrows left', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [hit({ titleId: 900, title: 'Harbour Lights', purchaseModel: 'INSTANT', format: 'TELEVISION' })] }));
    desk.titleContents.mockResolvedValue(ok([{ titleId: 900, contents: Array.from({ length: 7 }, (_, i) => ({ contentId: `ep/900/${i + 1}`, episode: i + 1, purchaseModel: 'INSTANT' as const })) }]));
    await scan('0012345');
    await searchFor('harbour');
    expect(document.querySelector('.cost')?.textContent).toBe('Each episode is one Instant borrow: all 7 take 7, and this patron has 3 left this month.');
    expect(document.querySelector('details.episode-offers summary')?.textContent).toBe('7 episodes, each borrowed on its own');
  });
});

describe('French as a Québec library writes it', () => {
  const french = (info: AppInfo): AppInfo => ({ ...info, preferences: { ...info.preferences, language: 'fr-CA' } });
  async function balayer(card: string): Promise<void> {
    const field = inputLabelled('Carte de bibliothèque') as HTMLInputElement;
    field.value = card;
    field.dispatchEvent(new Event('input'));
    field.form!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flushPromises();
  }

  it('names the keys as a French keyboard prints them, and closes the patron\'s file rather than "erasing" the patron', async () => {
    await mountApp(french(sandboxInfo()));
    await balayer('0012345');
    expect(hasButton('Fermer le dossier')).toBe(true);
    expect(text()).not.toContain('Effacer l’usager');
    await press('F1');
    const keys = [...dialog()!.querySelectorAll('kbd')].map((k) => k.textContent);
    expect(keys).toEqual(expect.arrayContaining(['Entrée', 'Début', 'Fin', 'Échap']));
    expect(keys).not.toContain('Enter');
  });

  it('quotes the service\'s English as the service\'s, folded, never in the desk\'s sentence', async () => {
    const { desk } = await mountApp(french(sandboxInfo()));
    desk.lookupPatron.mockResolvedValueOnce(fail('server', 'x', { serviceMessage: 'Injected server error' }));
    await balayer('0012345');
    const alert = document.querySelector('[role="alert"]')!;
    expect(alert.querySelector('.error')!.textContent).toBe('Le service de prêt éprouve un problème. Réessayez dans un instant.');
    const details = alert.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Pour le service informatique : ce que le service de prêt a répondu (en anglais)');
    expect(details.querySelector('[lang="en"]')!.textContent).toBe('Message du service (en anglais) : « Injected server error »');
  });
});
