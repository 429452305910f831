// Live search of the service's catalog on the desk (the mirror is the Collection's): the query
// and filters, the page of results, what each result borrows, and the live availability of
// those contents (one liveAvailability call per page). A search result names a title
// (`titleId`), not a content: the desk's mirror says which content ids it stands
// for (one, or a series' episodes); where it cannot tell (a fresh desk's first sync, a title
// newer than the last), the first few results are looked up on the service at once, one small
// request each (lookUpTitles), the others when staff ask; a series' episodes — which carry their
// own ids — can be looked up once on the service too. Nothing is ever
// borrowed by a titleId. What was searched is what a patron asked for, so the lock and the end of
// a shift clear it, as does a change of library or connection (one lifecycle subscription, below).
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ArgsOf, TitleContents } from '../../electron/shared/contract.ts';
import { TITLE_LOOKUPS_AT_ONCE, type TitleContent, type TitleUnresolved } from '../../electron/shared/collection.ts';
import type { ErrorInfo } from '../../electron/shared/errors.ts';
import type { Availability, ContentId, Format, PurchaseModel, SearchHit, SearchPage } from '../../electron/shared/model.ts';
import { useGateway } from '../gateway/gateway.ts';
import { LIBRARY_GONE, SHIFT_OVER, useLifecycle } from '../lifecycle.ts';

export const PAGE_SIZE = 20;
/**
 * A live search goes once typing has paused this long (the guidance: 300–500 ms), or at once on
 * Enter; a search still under way that a newer one supersedes is cancelled (issue #34).
 */
export const LIVE_SEARCH_PAUSE_MS = 400;

/** What a result borrows: its contents from the desk's copy, or found on the service by its episodes' own ids; or why not known. */
export type HitContents =
  | { state: 'checking' }
  /** Being looked up on the service now (lookUpTitles). */
  | { state: 'finding' }
  | { state: 'known'; contents: TitleContent[]; from: 'mirror' | 'service' }
  | { state: 'unknown'; why: TitleUnresolved | 'no-title-id' | 'not-found' };

