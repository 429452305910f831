// The patron on screen: the card typed, the patron view, the lookup's progress and error, the
// selection in the loans and holds lists, this shift's recent patrons, and where else a card
// this library does not know was found. The full card of a recent patron stays in memory only
// (to look it up again); the screen shows it masked.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { CardElsewhere, PatronView } from '../../electron/shared/contract.ts';
import type { ErrorInfo } from '../../electron/shared/errors.ts';
import type { ContentId } from '../../electron/shared/content-id.ts';
import { maskCard } from '../../electron/shared/card-mask.ts';
import { useGateway } from '../gateway/gateway.ts';
import { SHIFT_OVER, useLifecycle } from '../lifecycle.ts';
import { useSessionStore } from './session.ts';

export interface RecentPatron {
  libraryId: number;
  /** Memory only, never rendered. */
  card: string;
  masked: string;
}

/** The other libraries asked about a card this library does not know. */
export interface CardSearch {
  card: string;
  /** Where the card was not known. */
  libraryId: number;
  /** Undefined while the libraries are being asked. */
  results?: CardElsewhere[];
  error?: ErrorInfo;
}

export const usePatronStore = defineStore('patron', () => {
  const lifecycle = useLifecycle();
  // An answer that arrives after a reset (lock, clear, another lookup, another library) must not show.
  const requests = useGateway().scope();
  const card = ref('');
  const view = ref<PatronView>();
  /** The card the view belongs to, trimmed (the field may change after the lookup). */
  const viewCard = ref('');
  const loading = ref(false);
  const refreshing = ref(false);
  const error = ref<ErrorInfo>();
  const selectedLoanId = ref<ContentId>();
  const selectedHoldId = ref<ContentId>();
  const recent = ref<RecentPatron[]>([]);
  const elsewhere = ref<CardSearch>();
  let lastLookup: { libraryId: number; card: string } | undefined;

  /** Looks up the card in the field, or `cardOverride` (a recent patron) without putting it in the field. */
  async function lookup(libraryId: number, cardOverride?: string): Promise<boolean> {
    const trimmed = (cardOverride ?? card.value).trim();
    if (trimmed !== viewCard.value || libraryId !== view.value?.libraryId) {
      lifecycle.publish({ type: 'patronChanged', libraryId });
      // Issue #35: the last patron leaves the screen now, so nothing is offered for them while the next one is looked up.
      view.value = undefined;
      viewCard.value = '';
    }
    lastLookup = { libraryId, card: trimmed };
    loading.value = true;
    error.value = undefined;
    elsewhere.value = undefined;
    const result = await requests.latest('lookupPatron', { libraryId, card: trimmed });
    if (!result) return false;
    loading.value = false;
    if (result.ok) {
      const samePatron = viewCard.value === trimmed;
      view.value = result.value;
      viewCard.value = trimmed;
      if (!samePatron) {
        selectedLoanId.value = undefined;
        selectedHoldId.value = undefined;
      }
      keepSelectionValid();
      remember(libraryId, trimmed);
      card.value = ''; // issue #35: the full number leaves the field; the patron strip shows it masked
      return true;
    }
    view.value = undefined;
    viewCard.value = '';
    error.value = result.error;
    return false;
  }

  /** Repeats the last lookup (the Retry of a lookup that failed on the connection). */
  async function retryLookup(): Promise<boolean> {
    if (!lastLookup) return false;
    return lookup(lastLookup.libraryId, lastLookup.card);
  }

  /** The card the last lookup could not find here, tried at the connection's other libraries at once. */
  async function findElsewhere(): Promise<boolean> {
    const failed = lastLookup;
    if (!failed || error.value?.code !== 'invalid-patron') return false;
    if (elsewhere.value && !elsewhere.value.error) return false; // asked already, or being asked
    elsewhere.value = { ...failed };
    const result = await requests.alongside('findCardElsewhere', failed);
    if (!result) return false;
    elsewhere.value = result.ok ? { ...failed, results: result.value } : { ...failed, error: result.error };
    return result.ok;
  }

  /** After an action: reload the same patron; on failure the view on screen stays. */
  async function refresh(): Promise<boolean> {
    if (!view.value || viewCard.value === '') return false;
    const { libraryId } = view.value;
    refreshing.value = true;
    const result = await requests.alongside('lookupPatron', { libraryId, card: viewCard.value });
    if (!result) return false;
    refreshing.value = false;
    if (!result.ok) return false;
    view.value = result.value;
    keepSelectionValid();
    return true;
  }

  function keepSelectionValid(): void {
    const loans = view.value?.loans ?? [];
    const holds = view.value?.holds ?? [];
    if (!loans.some((l) => l.contentId === selectedLoanId.value)) selectedLoanId.value = loans[0]?.contentId;
    if (!holds.some((h) => h.contentId === selectedHoldId.value)) selectedHoldId.value = holds[0]?.contentId;
  }

  /** As many as IT's policy keeps (none by default, issue #35): nobody's card stays on screen for the next person. */
  function remember(libraryId: number, fullCard: string): void {
    const kept = useSessionStore().recentPatrons;
    const others = recent.value.filter((r) => !(r.libraryId === libraryId && r.card === fullCard));
    recent.value = kept > 0 ? [{ libraryId, card: fullCard, masked: maskCard(fullCard) }, ...others].slice(0, kept) : [];
  }

  /** The desk is empty again; this shift's recent patrons stay. */
  function clear(): void {
    card.value = '';
    clearPatron();
  }

  /**
   * Another library: the patron and what was found go, the text in the card field stays (the
   * card may belong to the library just chosen: Enter looks it up there).
   */
  function clearPatron(): void {
    requests.reset();
    lastLookup = undefined;
    elsewhere.value = undefined;
    view.value = undefined;
    viewCard.value = '';
    loading.value = false;
    refreshing.value = false;
    error.value = undefined;
    selectedLoanId.value = undefined;
    selectedHoldId.value = undefined;
  }

  /** Everything goes, recent patrons included. */
  function $reset(): void {
    clear();
    recent.value = [];
  }

  lifecycle.on(SHIFT_OVER, $reset);
  lifecycle.on('patronCleared', clear);
  lifecycle.on('libraryChanged', clearPatron);

  return {
    card, view, viewCard, loading, refreshing, error, selectedLoanId, selectedHoldId, recent, elsewhere,
    lookup, retryLookup, findElsewhere, refresh, $reset,
  };
});
