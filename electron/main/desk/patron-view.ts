// One Enter loads the whole patron: status, loans and holds in parallel. A part that fails
// is reported beside the parts that loaded, unless the failure is about the patron or the
// connection itself, which makes the whole view meaningless.

import type { PatronView } from '../../shared/contract.ts';
import type { PartnerClient } from '../../node/partner/client.ts';
import { isDeskError, DeskError } from '../../shared/desk-error.ts';

const WHOLE_VIEW_FAILURES = new Set(['invalid-patron', 'unauthorized', 'invalid-input']);

/** `signal`: the lookup is no longer wanted (a newer one took its place): none of its reads not yet sent goes. */
export async function patronView(client: PartnerClient, libraryId: number, card: string, signal?: AbortSignal): Promise<PatronView> {
  const [status, loans, holds] = await Promise.allSettled([
    client.patronStatus(libraryId, card, signal), client.currentLoans(libraryId, card, signal), client.currentHolds(libraryId, card, signal),
  ]);
  signal?.throwIfAborted();
  const failures = [status, loans, holds].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  const fatal = failures.find((e) => !isDeskError(e) || WHOLE_VIEW_FAILURES.has(e.code));
  if (fatal !== undefined || failures.length === 3) throw fatal ?? failures[0];
  const problems: PatronView['problems'] = [];
  const part = <T>(name: 'status' | 'loans' | 'holds', r: PromiseSettledResult<T>, empty: T): T => {
    if (r.status === 'fulfilled') return r.value;
    problems.push({ part: name, error: (r.reason as DeskError).toInfo() });
    return empty;
  };
  return {
    libraryId,
    status: part('status', status, {}),
    loans: part('loans', loans, []),
    holds: part('holds', holds, []),
    problems,
  };
}
