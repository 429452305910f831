// Backoff for idempotent requests: capped exponential with full jitter, unless the service
// said how long to wait (Retry-After, seconds or an HTTP date). That is honoured in full, never
// cut short (issue #34: a cap of 60 s retried a `Retry-After: 120` inside the service's window),
// and 429s in a row back off exponentially from it. A staff call is answered at once instead of
// waiting long (staff-wait.ts); background work waits.

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** How far 429s in a row double the pause, at most: never below the service's own Retry-After. */
  maxRateLimitBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 8_000, maxRateLimitBackoffMs: 600_000 };

export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The pause after the `inARow`-th 429 in a row that said to wait `retryAfter`: Retry-After, then
 * twice it, four times… up to the policy's ceiling, and never less than what the service asked.
 */
export function rateLimitPauseMs(policy: RetryPolicy, retryAfter: number, inARow: number): number {
  const doubled = retryAfter * 2 ** Math.max(0, Math.min(30, inARow - 1));
  return Math.max(retryAfter, Math.min(doubled, policy.maxRateLimitBackoffMs));
}

/** Delay before attempt `attempt + 1` (attempt counts from 1) when the service did not say how long. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
