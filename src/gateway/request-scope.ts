// The stale-answer guard. A store sends its requests through a scope; an answer that belongs to
// a request superseded by a newer one, or to a scope reset since it was sent (lock, clear,
// another lookup, another library), comes back as `undefined` and must not show.
import type { LendingDeskApi, MethodName, Result, ResultOf } from '../../electron/shared/contract.ts';

export type CallArgs<M extends MethodName> = Parameters<LendingDeskApi[M]>;
export type Answer<M extends MethodName> = Result<ResultOf<M>>;

export type Send = <M extends MethodName>(method: M, ...args: CallArgs<M>) => Promise<Answer<M>>;

export interface RequestScope {
  /** Supersedes every request of this scope still under way (a new lookup, a new search). */
  latest<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<Answer<M> | undefined>;
  /** Runs beside the others (an action, a refresh, a page); dropped by a reset or a later `latest`. */
  alongside<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<Answer<M> | undefined>;
  /** A check that stays true until the scope resets or a `latest` follows: for work done after an answer. */
  live(): () => boolean;
  /** Every answer still to come is dropped. */
  reset(): void;
}

export function createRequestScope(send: Send): RequestScope {
  let generation = 0;

  function liveFrom(mine: number): () => boolean {
    return () => mine === generation;
  }

  async function answerFor<M extends MethodName>(live: () => boolean, pending: Promise<Answer<M>>): Promise<Answer<M> | undefined> {
    const answer = await pending;
    return live() ? answer : undefined;
  }

  return {
    latest: (method, ...args) => answerFor(liveFrom(++generation), send(method, ...args)),
    alongside: (method, ...args) => answerFor(liveFrom(generation), send(method, ...args)),
    live: () => liveFrom(generation),
    reset: () => { generation++; },
  };
}
