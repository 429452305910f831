// Borrow, return, place and remove holds for the patron on screen. One action per title and
// kind at a time (a double click or a repeated Enter sends once), the last outcome for the
// feedback line, and Retry of the last failed request. Every action refreshes the patron view
// and the availability of the titles on screen.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ActionOutcome, PatronView, Result } from '../../electron/shared/contract.ts';
import type { ErrorInfo } from '../../electron/shared/errors.ts';
import type { Hold, PatronStatus } from '../../electron/shared/model.ts';
import { deskApi } from '../api.ts';
import { isRetryable } from '../i18n/errors.ts';
import { useLiveSearchStore } from './live-search.ts';
import { usePatronStore } from './patron.ts';
import { useSessionStore } from './session.ts';

export type ActionKind = 'borrow' | 'return' | 'place-hold' | 'remove-hold';

export interface ActionRequest {
  kind: ActionKind;
  libraryId: number;
  card: string;
  contentId: number;
  title?: string;
}

export type ActionState =
  | { state: 'pending'; request: ActionRequest }
  | { state: 'done'; request: ActionRequest; queuePosition?: number }
  | {
    state: 'failed'; request: ActionRequest; error: ErrorInfo;
    /** For `unavailable`: the queue the hold would join. */
    queueSize?: number;
    /** For `limit-reached`: the allowance as the patron view showed it. */
    status?: PatronStatus;
  };

const keyOf = (kind: ActionKind, contentId: number) => `${kind}|${contentId}`;

export const useCirculationStore = defineStore('circulation', () => {
  const inFlight = ref<string[]>([]);
  const outcome = ref<ActionState>();
  let generation = 0;

  const busyTitles = computed(() => new Set(inFlight.value.map((key) => Number(key.split('|')[1]))));
  const isPending = (kind: ActionKind, contentId: number) => inFlight.value.includes(keyOf(kind, contentId));
  /** Any action on this title is under way: its buttons wait. */
  const isBusy = (contentId: number) => busyTitles.value.has(contentId);

  function call(request: ActionRequest): Promise<Result<ActionOutcome<unknown>>> {
    const args = { libraryId: request.libraryId, card: request.card, contentId: request.contentId, ...(request.title ? { title: request.title } : {}) };
    const api = deskApi();
    switch (request.kind) {
      case 'borrow': return api.borrow(args);
      case 'return': return api.returnTitle(args);
      case 'place-hold': return api.placeHold(args);
      case 'remove-hold': return api.removeHold(args);
    }
  }

  /** Runs an action for the patron on screen; false when refused here (no patron, already running). */
  async function run(kind: ActionKind, contentId: number, title?: string): Promise<boolean> {
    const patron = usePatronStore();
    const view: PatronView | undefined = patron.view;
    if (!view || patron.viewCard === '') return false;
    return send({ kind, libraryId: view.libraryId, card: patron.viewCard, contentId, ...(title ? { title } : {}) });
  }

  async function send(request: ActionRequest): Promise<boolean> {
    const key = keyOf(request.kind, request.contentId);
    if (inFlight.value.includes(key)) return false;
    inFlight.value = [...inFlight.value, key];
    const mine = generation;
    outcome.value = { state: 'pending', request };
    const statusBefore = usePatronStore().view?.status;
    try {
      const result = await useSessionStore().call(call(request));
      if (mine !== generation) return false;
      if (result.ok) {
        const hold = request.kind === 'place-hold' ? (result.value.value as Hold | null) : undefined;
        outcome.value = { state: 'done', request, ...(hold?.queuePosition !== undefined ? { queuePosition: hold.queuePosition } : {}) };
      } else {
        outcome.value = { state: 'failed', request, error: result.error, ...(statusBefore ? { status: statusBefore } : {}) };
        if (result.error.code === 'unavailable') void learnQueue(request, mine);
      }
      // A connection failure would fail the refresh too; everything else may have changed the account.
      if (result.ok || !isRetryable(result.error)) await refreshAfter(mine);
      return result.ok;
    } finally {
      if (mine === generation) inFlight.value = inFlight.value.filter((k) => k !== key);
    }
  }

  async function learnQueue(request: ActionRequest, mine: number): Promise<void> {
    const result = await useSessionStore().call(deskApi().liveAvailability({ libraryId: request.libraryId, contentIds: [request.contentId] }));
    const current = outcome.value;
    const same = current?.state === 'failed' && current.error.code === 'unavailable'
      && current.request.kind === request.kind && current.request.contentId === request.contentId;
    if (mine !== generation || !result.ok || !same) return;
    const size = result.value.find((a) => a.contentId === request.contentId)?.holdsQueueSize;
    if (size !== undefined) outcome.value = { ...current, queueSize: size };
  }

  async function refreshAfter(mine: number): Promise<void> {
    const catalog = useLiveSearchStore();
    await Promise.all([usePatronStore().refresh(), catalog.refreshAvailability()]);
    if (mine !== generation) return;
  }

  /** Repeats the request that failed, exactly. */
  async function retry(): Promise<boolean> {
    const current = outcome.value;
    if (current?.state !== 'failed') return false;
    return send(current.request);
  }

  /** The offer after a refusal: a hold when no copy is free, a borrow when one is. */
  async function switchTo(kind: 'borrow' | 'place-hold'): Promise<boolean> {
    const current = outcome.value;
    if (current?.state !== 'failed') return false;
    return send({ ...current.request, kind });
  }

  function dismiss(): void {
    if (outcome.value?.state !== 'pending') outcome.value = undefined;
  }

  function $reset(): void {
    generation++;
    inFlight.value = [];
    outcome.value = undefined;
  }

  return { inFlight, outcome, isPending, isBusy, run, retry, switchTo, dismiss, $reset };
});
