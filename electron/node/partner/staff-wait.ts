// How long a staff call waits for the service's pacing before the desk answers it instead. The
// service may ask for minutes (a Retry-After of 120 s is honoured in full, issue #34), and the
// request budget's window may be full for as long; a patron on the phone is better told at once
// how long it will be than left watching a spinner. Background work waits it out.
import { DeskError } from '../../shared/desk-error.ts';

/** A few seconds: past this, a staff call is answered at once with the time to wait. */
export const STAFF_WAIT_LIMIT_MS = 5_000;

/** The answer to a staff call that would wait `waitMs` for the service's pacing: rate-limited, with whole seconds to wait. */
export function serviceWaitError(waitMs: number): DeskError {
  return DeskError.because('rate-limited', 'service.wait', { seconds: Math.max(1, Math.ceil(waitMs / 1000)) }, 429);
}
