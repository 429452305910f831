// The shift: from a sign-in to the lock. Who is on shift (the staff name, the operating system's
// user, how they signed in, their role and what it lets them do: the one place that decides it, so
// the library server can become the source of staff and roles without touching the screens), staff sign-in, the desk PIN and what proves who may set it, the lock (by staff, by the
// operating system, at quit) and main's own idle lock, and the preferences staff set (the idle
// minutes, the language); the desk PIN is desk-pin.ts's. The lowest of the desk's areas: every other one may ask who is on
// shift; this one asks nothing of them. Whether a contract method may run at all while locked is
// the lock gate's to decide (lock-gate.ts), before any of this runs.

import type { EventName, EventPayloads, ParsedArgsOf, Preferences, SignInView, StaffSession } from '../../../shared/contract.ts';
import { DeskError } from '../../../shared/desk-error.ts';
import type { Reason } from '../../../shared/reasons.ts';
import type { StaffPermissions, StaffRole } from '../../../shared/staff.ts';
import type { DeskClipboard } from '../clipboard.ts';
import { IdleClock } from '../idle-clock.ts';
import type { BackgroundTask } from '../background-tasks.ts';
import type { SignInStatus } from '../staff-sign-in.ts';
import { DeskPin, type DeskPinParts } from './desk-pin.ts';
import type { LibraryServerSettings } from '../library-server-settings.ts';

export type LockReason = EventPayloads['sessionLocked']['reason'];

/** The longest a shift stays open without IT's policy (issue #33: a mouse jiggler kept one open forever). */
export const DEFAULT_MAX_SHIFT_HOURS = 12;

export interface ShiftAreaParts extends DeskPinParts {
  /** What the desk put on the clipboard goes when the shift ends. */
  clipboard: DeskClipboard;
  /** IT's longest shift (policy maxShiftHours); DEFAULT_MAX_SHIFT_HOURS without it. */
  maxShiftHours?: number | undefined;
  /** IT's policy on roles (issue #35): a desk-PIN shift's role (`desk` unless IT says), and the names staff may choose with it. */
  roles?: { deskPin?: StaffRole | undefined; deskPinNames?: readonly string[] | undefined };
  /** Told when the shift ends, before the renderer hears of the lock (the desk drops what it was asked and kept). */
  onEnd?: () => Promise<void>;
  /**
   * A desk in a library (issue #32): staff sign in as themselves at the library server, which
   * checks the PIN and counts wrong tries; the desk's own sign-in record is never read for it.
   */
  libraryServer?: Pick<LibraryServerSettings, 'signIn' | 'signOut' | 'whenSessionEnds' | 'view'>;
  now: () => number;
  emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => void;
}

/** Who is on shift, as the action log records them. */
export interface OnShift {
  staff: string;
  osUser: string;
  /** Signed in with the shared desk PIN: the log says "desk PIN" rather than a name anyone could type. */
  deskPin?: true;
}

