// The library's collection as mirrored on this desk: the Collection's filters,
// pages of rows fetched by offset as the table scrolls, and the mirror's sync status and
// progress. A search's count comes capped ("1,000+") with its first page; the exact count is
// asked once typing has paused, so it never holds up the next keystroke's rows. Another
// library or connection drops its pages and the answers still to come; the lock and the end of
// a shift also drop the filters and search text (what a patron asked for) and the sort, so the
// next shift starts on the plain collection.
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { ContentFlag, Direction, SortKey } from '../../electron/shared/collection.ts';
import type { BrowseRow, CollectionPage, SyncProgress, SyncStatusView } from '../../electron/shared/contract.ts';
import type { ErrorInfo } from '../../electron/shared/errors.ts';
import type { ContentId, Format, PurchaseModel } from '../../electron/shared/model.ts';
import { useGateway } from '../gateway/gateway.ts';
import { LIBRARY_GONE, SHIFT_OVER, useLifecycle } from '../lifecycle.ts';
import { useSessionStore } from './session.ts';

export const PAGE_SIZE = 100;
/** Typing pauses this long before a search's exact count is asked for. */
export const EXACT_COUNT_AFTER_MS = 400;

/** The Collection's content choice (issue #34): one flag required, or one refused. */
export const CONTENT_CHOICES = ['sample', 'no-sample', 'profanity', 'no-profanity', 'edited'] as const;
export type ContentChoice = (typeof CONTENT_CHOICES)[number];

export interface CollectionFilters {
  text: string;
  format: Format | '';
  model: PurchaseModel | '';
  active: 'all' | 'active' | 'inactive';
  availableNow: boolean;
  /** No copy free when last read: a hold waits (issue #35). */
  noCopyFree: boolean;
  kids: boolean;
  content: ContentChoice | '';
}

/** A content choice as the browse's flags: `no-x` refuses the flag, `x` requires it. */
function contentQuery(choice: ContentChoice | ''): { flags?: ContentFlag[]; withoutFlags?: ContentFlag[] } {
  if (choice === '') return {};
  return choice.startsWith('no-') ? { withoutFlags: [choice.slice(3) as ContentFlag] } : { flags: [choice as ContentFlag] };
}

