// Borrow, return, place and remove holds for the patron on screen. One action per title and
// kind at a time (a double click or a repeated Enter sends once), the last outcome for the
// feedback line, and Retry of the last failed request. Every action refreshes the patron view
// and the availability of the titles on screen; `settled` then says the account on screen
// shows the change, which is when focus can move to the new loan or the next one.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ActionOutcome, PatronView, Result } from '../../electron/shared/contract.ts';
import type { ErrorInfo } from '../../electron/shared/errors.ts';
import type { ContentId, Hold, Loan, PatronStatus } from '../../electron/shared/model.ts';
import { isRetryable } from '../gateway/error-text.ts';
import { useGateway } from '../gateway/gateway.ts';
import { PATRON_GONE, useLifecycle } from '../lifecycle.ts';
import { useLiveSearchStore } from './live-search.ts';
import { usePatronStore } from './patron.ts';

export type ActionKind = 'borrow' | 'return' | 'place-hold' | 'remove-hold';

export interface ActionRequest {
  kind: ActionKind;
  libraryId: number;
  card: string;
  contentId: ContentId;
  title?: string;
}

export type ActionState =
  | { state: 'pending'; request: ActionRequest }
  | {
    state: 'done'; request: ActionRequest; queuePosition?: number;
    /** A borrow's loan as the service answered it: the due date and the service's own message. */
    loan?: Loan;
  }
  | {
    state: 'failed'; request: ActionRequest; error: ErrorInfo;
    /** For `unavailable`: the queue the hold would join. */
    queueSize?: number;
    /** For `limit-reached`: the allowance as the patron view showed it. */
    status?: PatronStatus;
  };

const keyOf = (kind: ActionKind, contentId: ContentId) => `${kind}|${contentId}`;

export const useCirculationStore = defineStore('circulation', () => {
  // What was done for a patron belongs to that patron: a lock, Clear patron, another card or
  // another library drops the answers still to come with the outcome on screen.
  const requests = useGateway().scope();
  const inFlight = ref<string[]>([]);
  const outcome = ref<ActionState>();
  /** The last action whose answer and refresh are both in: the account on screen shows its result. */
  const settled = ref<{ request: ActionRequest; ok: boolean; count: number }>();
  let settledCount = 0;

  const busyTitles = computed(() => new Set(inFlight.value.map((key) => key.slice(key.indexOf('|') + 1))));
  const isPending = (kind: ActionKind, contentId: ContentId) => inFlight.value.includes(keyOf(kind, contentId));
  /** Any action on this title is under way: its buttons wait. */
  const isBusy = (contentId: ContentId) => busyTitles.value.has(String(contentId));

  function call(request: ActionRequest): Promise<Result<ActionOutcome<unknown>> | undefined> {
    const args = { libraryId: request.libraryId, card: request.card, contentId: request.contentId, ...(request.title ? { title: request.title } : {}) };
    switch (request.kind) {
      case 'borrow': return requests.alongside('borrow', args);
      case 'return': return requests.alongside('returnTitle', args);
      case 'place-hold': return requests.alongside('placeHold', args);
      case 'remove-hold': return requests.alongside('removeHold', args);
    }
  }

  /** Runs an action for the patron on screen; false when refused here (no patron, already running). */
  async function run(kind: ActionKind, contentId: ContentId, title?: string): Promise<boolean> {
    const patron = usePatronStore();
    const view: PatronView | undefined = patron.view;
    if (!view || patron.viewCard === '') return false;
    return send({ kind, libraryId: view.libraryId, card: patron.viewCard, contentId, ...(title ? { title } : {}) });
  }

  async function send(request: ActionRequest): Promise<boolean> {
    const key = keyOf(request.kind, request.contentId);
    if (inFlight.value.includes(key)) return false;
    inFlight.value = [...inFlight.value, key];
    outcome.value = { state: 'pending', request };
    const statusBefore = usePatronStore().view?.status;
    const live = requests.live();
    const result = await call(request);
    if (!result) return false; // reset while it ran: the in-flight list and the outcome went with it
    if (result.ok) {
      const hold = request.kind === 'place-hold' ? (result.value.value as Hold | null) : undefined;
      const loan = request.kind === 'borrow' ? (result.value.value as Loan | null) : undefined;
      outcome.value = {
        state: 'done', request,
        ...(hold?.queuePosition !== undefined ? { queuePosition: hold.queuePosition } : {}),
        ...(loan ? { loan } : {}),
      };
    } else {
      outcome.value = { state: 'failed', request, error: result.error, ...(statusBefore ? { status: statusBefore } : {}) };
      if (result.error.code === 'unavailable') void learnQueue(request);
    }
    // A connection failure would fail the refresh too; everything else may have changed the account.
    // The title stays busy until the account on screen shows the change: a second click meanwhile would send again.
    if (result.ok || !isRetryable(result.error)) await refreshAfter();
    if (!live()) return result.ok;
    inFlight.value = inFlight.value.filter((k) => k !== key);
    settled.value = { request, ok: result.ok, count: ++settledCount };
    return result.ok;
  }

  async function learnQueue(request: ActionRequest): Promise<void> {
    const result = await requests.alongside('liveAvailability', { libraryId: request.libraryId, contentIds: [request.contentId] });
    const current = outcome.value;
    const same = current?.state === 'failed' && current.error.code === 'unavailable'
      && current.request.kind === request.kind && current.request.contentId === request.contentId;
    if (!result?.ok || !same) return;
    const size = result.value.find((a) => a.contentId === request.contentId)?.holdsQueueSize;
    if (size !== undefined) outcome.value = { ...current, queueSize: size };
  }

  async function refreshAfter(): Promise<void> {
    await Promise.all([usePatronStore().refresh(), useLiveSearchStore().refreshAvailability()]);
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
    requests.reset();
    inFlight.value = [];
    outcome.value = undefined;
    settled.value = undefined;
  }

  useLifecycle().on(PATRON_GONE, $reset);

  return { inFlight, outcome, settled, isPending, isBusy, run, retry, switchTo, dismiss, $reset };
});
