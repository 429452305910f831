// One connection's share of the service's rate limit: at most `perMinute` exchanges in any 60
// seconds, counted when each is sent (retries included), for desk work, sync and refresh
// together. The desk goes first: a patron call waits only when the desk itself has used the
// window up. Background work (sync, the 10-minute refresh) keeps a tenth of every window free
// for the desk and has one exchange on the wire at a time, so a patron call never queues
// behind more than the one background request already sent. A request's priority can rise while
// it waits (a token request a staff call joined, priority.ts): it then goes as the desk's.
import { priorityOf, type RequestPriority } from './priority.ts';
import { serviceWaitError } from './staff-wait.ts';
import type { SendGate } from './transport.ts';

export interface RequestBudgetOptions {
  /** Exchanges in any 60 seconds (the service allows about 100). */
  perMinute: number;
  now?: () => number;
  /** Waits `ms` (simulated in the reliability runs). */
  sleep?: (ms: number) => Promise<void>;
  /** The service's window, a minute; only a bench that compresses time (bench:fleet) shortens it. */
  windowMs?: number;
  /**
   * A desk request that would wait longer than this for the window (the desk itself used it up)
   * is refused at once with the time to wait (staff-wait.ts); absent: it waits.
   */
  deskWaitLimitMs?: number;
}

interface Waiter {
  priority: RequestPriority;
  admit: () => void;
}

export class RequestBudget {
  private perMinute: number;
  /** Window slots background work leaves to the desk. */
  private deskReserve: number;
  readonly windowMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly deskWaitLimitMs: number | undefined;
  /** When each exchange of the last 60 s was sent, oldest first. */
  private readonly sent: number[] = [];
  private readonly waiting: Waiter[] = [];
  private backgroundOnWire = 0;
  /** When the earliest wake-up set is due. */
  private wakeAt: number | undefined;

  constructor(options: RequestBudgetOptions) {
    this.windowMs = options.windowMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.deskWaitLimitMs = options.deskWaitLimitMs;
    this.perMinute = 0;
    this.deskReserve = 0;
    this.setPerMinute(options.perMinute);
  }

  /** The gate a connection's transport sends through. */
  readonly gate: SendGate = async (asked, send, signal) => {
    const priority = priorityOf(asked);
    signal?.throwIfAborted();
    if (priority.value === 'desk') this.refuseLongDeskWait();
    let admittedAs: RequestPriority['value'] = priority.value;
    let stopListening: () => unknown = () => undefined;
    const leave = (): void => {
      // Cancelled while it waited (a superseded lookup or query, issue #34): it leaves the queue and spends no slot.
      const at = this.waiting.indexOf(waiter);
      if (at >= 0) this.waiting.splice(at, 1);
    };
    let waiter!: Waiter;
    try {
      await new Promise<void>((admit, refuse) => {
        waiter = { priority, admit: () => { admittedAs = priority.value; signal?.removeEventListener('abort', cancelled); admit(); } };
        const cancelled = (): void => { leave(); refuse(signal?.reason); };
        signal?.addEventListener('abort', cancelled, { once: true });
        this.waiting.push(waiter);
        // Raised while it waits: it may go now, as the desk's.
        stopListening = priority.onRaise(() => this.pump());
        this.pump();
      });
    } finally {
      stopListening();
    }
    try {
      return await send();
    } finally {
      if (admittedAs === 'background') this.backgroundOnWire -= 1;
      this.pump();
    }
  };

  /** How long a desk request sent now would wait for the window: the desk requests already waiting go first. */
  deskWaitMs(): number {
    this.forgetOld();
    const ahead = this.waiting.filter((w) => w.priority.value === 'desk').length;
    const slot = this.sent.length + ahead - this.perMinute;
    if (slot < 0) return 0;
    // Its slot frees a window after the exchange it takes the place of was sent (or later still, past the window's requests).
    const freesAt = slot < this.sent.length ? (this.sent[slot] as number) + this.windowMs : this.now() + this.windowMs;
    return Math.max(0, freesAt - this.now());
  }

  private refuseLongDeskWait(): void {
    if (this.deskWaitLimitMs === undefined) return;
    const wait = this.deskWaitMs();
    if (wait > this.deskWaitLimitMs) throw serviceWaitError(wait);
  }

  /** Changes the share from now on (the library mirror's share gives way to the desks: yielding-share.ts). */
  setPerMinute(perMinute: number): void {
    this.perMinute = Math.max(1, Math.floor(perMinute));
    this.deskReserve = this.perMinute >= 10 ? Math.ceil(this.perMinute / 10) : 0;
    if (this.waiting.length > 0) this.pump();
  }

  /** Exchanges a window admits now. */
  get limit(): number {
    return this.perMinute;
  }

  /**
   * Counts exchanges someone else sent at these times (epoch ms) as this budget's own: the library
   * server's new leader takes over the window its predecessor was spending.
   */
  noteSent(times: readonly number[]): void {
    this.sent.push(...times);
    this.sent.sort((a, b) => a - b);
    this.pump();
  }

  /** Exchanges sent in the current window (for the Sync page and the benches). */
  inWindow(): number {
    this.forgetOld();
    return this.sent.length;
  }

  private forgetOld(): void {
    const horizon = this.now() - this.windowMs;
    while (this.sent.length > 0 && (this.sent[0] as number) <= horizon) this.sent.shift();
  }

  /** Admits whoever may go now, desk first; when the window is full, wakes when its oldest slot frees. */
  private pump(): void {
    this.forgetOld();
    for (;;) {
      const desk = this.waiting.findIndex((w) => w.priority.value === 'desk');
      const pick = desk >= 0 ? desk : this.backgroundMayGo() ? this.waiting.findIndex((w) => w.priority.value === 'background') : -1;
      if (pick < 0 || this.sent.length >= this.perMinute) break;
      const [waiter] = this.waiting.splice(pick, 1) as [Waiter];
      this.sent.push(this.now());
      if (waiter.priority.value === 'background') this.backgroundOnWire += 1;
      waiter.admit();
    }
    this.scheduleWakeUp();
  }

  private backgroundMayGo(): boolean {
    return this.backgroundOnWire === 0 && this.sent.length < this.perMinute - this.deskReserve;
  }

  private scheduleWakeUp(): void {
    if (this.waiting.length === 0 || this.sent.length === 0) return;
    const deskWaits = this.waiting.some((w) => w.priority.value === 'desk');
    // Only a full window (for the desk) or a window past background's share frees with time.
    const limit = deskWaits ? this.perMinute : this.perMinute - this.deskReserve;
    if (this.sent.length < limit) return;
    const freesAt = (this.sent[this.sent.length - limit] as number) + this.windowMs;
    // A wake-up already due by then serves; a desk request that came after one set for background's share needs an earlier one.
    if (this.wakeAt !== undefined && this.wakeAt <= freesAt) return;
    this.wakeAt = freesAt;
    void this.sleep(Math.max(1, freesAt - this.now())).then(() => {
      if (this.wakeAt === freesAt) this.wakeAt = undefined;
      this.pump();
    });
  }
}
