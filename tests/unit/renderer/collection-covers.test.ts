// @vitest-environment happy-dom
// The Collection's covers while staff type (issue #30): a keystroke's rows show the quiet
// placeholder, and the covers are asked of the cover host only once the text has stayed as it is
// for COVERS_AFTER_MS, so the rows of keystrokes typed past fetch no pictures. Scrolling, a filter
// or a sort chosen after the pause follow the same rule.
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { ArgsOf, BrowseRow, CollectionPage } from '../../../electron/shared/contract.ts';
import { COVERS_AFTER_MS } from '../../../src/stores/collection.ts';
import { mountApp, ok, sandboxInfo } from './fake-desk.ts';
import { openCollection, typeInSearch } from './collection-steps.ts';

const COVER = (id: number) => `https://sandbox.lending-desk.invalid/covers/${id}.jpg`;
const rows = (word: string): BrowseRow[] => Array.from({ length: 3 }, (_, i) => ({
  contentId: i + 1, title: `${word} ${i + 1}`, format: 'EBOOK', purchaseModel: 'INSTANT', active: true, coverImageUrl: COVER(i + 1),
}));

const coverSources = (): string[] => [...document.querySelectorAll('.viewport [role="row"] img')].map((img) => img.getAttribute('src') ?? '');
const firstTitle = (): string | undefined => document.querySelector('#collection-row-0 .col-title button')?.textContent?.trim();

describe('the Collection covers while staff type', () => {
  it('shows each keystroke\'s rows with placeholders and asks for the covers once typing has paused', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { wrapper, desk } = await mountApp(sandboxInfo());
      desk.collectionBrowse.mockImplementation(async (args?: ArgsOf<'collectionBrowse'>) => ok<CollectionPage>({ total: 3, rows: rows(args?.text ?? 'All') }));
      await openCollection(wrapper);
      expect(firstTitle()).toBe('All 1');
      expect(coverSources()).toEqual([]);
      await vi.advanceTimersByTimeAsync(COVERS_AFTER_MS);
      await flushPromises();
      expect(new Set(coverSources())).toEqual(new Set([COVER(1), COVER(2), COVER(3)]));

      // Each keystroke's rows come at once, without their pictures: the covers went with the old text.
      for (const text of ['h', 'ha', 'har']) {
        await typeInSearch(text);
        expect(firstTitle()).toBe(`${text} 1`);
        expect(coverSources()).toEqual([]);
        await vi.advanceTimersByTimeAsync(COVERS_AFTER_MS / 3);
        expect(coverSources()).toEqual([]);
      }
      // The text stays: the covers of the rows on screen are asked for.
      await vi.advanceTimersByTimeAsync(COVERS_AFTER_MS);
      await flushPromises();
      expect(firstTitle()).toBe('har 1');
      expect(new Set(coverSources())).toEqual(new Set([COVER(1), COVER(2), COVER(3)]));
    } finally {
      vi.useRealTimers();
    }
  });
});
