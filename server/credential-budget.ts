// The partner credential's one request budget, spent by the library server for everyone: staff
// calls the desks send first, fairly across desks (staff-queue.ts), the catalog sync with what
// they leave (the request budget keeps a tenth of every window for staff and lets the sync have
// one request on the wire at a time). Only the leader sends to the partner, so the budget lives
// in its process — exact, and nothing on a staff call's path waits for the database.
//
// A failover keeps the limit: the leader records when it sent each request (partner_requests),
// never more than UNRECORDED_AT_MOST of them ahead of what is written; an instance that takes the
// lead over counts the last window's recorded requests, and that many more, as sent just now, so
// the partner never sees more than the limit from this credential even when a leader dies
// between a send and its record. Counting them as sent at the takeover is the safe side: each
// leaves the window later than it really would.
import type pg from 'pg';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';
import { RequestBudget } from '../electron/node/partner/request-budget.ts';
import type { SendGate } from '../electron/node/partner/transport.ts';

/** Sends the leader may have on the wire before they are written down. */
export const UNRECORDED_AT_MOST = 8;

export interface CredentialBudgetOptions {
  perMinute: number;
  /** The partner's window (a minute; the fleet bench compresses time). */
  windowMs: number;
  now: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Writes send times (epoch ms) where the next leader reads them. */
  record: (times: number[]) => Promise<void>;
}

export class CredentialBudget {
  readonly budget: RequestBudget;
  private readonly options: CredentialBudgetOptions;
  /** When each request of the current window was admitted, oldest first (for the wait a staff call is told). */
  private readonly sent: number[] = [];
  /** When each answer of the current window came (the partner's count is no later), and the requests on the wire. */
  private readonly answered: number[] = [];
  private onWire = 0;
  /** Admitted, not yet written; and being written. */
  private pending: number[] = [];
  private writing = 0;
  private flushing: Promise<void> | undefined;
  /** A write failed: the leader's session is failing, and with it the lead. Nothing more is sent. */
  private failed: unknown;

  constructor(options: CredentialBudgetOptions) {
    this.options = options;
    this.budget = new RequestBudget({
      perMinute: options.perMinute, windowMs: options.windowMs, now: options.now, ...(options.sleep ? { sleep: options.sleep } : {}),
    });
  }

  /** Staff exchanges admitted and not yet answered. */
  staffOnWire = 0;

  /** Every exchange with the partner passes here: the budget admits it, then it is noted for the record before it goes. */
  readonly gate: SendGate = (priority, send) => this.budget.gate(priority, () => this.sendNoted(priority === 'desk', send));

  private async sendNoted<T>(staff: boolean, send: () => Promise<T>): Promise<T> {
    if (staff) this.staffOnWire += 1;
    try {
      return await this.sendRecorded(send);
    } finally {
      if (staff) this.staffOnWire -= 1;
    }
  }

  private async sendRecorded<T>(send: () => Promise<T>): Promise<T> {
    await this.partnerHasRoom();
    // Its place is held from here (partnerHasRoom counted it on the wire) until its answer.
    try {
      const at = this.options.now();
      this.sent.push(at);
      this.pending.push(at);
      this.flush();
      while (this.writing + this.pending.length > UNRECORDED_AT_MOST) {
        if (this.failed !== undefined) throw this.failed;
        await this.flushing;
      }
      return await send();
    } finally {
      this.onWire -= 1;
      this.answered.push(this.options.now());
    }
  }

  /**
   * The partner counts a request when it arrives, which may be a while after the budget admitted
   * it (a slow network, a loaded machine): a window's worth admitted near its end could arrive
   * inside the partner's next window beside the ones before. So besides the budget's count (by
   * admission), each request holds its place until its answer comes, and is dated by it: a request
   * goes only when fewer than the limit are on the wire or answered within the window. The place
   * is taken in the same turn as the count is read: requests admitted together cannot all read
   * the one free place and all go.
   */
  private async partnerHasRoom(): Promise<void> {
    const { now, windowMs } = this.options;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    for (;;) {
      const horizon = now() - windowMs;
      while (this.answered.length > 0 && (this.answered[0] as number) <= horizon) this.answered.shift();
      if (this.answered.length + this.onWire < this.budget.limit) {
        this.onWire += 1;
        return;
      }
      const freesAt = this.answered.length > 0 ? (this.answered[0] as number) + windowMs : now() + 10;
      await sleep(Math.max(1, freesAt - now()));
    }
  }

  /**
   * On taking the lead: the requests the last leader recorded in the window, and as many again
   * as it may have sent without recording, counted as sent now.
   */
  async takeOver(recentlySent: number): Promise<void> {
    const count = recentlySent + (recentlySent > 0 ? UNRECORDED_AT_MOST : 0);
    for (let i = 0; i < count; i++) {
      await this.budget.gate('desk', async () => {
        this.sent.push(this.options.now());
        this.answered.push(this.options.now());
      });
    }
  }

  /** How long a staff call waits for its turn with `ahead` staff calls before it (0: it goes now). */
  estimateWaitMs(ahead: number): number {
    const { now, windowMs } = this.options;
    const horizon = now() - windowMs;
    while (this.sent.length > 0 && (this.sent[0] as number) <= horizon) this.sent.shift();
    const limit = this.budget.limit;
    const index = this.sent.length - limit + ahead;
    if (index < 0) return 0;
    // Past the window's own slots the queue frees one window later, slot for slot.
    const windows = Math.floor(index / limit);
    const slot = this.sent[index % limit] ?? now();
    return Math.max(0, slot + (windows + 1) * windowMs - now());
  }

  /** Requests sent in the current window, as this instance counts them. */
  inWindow(): number {
    return this.budget.inWindow();
  }

  /** Writes what is pending, one write at a time; the sends waiting for room go on as each lands. */
  private flush(): void {
    if (this.flushing || this.pending.length === 0 || this.failed !== undefined) return;
    const times = this.pending;
    this.pending = [];
    this.writing = times.length;
    this.flushing = this.options.record(times).then(() => {
      this.writing = 0;
      this.flushing = undefined;
      this.flush();
    }, (error: unknown) => {
      this.failed = error;
      this.flushing = undefined;
    });
  }
}

/** The leader's record of its sends, on its own session. */
export function recordSends(db: pg.ClientBase, instance: string): (times: number[]) => Promise<void> {
  return async (times) => {
    await db.query(`INSERT INTO ${SCHEMA}.partner_requests (at, instance) SELECT to_timestamp(t / 1000.0), $2 FROM unnest($1::float8[]) AS t`, [times, instance]);
  };
}

/** How many requests were recorded in the last window (by any instance), and the older records pruned. */
export async function recentSends(db: pg.ClientBase, windowMs: number, now: number): Promise<number> {
  const since = new Date(now - windowMs);
  await db.query(`DELETE FROM ${SCHEMA}.partner_requests WHERE at < $1`, [new Date(now - 10 * windowMs)]);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${SCHEMA}.partner_requests WHERE at >= $1`, [since]);
  return rows[0]?.n ?? 0;
}
