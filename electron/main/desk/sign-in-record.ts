// What the desk keeps to let staff in, as one record in the OS keychain (desk-keychain.ts), never
// in a file: a file the desk's OS user can write is a file whoever sat at the desk can replace
// (a PIN hash of their own), reset (no wrong tries) or delete (five fresh tries each time).
//
// The record: the desk PIN's scrypt hash when one is set, the wrong tries since the last good one
// and when the last was (the wait runs from there), and how many shifts were started here (which
// connections existed "before this shift" is counted in shifts: connection-records.ts).
//
// Its standing when read:
// - kept: the record is there and is the desk's own;
// - fresh: there is none and nothing says the desk was ever set up: the first run;
// - lost: there is none (or it is not one the desk wrote) yet the desk was set up — a sign-in.json
//   of an earlier version, connections or an action log the keychain knows of. The desk does not
//   start afresh: the record is rewritten at once as "to re-establish", with a wait running
//   (the count of wrong tries it had is unknown, so the worst is assumed), and nobody signs in
//   with a desk PIN until IT's policy or the partner password of a connection in place sets one.
import { existsSync } from 'node:fs';
import { DESK_RECORDS, type DeskKeychain } from '../credentials/desk-keychain.ts';
import { parsePinHash } from '../../node/pin/pin-hash.ts';
import { FREE_TRIES } from '../../node/pin/sign-in-throttle.ts';

/** Why the desk must be set up again: its record is missing, or it is not one this desk wrote. */
export type RecordProblem = 'missing' | 'not-the-desks-own';

export interface SignInRecord {
  /** The desk PIN's hash (PHC scrypt), when one was set on this desk. */
  deskPin?: string;
  /** Wrong tries (PINs or the proof at a PIN change) since the last good one. */
  failures: number;
  /** When the last wrong try was (ms): the wait runs from there. */
  lastFailureAt?: number;
  /** Shifts started on this desk: the open shift's number, or the last one's while locked. */
  shifts: number;
  /** Set while the desk waits to be re-established (a record found missing or not its own). */
  reestablish?: RecordProblem;
}

export type SignInStanding =
  | { kind: 'fresh' }
  | { kind: 'kept'; record: SignInRecord };

const FORMAT = 1;

export interface SignInRecordOptions {
  keychain: DeskKeychain;
  /** Where an earlier version kept the record (sign-in.json): found there, it says the desk was set up, and nothing more. */
  legacyFile: string;
  /** Other signs the desk was set up that no file edit can remove (connections or an action log the keychain knows of). */
  setUpElsewhere: () => Promise<boolean>;
  /** The least scrypt cost a stored hash may have (16 on a real desk). */
  floorLog2: number;
  now: () => number;
  /** Told once when a lost record is found (the app log says why). */
  onLost: (why: RecordProblem, legacyFileFound: boolean) => void;
}

export class SignInRecords {
  readonly #options: SignInRecordOptions;

  constructor(options: SignInRecordOptions) {
    this.#options = options;
  }

  /** The standing as the keychain says; a lost record is rewritten "to re-establish" before this returns. */
  async load(): Promise<SignInStanding> {
    const { keychain, legacyFile, setUpElsewhere, now, onLost } = this.#options;
    const text = await keychain.read(DESK_RECORDS.signIn);
    const parsed = text === undefined ? undefined : this.#parse(text);
    if (parsed) return { kind: 'kept', record: parsed };
    const legacy = existsSync(legacyFile);
    if (text === undefined && !legacy && !(await setUpElsewhere())) return { kind: 'fresh' };
    const why: RecordProblem = text === undefined ? 'missing' : 'not-the-desks-own';
    onLost(why, legacy);
    const record: SignInRecord = { failures: FREE_TRIES, lastFailureAt: now(), shifts: 0, reestablish: why };
    await this.save(record);
    return { kind: 'kept', record };
  }

  async save(record: SignInRecord): Promise<void> {
    const { deskPin, failures, lastFailureAt, shifts, reestablish } = record;
    await this.#options.keychain.write(DESK_RECORDS.signIn, JSON.stringify({
      v: FORMAT, ...(deskPin ? { deskPin } : {}), failures, ...(lastFailureAt === undefined ? {} : { lastFailureAt }), shifts, ...(reestablish ? { reestablish } : {}),
    }));
  }

  /** The record, or undefined when the text is not one this desk writes. */
  #parse(text: string): SignInRecord | undefined {
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    if (typeof value !== 'object' || value === null || value.v !== FORMAT) return undefined;
    const count = (field: unknown): field is number => Number.isSafeInteger(field) && (field as number) >= 0;
    if (!count(value.failures) || !count(value.shifts)) return undefined;
    const record: SignInRecord = { failures: value.failures, shifts: value.shifts };
    if (value.deskPin !== undefined) {
      if (typeof value.deskPin !== 'string' || !parsePinHash(value.deskPin, this.#options.floorLog2)) return undefined;
      record.deskPin = value.deskPin;
    }
    if (value.lastFailureAt !== undefined) {
      if (!Number.isSafeInteger(value.lastFailureAt)) return undefined;
      record.lastFailureAt = value.lastFailureAt as number;
    }
    if (value.reestablish !== undefined) {
      if (value.reestablish !== 'missing' && value.reestablish !== 'not-the-desks-own') return undefined;
      record.reestablish = value.reestablish;
    }
    return record;
  }
}
