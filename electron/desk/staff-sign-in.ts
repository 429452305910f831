// Who may unlock the desk. Per-staff PINs from the machine policy when IT set them (each
// name with its own PIN), otherwise the one desk PIN set on this desk. Either way the PIN is
// checked against a slow salted hash, wrong tries are counted across restarts and make the desk
// wait (sign-in-throttle.ts), and every try is logged with the name typed and the operating
// system's user name beside it — never the PIN. Tries run one at a time: two sent together
// cannot both slip in before the count goes up.
import { userInfo } from 'node:os';
import type { Logger } from '../logging/logger.ts';
import { PartnerError } from '../partner/errors.ts';
import { staffNameKey, type StaffPin } from '../policy/schema.ts';
import { hashPin, spendVerification, verifyPin } from './pin-hash.ts';
import type { SignInFile, SignInRecord } from './sign-in-file.ts';
import { FREE_TRIES, secondsToWait } from './sign-in-throttle.ts';

export type SignInMethod = 'staff-pins' | 'desk-pin';

export interface StaffSignInOptions {
  file: SignInFile;
  /** Per-staff PINs from the machine policy: when there are any, they are the only way in. */
  staffPins: readonly StaffPin[] | undefined;
  now: () => number;
  logger: Logger;
  osUserName: () => string;
  /** The scrypt cost (log2) of a desk PIN set here; the default unless a test asks for less. */
  deskPinCostLog2?: number;
}

/** The operating system's user name ('' where the OS will not say): on a desk PC shared under one login it tells which login, not who. */
export function currentOsUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return '';
  }
}

export class StaffSignIn {
  readonly #options: StaffSignInOptions;
  #turn: Promise<unknown> = Promise.resolve();

  constructor(options: StaffSignInOptions) {
    this.#options = options;
  }

  get method(): SignInMethod {
    return this.#options.staffPins?.length ? 'staff-pins' : 'desk-pin';
  }

  /** Whether anyone can sign in yet: always with staff PINs; once a desk PIN is set otherwise. */
  get ready(): boolean {
    return this.method === 'staff-pins' || this.#record().deskPin !== undefined;
  }

  /** Seconds before another try is taken (0: now). */
  get waitSeconds(): number {
    const record = this.#record();
    return record.lastFailureAt === undefined ? 0 : secondsToWait(record.failures, record.lastFailureAt, this.#options.now());
  }

  /** The staff name to record (the policy's spelling with staff PINs), or a refusal. */
  signIn(typedName: string, pin: string): Promise<string> {
    return this.#oneAtATime(async () => {
      this.#refuseWhileWaiting('sign-in', typedName);
      let recorded: string | undefined;
      if (this.method === 'staff-pins') {
        const staff = this.#options.staffPins?.find((entry) => staffNameKey(entry.name) === staffNameKey(typedName));
        if (staff ? await verifyPin(pin, staff.pinHash) : await spendVerification(pin)) recorded = staff?.name;
      } else {
        const deskPin = this.#record().deskPin;
        if (deskPin === undefined) throw PartnerError.because('invalid-input', 'sign-in.no-desk-pin');
        if (await verifyPin(pin, deskPin)) recorded = typedName;
      }
      if (recorded === undefined) {
        throw this.#wrongTry('sign-in', typedName, PartnerError.because('unauthorized', 'sign-in.wrong'), PartnerError.because('unauthorized', 'sign-in.wrong-last-try'));
      }
      this.#succeeded();
      return recorded;
    });
  }

  /**
   * A proof that allows setting the desk PIN (the partner password, or the current PIN): the same
   * count and waits as a sign-in, so neither can be guessed faster through this door.
   */
  prove(what: 'partner-password' | 'current-pin', check: () => Promise<boolean>, wrong: PartnerError): Promise<void> {
    return this.#oneAtATime(async () => {
      this.#refuseWhileWaiting(what, '');
      if (!(await check())) throw this.#wrongTry(what, '', wrong, wrong);
      this.#succeeded();
    });
  }

  /** Only the hash is written. Callers have checked who may (DeskService.setDeskPin). */
  async setDeskPin(pin: string): Promise<void> {
    if (this.method === 'staff-pins') throw PartnerError.because('invalid-input', 'pin.set-by-policy');
    const deskPin = await hashPin(pin, this.#options.deskPinCostLog2);
    await this.#oneAtATime(async () => this.#options.file.write({ ...this.#record(), deskPin, failures: 0 }));
  }

  /** The current desk PIN is this one (without counting a try: callers go through prove). */
  async isDeskPin(pin: string): Promise<boolean> {
    const deskPin = this.#record().deskPin;
    return deskPin !== undefined && verifyPin(pin, deskPin);
  }

  #oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#turn.then(work, work);
    this.#turn = next.catch(() => undefined);
    return next;
  }

  /** The record, with a wait that has no start (a spoiled file) starting now. */
  #record(): SignInRecord {
    const record = this.#options.file.read();
    if (record.failures >= FREE_TRIES && record.lastFailureAt === undefined) {
      const started = { ...record, lastFailureAt: this.#options.now() };
      this.#options.file.write(started);
      return started;
    }
    return record;
  }

  #refuseWhileWaiting(attempt: string, typedName: string): void {
    const seconds = this.waitSeconds;
    if (seconds === 0) return;
    this.#options.logger.warn('session.sign-in-refused', { attempt, staff: typedName, osUser: this.#options.osUserName(), why: 'waiting', seconds });
    throw PartnerError.because('rate-limited', 'sign-in.wait', { seconds });
  }

  /** Counts the try; the refusal is `wrong`, `lastTry` when the next wrong one will wait, or the wait itself. */
  #wrongTry(attempt: string, typedName: string, wrong: PartnerError, lastTry: PartnerError): PartnerError {
    const record = this.#record();
    const failures = record.failures + 1;
    this.#options.file.write({ ...record, failures, lastFailureAt: this.#options.now() });
    const seconds = this.waitSeconds;
    this.#options.logger.warn('session.sign-in-refused', { attempt, staff: typedName, osUser: this.#options.osUserName(), why: 'wrong', failures, seconds });
    if (seconds > 0) return PartnerError.because('rate-limited', 'sign-in.wait', { seconds });
    return failures === FREE_TRIES - 1 ? lastTry : wrong;
  }

  #succeeded(): void {
    const record = this.#record();
    if (record.failures !== 0 || record.lastFailureAt !== undefined) this.#options.file.write({ ...(record.deskPin ? { deskPin: record.deskPin } : {}), failures: 0 });
  }
}