/** What a role lets staff do: managers read a patron's history (the log by card, its export) and replace the library mirror's password. */
export function permissionsOf(role: StaffRole): StaffPermissions {
  const manager = role === 'manager';
  return { readLogByCard: manager, exportLog: manager, replaceLibraryMirrorPassword: manager };
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
    parts.libraryServer?.whenSessionEnds(() => { void this.lock('server'); });
  }

  /** The open shift, if any: a copy. */
  get session(): StaffSession | undefined {
    return this.#session ? { ...this.#session, may: { ...this.#session.may } } : undefined;
  }

  onShift(): boolean {
    return this.#session !== undefined;
  }

  /** Who is at the desk, as the action log records them ('' while locked). */
  who(): OnShift {
    const session = this.#session;
    return { staff: session?.staffName ?? '', osUser: this.#osUser, ...(session?.signedInWith === 'desk-pin' ? { deskPin: true } : {}) };
  }

  /** Whether whoever is on shift may do this (nobody may while locked). */
  may(permission: keyof StaffPermissions): boolean {
    return this.#session?.may[permission] ?? false;
  }

  /** Refuses, with `reason`, what whoever is on shift may not do; the refusal goes to the app log. */
  requireMay(permission: keyof StaffPermissions, reason: Reason): void {
    if (this.may(permission)) return;
    this.#parts.logger.warn('session.refused-for-role', { permission, role: this.#session?.role ?? 'none', osUser: this.#osUser });
    throw DeskError.because('unauthorized', reason);
  }

  /** Their PIN typed again (before an export): a wrong one counts as a wrong try. Asked after `requireMay`, so always on shift. */
  async confirmPin(pin: string | undefined, needed: Reason): Promise<void> {
    if (pin === undefined || pin === '') throw DeskError.because('invalid-input', needed);
    // At a library desk the server checks the PIN (and counts a wrong one); its session stays this shift's.
    if (this.#parts.libraryServer && this.#session?.signedInWith === 'library-server') {
      await this.#parts.libraryServer.signIn(this.#session.staffName, pin);
      return;
    }
    await this.#parts.signIn.confirmPin(this.#session?.staffName ?? '', pin);
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
    if (this.#parts.libraryServer) return this.#startServerShift(args);
    const signedIn = await signIn.signIn(args.staffName ?? '', args.pin);
    const role: StaffRole = signedIn.signedInWith === 'desk-pin' ? this.#parts.roles?.deskPin ?? 'desk' : signedIn.role ?? 'desk';
    this.#osUser = this.#parts.osUserName();
    this.#session = { staffName: signedIn.staffName, startedAt: now(), signedInWith: signedIn.signedInWith, role, may: permissionsOf(role) };
    this.#idle.touch();
    logger.info('session.start', { staff: signedIn.staffName, osUser: this.#osUser, signIn: signIn.method, role });
    return this.session as StaffSession;
  }

  /** A shift at a library desk: the server says who signed in and their role; main keeps its session in memory. */
  async #startServerShift(args: ParsedArgsOf<'startShift'>): Promise<StaffSession> {
    const name = (args.staffName ?? '').trim();
    if (name === '') throw DeskError.because('invalid-input', 'library-server.staff-wrong', { triesLeft: 0 });
    const { logger, now } = this.#parts;
    const session = await (this.#parts.libraryServer as NonNullable<ShiftAreaParts['libraryServer']>).signIn(name, args.pin);
    const role: StaffRole = session.staff.role === 'manager' ? 'manager' : 'desk';
    this.#osUser = this.#parts.osUserName();
    this.#session = { staffName: session.staff.name, startedAt: now(), signedInWith: 'library-server', role, may: permissionsOf(role) };
    this.#idle.touch();
    logger.info('session.start', { staff: session.staff.name, osUser: this.#osUser, signIn: 'library-server', role });
    return this.session as StaffSession;
  }

  /** Sets or changes the desk PIN, with the proof it takes (desk-pin.ts). */
  setDeskPin(args: ParsedArgsOf<'setDeskPin'>): Promise<void> {
    return this.#deskPin.set(args);
  }

  /** How staff unlock this desk, for the lock and shift-start screens (with the desk PIN, the names IT lists). */
  async signInView(): Promise<SignInView> {
    const view = await this.#deskPin.signInView();
    // A library desk signs staff in at its server: no desk PIN to set; ready once IT enrolled the desk.
    if (this.#parts.libraryServer) {
      const server = await this.#parts.libraryServer.view();
      return { ...view, method: 'library-server', ready: server.enrolled, deskPinNeeds: 'policy', waitSeconds: 0 };
    }
    const names = this.#parts.roles?.deskPinNames;
    return view.method === 'desk-pin' && names?.length ? { ...view, deskPinNames: [...names] } : view;
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
    if (!this.#session) return false;
    // However busy the desk looks (a device moving the mouse), a shift ends at IT's longest shift.
    if (this.#parts.now() - this.#session.startedAt >= (this.#parts.maxShiftHours ?? DEFAULT_MAX_SHIFT_HOURS) * 3_600_000) {
      await this.lock('shift-length');
      return true;
    }
    if (!this.#idle.expired(this.#parts.settings.read().idleLockMinutes)) return false;
    await this.lock('idle');
    return true;
  }

  /** Main's idle lock, checked every 15 seconds (background-tasks.ts). */
  backgroundTasks(): BackgroundTask<'idle-lock'>[] {
    return [{ name: 'idle-lock', schedule: { everyMs: 15_000 }, runIfDue: () => this.enforceIdleLock(), failedEvent: 'session.idle-check-failed' }];
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
    // The server's session ends with the shift (best effort: a server out of reach ends it at its own length).
    await this.#parts.libraryServer?.signOut().catch((error: unknown) => this.#parts.logger.warn('session.server-sign-out-failed', { error }));
    await this.#parts.onEnd?.().catch(() => undefined);
    const clipboardCleared = await this.#parts.clipboard.clearIfOurs().catch(() => false);
    if (staff !== undefined || clipboardCleared) this.#parts.logger.info('session.lock', { staff: staff ?? '', reason, clipboardCleared });
  }
}
