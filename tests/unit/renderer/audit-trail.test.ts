// @vitest-environment happy-dom
// A library desk's log is the library server's audit trail (issue #32): a manager reads it,
// filtered by one patron's whole card, and exports it with their PIN again; desk staff are told it
// is a manager's and nothing is asked of main. The contract is stubbed; the server's own checks
// are library-server-desk.test.ts's.
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditTrailEntry } from '../../../electron/shared/contract.ts';
import { inputLabelled, mountApp, ok, sandboxInfo, staffSession } from './fake-desk.ts';
import { button, click, dialog, expectNoJunk, press } from './patron-desk-helpers.ts';

afterEach(() => vi.restoreAllMocks());

const atServer = (role: 'desk' | 'manager') => ({ ...sandboxInfo(), session: { ...staffSession(role === 'manager' ? 'Mo Chen' : 'Ana Lopez', role), signedInWith: 'library-server' as const } });
const entry = (i: number, fields: Partial<AuditTrailEntry> = {}): AuditTrailEntry => ({
  at: Date.UTC(2026, 10, 28, 14, i), staffName: 'Ana Lopez', staffRole: 'desk-staff', workstationName: 'Front desk', action: 'borrow',
  libraryId: 101, cardMasked: '••••0002', contentId: String(300 + i), title: `Book ${i}`, outcome: 'done', ...fields,
});

async function openLog(): Promise<HTMLElement> {
  (document.activeElement as HTMLElement).blur();
  await press('l', { code: 'KeyL', altKey: true }, document.body);
  await flushPromises();
  return dialog()!;
}

describe('the audit trail at a library desk', () => {
  it('is a manager\'s: listed newest first with the desk, staff and role, filtered by one patron\'s whole card, exported with the PIN again', async () => {
    const { desk } = await mountApp(atServer('manager'));
    desk.readAuditTrail.mockResolvedValueOnce(ok({ total: 2, entries: [entry(2, { action: 'lookup', title: undefined, contentId: undefined }), entry(1, { outcome: 'refused' })] }));
    const log = await openLog();
    expect(log.querySelector('h2')!.textContent).toBe('Audit trail (library server)');
    expect(desk.readAuditTrail).toHaveBeenCalledWith({ offset: 0, limit: 20 });
    const rows = [...log.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent?.trim()));
    expect(rows[0]!.slice(1)).toEqual(['Ana LopezDesk staff', 'Front desk', 'Library 101', '••••0002', 'Looked up', '', 'Done']);
    expect(rows[1]!.slice(5)).toEqual(['Borrowed', 'Book 1', 'Refused']);
    expectNoJunk(log.textContent ?? '');

    const card = inputLabelled('Whole card number') as HTMLInputElement;
    card.value = '21234000000002';
    card.dispatchEvent(new Event('input'));
    await click(button('Apply', log));
    expect(desk.readAuditTrail).toHaveBeenLastCalledWith({ libraryId: 101, card: '21234000000002', offset: 0, limit: 20 });

    desk.readAuditTrail.mockResolvedValueOnce(ok({ total: 1, entries: [entry(1)] }));
    const created: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => { created.push(blob); return 'blob:x'; }), revokeObjectURL: vi.fn() }));
    await click(button('Export CSV', log));
    const pin = inputLabelled('Your PIN, to export') as HTMLInputElement;
    expect(document.activeElement).toBe(pin);
    pin.value = '730518';
    pin.dispatchEvent(new Event('input'));
    pin.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flushPromises();
    expect(desk.readAuditTrail).toHaveBeenLastCalledWith({ libraryId: 101, card: '21234000000002', offset: 0, limit: 500, export: true, pin: '730518' });
    const csv = await created[0]!.text();
    expect(csv.split('\r\n')[0]).toBe('\ufeff"Time","Staff","Role","Desk","Library","Card","Action","Title","Title id","Outcome"');
    expect(csv).toContain('"Ana Lopez","Desk staff","Front desk","Library 101","••••0002","Borrowed","Book 1","301","Done"');
    expect(log.textContent).toContain('Exported 1 entries');
  });

  it('tells desk staff it is a manager\'s, and asks main nothing', async () => {
    const { desk } = await mountApp(atServer('desk'));
    const log = await openLog();
    expect(log.textContent).toContain('Only a manager reads the audit trail.');
    expect(desk.readAuditTrail).not.toHaveBeenCalled();
    expect([...log.querySelectorAll('button')].map((b) => b.textContent?.trim())).toEqual(['Close']);
  });
});
