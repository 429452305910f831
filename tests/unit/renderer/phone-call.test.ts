// @vitest-environment happy-dom
// The phone call (issue #14) where a unit test says it best: the rules behind the screens (what
// a title offers this patron, the slip's text, durations and language names, French elision and
// plurals) and the desk's answers on a fake contract (a card found at another library, a ready
// hold borrowed with Alt+B, a refusal worded without the service's English, Ctrl+L).
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PatronView } from '../../../electron/shared/contract.ts';
import { durationHm, languageName } from '../../../src/components/collection/record-text.ts';
import { titleOffer } from '../../../src/components/live-search/title-offer.ts';
import { slipLines } from '../../../src/components/patron/slip.ts';
import { elided, elidedDe } from '../../../src/i18n/elision.ts';
import { firstOfNextMonth } from '../../../src/i18n/format.ts';
import { createDeskI18n } from '../../../src/i18n/index.ts';
import { announced, mountApp, ok, PATRON, sandboxInfo, serviceFail } from './fake-desk.ts';
import { button, hasButton, hit, press, scan, searchFor, text } from './patron-desk-helpers.ts';

afterEach(() => vi.useRealTimers());

const NOW = Date.UTC(2026, 2, 10, 15);
const view = (changes: Partial<PatronView> = {}): PatronView => ({ ...PATRON, ...changes });

describe('what a title offers the patron on screen', () => {
  it('their own loan or hold first: a RESERVED hold borrows now, a WAITING one says so', () => {
    expect(titleOffer(11, { status: 'BORROW', purchaseModel: 'INSTANT' }, view()).kind).toBe('on-loan');
    expect(titleOffer(22, { status: 'HOLD', purchaseModel: 'FLEX', holdsQueueSize: 2 }, view()).kind).toBe('ready');
    expect(titleOffer(21, { status: 'HOLD', purchaseModel: 'FLEX' }, view()).kind).toBe('waiting');
  });

  it('an Instant title with no borrow left waits; a Flex one stays offered; no copy free offers a hold', () => {
    const usedUp = view({ status: { borrowsRemaining: 0, borrowsAllowedPerMonth: 10 } });
    expect(titleOffer(99, { status: 'BORROW', purchaseModel: 'INSTANT' }, usedUp).kind).toBe('limit');
    expect(titleOffer(99, { status: 'BORROW', purchaseModel: 'FLEX' }, usedUp).kind).toBe('borrow');
    expect(titleOffer(99, { status: 'HOLD', purchaseModel: 'FLEX', holdsQueueSize: 3 }, usedUp)).toEqual({ kind: 'hold', queue: 3 });
    expect(titleOffer(99, { status: 'UNAVAILABLE' }, usedUp).kind).toBe('none');
    // An allowance the service did not send is not "used up".
    expect(titleOffer(99, { status: 'BORROW', purchaseModel: 'INSTANT' }, view({ status: {} })).kind).toBe('borrow');
    expect(titleOffer(99, { status: 'BORROW', purchaseModel: 'INSTANT' }, undefined).kind).toBe('borrow');
  });
});

describe('the due-date slip', () => {
  const { t } = createDeskI18n('en').global;
  const format = { date: (ms: number) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(ms), number: String };

  it('names the library, masks the card, gives each loan its due date and each hold its place', () => {
    const lines = slipLines({ libraryName: 'Riverside Public Library', card: '2110100002', view: view(), now: NOW }, t, format);
    expect(lines).toEqual([
      'Riverside Public Library',
      'Your digital loans and holds, Mar 10, 2026',
      'Card ••••0002',
      '',
      'Loans (2)',
      '- The River Road (eBook): due Mar 14, 2026',
      '- Title 12 (Music)',
      '',
      'Holds (2)',
      '- Night Garden: waiting, number 4 in line',
      '- Stone Harbour: ready to borrow until Apr 2, 2026',
      '',
      'Loans end by themselves on their due date: nothing to bring back.',
    ]);
    expect(lines.join('\n')).not.toContain('2110100002');
  });

  it('says there is nothing rather than leaving a heading empty, in the singular where it is one', () => {
    const lines = slipLines({ libraryName: 'Library 7', card: 'A1', view: view({ loans: [], holds: [PATRON.holds[0]!] }), now: NOW }, t, format);
    expect(lines).toContain('Loans (0)');
    expect(lines).toContain('No loans.');
    expect(lines).toContain('Hold (1)');
    expect(lines).toContain('Card ••••');
  });
});

