// The stale-answer guard. A store sends its requests through a scope; an answer that belongs to
// a request superseded by a newer one, or to a scope reset since it was sent (lock, clear,
// another lookup, another library), comes back as `undefined` and must not show. Such a request
// is also cancelled (issue #34): each goes out named by a call id, and main is told which it no
// longer wants, so what it had not sent to the service never goes and what waited for the
// mirror's owner is dropped there. Main cancels only reads; an action runs to its end.
import type { LendingDeskApi, MethodName, Result, ResultOf } from '../../electron/shared/contract.ts';

export type CallArgs<M extends MethodName> = Parameters<LendingDeskApi[M]>;
export type Answer<M extends MethodName> = Result<ResultOf<M>>;

export type Send = <M extends MethodName>(method: M, ...args: CallArgs<M>) => Promise<Answer<M>>;
/** Tells main these calls' answers are no longer wanted. */
export type Cancel = (callIds: string[]) => void;

export interface RequestScope {
  /** Supersedes every request of this scope still under way (a new lookup, a new search). */
  latest<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<Answer<M> | undefined>;
  /** Runs beside the others (an action, a refresh, a page); dropped by a reset or a later `latest`. */
  alongside<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<Answer<M> | undefined>;
  /** A check that stays true until the scope resets or a `latest` follows: for work done after an answer. */
  live(): () => boolean;
  /** Every answer still to come is dropped, and the calls still under way cancelled. */
  reset(): void;
}

/** Scopes made in this window, so each one's call ids are its own. */
let scopes = 0;

export function createRequestScope(send: Send, cancel: Cancel = () => {}): RequestScope {
  const scope = `s${++scopes}`;
  let generation = 0;
  let calls = 0;
  /** Calls under way, by call id. */
  const underWay = new Set<string>();

  function liveFrom(mine: number): () => boolean {
    return () => mine === generation;
  }

  function cancelUnderWay(): void {
    if (underWay.size === 0) return;
    cancel([...underWay]);
    underWay.clear();
  }

  async function answerFor<M extends MethodName>(live: () => boolean, method: M, args: CallArgs<M>): Promise<Answer<M> | undefined> {
    const callId = `${scope}-${++calls}`;
    underWay.add(callId);
    try {
      const answer = await send(method, ...([args[0], { callId }] as unknown as CallArgs<M>));
      return live() ? answer : undefined;
    } finally {
      underWay.delete(callId);
    }
  }

  return {
    latest: (method, ...args) => {
      cancelUnderWay();
      return answerFor(liveFrom(++generation), method, args);
    },
    alongside: (method, ...args) => answerFor(liveFrom(generation), method, args),
    live: () => liveFrom(generation),
    reset: () => {
      generation++;
      cancelUnderWay();
    },
  };
}
