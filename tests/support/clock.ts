// A clock the test moves by hand, shared by a sandbox and a client so token expiry, loan due
// dates and deltas can be exercised without waiting.
export interface Clock {
  now: () => number;
  advance: (ms: number) => void;
}

export function createClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)): Clock {
  let current = start;
  return { now: () => current, advance: (ms) => { current += ms; } };
}