describe('record text', () => {
  it('shows durations as h:mm', () => {
    expect(durationHm('840m 26s')).toBe('14:00');
    expect(durationHm('45m')).toBe('0:45');
    expect(durationHm('1h 5m')).toBe('1:05');
    expect(durationHm('3m 40s')).toBe('0:04');
    expect(durationHm('ninety minutes')).toBeUndefined();
    expect(durationHm('')).toBeUndefined();
  });

  it('names languages in the desk’s language, whether the service sends a name or a code', () => {
    expect(languageName('ENGLISH', 'en')).toBe('English');
    expect(languageName('FRENCH', 'fr-CA')).toBe('Français');
    expect(languageName('en', 'fr-CA')).toBe('Anglais');
    expect(languageName('KLINGON', 'en')).toBe('Klingon');
    expect(languageName('  ', 'en')).toBeUndefined();
  });
});

describe('French elision and plurals through the locale rules', () => {
  const fr = createDeskI18n('fr-CA').global;
  const en = createDeskI18n('en').global;

  it('elides "de" before a vowel and only there', () => {
    expect(fr.t('catalog.by', { artist: 'Amélie Nothomb' })).toBe('d’Amélie Nothomb');
    expect(fr.t('catalog.by', { artist: 'Gabriel Quinn' })).toBe('de Gabriel Quinn');
    expect(fr.t('catalog.detailsFor', { title: 'Avatar' })).toBe('Détails d’Avatar');
    expect(fr.t('actions.pending.borrow', { title: 'Harbour Lights' })).toBe('Emprunt de Harbour Lights…'); // h: left as written
    expect(elidedDe('De', 'Ulysse')).toBe('D’Ulysse');
    expect(elided('{a} de {b}').source).toBe('{a} de {b}');
  });

  it('counts 0 and 1 as singular in French, and 0 as plural in English', () => {
    expect(fr.t('collection.count', { count: '0' }, 0)).toBe('0 titre');
    expect(fr.t('collection.count', { count: '1' }, 1)).toBe('1 titre');
    expect(fr.t('collection.count', { count: '2' }, 2)).toBe('2 titres');
    expect(en.t('collection.count', { count: '0' }, 0)).toBe('0 titles');
    expect(en.t('collection.count', { count: '1' }, 1)).toBe('1 title');
    expect(en.t('catalog.copies', { available: 1, total: 1 }, 1)).toBe('1 of 1 copy free');
    expect(en.t('collection.checkedMinutes', { n: 0 }, 0)).toBe('checked just now');
    expect(en.t('collection.checkedMinutes', { n: 3 }, 3)).toBe('checked 3 min ago');
    expect(fr.t('collection.checkedMinutes', { n: 0 }, 0)).toBe('vérifiée à l’instant');
    expect(fr.t('collection.checkedMinutes', { n: 1 }, 1)).toBe('vérifiée il y a 1 min');
  });

  it('says the day borrows come back as the first of next month, in each language', () => {
    expect(new Date(firstOfNextMonth(new Date(2026, 11, 31, 23).getTime()))).toEqual(new Date(2027, 0, 1));
    expect(en.t('allowance.resetDate', { month: 'April' })).toBe('April 1');
    expect(fr.t('allowance.resetDate', { month: 'avril' })).toBe('1er avril');
  });
});

