// The partner credential's one request budget, spent by the library server for everyone: staff
// calls the desks send first, fairly across desks (staff-queue.ts), the catalog sync with what
// they leave (the request budget keeps a tenth of every window for staff and lets the sync have
// one request on the wire at a time). What staff leave is judged by what they sent in the last
// window: the sync keeps half as much again free for them (STAFF_HEADROOM), so a staff call finds
// the window open however busy the sync is, as long as staff alone fit. Only the leader sends to
// the partner, so the budget lives in its process — exact, and nothing on a staff call's path
// waits for the database.
//
// A failover keeps the limit: the leader records when it sent each request (partner_requests),
// never more than UNRECORDED_AT_MOST of them ahead of what is written; an instance that takes the
// lead over counts the last window's recorded requests at the times they were sent, CLOCK_SKEW_MS
// later (the two instances' clocks may differ that much), and UNRECORDED_AT_MOST more as sent just
// now, so the partner never sees more than the limit from this credential even when a leader dies
// between a send and its record. Each recorded send leaves the window no earlier than it would
// have under the old leader, and no later than it must: staff wait after a failover only as long
// as the old leader's window makes them, not a whole window more.
import type pg from 'pg';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';
import { RequestBudget } from '../electron/node/partner/request-budget.ts';
import type { SendGate } from '../electron/node/partner/transport.ts';

/** Sends the leader may have on the wire before they are written down. */
export const UNRECORDED_AT_MOST = 8;
/** How far apart the instances' clocks may be (NTP keeps a library's machines far closer). */
export const CLOCK_SKEW_MS = 1_000;
/** The sync leaves staff this many times what they sent in the last window. */
export const STAFF_HEADROOM = 1.5;

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
  /** When each staff request and each of the sync's of the current window was admitted. */
  private readonly staffSent: number[] = [];
  private readonly backgroundSent: number[] = [];
  /** The sync's requests past roomBesideStaff and not yet sent. */
  private backgroundPassing = 0;
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

  /** Staff exchanges past the budget and the partner's window (about to go or on the wire), not yet answered. */
  staffOnWire = 0;

  /**
   * Every exchange with the partner passes here: the sync's first waits until staff have their
   * headroom, then the budget admits it, and it is noted for the record before it goes.
   */
  readonly gate: SendGate = async (priority, send) => {
    if (priority === 'desk') return this.budget.gate(priority, () => this.sendRecorded(true, send));
    await this.roomBesideStaff();
    let passing = true;
    try {
      return await this.budget.gate(priority, () => {
        this.backgroundPassing -= 1;
        passing = false;
        return this.sendRecorded(false, send);
      });
    } finally {
      if (passing) this.backgroundPassing -= 1;
    }
  };

  private async sendRecorded<T>(staff: boolean, send: () => Promise<T>): Promise<T> {
    await this.partnerHasRoom();
    // Its place is held from here (partnerHasRoom counted it on the wire) until its answer.
    if (staff) this.staffOnWire += 1;
    try {
      const at = this.options.now();
      this.sent.push(at);
      (staff ? this.staffSent : this.backgroundSent).push(at);
      this.pending.push(at);
      this.flush();
      while (this.writing + this.pending.length > UNRECORDED_AT_MOST) {
        if (this.failed !== undefined) throw this.failed;
        await this.flushing;
      }
      return await send();
    } finally {
      this.onWire -= 1;
      if (staff) this.staffOnWire -= 1;
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
    for (;;) {
      this.forgetOld();
      if (this.answered.length + this.onWire < this.budget.limit) {
        this.onWire += 1;
        return;
      }
      const freesAt = this.answered.length > 0 ? (this.answered[0] as number) + windowMs : now() + 10;
      await this.sleep(Math.max(1, freesAt - now()));
    }
  }

  /**
   * Until the sync's sends of the window leave staff STAFF_HEADROOM times what they sent in it; the
   * request is then counted as the sync's in the same turn, so the sync's requests sent together
   * cannot all read the same room.
   */
  private async roomBesideStaff(): Promise<void> {
    for (;;) {
      this.forgetOld();
      const staffNeed = Math.ceil(this.staffSent.length * STAFF_HEADROOM);
      if (this.backgroundSent.length + this.backgroundPassing < this.budget.limit - staffNeed) {
        this.backgroundPassing += 1;
        return;
      }
      // Room comes back as the sync's own sends, or staff's, leave the window.
      const oldest = Math.min(this.backgroundSent[0] ?? Infinity, this.staffSent[0] ?? Infinity);
      await this.sleep(Math.max(5, oldest + this.options.windowMs - this.options.now()));
    }
  }

  /** Requests that may go to the partner at once: room in the window both by admissions and by answers. */
  roomNow(): number {
    this.forgetOld();
    const limit = this.budget.limit;
    return Math.max(0, Math.min(limit - this.budget.inWindow(), limit - this.answered.length - this.onWire));
  }

  /** How soon the window may have room again (the oldest send or answer leaving it). */
  nextRoomInMs(): number {
    this.forgetOld();
    const oldest = Math.min(this.sent[0] ?? Infinity, this.answered[0] ?? Infinity);
    return Number.isFinite(oldest) ? Math.max(5, oldest + this.options.windowMs - this.options.now()) : 5;
  }

  private forgetOld(): void {
    const horizon = this.options.now() - this.options.windowMs;
    for (const times of [this.sent, this.staffSent, this.backgroundSent, this.answered]) {
      while (times.length > 0 && (times[0] as number) <= horizon) times.shift();
    }
  }

  private sleep(ms: number): Promise<void> {
    return this.options.sleep ? this.options.sleep(ms) : new Promise<void>((resolve) => setTimeout(resolve, ms));
  }

  /**
   * On taking the lead: the requests the last leader recorded in the window, each at its time
   * (CLOCK_SKEW_MS later, never later than now), and the ones it may have sent without recording,
   * counted as sent now. Nothing waits: staff calls wait, in line, for the window to move.
   */
  takeOver(recentlySent: readonly number[]): void {
    const now = this.options.now();
    const times = recentlySent.map((t) => Math.min(now, t + CLOCK_SKEW_MS));
    if (times.length > 0) times.push(...Array.from({ length: UNRECORDED_AT_MOST }, () => now));
    times.sort((a, b) => a - b);
    this.budget.noteSent(times);
    this.sent.push(...times);
    this.answered.push(...times);
  }

  /** How long a staff call waits for its turn with `ahead` staff calls before it (0: it goes now). */
  estimateWaitMs(ahead: number): number {
    const { now, windowMs } = this.options;
    this.forgetOld();
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

/** When each request recorded in the last window (by any instance) was sent, epoch ms; older records pruned. */
export async function recentSends(db: pg.ClientBase, windowMs: number, now: number): Promise<number[]> {
  // A window and the clocks' difference back: a send the other clock dated earlier still counts.
  const since = new Date(now - windowMs - CLOCK_SKEW_MS);
  await db.query(`DELETE FROM ${SCHEMA}.partner_requests WHERE at < $1`, [new Date(now - 10 * windowMs)]);
  const { rows } = await db.query<{ t: number }>(`SELECT extract(epoch FROM at) * 1000 AS t FROM ${SCHEMA}.partner_requests WHERE at >= $1 ORDER BY at`, [since]);
  return rows.map((r) => Number(r.t));
}
