// Calls the renderer may cancel (issue #34): a lookup, search or Collection query that a newer one
// has superseded. The renderer names each call it may cancel (a call id) and, once it no longer
// wants the answer, says so (`cancelCalls`); the call's signal aborts, and what it had not yet sent
// to the service never goes (no budget spent), what waited for the mirror's owner is dropped
// there before it runs. Only reads are cancellable: an action on a patron's account runs to its end.
import { DeskError } from '../../shared/desk-error.ts';

export class CancellableCalls {
  readonly #running = new Map<string, AbortController>();

  /** Runs `work` with the signal of call `callId` (none: not cancellable); the id is forgotten when it ends. */
  async run<T>(callId: string | undefined, work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    if (callId === undefined || this.#running.has(callId)) return work(undefined); // an id in use names the first call only
    const controller = new AbortController();
    this.#running.set(callId, controller);
    try {
      return await work(controller.signal);
    } finally {
      if (this.#running.get(callId) === controller) this.#running.delete(callId);
    }
  }

  /** The renderer no longer wants these calls' answers. An id of no call running is ignored. */
  cancel(callIds: readonly string[]): void {
    for (const id of callIds) this.#running.get(id)?.abort(DeskError.because('network', 'call.cancelled'));
  }

  /** Everything under way (the shift ended: no answer is wanted any more). */
  cancelAll(): void {
    this.cancel([...this.#running.keys()]);
  }
}