describe('the desk on a fake contract', () => {
  it('a card another library knows: Alt+O asks, Alt+O again switches and looks the card up there; focus never leaves the card field', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(serviceFail('invalid-patron', 'Invalid library or library card'));
    await scan('CA-5555');
    desk.findCardElsewhere.mockResolvedValueOnce(ok([{ libraryId: 202, known: true }]));
    await press('o', { code: 'KeyO', altKey: true });
    expect(desk.findCardElsewhere).toHaveBeenCalledWith({ libraryId: 101, card: 'CA-5555' });
    expect(text()).toContain('This card is known to Library 202.');
    // The offer waits for Alt+O: a scanner's Enter would otherwise press it (issue #35).
    expect(document.activeElement).toBe(document.getElementById('card-entry-input'));
    expect(hasButton('Switch to Library 202 and look it up')).toBe(true);
    await press('o', { code: 'KeyO', altKey: true });
    expect(desk.lookupPatron).toHaveBeenLastCalledWith({ libraryId: 202, card: 'CA-5555' });
    expect(text()).toContain('Card ••••5555');
  });

  it('says which libraries could not be asked, rather than calling the card unknown there', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(serviceFail('invalid-patron', 'Invalid library or library card'));
    await scan('CA-5555');
    desk.findCardElsewhere.mockResolvedValueOnce(ok([{ libraryId: 202, known: false, error: { code: 'network', message: 'x' } }]));
    button('Try the other libraries').click();
    await flushPromises();
    expect(text()).toContain('No other library of this connection knows this card either.');
    expect(text()).toContain('Library 202 could not be asked: The lending service cannot be reached.');
  });

  it('a ready hold borrows with Alt+B from anywhere on the patron desk', async () => {
    const { desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    desk.borrow.mockResolvedValueOnce(ok({ value: { contentId: 22, title: 'Stone Harbour', dueAt: NOW + 86_400_000 * 21 }, confirmedByReread: false }));
    await press('b', { code: 'KeyB', altKey: true });
    expect(desk.borrow).toHaveBeenCalledWith({ libraryId: 101, card: '0012345', contentId: 22, title: 'Stone Harbour' });
    expect(announced('status').join(' ')).toMatch(/Stone Harbour is borrowed for card ••••2345, due /);
  });

  it('a refused Instant borrow: the desk’s words and the day borrows come back, not the service’s English; focus on what can be done', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [hit({ titleId: 301, title: 'Paper Moons', purchaseModel: 'INSTANT' })] }));
    desk.liveAvailability.mockResolvedValue(ok([{ contentId: 301, status: 'BORROW', purchaseModel: 'INSTANT' }]));
    await scan('0012345');
    await searchFor('moons');
    desk.borrow.mockResolvedValueOnce(serviceFail('limit-reached', 'Monthly borrow allowance used up (0 of 5 borrows remaining this month)'));
    button('Borrow for ••••2345: Paper Moons').click();
    await flushPromises();
    const [alert] = announced('alert');
    expect(alert).toContain('The patron has used all 5 Instant borrows of this month. Flex titles can still be borrowed.');
    expect(alert).toContain('Titles like this one can be borrowed again from April 1.');
    expect(alert).not.toMatch(/allowance used up/);
    // Focus goes back to the card field for the next scan (issue #35).
    expect(document.activeElement).toBe(document.getElementById('card-entry-input'));
  });

  it('an Instant title waits when the allowance is used up, with the reason as its description', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const { desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValue(ok(view({ status: { borrowsRemaining: 0, borrowsAllowedPerMonth: 10 } })));
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [hit({ titleId: 301, title: 'Paper Moons', purchaseModel: 'INSTANT' })] }));
    desk.liveAvailability.mockResolvedValue(ok([{ contentId: 301, status: 'BORROW', purchaseModel: 'INSTANT' }]));
    await scan('0012345');
    await searchFor('moons');
    const borrow = button('Borrow for ••••2345: Paper Moons');
    expect(borrow.disabled).toBe(true);
    expect(document.getElementById(borrow.getAttribute('aria-describedby')!)?.textContent).toBe('Monthly limit reached: can be borrowed from April 1');
  });

  it('a refusal leaves focus in the card field; Alt+O takes its offer; the queue size that comes later does not pull focus', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [hit({ titleId: 302, title: 'Glass Rivers', purchaseModel: 'FLEX' })] }));
    desk.liveAvailability.mockResolvedValue(ok([{ contentId: 302, status: 'BORROW', purchaseModel: 'FLEX', availableCopies: 1, totalCopies: 1 }]));
    await scan('0012345');
    await searchFor('glass');
    let queueKnown!: (value: Awaited<ReturnType<typeof desk.liveAvailability>>) => void;
    desk.liveAvailability.mockImplementationOnce(() => new Promise((resolve) => { queueKnown = resolve; }));
    desk.borrow.mockResolvedValueOnce(serviceFail('unavailable', 'No copy is free'));
    button('Borrow for ••••2345: Glass Rivers').click();
    await flushPromises();
    const card = document.getElementById('card-entry-input');
    expect(document.activeElement).toBe(card);
    queueKnown(ok([{ contentId: 302, status: 'HOLD', holdsQueueSize: 4 }]));
    await flushPromises();
    expect(announced('alert')[0]).toContain('4 waiting');
    expect(document.activeElement).toBe(card);
    desk.placeHold.mockResolvedValueOnce(ok({ value: { contentId: 302, title: 'Glass Rivers', status: 'WAITING', queuePosition: 5 }, confirmedByReread: false }));
    await press('o', { code: 'KeyO', altKey: true });
    expect(desk.placeHold).toHaveBeenCalledWith({ libraryId: 101, card: '0012345', contentId: 302, title: 'Glass Rivers' });
  });

  it('Ctrl+L locks the desk from the card field', async () => {
    const { desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    await press('l', { code: 'KeyL', ctrlKey: true });
    expect(desk.lockSession).toHaveBeenCalledWith({ reason: 'staff' });
    expect(text()).not.toContain('Card ••••2345');
    expect(hasButton('Clear patron')).toBe(false);
  });
});
