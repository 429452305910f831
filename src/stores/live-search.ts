// Live search of the service's catalog on the desk (the mirror is the Collection's): the query
// and filters, the page of results, and the live availability of the titles on that page (one
// liveAvailability call per page). What was searched is what a patron asked for, so the lock
// and the end of a shift clear it, as does a change of library or connection (one lifecycle
// subscription, below).
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ArgsOf } from '../../electron/shared/contract.ts';
import type { ErrorInfo } from '../../electron/shared/errors.ts';
import type { Availability, Format, PurchaseModel, SearchPage } from '../../electron/shared/model.ts';
import { useGateway } from '../gateway/gateway.ts';
import { LIBRARY_GONE, SHIFT_OVER, useLifecycle } from '../lifecycle.ts';

export const PAGE_SIZE = 20;

export const useLiveSearchStore = defineStore('liveSearch', () => {
  // A new search supersedes the last one and its availability; a reset drops both.
  const requests = useGateway().scope();
  const query = ref('');
  const kidsMode = ref(false);
  const format = ref<Format | ''>('');
  const purchaseModel = ref<PurchaseModel | ''>('');
  const page = ref<SearchPage>();
  /** What the page on screen was searched with (the form may have changed since). */
  const shown = ref<{ libraryId: number; q: string; offset: number }>();
  const loading = ref(false);
  const error = ref<ErrorInfo>();
  const availability = ref<Record<number, Availability>>({});
  const availabilityLoading = ref(false);
  const availabilityError = ref<ErrorInfo>();
  let lastRequest: ArgsOf<'liveSearch'> | undefined;

  const hasPrevious = computed(() => (shown.value?.offset ?? 0) > 0);
  const hasNext = computed(() => !!page.value && !!shown.value && shown.value.offset + page.value.hits.length < page.value.found);

  /** A new search from the form, at the first page. */
  function search(libraryId: number): Promise<boolean> {
    const q = query.value.trim();
    return send({
      libraryId, q, offset: 0, limit: PAGE_SIZE, kidsMode: kidsMode.value,
      ...(format.value ? { formats: [format.value] } : {}),
      ...(purchaseModel.value ? { purchaseModel: purchaseModel.value } : {}),
    });
  }

  function turn(direction: 1 | -1): Promise<boolean> {
    if (!lastRequest || !page.value) return Promise.resolve(false);
    const offset = Math.max(0, (shown.value?.offset ?? 0) + direction * PAGE_SIZE);
    return send({ ...lastRequest, offset });
  }

  const retry = (): Promise<boolean> => (lastRequest ? send(lastRequest) : Promise.resolve(false));

  async function send(request: ArgsOf<'liveSearch'>): Promise<boolean> {
    lastRequest = request;
    loading.value = true;
    error.value = undefined;
    const result = await requests.latest('liveSearch', request);
    if (!result) return false;
    loading.value = false;
    if (!result.ok) {
      error.value = result.error;
      return false;
    }
    page.value = result.value;
    shown.value = { libraryId: request.libraryId, q: request.q, offset: request.offset ?? 0 };
    availability.value = {};
    await refreshAvailability();
    return true;
  }

  /** Live status, copies and queue for the titles on the page (after a search and after every action). */
  async function refreshAvailability(): Promise<void> {
    if (!page.value || !shown.value) return;
    const ids = [...new Set(page.value.hits.flatMap((h) => (h.titleId !== undefined && h.titleId > 0 ? [h.titleId] : [])))];
    if (ids.length === 0) return;
    availabilityLoading.value = true;
    availabilityError.value = undefined;
    const result = await requests.alongside('liveAvailability', { libraryId: shown.value.libraryId, contentIds: ids.slice(0, 500) });
    if (!result) return;
    availabilityLoading.value = false;
    if (!result.ok) {
      availabilityError.value = result.error;
      return;
    }
    availability.value = Object.fromEntries(result.value.map((a) => [a.contentId, a]));
  }

  function $reset(): void {
    requests.reset();
    lastRequest = undefined;
    query.value = '';
    kidsMode.value = false;
    format.value = '';
    purchaseModel.value = '';
    page.value = undefined;
    shown.value = undefined;
    loading.value = false;
    error.value = undefined;
    availability.value = {};
    availabilityLoading.value = false;
    availabilityError.value = undefined;
  }

  useLifecycle().on([...SHIFT_OVER, ...LIBRARY_GONE], $reset);

  return {
    query, kidsMode, format, purchaseModel, page, shown, loading, error, availability, availabilityLoading, availabilityError,
    hasPrevious, hasNext, search, turn, retry, refreshAvailability, $reset,
  };
});
