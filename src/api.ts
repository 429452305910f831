// The renderer's only way to main. Tests replace window.lendingDesk with a fake; nothing else
// in src/ touches window.lendingDesk directly, so that is the one seam.
import type { LendingDeskApi } from '../electron/shared/contract.ts';
import type { ErrorInfo } from '../electron/shared/errors.ts';

export function deskApi(): LendingDeskApi {
  return window.lendingDesk;
}

/** Main answers this code when no staff shift is open. */
export function isSessionLocked(error: ErrorInfo): boolean {
  return error.code === 'session-locked';
}
