// The desk's own records in the OS keychain, beside the partner passwords (same service name):
// who may sign in and how many wrong tries there were, which connections the desk set up and
// when, and where the action log's chain ends. Anything the desk's OS user can write in a file
// (settings.json, the action log) may have been edited by whoever sat at the desk; the keychain
// cannot be rewritten with Notepad, so the records that security decisions rest on live here.
// (Any process in the same login can still read and write the keychain: an OS limit, said
// plainly in docs/security.md.) Each record is one small JSON text: Windows' Credential Manager
// holds at most 2,560 bytes per entry, so no record may grow with the desk's history.
import { DeskError } from '../../shared/desk-error.ts';
import { keytarSource } from './keytar-module.ts';
import { DEFAULT_KEYCHAIN_SERVICE, type KeychainOptions } from './keytar-vault.ts';
import type { KeytarLike } from './vault.ts';

/** Not possible profile ids (those are lowercase letters, digits and hyphens), so they never meet a partner entry. */
export const DESK_RECORDS = {
  signIn: 'lending-desk:sign-in',
  connections: 'lending-desk:connections',
  actionLogHead: 'lending-desk:action-log-head',
  /**
   * The library mirror's read-only role password (issue #25), as IT's tooling writes it: the
   * password itself. Read by main for each fill and handed to the mirror's owner; never logged.
   */
  libraryMirrorPassword: 'lending-desk:library-mirror',
  /** The zone the action log's days are counted in, kept since set-up, and the machine zone last seen (issue #33). */
  dayBoundary: 'lending-desk:day-boundary',
  /**
   * This desk's workstation id and secret at the library server (issue #31), as JSON
   * `{"workstationId": …, "secret": …}`: what the desk proves itself with there, written at its
   * enrolment (or by IT's tooling). Never logged; never sent anywhere but the server's token request.
   */
  workstation: 'lending-desk:workstation',
} as const;
export type DeskRecord = (typeof DESK_RECORDS)[keyof typeof DESK_RECORDS];

/**
 * A record's text as IT's tooling may have left it. keytar and secret-tool keep UTF-8; Windows'
 * `cmdkey /pass:` writes UTF-16LE, which keytar reads back as each character followed by a NUL:
 * such a text is read as the UTF-16 it is (ASCII — what a password generator or the library
 * server prints — comes back whole).
 */
export function asWrittenByTooling(saved: string): string {
  const chars = [...saved];
  const utf16 = chars.length >= 2 && chars.length % 2 === 0 && chars.every((c, i) => (i % 2 === 1) === (c === '\u0000'));
  return utf16 ? chars.filter((_, i) => i % 2 === 0).join('') : saved;
}

/** What Windows' Credential Manager takes in one entry (CRED_MAX_CREDENTIAL_BLOB_SIZE). */
export const MAX_RECORD_BYTES = 2560;

export interface DeskKeychain {
  /** The record's text, or undefined when there is none; throws keychain-unavailable when the keychain cannot be reached. */
  read(record: DeskRecord): Promise<string | undefined>;
  write(record: DeskRecord, text: string): Promise<void>;
  remove(record: DeskRecord): Promise<void>;
}

function unavailable(error: unknown): DeskError {
  const why = error instanceof Error ? error.message : String(error);
  return new DeskError('keychain-unavailable', `The desk's records could not be reached in the system keychain (${why}).`, undefined, {
    reason: 'keychain.desk-records-unavailable', params: {},
  });
}

function checkSize(record: DeskRecord, text: string): void {
  if (Buffer.byteLength(text, 'utf8') > MAX_RECORD_BYTES) throw new RangeError(`${record} would be larger than a keychain entry may be (${MAX_RECORD_BYTES} bytes)`);
}

export function keychainDeskRecords(options: KeychainOptions = {}): DeskKeychain {
  const service = options.service ?? DEFAULT_KEYCHAIN_SERVICE;
  const keytar = keytarSource(options);
  // The records hold hashes, counts and MACs, never a secret a native error could echo.
  const using = async <T>(work: (k: KeytarLike) => Promise<T>): Promise<T> => {
    try {
      return await work(await keytar());
    } catch (error) {
      throw unavailable(error);
    }
  };
  return {
    read: (record) => using(async (k) => (await k.getPassword(service, record)) ?? undefined),
    async write(record, text) {
      checkSize(record, text);
      await using((k) => k.setPassword(service, record, text));
    },
    async remove(record) {
      await using((k) => k.deletePassword(service, record));
    },
  };
}

/** The records held in memory: tests, the reliability runs and the bench. `entries` is the keychain as a test tampers with it. */
export function memoryDeskRecords(): DeskKeychain & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    async read(record) {
      return entries.get(record);
    },
    async write(record, text) {
      checkSize(record, text);
      entries.set(record, text);
    },
    async remove(record) {
      entries.delete(record);
    },
  };
}
