// Who may unlock the desk. Per-staff PINs from the machine policy when IT set them (each
// name with its own PIN), otherwise the one desk PIN set on this desk. Either way the PIN is
// checked against a slow salted hash, wrong tries are counted in the keychain's sign-in record
// (sign-in-record.ts: no file edit resets them) and make the desk wait (sign-in-throttle.ts), and
// every try is logged with the operating system's user name — never the PIN, and the name typed
// only once the sign-in succeeded (a PIN typed into the name field would otherwise be logged in
// clear). Tries run one at a time: two sent together cannot both slip in before the count goes up.
import { userInfo } from 'node:os';
import type { Logger } from '../../node/logging/logger.ts';
import { DeskError } from '../../shared/desk-error.ts';
import { staffNameKey, type StaffPin } from '../policy/schema.ts';
import { pinProblem } from '../../shared/pin-rules.ts';
import { hashPin, spendVerification, verifyPin, type PinCost } from '../../node/pin/pin-hash.ts';
import type { RecordProblem, SignInRecord, SignInRecords, SignInStanding } from './sign-in-record.ts';
import { FREE_TRIES, secondsToWait } from '../../node/pin/sign-in-throttle.ts';

export type SignInMethod = 'staff-pins' | 'desk-pin';

export interface StaffSignInOptions {
  records: SignInRecords;
  /** Per-staff PINs from the machine policy: when there are any, they are the only way in. */
  staffPins: readonly StaffPin[] | undefined;
  /** With the desk PIN: the names staff may choose from (IT's policy). Any other name is not recorded. */
  deskPinNames?: readonly string[] | undefined;
  now: () => number;
  logger: Logger;
  osUserName: () => string;
  /** The scrypt cost of a desk PIN set here and the least a stored hash may have. */
  cost: PinCost;
}

/** Where the desk stands, for the lock screen and for DeskService's rules. */
export interface SignInStatus {
  method: SignInMethod;
  /** Whether anyone can sign in yet: always with staff PINs (after any wait); once a desk PIN is set otherwise. */
  ready: boolean;
  /** Seconds before another try is taken (0: now). */
  waitSeconds: number;
  /**
   * No shift was ever started here (and the record was not lost): the first-run methods answer
   * while locked. Before the first shift the desk holds no patron's trace; after it, a settings.json
   * edited to name no connection opens nothing.
   */
  firstRun: boolean;
  /** The desk must be set up again: its record was missing or not its own. */
  reestablish?: RecordProblem;
  hasDeskPin: boolean;
  /** The open shift's number, or the last one's while locked (0: none yet). */
  shifts: number;
}

/** The operating system's user name ('' where the OS will not say): on a desk PC shared under one login it tells which login, not who. */
export function currentOsUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return '';
  }
}

/** Who the PIN let in: the name to record ('' for the desk PIN alone), how, and a per-staff PIN's role. */
export interface SignedIn {
  staffName: string;
  shift: number;
  signedInWith: 'staff-pin' | 'desk-pin';
  /** The role IT gave this member of staff's PIN (per-staff PINs only). */
  role?: StaffPin['role'];
}

/** What a desk nobody set up yet stands on. */
const FRESH_RECORD: SignInRecord = { failures: 0, shifts: 0 };

export class StaffSignIn {
  readonly #options: StaffSignInOptions;
  #turn: Promise<unknown> = Promise.resolve();
  #standing: Promise<SignInStanding> | undefined;

  constructor(options: StaffSignInOptions) {
    this.#options = options;
  }

  get method(): SignInMethod {
    return this.#options.staffPins?.length ? 'staff-pins' : 'desk-pin';
  }

