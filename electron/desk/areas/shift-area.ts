// The shift: from a sign-in to the lock. Who is on shift (the staff name, the operating system's
// user), staff sign-in, the desk PIN and what proves who may set it, the lock (by staff, by the
// operating system, at quit) and main's own idle lock, and the preferences staff set (the idle
// minutes, the language). The lowest of the desk's areas: every other one may ask who is on
// shift; this one asks nothing of them. Whether a contract method may run at all while locked is
// the lock gate's to decide (lock-gate.ts), before any of this runs.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { EventName, EventPayloads, ParsedArgsOf, Preferences, SignInView, StaffSession } from '../../shared/contract.ts';
import { originOf, type Connections } from '../../connection/connections.ts';
import type { CredentialVault, SavedCredentials } from '../../credentials/vault.ts';
import type { Logger } from '../../logging/logger.ts';
import { PartnerError } from '../../partner/errors.ts';
import type { PolicySettings } from '../../policy/index.ts';
import { pinProblem } from '../../shared/pin-rules.ts';
import type { DeskClipboard } from '../clipboard.ts';
import type { ConnectionRecords } from '../connection-records.ts';
import { deskPinProof, type ProofConnection } from '../desk-pin-proof.ts';
import { IdleClock } from '../idle-clock.ts';
import { repeatLogged, type RepeatingTask } from '../repeating-task.ts';
import type { SignInStatus, StaffSignIn } from '../staff-sign-in.ts';

export type LockReason = EventPayloads['sessionLocked']['reason'];

export interface ShiftAreaParts {
  signIn: StaffSignIn;
  settings: PolicySettings;
  /** A machine policy exists but was refused: nobody signs in (it never falls back to a desk PIN). */
  policyRefused: boolean;
  /** Which partner connections this desk set up, and in which shift: what may prove the desk PIN. */
  connectionRecords: ConnectionRecords;
  vault: CredentialVault;
  /** To check a preset connection's partner password with the service, and drop a connection whose credentials change. */
  connections: Connections;
  /** What the desk put on the clipboard goes when the shift ends. */
  clipboard: DeskClipboard;
  osUserName: () => string;
  logger: Logger;
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

