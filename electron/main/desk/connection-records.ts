// Which partner connections this desk set up, and in which shift: one record in the OS keychain
// (desk-keychain.ts), where no edit of settings.json reaches. For each profile id, the fingerprint
// of its address and libraries when staff saved it (settings/profile-fingerprint.ts) and the
// shift it was saved in (0: before any shift — the first run, or a connection an earlier version
// had set up). Two rules rest on it:
// - a profile in settings.json whose fingerprint is not the recorded one (or that has no record)
//   was changed outside the desk: it is refused, and nobody is asked its password;
// - only a connection saved before the current shift (or before any) proves who may set the desk
//   PIN: one added or re-addressed during the shift cannot mint the proof for it.
// The first time a desk of this version starts, the connections an earlier version set up are
// taken as they are — those whose keychain password is bound to their address (the earlier
// version wrote that binding itself) — and recorded as made before any shift.
import { originOf } from '../connection/connections.ts';
import { DESK_RECORDS, type DeskKeychain } from '../credentials/desk-keychain.ts';
import type { CredentialVault } from '../credentials/vault.ts';
import type { Logger } from '../../node/logging/logger.ts';
import { DeskError } from '../../shared/desk-error.ts';
import type { PolicySettings } from '../policy/index.ts';
import { profileFingerprint } from '../settings/index.ts';

export interface ConnectionRecord {
  fingerprint: string;
  /** The shift it was saved in: 0 before any. */
  shift: number;
}

/** A record stays well inside one keychain entry (2,560 bytes on Windows) at 40-character ids. */
export const MAX_RECORDED_CONNECTIONS = 25;
const FORMAT = 1;

export interface ConnectionRecordsOptions {
  keychain: DeskKeychain;
  /** The connections an earlier version set up, taken once when the keychain holds no record yet. */
  adopt: () => Promise<Map<string, ConnectionRecord>>;
  /** Told when the keychain held a record the desk did not write (all connections are then refused until saved again). */
  onNotOurs: () => void;
}

export class ConnectionRecords {
  readonly #options: ConnectionRecordsOptions;
  #records: Promise<Map<string, ConnectionRecord>> | undefined;
  #turn: Promise<unknown> = Promise.resolve();

  constructor(options: ConnectionRecordsOptions) {
    this.#options = options;
  }

  /** Every record, read once (and, on a desk that has none yet, made from what an earlier version set up). */
  all(): Promise<ReadonlyMap<string, ConnectionRecord>> {
    this.#records ??= this.#load().catch((error: unknown) => {
      this.#records = undefined;
      throw error;
    });
    return this.#records;
  }

  /** Whether the keychain knows of any connection this desk set up (a sign the desk was set up), without adopting any. */
  async anyKept(): Promise<boolean> {
    const text = await this.#options.keychain.read(DESK_RECORDS.connections);
    return text !== undefined && (parse(text)?.size ?? 1) > 0;
  }

  record(profileId: string, record: ConnectionRecord): Promise<void> {
    return this.#change((records) => {
      if (!records.has(profileId) && records.size >= MAX_RECORDED_CONNECTIONS) {
        throw DeskError.because('invalid-input', 'profile.too-many', { max: MAX_RECORDED_CONNECTIONS });
      }
      records.set(profileId, record);
    });
  }

  forget(profileId: string): Promise<void> {
    return this.#change((records) => {
      records.delete(profileId);
    });
  }

  async #change(edit: (records: Map<string, ConnectionRecord>) => void): Promise<void> {
    const next = this.#turn.then(async () => {
      const records = new Map(await this.all());
      edit(records);
      await this.#save(records);
      this.#records = Promise.resolve(records);
    });
    this.#turn = next.catch(() => undefined);
    return next;
  }

  async #load(): Promise<Map<string, ConnectionRecord>> {
    const text = await this.#options.keychain.read(DESK_RECORDS.connections);
    if (text !== undefined) {
      const records = parse(text);
      if (records) return records;
      this.#options.onNotOurs();
      const none = new Map<string, ConnectionRecord>();
      await this.#save(none);
      return none;
    }
    const adopted = await this.#options.adopt();
    await this.#save(adopted);
    return adopted;
  }

  async #save(records: Map<string, ConnectionRecord>): Promise<void> {
    const c = Object.fromEntries([...records].map(([id, record]) => [id, [record.fingerprint, record.shift]]));
    await this.#options.keychain.write(DESK_RECORDS.connections, JSON.stringify({ v: FORMAT, c }));
  }
}

function parse(text: string): Map<string, ConnectionRecord> | undefined {
  try {
    const value = JSON.parse(text) as { v?: unknown; c?: unknown };
    if (value.v !== FORMAT || typeof value.c !== 'object' || value.c === null || Array.isArray(value.c)) return undefined;
    const records = new Map<string, ConnectionRecord>();
    for (const [id, entry] of Object.entries(value.c)) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Number.isSafeInteger(entry[1]) || entry[1] < 0) return undefined;
      records.set(id, { fingerprint: entry[0], shift: entry[1] as number });
    }
    return records;
  } catch {
    return undefined;
  }
}

/**
 * The first start of this version: the partner connections an earlier one set up are those whose
 * keychain password is bound to their address (it wrote that binding itself). Taken as they are,
 * as made before any shift. A desk that has records never comes here again.
 */
export async function adoptEarlierConnections(settings: PolicySettings, vault: CredentialVault, logger: Logger): Promise<Map<string, ConnectionRecord>> {
  const { settings: desk, managed } = settings.outcome();
  const adopted = new Map<string, ConnectionRecord>();
  for (const profile of desk.profiles) {
    if (profile.kind !== 'partner' || managed.lockedProfileIds.includes(profile.id)) continue;
    const saved = await vault.read(profile.id).catch(() => undefined);
    let origin: string | undefined;
    try {
      origin = originOf(profile.baseUrl);
    } catch {
      origin = undefined;
    }
    if (saved?.origin !== undefined && saved.origin === origin) adopted.set(profile.id, { fingerprint: profileFingerprint(profile), shift: 0 });
  }
  if (adopted.size > 0) logger.info('connection.records-adopted', { profiles: [...adopted.keys()] });
  return adopted;
}
