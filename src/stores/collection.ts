// The library's collection as mirrored on this desk: the Collection's filters,
// pages of rows fetched by offset as the table scrolls, and the mirror's sync status and
// progress. A search's count comes capped ("1,000+") with its first page; the exact count is
// asked once typing has paused, so it never holds up the next keystroke's rows. Another
// library or connection drops its pages and the answers still to come; the lock and the end of
// a shift also drop the filters and search text (what a patron asked for) and the sort, so the
// next shift starts on the plain collection.
//
// While staff type (issue #30), each keystroke asks for its first page at once when no first page
// is on its way; when one is, that one's answer (for older text) is dropped as it comes back and
// the newest text asked then: never more than one first page asked at a time, never an answer
// shown for text staff have typed past. Until the new first page comes, the rows of the last one
// stay in the grid as `stale` (the view acts on none, and hides them if the answer takes over 100 ms), so the answer is patched
// into rows already on the page instead of the grid being emptied and built again. A first page
// carries the first screen of rows (FIRST_ROWS); the rest of it is asked if staff scroll there.
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { ContentFlag, Direction, SortKey } from '../../electron/shared/collection.ts';
import type { BrowseRow, CollectionPage, SyncProgress, SyncStatusView } from '../../electron/shared/contract.ts';
import type { ErrorInfo } from '../../electron/shared/errors.ts';
import type { ContentId, Format, PurchaseModel } from '../../electron/shared/model.ts';
import { useGateway, type Answer } from '../gateway/gateway.ts';
import { LIBRARY_GONE, SHIFT_OVER, useLifecycle } from '../lifecycle.ts';
import { useSessionStore } from './session.ts';

export const PAGE_SIZE = 100;
/**
 * A query's first answer carries this many rows: the grid's first screen and more, so it is what
 * the owner reads, copies and sends at every keystroke; the rest of page 0 is asked only if staff
 * scroll past them. The tallest grid (32rem) shows 10 rows and lays out 3 more: 20 leave room for a
 * larger font, and half of the 40 it was take less from every keystroke (docs/benchmarks.md).
 */
export const FIRST_ROWS = 20;
/** Typing pauses this long before a search's exact count is asked for. */
export const EXACT_COUNT_AFTER_MS = 400;
/**
 * The rows' covers are shown once the filters and text have stayed this long: the rows of a
 * keystroke staff type past would fetch pictures from the cover host only to drop them, and in the
 * window bench those loads put a keystroke's rows a frame later twice as often (docs/benchmarks.md).
 */
