// Each action-log entry is sealed on its own with AES-256-GCM (authenticated encryption): a
// copied file reads as noise without the key in the OS keychain, and an entry altered on disk,
// or moved to another place in the file, fails its check and is skipped instead of read.
// The entry's sequence number is bound to it as associated data, which is what makes a moved
// or duplicated line fail. Two keys are derived from the one in the keychain (HKDF-SHA256):
// one seals entries, another makes the keyed hash a card is matched by (cardMatch), so the
// log can find "this patron's actions today" without keeping the card, and the third chains the
// lines (chainMac): each line's MAC covers the MAC of the line before it, so a line removed,
// reordered, or copied in from elsewhere breaks the chain where it happened (action-log-file.ts).
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 1;

export interface LogKeys { readonly seal: Buffer; readonly cards: Buffer; readonly chain: Buffer }

export function deriveKeys(master: Buffer): LogKeys {
  if (master.length !== KEY_BYTES) throw new RangeError(`the action log key must be ${KEY_BYTES} bytes`);
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `lending-desk action-log ${purpose}`, KEY_BYTES));
  return { seal: derive('entries v1'), cards: derive('card match v1'), chain: derive('chain v1') };
}

/**
 * One line of the file: the format, the sequence number (in the clear: it orders lines), the IV,
 * the sealed entry and the chain MAC (absent on lines an earlier version wrote).
 */
export interface SealedLine { v: number; seq: number; iv: string; data: string; mac?: string }

const associatedData = (seq: number): Buffer => Buffer.from(`lending-desk/action-log/v${FORMAT}/${seq}`, 'utf8');

export function seal(keys: LogKeys, seq: number, plaintext: string): SealedLine {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.seal, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(seq));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { v: FORMAT, seq, iv: iv.toString('base64'), data: data.toString('base64') };
}

/** The entry's text, or undefined when the line fails its check (altered, moved, another key). */
export function unseal(keys: LogKeys, line: SealedLine): string | undefined {
  try {
    const iv = Buffer.from(line.iv, 'base64');
    const data = Buffer.from(line.data, 'base64');
    if (iv.length !== IV_BYTES || data.length < TAG_BYTES) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', keys.seal, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(line.seq));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** A line as read from the file, if it has the shape of one (a torn line does not). */
export function parseLine(text: string): SealedLine | undefined {
  try {
    const value = JSON.parse(text) as Partial<SealedLine>;
    if (value.v !== FORMAT || !Number.isSafeInteger(value.seq) || typeof value.iv !== 'string' || typeof value.data !== 'string') return undefined;
    if (value.mac !== undefined && typeof value.mac !== 'string') return undefined;
    return value as SealedLine;
  } catch {
    return undefined;
  }
}

/** The keyed hash a whole card is matched by: the same card at the same library always gives the same value, and the value gives nothing back. */
export function cardMatch(keys: LogKeys, libraryId: number, card: string): string {
  return createHmac('sha256', keys.cards).update(`${libraryId}\n${card.trim()}`, 'utf8').digest('base64url').slice(0, 32);
}

/** Where a chain starts: a value only the key can make, different for each chain (a purge starts a new one). */
export function chainStart(keys: LogKeys, epoch: string): string {
  return createHmac('sha256', keys.chain).update(`lending-desk/action-log/chain/${epoch}`, 'utf8').digest('base64url');
}

/** A line's place in the chain: its own content and the MAC of the line before it. */
export function chainMac(keys: LogKeys, previous: string, line: Pick<SealedLine, 'seq' | 'iv' | 'data'>): string {
  return createHmac('sha256', keys.chain).update(`${previous}\n${line.seq}\n${line.iv}\n${line.data}`, 'utf8').digest('base64url');
}