  constructor(parts: ShiftAreaParts) {
    this.#parts = parts;
    this.#idle = new IdleClock(parts.now);
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
    if (this.#parts.policyRefused) throw PartnerError.because('unauthorized', 'sign-in.policy-refused');
    const { staffName } = await signIn.signIn(args.staffName, args.pin);
    this.#osUser = this.#parts.osUserName();
    this.#session = { staffName, startedAt: now() };
    this.#idle.touch();
    logger.info('session.start', { staff: staffName, osUser: this.#osUser, signIn: signIn.method });
    return { ...this.#session };
  }

  /**
   * The desk PIN, where the policy sets no per-staff PINs. What it takes is desk-pin-proof.ts's to
   * decide: the partner password of a connection that existed before this shift (tested against the
   * service, and saved, for IT's preset one when none is saved yet), the current PIN on a
   * sandbox-only desk, or nothing for a training desk's first PIN. The PIN itself must meet the rules.
   */
  async setDeskPin(args: ParsedArgsOf<'setDeskPin'>): Promise<void> {
    const { signIn } = this.#parts;
    const proof = await this.#deskPinProof();
    if (proof.kind === 'policy-refused') throw PartnerError.because('unauthorized', 'sign-in.policy-refused');
    if (proof.kind === 'policy') throw PartnerError.because('invalid-input', 'pin.set-by-policy');
    const rule = pinProblem(args.pin);
    if (rule) throw PartnerError.because('invalid-input', rule);
    switch (proof.kind) {
      case 'it': throw PartnerError.because('unauthorized', 'pin.ask-it');
      case 'next-shift': throw PartnerError.because('unauthorized', 'pin.connection-too-new', { profile: proof.profile });
      case 'partner-password':
        await this.#provePartnerPassword(proof.connection, proof.saved, args.partnerUsername, args.partnerPassword);
        break;
      case 'current-pin': {
        const current = args.currentPin;
        if (current === undefined) throw PartnerError.because('invalid-input', 'pin.current-pin-needed');
        await signIn.prove('current-pin', () => signIn.isDeskPin(current), PartnerError.because('unauthorized', 'pin.current-pin-wrong'));
        break;
      }
      case 'nothing':
        await signIn.refuseWhileWaiting();
    }
    const status = await signIn.status();
    // Re-established, the desk counts every connection it holds as older than the next shift.
    const shiftsAtLeast = status.reestablish ? Math.max(0, ...[...(await this.#parts.connectionRecords.all()).values()].map((r) => r.shift)) + 1 : 0;
    await signIn.setDeskPin(args.pin, shiftsAtLeast);
    this.#parts.logger.info('session.desk-pin-set', { osUser: this.#parts.osUserName(), proof: proof.kind, reestablished: status.reestablish ?? false });
  }

  async #deskPinProof() {
    const { settings, managed } = this.#parts.settings.outcome();
    return deskPinProof({
      policyRefused: this.#parts.policyRefused,
      status: await this.#parts.signIn.status(),
      records: await this.#parts.connectionRecords.all(),
      profiles: settings.profiles,
      activeProfileId: settings.activeProfileId,
      presetIds: managed.lockedProfileIds,
      vault: this.#parts.vault,
      originOf,
    });
  }

  /**
   * The typed password against the one the keychain holds for that connection (compared here,
   * never sent anywhere); for IT's preset connection with none saved yet, against the service at
   * IT's address, and saved as Settings would.
   */
  async #provePartnerPassword(connection: ProofConnection, saved: SavedCredentials | undefined, username: string | undefined, password: string | undefined): Promise<void> {
    const { signIn, connections } = this.#parts;
    const params = { profile: connection.name };
    if (password === undefined) throw PartnerError.because('invalid-input', saved ? 'pin.partner-password-needed' : 'pin.partner-username-needed', params);
    const wrong = PartnerError.because('unauthorized', 'pin.partner-password-wrong', params);
    if (saved) {
      await signIn.prove('partner-password', async () => sameSecret(saved.password, password), wrong);
      return;
    }
    const preset = connection.preset;
    if (!preset) throw PartnerError.because('unauthorized', 'pin.ask-it');
    if (username === undefined) throw PartnerError.because('invalid-input', 'pin.partner-username-needed', params);
    await signIn.prove('partner-password', async () => {
      try {
        await connections.probe(preset.baseUrl, preset.wsApi, { username, password });
        return true;
      } catch (error) {
        if (error instanceof PartnerError && error.code === 'unauthorized') return false;
        throw error;
      }
    }, wrong);
    await connections.discard(preset.id);
    await this.#parts.vault.save(preset.id, { username, password }, originOf(preset.baseUrl));
    this.#parts.logger.info('connection.credentials-replaced', { profileId: preset.id });
  }

  /** How staff unlock this desk, for the lock and shift-start screens. */
  async signInView(): Promise<SignInView> {
    const policyRefused = this.#parts.policyRefused;
    const status = await this.#parts.signIn.status();
    const view: SignInView = {
      method: status.method, ready: status.ready && !policyRefused, waitSeconds: status.waitSeconds, deskPinNeeds: 'nothing', setUp: !status.firstRun,
      ...(status.reestablish && status.method === 'desk-pin' ? { reestablish: status.reestablish } : {}),
      ...(policyRefused ? { policyRefused: true } : {}),
    };
    const proof = await this.#deskPinProof();
    switch (proof.kind) {
      case 'policy-refused': view.deskPinNeeds = 'it'; break;
      case 'partner-password':
        view.deskPinNeeds = 'partner-password';
        view.partnerProfile = proof.connection.name;
        view.partnerUsernameNeeded = proof.saved === undefined;
        break;
      case 'next-shift':
        view.deskPinNeeds = 'next-shift';
        view.partnerProfile = proof.profile;
        break;
      default: view.deskPinNeeds = proof.kind;
    }
    return view;
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
    const clipboardCleared = await this.#parts.clipboard.clearIfOurs().catch(() => false);
    if (staff !== undefined || clipboardCleared) this.#parts.logger.info('session.lock', { staff: staff ?? '', reason, clipboardCleared });
  }
}

/** Compared as digests so the time taken says nothing of where two passwords differ. */
function sameSecret(saved: string, typed: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(saved), digest(typed));
}
