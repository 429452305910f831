// The renderer's one way to main: the only module that touches window.lendingDesk (tests put a
// fake there). Every call comes back as a typed Result, a bridge that throws included; main
// answering session-locked locks the desk (a lifecycle event), whoever made the call.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { EventName, EventPayloads, MethodName } from '../../electron/shared/contract.ts';
import type { ErrorInfo } from '../../electron/shared/errors.ts';
import { reasonText } from '../../electron/shared/reasons.ts';
import { useLifecycle } from '../lifecycle.ts';
import { createRequestScope, type Answer, type CallArgs, type RequestScope } from './request-scope.ts';

export type { Answer, CallArgs, RequestScope };

/** The bridge itself failed (main gone, the test host down): no Result came back at all. */
const NO_ANSWER: ErrorInfo = { code: 'server', reason: 'desk.no-answer', params: {}, message: reasonText('desk.no-answer') };

export const useGateway = defineStore('gateway', () => {
  const lifecycle = useLifecycle();
  /** Calls sent and not answered yet (a wait main says the service imposes is shown only while one is). */
  const pending = ref(0);

  async function call<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<Answer<M>> {
    let answer: Answer<M>;
    pending.value += 1;
    try {
      const send = window.lendingDesk[method] as (...a: CallArgs<M>) => Promise<Answer<M>>;
      answer = await send(...args);
    } catch {
      answer = { ok: false, error: NO_ANSWER };
    } finally {
      pending.value -= 1;
    }
    if (!answer.ok && answer.error.code === 'session-locked') lifecycle.publish({ type: 'deskLocked', reason: 'system' });
    return answer;
  }

  /** Events from main (the lock main decided, sync progress). */
  function on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
    return window.lendingDesk.on(event, listener);
  }

  /** Main no longer needs to answer these calls (they were superseded): a request it has not sent yet is not sent. */
  function cancel(callIds: string[]): void {
    if (callIds.length === 0) return;
    // Nothing waits for it: were it to fail, the answers it stops would only come and be dropped.
    void Promise.resolve().then(() => window.lendingDesk.cancelCalls({ callIds })).catch(() => undefined);
  }

  /** A stale-answer guard over this gateway: each store resets its own when its lifecycle events arrive. */
  function scope(): RequestScope {
    return createRequestScope(call, cancel);
  }

  return { call, on, scope, pending };
});
