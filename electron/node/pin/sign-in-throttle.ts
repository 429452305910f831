// Wrong tries at the lock screen: five are free (a mistyped PIN happens), then each further one
// waits twice as long as the last, from 30 seconds up to 15 minutes. A counter at the desk can
// try about a hundred PINs a day that way instead of thousands an hour. The tries before the
// wait are counted across every name, so changing the name typed does not reset them.

export const FREE_TRIES = 5;
const FIRST_WAIT_MS = 30_000;
const LONGEST_WAIT_MS = 15 * 60_000;

/** How long the desk refuses tries after this many wrong ones in a row (0: none). */
export function waitAfter(failures: number): number {
  if (failures < FREE_TRIES) return 0;
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(failures - FREE_TRIES, 10));
}

/** Whole seconds still to wait at `now` (0 when a try is accepted). */
export function secondsToWait(failures: number, lastFailureAt: number, now: number): number {
  const left = lastFailureAt + waitAfter(failures) - now;
  // A clock set back must not stretch the wait beyond its length.
  return left <= 0 ? 0 : Math.ceil(Math.min(left, waitAfter(failures)) / 1000);
}
