// What the desk keeps to let staff in, in one small file beside the settings (sign-in.json):
// the desk PIN's scrypt hash, when the desk has one, and the wrong tries since the last good
// one, so a restart does not start the count again. Never a PIN. Written whole to a temporary
// file and renamed over the old one, so a crash leaves either state, never half of one.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parsePinHash } from './pin-hash.ts';
import { FREE_TRIES } from './sign-in-throttle.ts';

export interface SignInRecord {
  /** The desk PIN's hash (PHC scrypt), when one was set on this desk. */
  deskPin?: string;
  /** Wrong tries (PINs or the partner password at a PIN change) since the last good one. */
  failures: number;
  /** When the last wrong try was (ms): the wait runs from there. */
  lastFailureAt?: number;
}

export class SignInFile {
  readonly path: string;
  constructor(path: string) {
    this.path = path;
  }

  /**
   * A missing file is a desk nobody set a PIN on. A file that cannot be read as ours (edited,
   * damaged) keeps no PIN and counts as five wrong tries: removing or spoiling it cannot skip a wait.
   */
  read(): SignInRecord {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { failures: 0 };
      throw error;
    }
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      const record: SignInRecord = { failures: 0 };
      if (typeof value.deskPin === 'string' && parsePinHash(value.deskPin)) record.deskPin = value.deskPin;
      else if (value.deskPin !== undefined) return { failures: FREE_TRIES };
      if (Number.isSafeInteger(value.failures) && (value.failures as number) >= 0) record.failures = value.failures as number;
      else return { ...record, failures: FREE_TRIES };
      if (Number.isSafeInteger(value.lastFailureAt)) record.lastFailureAt = value.lastFailureAt as number;
      return record;
    } catch {
      return { failures: FREE_TRIES };
    }
  }

  write(record: SignInRecord): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(record)}\n`, { encoding: 'utf8', mode: 0o600 });
    renameSync(temporary, this.path);
  }
}
