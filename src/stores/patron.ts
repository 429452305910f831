// The patron on screen: the card typed, the patron view, and the lookup's progress and error.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { PatronView } from '../../electron/contract.ts';
import type { ErrorInfo } from '../../electron/partner/errors.ts';
import { deskApi } from '../api.ts';
import { useSessionStore } from './session.ts';

export const usePatronStore = defineStore('patron', () => {
  const card = ref('');
  const view = ref<PatronView>();
  /** The card the view belongs to, trimmed (the field may change after the lookup). */
  const viewCard = ref('');
  const loading = ref(false);
  const error = ref<ErrorInfo>();
  // An answer that arrives after a reset (lock, clear, another lookup) must not show.
  let generation = 0;

  async function lookup(libraryId: number): Promise<boolean> {
    const trimmed = card.value.trim();
    const mine = ++generation;
    loading.value = true;
    error.value = undefined;
    const result = await useSessionStore().call(deskApi().lookupPatron({ libraryId, card: trimmed }));
    if (mine !== generation) return false;
    loading.value = false;
    if (result.ok) {
      view.value = result.value;
      viewCard.value = trimmed;
      return true;
    }
    view.value = undefined;
    error.value = result.error;
    return false;
  }

  function $reset(): void {
    generation++;
    card.value = '';
    view.value = undefined;
    viewCard.value = '';
    loading.value = false;
    error.value = undefined;
  }

  return { card, view, viewCard, loading, error, lookup, clear: $reset, $reset };
});
