// @vitest-environment happy-dom
// A change of the computer's time zone, as the action log lists it (issue #33: main records it, and
// the log's days keep their own zone), in English and in French: an entry about the desk, with no
// library and no title, saying from which zone to which.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionEntry, AppInfo } from '../../../electron/shared/contract.ts';
import { mountApp, ok, sandboxInfo } from './fake-desk.ts';
import { button, click, dialog } from './patron-desk-helpers.ts';

afterEach(() => vi.restoreAllMocks());

const french = (info: AppInfo): AppInfo => ({ ...info, preferences: { ...info.preferences, language: 'fr-CA' } });
const zoneChange = (zone: ActionEntry['zone']): ActionEntry => ({
  time: Date.UTC(2026, 2, 3, 20), staff: '', osUser: 'circ-desk', profile: '', libraryId: 0, card: '', action: 'zone-change', contentId: 0, outcome: 'ok', ...(zone ? { zone } : {}),
});

async function rowsOfLog(info: AppInfo, opener: string): Promise<string[][]> {
  const { desk } = await mountApp(info);
  desk.listActions.mockResolvedValueOnce(ok({ total: 2, entries: [zoneChange({ from: 'America/Toronto', to: 'Asia/Karachi' }), zoneChange({ to: 'Asia/Karachi' })], skipped: 0 }));
  await click(button(opener));
  return [...dialog()!.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent?.trim() ?? ''));
}

describe('a time zone change in the action log', () => {
  it('says which zone it changed from and to, with no library or title', async () => {
    const rows = await rowsOfLog(sandboxInfo(), 'Action log');
    expect(rows.map((row) => row.slice(2))).toEqual([
      ['', '', 'Time zone changed', 'From America/Toronto to Asia/Karachi', 'Done'],
      ['', '', 'Time zone changed', 'Now Asia/Karachi (no earlier zone on record)', 'Done'],
    ]);
  });

  it('says it in French', async () => {
    const rows = await rowsOfLog(french(sandboxInfo()), 'Journal');
    expect(rows.map((row) => row.slice(4, 6))).toEqual([
      ['Fuseau horaire changé', 'De America/Toronto à Asia/Karachi'],
      ['Fuseau horaire changé', 'Maintenant Asia/Karachi (aucun fuseau antérieur au registre)'],
    ]);
  });
});
