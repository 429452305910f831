// Main's own idle lock. The renderer warns and locks after the idle minutes (useIdleLock); but a
// frozen or crashed renderer runs no timer, and a shift left open on a shared desk shows the next
// patron the last one's account. So main keeps its own clock of the last activity — a sign-in,
// any contract call staff make, and the renderer's heartbeat while someone uses the window — on
// the injected clock, and locks the desk a minute after the renderer should have (the renderer's
// warning normally comes first).
import type { MethodName } from '../../shared/contract.ts';

/** After the idle minutes: the renderer's own countdown has locked by then, unless it is not running. */
export const IDLE_GRACE_MS = 60_000;

/** Calls the renderer makes on its own (a poll, a refresh, the lock): they say nothing about anyone at the desk. */
const BACKGROUND: ReadonlySet<MethodName> = new Set(['appInfo', 'syncStatus', 'liveAvailability', 'collectionLiveAvailability', 'todaysActions', 'lockSession', 'cancelCalls']);

export function countsAsActivity(method: MethodName): boolean {
  return !BACKGROUND.has(method);
}

export class IdleClock {
  readonly #now: () => number;
  #last: number;

  constructor(now: () => number) {
    this.#now = now;
    this.#last = now();
  }

  touch(): void {
    this.#last = this.#now();
  }

  /** True once nothing happened for the idle minutes and the grace after them. */
  expired(idleLockMinutes: number): boolean {
    return this.#now() - this.#last >= idleLockMinutes * 60_000 + IDLE_GRACE_MS;
  }
}
