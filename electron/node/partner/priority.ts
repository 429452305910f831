// Whose request it is. The desk's (a patron waiting) goes before the background's (sync, the
// 10-minute refresh) through a connection's request budget. One request serves both at times: the
// token request the sync started is the one a staff call needs a moment later. Such a request's
// priority rises when a staff call joins it (issue #34), so it never waits behind background work
// on the staff call's behalf.

export type Priority = 'desk' | 'background';

/** A request's priority, which may rise from background to desk while the request waits its turn. */
export class RequestPriority {
  #value: Priority;
  readonly #listeners = new Set<() => void>();

  constructor(value: Priority) {
    this.#value = value;
  }

  get value(): Priority {
    return this.#value;
  }

  /** From now on a desk request: whoever holds it back is told at once. */
  raise(): void {
    if (this.#value === 'desk') return;
    this.#value = 'desk';
    for (const listener of [...this.#listeners]) listener();
  }

  /** Told once, when the priority rises; the answer stops listening. */
  onRaise(listener: () => void): () => unknown {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** A plain priority as a request's (one that never rises). */
export const priorityOf = (priority: Priority | RequestPriority): RequestPriority =>
  (priority instanceof RequestPriority ? priority : new RequestPriority(priority));