  /** Read from the keychain once; a failure (keychain unavailable) is tried again next time. */
  #load(): Promise<SignInStanding> {
    this.#standing ??= this.#options.records.load().catch((error: unknown) => {
      this.#standing = undefined;
      throw error;
    });
    return this.#standing;
  }

  async #record(): Promise<SignInRecord> {
    const standing = await this.#load();
    return standing.kind === 'kept' ? standing.record : FRESH_RECORD;
  }

  async #save(record: SignInRecord): Promise<void> {
    await this.#options.records.save(record);
    this.#standing = Promise.resolve({ kind: 'kept', record });
  }

  async status(): Promise<SignInStatus> {
    const standing = await this.#load();
    const record = standing.kind === 'kept' ? standing.record : FRESH_RECORD;
    const hasDeskPin = record.deskPin !== undefined;
    return {
      method: this.method,
      ready: this.method === 'staff-pins' || hasDeskPin,
      waitSeconds: this.#waitSeconds(record),
      firstRun: standing.kind === 'fresh' || (record.shifts === 0 && record.reestablish === undefined),
      ...(record.reestablish ? { reestablish: record.reestablish } : {}),
      hasDeskPin,
      shifts: record.shifts,
    };
  }

  /** The first connection or the sandbox is set up: from now on the desk counts as set up, whatever a file says. */
  markSetUp(): Promise<void> {
    return this.#oneAtATime(async () => {
      if ((await this.#load()).kind === 'fresh') await this.#save({ ...FRESH_RECORD });
    });
  }

  /**
   * The staff name to record (the policy's spelling with staff PINs; with the desk PIN, the name
   * chosen from IT's list or none: a name anyone could type is not a record of who was there), the
   * new shift's number, or a refusal.
   */
  signIn(typedName: string, pin: string): Promise<SignedIn> {
    return this.#oneAtATime(async () => {
      await this.#refuseWhileWaiting('sign-in');
      const record = await this.#record();
      let recorded: Omit<SignedIn, 'shift'> | undefined;
      if (this.method === 'staff-pins') {
        // The policy holds hashes only, so the desk cannot check IT's PINs until one is typed: a PIN
        // the rules refuse is refused unchecked, and staff are told to ask IT for a new one.
        if (pinProblem(pin)) throw DeskError.because('invalid-input', 'sign-in.pin-below-rules');
        const staff = this.#staffPin(typedName);
        if (staff ? await verifyPin(pin, staff.pinHash, this.#options.cost.floorLog2) : await spendVerification(pin)) {
          if (staff) recorded = { staffName: staff.name, signedInWith: 'staff-pin', ...(staff.role ? { role: staff.role } : {}) };
        }
      } else {
        if (record.reestablish) throw DeskError.because('invalid-input', 'sign-in.reestablish-first');
        if (record.deskPin === undefined) throw DeskError.because('invalid-input', 'sign-in.no-desk-pin');
        if (await verifyPin(pin, record.deskPin, this.#options.cost.floorLog2)) recorded = { staffName: this.#listedName(typedName) ?? '', signedInWith: 'desk-pin' };
      }
      if (recorded === undefined) {
        throw await this.#wrongTry('sign-in', DeskError.because('unauthorized', 'sign-in.wrong'), DeskError.because('unauthorized', 'sign-in.wrong-last-try'));
      }
      // A good PIN starts the count again; with IT's per-staff PINs it also re-establishes a desk
      // whose record was lost (a desk PIN's desk cannot get here before a new PIN is set).
      const latest = await this.#record();
      const shift = latest.shifts + 1;
      await this.#save({ ...(latest.deskPin ? { deskPin: latest.deskPin } : {}), failures: 0, shifts: shift });
      return { ...recorded, shift };
    });
  }

  /**
   * The PIN of whoever is on shift, typed again before an action-log export (issue #33): their own
   * per-staff PIN, or the desk PIN. A wrong one counts as a wrong try, with the same waits.
   */
  confirmPin(staffName: string, pin: string): Promise<void> {
    const check = async (): Promise<boolean> => {
      if (this.method === 'desk-pin') return this.isDeskPin(pin);
      const staff = this.#staffPin(staffName);
      return staff ? verifyPin(pin, staff.pinHash, this.#options.cost.floorLog2) : spendVerification(pin);
    };
    return this.prove('export-pin', check, DeskError.because('unauthorized', 'log.export-pin-wrong'));
  }

  #staffPin(typedName: string): StaffPin | undefined {
    return this.#options.staffPins?.find((entry) => staffNameKey(entry.name) === staffNameKey(typedName));
  }

  /** The name as IT's list spells it, when the typed one is on it. */
  #listedName(typedName: string): string | undefined {
    return this.#options.deskPinNames?.find((name) => staffNameKey(name) === staffNameKey(typedName));
  }

  /**
   * A proof that allows setting the desk PIN (the partner password, or the current PIN): the same
   * count and waits as a sign-in, so neither can be guessed faster through this door.
   */
  prove(what: 'partner-password' | 'current-pin' | 'export-pin', check: () => Promise<boolean>, wrong: DeskError): Promise<void> {
    return this.#oneAtATime(async () => {
      await this.#refuseWhileWaiting(what);
      if (!(await check())) throw await this.#wrongTry(what, wrong, wrong);
      const { lastFailureAt: _over, ...record } = await this.#record();
      if (record.failures !== 0 || _over !== undefined) await this.#save({ ...record, failures: 0 });
    });
  }

  /** A wait still running refuses a PIN change that takes no proof (a re-established training desk), as it would a try. */
  refuseWhileWaiting(): Promise<void> {
    return this.#oneAtATime(() => this.#refuseWhileWaiting('desk-pin'));
  }

  /**
   * Only the hash is written. Callers have checked who may (DeskPin.set, areas/desk-pin.ts). Re-establishing
   * a desk counts every connection it holds as older than the next shift (`shiftsAtLeast`).
   */
  async setDeskPin(pin: string, shiftsAtLeast = 0): Promise<void> {
    if (this.method === 'staff-pins') throw DeskError.because('invalid-input', 'pin.set-by-policy');
    const deskPin = await hashPin(pin, this.#options.cost);
    await this.#oneAtATime(async () => {
      const record = await this.#record();
      await this.#save({ deskPin, failures: 0, shifts: Math.max(record.shifts, shiftsAtLeast) });
    });
  }

  /** The current desk PIN is this one (without counting a try: callers go through prove). */
  async isDeskPin(pin: string): Promise<boolean> {
    const { deskPin } = await this.#record();
    return deskPin !== undefined && verifyPin(pin, deskPin, this.#options.cost.floorLog2);
  }

  #oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#turn.then(work, work);
    this.#turn = next.catch(() => undefined);
    return next;
  }

  #waitSeconds(record: SignInRecord): number {
    return record.lastFailureAt === undefined ? 0 : secondsToWait(record.failures, record.lastFailureAt, this.#options.now());
  }

  async #refuseWhileWaiting(attempt: string): Promise<void> {
    const seconds = this.#waitSeconds(await this.#record());
    if (seconds === 0) return;
    this.#options.logger.warn('session.sign-in-refused', { attempt, osUser: this.#options.osUserName(), why: 'waiting', seconds });
    throw DeskError.because('rate-limited', 'sign-in.wait', { seconds });
  }

  /** Counts the try; the refusal is `wrong`, `lastTry` when the next wrong one will wait, or the wait itself. */
  async #wrongTry(attempt: string, wrong: DeskError, lastTry: DeskError): Promise<DeskError> {
    const record = await this.#record();
    const failures = record.failures + 1;
    const counted = { ...record, failures, lastFailureAt: this.#options.now() };
    await this.#save(counted);
    const seconds = this.#waitSeconds(counted);
    this.#options.logger.warn('session.sign-in-refused', { attempt, osUser: this.#options.osUserName(), why: 'wrong', failures, seconds });
    if (seconds > 0) return DeskError.because('rate-limited', 'sign-in.wait', { seconds });
    return failures === FREE_TRIES - 1 ? lastTry : wrong;
  }
}
