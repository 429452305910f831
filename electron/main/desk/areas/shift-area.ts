// The shift: from a sign-in to the lock. Who is on shift (the staff name, the operating system's
// user), staff sign-in, the desk PIN and what proves who may set it, the lock (by staff, by the
// operating system, at quit) and main's own idle lock, and the preferences staff set (the idle
// minutes, the language); the desk PIN is desk-pin.ts's. The lowest of the desk's areas: every other one may ask who is on
// shift; this one asks nothing of them. Whether a contract method may run at all while locked is
// the lock gate's to decide (lock-gate.ts), before any of this runs.

import type { EventName, EventPayloads, ParsedArgsOf, Preferences, SignInView, StaffSession } from '../../../shared/contract.ts';
import { DeskError } from '../../../shared/desk-error.ts';
import type { DeskClipboard } from '../clipboard.ts';
import { IdleClock } from '../idle-clock.ts';
import { repeatLogged, type RepeatingTask } from '../repeating-task.ts';
import type { SignInStatus } from '../staff-sign-in.ts';
import { DeskPin, type DeskPinParts } from './desk-pin.ts';

export type LockReason = EventPayloads['sessionLocked']['reason'];

export interface ShiftAreaParts extends DeskPinParts {
  /** What the desk put on the clipboard goes when the shift ends. */
  clipboard: DeskClipboard;
  /** Told when the shift ends, before the renderer hears of the lock (the desk drops what it was asked and kept). */
  onEnd?: () => Promise<void>;
  now: () => number;
  emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => void;
}

export class ShiftArea {
  readonly #parts: ShiftAreaParts;
  #session: StaffSession | undefined;
  /** Who the operating system says is signed in, beside the staff name of the open shift. */
  #osUser = '';
  /** The last time someone used the desk, for main's own idle lock. */
  readonly #idle: IdleClock;
  readonly #deskPin: DeskPin;

  constructor(parts: ShiftAreaParts) {
    this.#parts = parts;
    this.#idle = new IdleClock(parts.now);
    this.#deskPin = new DeskPin(parts);
  }

  /** The open shift, if any: a copy. */
  get session(): StaffSession | undefined {
    return this.#session ? { ...this.#session } : undefined;
  }

  onShift(): boolean {
    return this.#session !== undefined;
  }

  /** Who is at the desk, as the action log records them ('' while locked). */
  who(): { staff: string; osUser: string } {
    return { staff: this.#session?.staffName ?? '', osUser: this.#osUser };
  }

  /** The open shift's number (0 while locked): a connection saved in it cannot prove the desk PIN until the next. */
  async number(): Promise<number> {
    return this.#session ? (await this.#parts.signIn.status()).shifts : 0;
  }

  status(): Promise<SignInStatus> {
    return this.#parts.signIn.status();
  }

  /** A connection was set up: from now on the desk shows its sign-in, never the first-run page. */
  markSetUp(): Promise<void> {
    return this.#parts.signIn.markSetUp();
  }

  /** Someone used the desk (a contract call, the renderer's heartbeat): counted only on shift. */
  noteActivity(): void {
    if (this.#session) this.#idle.touch();
  }

  /**
   * Opens a shift for whoever the PIN lets in (staff-sign-in.ts): the name typed, or the policy's
   * spelling of it. Nobody signs in while IT's policy is refused: a broken policy never falls
   * back to the desk PIN it may have been written to replace.
   */
  async startShift(args: ParsedArgsOf<'startShift'>): Promise<StaffSession> {
    const { signIn, logger, now } = this.#parts;
    if (this.#parts.policyRefused) throw DeskError.because('unauthorized', 'sign-in.policy-refused');
    const { staffName } = await signIn.signIn(args.staffName, args.pin);
    this.#osUser = this.#parts.osUserName();
    this.#session = { staffName, startedAt: now() };
    this.#idle.touch();
    logger.info('session.start', { staff: staffName, osUser: this.#osUser, signIn: signIn.method });
    return { ...this.#session };
  }

  /** Sets or changes the desk PIN, with the proof it takes (desk-pin.ts). */
  setDeskPin(args: ParsedArgsOf<'setDeskPin'>): Promise<void> {
    return this.#deskPin.set(args);
  }

  /** How staff unlock this desk, for the lock and shift-start screens. */
  signInView(): Promise<SignInView> {
    return this.#deskPin.signInView();
  }

  /** The renderer's heartbeat while someone uses the window (at most every half minute): main's idle lock counts it. */
  async reportActivity(): Promise<null> {
    this.noteActivity();
    return null;
  }

  async updatePreferences(args: ParsedArgsOf<'updatePreferences'>): Promise<Preferences> {
    const patch: Partial<Preferences> = {};
    if (args.idleLockMinutes !== undefined) patch.idleLockMinutes = args.idleLockMinutes;
    if (args.language !== undefined) patch.language = args.language;
    const settings = this.#parts.settings.update(patch);
    return { idleLockMinutes: settings.idleLockMinutes, language: settings.language };
  }

  /**
   * Locks the desk when nothing happened for the idle minutes and a minute more: the renderer's
   * own lock comes first, this one holds when the renderer is frozen or gone. True when it locked.
   */
  async enforceIdleLock(): Promise<boolean> {
    if (!this.#session || !this.#idle.expired(this.#parts.settings.read().idleLockMinutes)) return false;
    await this.lock('idle');
    return true;
  }

  /** Main checks every `everyMs` (15 seconds in the product). */
  startIdleWatch(everyMs = 15_000): RepeatingTask {
    return repeatLogged(everyMs, () => this.enforceIdleLock(), this.#parts.logger, 'session.idle-check-failed');
  }

  async lockSession(args: ParsedArgsOf<'lockSession'>): Promise<null> {
    await this.lock(args.reason);
    return null;
  }

  /** Also called by main when the operating system locks the screen, and by main's own idle lock. */
  async lock(reason: LockReason): Promise<void> {
    if (!this.#session) return;
    // The shift ends (work is refused from here on) and the clipboard is emptied before the
    // renderer hears of the lock: whoever sees the lock screen finds nothing of the patron left.
    await this.endShift(reason);
    this.#parts.emit('sessionLocked', { reason });
  }

  /** The shift ends: no staff name, and what the desk put on the clipboard goes if it is still there. */
  async endShift(reason: LockReason | 'quit'): Promise<void> {
    const staff = this.#session?.staffName;
    this.#session = undefined;
    this.#osUser = '';
    await this.#parts.onEnd?.().catch(() => undefined);
    const clipboardCleared = await this.#parts.clipboard.clearIfOurs().catch(() => false);
    if (staff !== undefined || clipboardCleared) this.#parts.logger.info('session.lock', { staff: staff ?? '', reason, clipboardCleared });
  }
}
