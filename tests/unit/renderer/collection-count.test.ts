// @vitest-environment happy-dom
// The Collection's count while staff type: each keystroke asks for its first page at once (no
// waiting for typing to stop), a search that matches many shows "1,000+", and the exact count
// is asked once, after typing pauses — never for the keystrokes in between, and never shown for
// a search staff have already typed past. A mirror still computing search words says so.
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { ArgsOf, BrowseRow, CollectionPage } from '../../../electron/shared/contract.ts';
import { EXACT_COUNT_AFTER_MS } from '../../../src/stores/collection.ts';
import { mountApp, ok, sandboxInfo } from './fake-desk.ts';
import { openCollection, typeInSearch } from './collection-steps.ts';

const row = (i: number): BrowseRow => ({ contentId: i + 1, title: `Title ${i + 1}`, format: 'EBOOK', purchaseModel: 'INSTANT', active: true });

const statusText = (wrapper: VueWrapper) => wrapper.findAll('[role="status"]').map((s) => s.text()).join(' | ');

describe('the Collection count', () => {
  it('shows "1,000+" with the first page, then the exact count once typing pauses, asked once', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { wrapper, desk } = await mountApp(sandboxInfo());
      desk.collectionBrowse.mockImplementation(async (args?: ArgsOf<'collectionBrowse'>): Promise<ReturnType<typeof ok<CollectionPage>>> => {
        if (!args?.text) return ok({ total: 500_000, rows: [row(0), row(1)] });
        if (args.exactCount) return ok({ total: args.text === 'gard' ? 12_345 : 99_999, rows: [row(0)] });
        return ok({ total: 1000, atLeast: true, rows: [row(0), row(1)] });
      });
      await openCollection(wrapper);
      expect(statusText(wrapper)).toContain('500,000 titles');

      for (const text of ['g', 'ga', 'gar', 'gard']) {
        await typeInSearch(text);
        // Each keystroke's page is asked for at once, not after a pause.
        expect(desk.collectionBrowse).toHaveBeenLastCalledWith(expect.objectContaining({ text, offset: 0 }));
        expect(statusText(wrapper)).toContain('1,000+ titles');
        await vi.advanceTimersByTimeAsync(EXACT_COUNT_AFTER_MS / 4);
      }
      const exactCalls = () => desk.collectionBrowse.mock.calls.filter(([args]) => args?.exactCount);
      expect(exactCalls()).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(EXACT_COUNT_AFTER_MS);
      await flushPromises();
      expect(exactCalls()).toHaveLength(1);
      expect(exactCalls()[0]![0]).toMatchObject({ text: 'gard', exactCount: true });
      expect(statusText(wrapper)).toContain('12,345 titles');
      expect(statusText(wrapper)).not.toContain('+');
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops an exact count that arrives after staff typed on', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { wrapper, desk } = await mountApp(sandboxInfo());
      let releaseExact: () => void = () => {};
      desk.collectionBrowse.mockImplementation(async (args?: ArgsOf<'collectionBrowse'>) => {
        if (args?.exactCount) {
          await new Promise<void>((resolve) => { releaseExact = resolve; });
          return ok({ total: 77_777, rows: [] });
        }
        return ok({ total: 1000, atLeast: true, rows: [row(0)] } as CollectionPage);
      });
      await openCollection(wrapper);
      await typeInSearch('river');
      await vi.advanceTimersByTimeAsync(EXACT_COUNT_AFTER_MS + 10);
      await typeInSearch('rivers');
      releaseExact();
      await flushPromises();
      expect(statusText(wrapper)).toContain('1,000+ titles');
      expect(statusText(wrapper)).not.toContain('77,777');
    } finally {
      vi.useRealTimers();
    }
  });

  it('says when search is still being updated after an upgrade, in French too', async () => {
    for (const [language, expected] of [['en', /Search is being updated .*42% done/], ['fr-CA', /La recherche est mise à jour .*42\s%\sfait/]] as const) {
      const { wrapper, desk } = await mountApp({ ...sandboxInfo(), preferences: { idleLockMinutes: 5, language } });
      desk.collectionBrowse.mockResolvedValue(ok({ total: 3, rows: [row(0), row(1), row(2)], searchUpgrade: 0.42 }));
      await wrapper.findAll('[role="tab"]')[1]!.trigger('click');
      await flushPromises();
      expect(statusText(wrapper)).toMatch(expected);
      wrapper.unmount();
    }
  });
});
