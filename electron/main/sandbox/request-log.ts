// The sandbox's request log: one entry per request that reached the router, with the route it
// matched (or none) and the decoded path parameters. Tests read it to prove that a hostile card
// or id reached exactly the route it was meant for and no other.

import type { RouteName } from './route-names.ts';

export interface LoggedRequest {
  /** Position in the whole run, from 0; unchanged when old entries are dropped. */
  seq: number;
  /** The sandbox clock, epoch ms. */
  at: number;
  method: string;
  /** The raw path as sent, percent-encoding kept. */
  path: string;
  /** Undefined when no route matched (404 or 405). */
  route: RouteName | undefined;
  params: Record<string, string>;
}

/** Enough for a long test run; the oldest entries go first. */
const MAX_ENTRIES = 200_000;

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private added = 0;

  add(entry: Omit<LoggedRequest, 'seq'>): void {
    this.entries.push({ ...entry, seq: this.added++ });
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  /** Entries with `seq >= from`: a caller notes `next` before its call and reads what the call sent. */
  since(from = 0): LoggedRequest[] {
    // Entries are in seq order without gaps, so where `from` sits is arithmetic, not a scan.
    const oldest = this.entries[0]?.seq ?? this.added;
    return this.entries.slice(Math.max(0, from - oldest));
  }

  /** The seq the next request will get. */
  get next(): number {
    return this.added;
  }

  clear(): void {
    this.entries = [];
  }
}
