// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionEntry } from '../../../electron/main/action-log/action-log.ts';
import { fail, inputLabelled, mountApp, ok, sandboxInfo, staffSession } from './fake-desk.ts';
import { button, click, dialog, expectNoJunk, press } from './patron-desk-helpers.ts';

afterEach(() => vi.restoreAllMocks());

const entry = (i: number, fields: Partial<ActionEntry> = {}): ActionEntry => ({
  time: Date.UTC(2026, 2, 10, 14, i), staff: 'JD', profile: 'Built-in sandbox', libraryId: 101, card: '••••0002',
  action: 'borrow', contentId: 300 + i, title: `Book ${i}`, outcome: 'ok', ...fields,
});

/** A manager on shift: the card filter and the export are theirs (issue #35). */
const managerDesk = () => ({ ...sandboxInfo(), session: staffSession('Ana Lopez', 'manager') });

/** The export's PIN prompt, answered. */
async function exportWithPin(log: HTMLElement, pin: string): Promise<void> {
  await click(button('Export CSV', log));
  const field = inputLabelled('Your PIN, to export') as HTMLInputElement;
  expect(document.activeElement).toBe(field);
  field.value = pin;
  field.dispatchEvent(new Event('input'));
  field.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await flushPromises();
}

describe('action log', () => {
  it('opens from the header and with Alt+L, lists entries with paging, and closes with Esc', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.listActions.mockResolvedValueOnce(ok({ total: 25, entries: [
      entry(1), entry(2, { action: 'place-hold', outcome: 'unavailable', title: undefined }), entry(3, { confirmedByReread: true }),
      ...Array.from({ length: 17 }, (_, i) => entry(10 + i)),
    ], skipped: 0 }));
    desk.listActions.mockResolvedValueOnce(ok({ total: 25, entries: Array.from({ length: 5 }, (_, i) => entry(40 + i, { action: 'return' })), skipped: 0 }));
    (document.activeElement as HTMLElement).blur();
    await press('l', { code: 'KeyL', altKey: true }, document.body);
    const log = dialog()!;
    expect(log.querySelector('h2')!.textContent).toBe('Action log');
    expect(desk.listActions).toHaveBeenCalledWith({ offset: 0, limit: 20 });
    const rows = [...log.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent?.trim()));
    expect(rows).toHaveLength(20);
    expect(rows[0]).toEqual([new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(entry(1).time), 'JD', 'Library 101', '••••0002', 'Borrow', 'Book 1 (#301)', 'Done']);
    expect(rows[1]!.slice(4)).toEqual(['Place hold', '#302', 'Refused: no copy free']);
    expect(rows[2]![6]).toBe('Done (confirmed by re-reading the account)');
    expect(log.textContent).toContain('Entries 1–20 of 25');
    expectNoJunk(log.textContent ?? '');
    await click(button('Next', log));
    expect(desk.listActions).toHaveBeenLastCalledWith({ offset: 20, limit: 20 });
    expect(log.textContent).toContain('Entries 21–25 of 25');
    await press('Escape');
    expect(dialog()).toBeNull();
  });

  it('exports CSV in the desk\'s language through a Blob and a download link', async () => {
    const { desk } = await mountApp(managerDesk());
    desk.exportActions.mockResolvedValueOnce(ok({ fileName: 'lending-desk-actions-2026-03-01.csv', entries: [entry(1, { outcome: 'limit-reached', libraryName: 'Riverside' })], skipped: 0 }));
    const created: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => { created.push(blob); return 'blob:lending-desk/1'; });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { clicks.push(this); });
    await click(button('Action log'));
    await exportWithPin(dialog()!, 'ana-2468');
    expect(desk.exportActions).toHaveBeenCalledWith({ pin: 'ana-2468' });
    expect(created).toHaveLength(1);
    // The file starts with a UTF-8 byte order mark, so a spreadsheet reads accents right.
    expect([...new Uint8Array(await created[0]!.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = (await created[0]!.text()).replace(/^\ufeff/, '').split('\r\n');
    expect(lines[0]).toBe('"Time","Staff","Computer account","Connection","Library","Card","Action","Title","Title id","Outcome"');
    expect(lines[1]).toMatch(/^"2026-03-10T\d\d:01:00[+-]\d\d:\d\d","JD","","Built-in sandbox","Riverside \(101\)","••••0002","Borrow","Book 1","301","Refused: allowance used up"$/);
    expect(created[0]!.type).toContain('text/csv');
    expect(clicks).toHaveLength(1);
    expect(clicks[0]!.download).toBe('lending-desk-actions-2026-03-01.csv');
    expect(clicks[0]!.getAttribute('href')).toBe('blob:lending-desk/1');
    await flushPromises();
    expect(dialog()!.textContent).toContain('Downloaded lending-desk-actions-2026-03-01.csv.');
  });

  it('filters by card ending, staff, local days and outcome; exports what the filter shows; says what could not be read', async () => {
    const { desk } = await mountApp(managerDesk());
    desk.listActions.mockResolvedValue(ok({ total: 1, entries: [entry(1, { osUser: 'circ-desk' })], skipped: 2 }));
    await click(button('Action log'));
    const log = dialog()!;
    expect(log.textContent).toContain('Entries that could not be read (damaged or altered) are not shown: 2.');
    expect(log.textContent).toContain('computer account circ-desk');
    const fill = (label: string, value: string) => {
      const input = inputLabelled(label) as HTMLInputElement | HTMLSelectElement;
      input.value = value;
      input.dispatchEvent(new Event(input.tagName === 'SELECT' ? 'change' : 'input'));
    };
    fill('Card ending', ' 0002 ');
    fill('Staff', 'jd');
    fill('From', '2026-03-10');
    fill('To', '2026-03-11');
    fill('Outcome', 'failed');
    inputLabelled('Card ending').closest('form')!.dispatchEvent(new Event('submit', { cancelable: true })); // Apply
    await flushPromises();
    const filter = { cardEnding: '0002', staff: 'jd', from: new Date(2026, 2, 10).getTime(), to: new Date(2026, 2, 12).getTime(), outcome: 'failed' };
    expect(desk.listActions).toHaveBeenLastCalledWith({ offset: 0, limit: 20, ...filter });
    await exportWithPin(log, 'ana-2468');
    expect(desk.exportActions).toHaveBeenCalledWith({ ...filter, pin: 'ana-2468' });
    desk.listActions.mockResolvedValueOnce(ok({ total: 0, entries: [], skipped: 0 }));
    await click(button('Clear filters', log));
    expect(desk.listActions).toHaveBeenLastCalledWith({ offset: 0, limit: 20 });
    expect(log.textContent).toContain('No actions recorded yet.');
  });

  it('desk staff get no card filter and no export: a patron\'s reading history is a manager\'s to read (issue #35)', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.listActions.mockResolvedValue(ok({ total: 2, entries: [
      entry(1, { staff: '', deskPin: true }), entry(2, { staff: 'Jo Park', deskPin: true, outcome: 'unknown' }),
    ], skipped: 0 }));
    await click(button('Action log'));
    const log = dialog()!;
    expect(() => inputLabelled('Card ending')).toThrow();
    expect([...log.querySelectorAll('button')].map((b) => b.textContent?.trim())).not.toContain('Export CSV');
    expect(log.textContent).toContain('Looking the log up by card and exporting it are for managers');
    const rows = [...log.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent?.trim()));
    expect(rows.map((r) => r[1])).toEqual(['desk PIN', 'Jo Park (desk PIN)']);
    expect(rows[1]![6]).toBe('Outcome unknown: check the account');
  });

  it('a wrong PIN at the export: main says so, nothing is downloaded, the prompt stays', async () => {
    const { desk } = await mountApp(managerDesk());
    desk.exportActions.mockResolvedValueOnce(fail('unauthorized', 'That is not the PIN you signed in with.', { reason: 'log.export-pin-wrong', params: {} }));
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { clicks.push(this); });
    await click(button('Action log'));
    await exportWithPin(dialog()!, '000000');
    expect(dialog()!.textContent).toContain('That is not the PIN you signed in with. The export needs it.');
    expect(clicks).toEqual([]);
    expect((inputLabelled('Your PIN, to export') as HTMLInputElement).value).toBe('');
  });

  it('says when nothing was recorded yet', async () => {
    await mountApp(sandboxInfo());
    await click(button('Action log'));
    expect(dialog()!.textContent).toContain('No actions recorded yet.');
  });
});

describe('shortcut help', () => {
  it('opens with the header button, F1 or ?, lists every shortcut, and traps focus', async () => {
    await mountApp(sandboxInfo());
    await click(button('Shortcuts'));
    const help = dialog()!;
    for (const key of ['F1', 'F2', 'Alt+C', 'F3', 'Alt+S', '/', 'Esc', 'Alt+L', 'Alt+R', 'Alt+H', '↑', '↓']) {
      expect([...help.querySelectorAll('kbd')].map((k) => k.textContent)).toContain(key);
    }
    expect(document.activeElement).toBe(button('Close', help));
    await press('Tab');
    expect(help.contains(document.activeElement)).toBe(true);
    await press('Escape');
    expect(dialog()).toBeNull();
    (document.activeElement as HTMLElement | null)?.blur();
    await press('?', {}, document.body);
    expect(dialog()).not.toBeNull();
  });
});