export const useCollectionStore = defineStore('collection', () => {
  const session = useSessionStore();
  const gateway = useGateway();
  // Pages of one filter, sort and library: a restart or another library drops the rest.
  const requests = gateway.scope();
  // Active titles by default: an inactive one is not shown to patrons, so it is rarely what a call is about.
  const noFilters = (): CollectionFilters => ({ text: '', format: '', model: '', active: 'active', availableNow: false, noCopyFree: false, kids: false, content: '' });
  const filters = ref<CollectionFilters>(noFilters());
  const sort = ref<SortKey>('title');
  const direction = ref<Direction>('asc');
  const total = ref<number>();
  /** The search matched more than `total` titles and was not counted further yet. */
  const totalAtLeast = ref(false);
  /** While titles copied by an earlier version get their search words (0–1). */
  const searchUpgrade = ref<number>();
  /** Pages by index; a new filter, sort or library starts over. */
  const pages = shallowRef(new Map<number, BrowseRow[]>());
  const problem = ref<ErrorInfo>();
  const status = ref<SyncStatusView>();
  const progress = ref<SyncProgress>();
  const syncing = ref(false);
  const loading = new Set<number>();
  let exactCountTimer: ReturnType<typeof setTimeout> | undefined;

  function query(offset: number) {
    const f = filters.value;
    return {
      libraryId: session.selectedLibraryId as number,
      ...(f.text.trim() ? { text: f.text.trim() } : {}),
      ...(f.format ? { formats: [f.format] } : {}),
      ...(f.model ? { model: f.model } : {}),
      ...(f.active === 'all' ? {} : { active: f.active === 'active' }),
      ...(f.availableNow ? { availableNow: true } : {}),
      ...(f.noCopyFree ? { noCopyFree: true } : {}),
      ...(f.kids ? { kids: true } : {}),
      ...contentQuery(f.content),
      sort: sort.value, direction: direction.value, offset, limit: PAGE_SIZE,
    };
  }

  function clearPages(): void {
    requests.reset();
    loading.clear();
    clearTimeout(exactCountTimer);
    pages.value = new Map();
    total.value = undefined;
    totalAtLeast.value = false;
  }

  function restart(): void {
    clearPages();
    void loadPage(0);
  }

  async function loadPage(index: number): Promise<void> {
    if (session.selectedLibraryId === undefined || pages.value.has(index) || loading.has(index)) return;
    loading.add(index);
    const result = await requests.alongside('collectionBrowse', query(index * PAGE_SIZE));
    if (!result) return;
    loading.delete(index);
    if (!result.ok) {
      problem.value = result.error;
      return;
    }
    problem.value = undefined;
    takeCount(result.value);
    const next = new Map(pages.value);
    next.set(index, result.value.rows);
    pages.value = next;
    if (result.value.atLeast && index === 0) {
      clearTimeout(exactCountTimer);
      exactCountTimer = setTimeout(() => void loadExactCount(), EXACT_COUNT_AFTER_MS);
    }
  }

  /** A capped count never replaces an exact one of the same search. */
  function takeCount(page: CollectionPage): void {
    searchUpgrade.value = page.searchUpgrade;
    if (page.atLeast && total.value !== undefined && !totalAtLeast.value) return;
    total.value = page.total;
    totalAtLeast.value = page.atLeast === true;
  }

  /** The same search counted to the end, once typing has paused; dropped if staff typed on (the scope was reset). */
  async function loadExactCount(): Promise<void> {
    if (session.selectedLibraryId === undefined) return;
    const result = await requests.alongside('collectionBrowse', { ...query(0), limit: 1, exactCount: true });
    if (result?.ok) takeCount(result.value);
  }

  function rowAt(index: number): BrowseRow | undefined {
    return pages.value.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
  }

  function sortBy(key: SortKey): void {
    direction.value = sort.value === key && direction.value === 'asc' ? 'desc' : 'asc';
    sort.value = key;
    restart();
  }

  /** Availability read now for these rows; the pages holding them get the fresh values. */
  async function refreshAvailability(contentIds: ContentId[]): Promise<BrowseRow[] | undefined> {
    if (session.selectedLibraryId === undefined || contentIds.length === 0) return undefined;
    const result = await requests.alongside('collectionLiveAvailability', { libraryId: session.selectedLibraryId, contentIds });
    if (!result) return undefined;
    if (!result.ok) {
      problem.value = result.error;
      return undefined;
    }
    const fresh = new Map(result.value.map((r) => [r.contentId, r.availability]));
    const next = new Map([...pages.value].map(([i, rows]) => [i, rows.map((r) => (fresh.has(r.contentId) ? { ...r, availability: fresh.get(r.contentId) } : r))]));
    pages.value = next;
    return result.value;
  }

  async function loadStatus(): Promise<void> {
    const result = await gateway.call('syncStatus');
    if (result.ok) status.value = result.value;
  }

  /** `entitlementsOnly` with `full`: the full entitlement pass (what each library holds, read whole). */
  async function syncNow(full = false, entitlementsOnly = false): Promise<boolean> {
    if (syncing.value) return false;
    syncing.value = true;
    progress.value = undefined;
    const result = await gateway.call('syncNow', { full, entitlementsOnly });
    syncing.value = false;
    progress.value = undefined;
    await loadStatus();
    if (!result.ok) {
      problem.value = result.error;
      return false;
    }
    problem.value = undefined;
    restart();
    return true;
  }

  gateway.on('syncProgress', (p) => { progress.value = p; });
  useLifecycle().on(LIBRARY_GONE, () => {
    clearPages();
    problem.value = undefined;
  });
  useLifecycle().on(SHIFT_OVER, () => {
    clearPages();
    problem.value = undefined;
    filters.value = noFilters();
    sort.value = 'title';
    direction.value = 'asc';
  });

  return {
    filters, sort, direction, total, totalAtLeast, searchUpgrade, pages, problem, status, progress, syncing,
    restart, loadPage, rowAt, sortBy, refreshAvailability, loadStatus, syncNow,
  };
});