/** The copy cannot tell yet, but the service may: such a hit is looked up on it. */
export const worthLookingUp = (why: string | undefined): boolean => why === 'no-mirror' || why === 'not-in-mirror';

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
  /** By content id (as text: one form per id, content-id.ts). */
  const availability = ref<Record<string, Availability>>({});
  /** By titleId: what the desk's mirror says each result stands for. */
  const resolved = ref<Record<number, TitleContents>>({});
  /** By titleId: episodes looked up on the service by their own ids, when the copy did not know the title. */
  const lookedUp = ref<Record<number, TitleContent[]>>({});
  const lookingUp = ref<number[]>([]);
  /** By titleId: results being looked up on the service now (lookUpTitles). */
  const findingOnService = ref<number[]>([]);
  const availabilityLoading = ref(false);
  const availabilityError = ref<ErrorInfo>();
  let lastRequest: ArgsOf<'liveSearch'> | undefined;

  const hasPrevious = computed(() => (shown.value?.offset ?? 0) > 0);
  const hasNext = computed(() => !!page.value && !!shown.value && shown.value.offset + page.value.hits.length < page.value.found);

  /** The form's search, at the first page. */
  function formRequest(libraryId: number): ArgsOf<'liveSearch'> {
    return {
      libraryId, q: query.value.trim(), offset: 0, limit: PAGE_SIZE, kidsMode: kidsMode.value,
      ...(format.value ? { formats: [format.value] } : {}),
      ...(purchaseModel.value ? { purchaseModel: purchaseModel.value } : {}),
    };
  }

  /** A new search from the form, at the first page. */
  function search(libraryId: number): Promise<boolean> {
    return send(formRequest(libraryId));
  }

  /**
   * Typing paused: the form's search, unless it is empty or the one already asked (its answer on
   * screen or on its way, whichever page of it staff turned to).
   */
  function searchAsTyped(libraryId: number): Promise<boolean> {
    const request = formRequest(libraryId);
    if (request.q === '' || (lastRequest && JSON.stringify(request) === JSON.stringify({ ...lastRequest, offset: 0 }))) return Promise.resolve(false);
    return send(request);
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
    // The results show once each knows what it stands for (one read of the desk's own copy): a
    // result on screen is one Alt+B can act on at once, never one still being looked up.
    const contents = await contentsFor(request.libraryId, result.value.hits);
    if (lastRequest !== request) return false; // another search went out meanwhile: its results show, not these
    page.value = result.value;
    shown.value = { libraryId: request.libraryId, q: request.q, offset: request.offset ?? 0 };
    availability.value = {};
    resolved.value = contents ?? {};
    lookedUp.value = {};
    findingOnService.value = [];
    void findOnService(); // its own request beside the availability read: the results show meanwhile
    await refreshAvailability();
    return true;
  }

  /** What each result on the page stands for, read again from the desk's mirror (after a sync). */
  async function resolve(): Promise<void> {
    if (!page.value || !shown.value) return;
    const contents = await contentsFor(shown.value.libraryId, page.value.hits);
    if (contents) resolved.value = contents;
  }

  /** The hits' contents by titleId, from the desk's copy; undefined when it could not be read (the error is shown). */
  async function contentsFor(libraryId: number, hits: readonly SearchHit[]): Promise<Record<number, TitleContents> | undefined> {
    const titleIds = [...new Set(hits.flatMap((h) => (h.titleId !== undefined && h.titleId > 0 ? [h.titleId] : [])))];
    if (titleIds.length === 0) return {};
    const result = await requests.alongside('titleContents', { libraryId, titleIds });
    if (!result) return undefined;
    if (!result.ok) {
      availabilityError.value = result.error;
      return undefined;
    }
    return Object.fromEntries(result.value.map((r) => [r.titleId, r]));
  }

  function contentsOf(hit: SearchHit): HitContents {
    if (hit.titleId === undefined) return { state: 'unknown', why: 'no-title-id' };
    const found = lookedUp.value[hit.titleId];
    if (found) return found.length > 0 ? { state: 'known', contents: found, from: 'service' } : { state: 'unknown', why: 'not-found' };
    const known = resolved.value[hit.titleId];
    if (!known) return { state: 'checking' };
    if (findingOnService.value.includes(hit.titleId) && 'unresolved' in known) return { state: 'finding' };
    return 'contents' in known ? { state: 'known', contents: known.contents, from: 'mirror' } : { state: 'unknown', why: known.unresolved };
  }

  /**
   * Results the copy cannot resolve, looked up on the service: the first few of the page by
   * default (each costs one request of the credential's minute), or the one staff ask for.
   */
  async function findOnService(titleIds?: number[]): Promise<void> {
    const request = lastRequest;
    if (!page.value || !shown.value) return;
    const wanted = titleIds ?? page.value.hits.flatMap((h) => {
      const known = h.titleId === undefined ? undefined : resolved.value[h.titleId];
      return known && 'unresolved' in known && worthLookingUp(known.unresolved) ? [known.titleId] : [];
    });
    const asked = [...new Set(wanted)].filter((id) => !findingOnService.value.includes(id)).slice(0, TITLE_LOOKUPS_AT_ONCE);
    if (asked.length === 0) return;
    findingOnService.value = [...findingOnService.value, ...asked];
    const result = await requests.alongside('lookUpTitles', { libraryId: shown.value.libraryId, titleIds: asked });
    if (!result || lastRequest !== request) return; // another search went out meanwhile
    findingOnService.value = findingOnService.value.filter((id) => !asked.includes(id));
    if (!result.ok) {
      availabilityError.value = result.error;
      return;
    }
    resolved.value = { ...resolved.value, ...Object.fromEntries(result.value.map((r) => [r.titleId, r])) };
    await refreshAvailability();
  }

  /** A series the copy does not know, by its episodes' own ids (a search result carries them): asked of the service once. */
  async function lookUp(hit: SearchHit): Promise<void> {
    const titleId = hit.titleId;
    const episodes = hit.episodes.filter((e): e is typeof e & { id: ContentId } => e.id !== undefined);
    if (!shown.value || titleId === undefined || episodes.length === 0 || lookingUp.value.includes(titleId)) return;
    lookingUp.value = [...lookingUp.value, titleId];
    const result = await requests.alongside('liveAvailability', { libraryId: shown.value.libraryId, contentIds: episodes.map((e) => e.id).slice(0, 500) });
    if (!result) return;
    lookingUp.value = lookingUp.value.filter((id) => id !== titleId);
    if (!result.ok) {
      availabilityError.value = result.error;
      return;
    }
    // Only what the service answered for an id asked, and offers an action on.
    const offered = new Map(result.value.filter((a) => a.status === 'BORROW' || a.status === 'HOLD').map((a) => [a.contentId, a]));
    availability.value = { ...availability.value, ...Object.fromEntries([...offered].map(([id, a]) => [String(id), a])) };
    lookedUp.value = {
      ...lookedUp.value,
      [titleId]: episodes.filter((e) => offered.has(e.id)).map((e) => ({
        contentId: e.id, ...(e.title ? { title: e.title } : {}), ...(e.episode === undefined ? {} : { episode: e.episode }),
        ...(e.seconds === undefined ? {} : { seconds: e.seconds }),
      })),
    };
  }

  /** Live status, copies and queue for the contents the page's results stand for (after a search and after every action). */
  async function refreshAvailability(): Promise<void> {
    if (!page.value || !shown.value) return;
    const ids = [...new Set(page.value.hits.flatMap((h) => {
      const contents = contentsOf(h);
      return contents.state === 'known' ? contents.contents.map((c) => c.contentId) : [];
    }))];
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
    availability.value = Object.fromEntries(result.value.map((a) => [String(a.contentId), a]));
  }

  const availabilityOf = (contentId: ContentId): Availability | undefined => availability.value[String(contentId)];

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
    resolved.value = {};
    lookedUp.value = {};
    lookingUp.value = [];
    findingOnService.value = [];
    availabilityLoading.value = false;
    availabilityError.value = undefined;
  }

  useLifecycle().on([...SHIFT_OVER, ...LIBRARY_GONE], $reset);

  return {
    query, kidsMode, format, purchaseModel, page, shown, loading, error, availability, availabilityLoading, availabilityError,
    resolved, lookedUp, lookingUp, findingOnService, hasPrevious, hasNext, search, searchAsTyped, turn, retry, resolve, contentsOf, lookUp, findOnService, availabilityOf, refreshAvailability, $reset,
  };
});