export const COVERS_AFTER_MS = 300;

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
  // First pages, asked one at a time: a restart does not cancel the one on its way (its answer is dropped when it comes, and the newest asked).
  const firstPages = gateway.scope();
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
  /** The rows on screen when the filters, sort or text changed, shown (as stale) until the new first page comes. */
  const held = shallowRef<{ pages: Map<number, BrowseRow[]>; total: number | undefined }>();
  /** The rows on screen belong to an earlier search: hidden, and not acted on. */
  const stale = computed(() => held.value !== undefined);
  /** How many rows the grid lays out: the current count, or while stale the earlier one. */
  const shownTotal = computed(() => total.value ?? held.value?.total);
  const problem = ref<ErrorInfo>();
  const status = ref<SyncStatusView>();
  const progress = ref<SyncProgress>();
  const syncing = ref(false);
  /** The rows may show their covers: the query has not changed for COVERS_AFTER_MS. */
  const showCovers = ref(false);
  const loading = new Set<number>();
  let exactCountTimer: ReturnType<typeof setTimeout> | undefined;
  let coversTimer: ReturnType<typeof setTimeout> | undefined;
  /** Moves on at every restart and clear: a first page asked before it is for older text. */
  let generation = 0;
  /** A first page is on its way; `wanted`: page 0 was asked for again meanwhile (a restart, the view). */
  let asking = false;
  let wanted = false;

  /** What the filters ask of the mirror (the text trimmed). */
  function asked() {
    const f = filters.value;
    return {
      ...(f.text.trim() ? { text: f.text.trim() } : {}),
      ...(f.format ? { formats: [f.format] } : {}),
      ...(f.model ? { model: f.model } : {}),
      ...(f.active === 'all' ? {} : { active: f.active === 'active' }),
      ...(f.availableNow ? { availableNow: true } : {}),
      ...(f.noCopyFree ? { noCopyFree: true } : {}),
      ...(f.kids ? { kids: true } : {}),
      ...contentQuery(f.content),
    };
  }
  /** Changes when the filters ask something else: a space typed after a word does not. */
  const askedKey = computed(() => JSON.stringify(asked()));

  function query(offset: number) {
    return { libraryId: session.selectedLibraryId as number, ...asked(), sort: sort.value, direction: direction.value, offset, limit: PAGE_SIZE };
  }

  /** The current query's pages, counts and answers still to come go; what is on screen stays until `held` is let go. */
  function dropQuery(): void {
    generation++;
    requests.reset();
    loading.clear();
    clearTimeout(exactCountTimer);
    clearTimeout(coversTimer);
    showCovers.value = false;
    pages.value = new Map();
    total.value = undefined;
    totalAtLeast.value = false;
  }

  /** Everything goes, the rows on screen and the first page on its way included (another library, the lock). */
  function clearPages(): void {
    dropQuery();
    firstPages.reset();
    wanted = false;
    held.value = undefined;
  }

  /** New filters, sort or text: the rows on screen are held (stale) until the first page of the new query comes. */
  function restart(): void {
    if (!held.value && pages.value.size > 0 && session.selectedLibraryId !== undefined) held.value = { pages: pages.value, total: total.value };
    dropQuery();
    coversTimer = setTimeout(() => { showCovers.value = true; }, COVERS_AFTER_MS);
    void loadPage(0);
  }

  /** Rows `from` to `to` (exclusive) are on screen: their pages are asked for, and page 0's rows past its first answer. */
  function loadRows(from: number, to: number): void {
    for (let page = Math.floor(from / PAGE_SIZE); page * PAGE_SIZE < to; page++) {
      const rows = pages.value.get(page);
      if (page === 0 && rows && to > rows.length) void loadRestOfFirstPage(rows);
      else void loadPage(page);
    }
  }

  async function loadPage(index: number): Promise<void> {
    if (session.selectedLibraryId === undefined || pages.value.has(index)) return;
    if (index === 0) return askFirstPage();
    if (loading.has(index)) return;
    loading.add(index);
    const result = await requests.alongside('collectionBrowse', query(index * PAGE_SIZE));
    if (!result) return;
    loading.delete(index);
    takePage(index, result);
  }

  /**
   * The current query's first page, one asked at a time: while one is on its way, a newer query
   * waits for it to come back; its answer, for older text, is then dropped and the newest asked.
   */
  async function askFirstPage(): Promise<void> {
    if (asking) {
      wanted = true;
      return;
    }
    asking = true;
    try {
      for (;;) {
        wanted = false;
        if (session.selectedLibraryId === undefined || pages.value.has(0)) return;
        const asked = generation;
        const result = await firstPages.alongside('collectionBrowse', { ...query(0), limit: FIRST_ROWS });
        if (asked === generation) {
          if (result) takePage(0, result);
          return;
        }
        if (!wanted) return; // cleared (the lock, another library) and not asked for since
      }
    } finally {
      asking = false;
    }
  }

  /** Page 0 past the rows of its first answer, when staff scroll there (none when the query has no more). */
  async function loadRestOfFirstPage(first: BrowseRow[]): Promise<void> {
    // A first answer shorter than asked was the whole query.
    if (first.length !== FIRST_ROWS || first.length >= (total.value ?? 0) || loading.has(0)) return;
    loading.add(0);
    const result = await requests.alongside('collectionBrowse', { ...query(first.length), limit: PAGE_SIZE - first.length });
    if (!result) return;
    loading.delete(0);
    if (!result.ok) {
      problem.value = result.error;
      return;
    }
    if (pages.value.get(0) !== first) return;
    takeCount(result.value);
    putPage(0, [...first, ...result.value.rows]);
  }

  function takePage(index: number, result: Answer<'collectionBrowse'>): void {
    if (index === 0) held.value = undefined;
    if (!result.ok) {
      problem.value = result.error;
      return;
    }
    problem.value = undefined;
    takeCount(result.value);
    putPage(index, result.value.rows);
    if (result.value.atLeast && index === 0) {
      clearTimeout(exactCountTimer);
      exactCountTimer = setTimeout(() => void loadExactCount(), EXACT_COUNT_AFTER_MS);
    }
  }

  function putPage(index: number, rows: BrowseRow[]): void {
    const next = new Map(pages.value);
    next.set(index, rows);
    pages.value = next;
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

  /** The row at `index` on screen: the current query's, or while stale the earlier one's. */
  function rowAt(index: number): BrowseRow | undefined {
    return (held.value?.pages ?? pages.value).get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
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
    filters, askedKey, sort, direction, total, totalAtLeast, shownTotal, stale, searchUpgrade, pages, showCovers, problem, status, progress, syncing,
    restart, loadRows, rowAt, sortBy, refreshAvailability, loadStatus, syncNow,
  };
});
