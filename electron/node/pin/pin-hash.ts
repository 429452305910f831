// PINs are kept only as salted scrypt hashes, in the form policy/pin-hash-format.ts states.
// A PIN has little entropy: the slow hash only buys time if the policy (readable by every local
// user) or the keychain is copied; what protects the desk is the wait after wrong tries
// (sign-in-throttle.ts) and PINs worth the hash (shared/pin-rules.ts).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import {
  BLOCK_SIZE, DEFAULT_COST_LOG2, HASH_BYTES, MAX_COST_LOG2, MIN_COST_LOG2, PARALLELISM, pinHashText, SALT_BYTES,
} from './pin-hash-format.ts';

/** The cost a desk makes hashes at, and the least it accepts. */
export interface PinCost { readonly makeLog2: number; readonly floorLog2: number }
/** Every real desk's: main never passes another (tests/support/weak-pin-cost.ts is the only other, for tests). */
export const PRODUCT_PIN_COST: PinCost = { makeLog2: DEFAULT_COST_LOG2, floorLog2: MIN_COST_LOG2 };
/** Below this even a test may not go: the hash must still be scrypt's, not a token effort. */
const LOWEST_TEST_COST_LOG2 = 14;

export interface PinHashParams { costLog2: number; salt: Buffer; hash: Buffer }

/** A PIN as typed: the same characters whichever way the keyboard composed them. */
function pinBytes(pin: string): Buffer {
  return Buffer.from(pin.normalize('NFC'), 'utf8');
}

function derive(pin: string, salt: Buffer, costLog2: number, length: number): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** costLog2, r: BLOCK_SIZE, p: PARALLELISM,
    // Node's default ceiling (32 MiB) is below cost 16; allow exactly what the cost needs.
    maxmem: 129 * 2 ** costLog2 * BLOCK_SIZE * PARALLELISM,
  };
  return new Promise((resolve, reject) => {
    scrypt(pinBytes(pin), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

function checkCost(cost: PinCost): void {
  if (cost.floorLog2 < LOWEST_TEST_COST_LOG2 || cost.makeLog2 < cost.floorLog2 || cost.makeLog2 > MAX_COST_LOG2) {
    throw new RangeError(`scrypt cost must be 2^${MIN_COST_LOG2} to 2^${MAX_COST_LOG2}`);
  }
}

export async function hashPin(pin: string, cost: PinCost = PRODUCT_PIN_COST): Promise<string> {
  checkCost(cost);
  const costLog2 = cost.makeLog2;
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(pin, salt, costLog2, HASH_BYTES);
  return `$scrypt$ln=${costLog2},r=${BLOCK_SIZE},p=${PARALLELISM}$${b64(salt)}$${b64(hash)}`;
}

/** The parts of a hash this desk accepts, as bytes, or undefined (another algorithm, another cost, a typo). */
export function parsePinHash(text: string, floorLog2 = MIN_COST_LOG2): PinHashParams | undefined {
  const parts = pinHashText(text, floorLog2);
  return parts && { costLog2: parts.costLog2, salt: Buffer.from(parts.salt, 'base64'), hash: Buffer.from(parts.hash, 'base64') };
}

export async function verifyPin(pin: string, stored: string, floorLog2 = MIN_COST_LOG2): Promise<boolean> {
  const params = parsePinHash(stored, floorLog2);
  if (!params) return false;
  const derived = await derive(pin, params.salt, params.costLog2, params.hash.length);
  return timingSafeEqual(derived, params.hash);
}

/** The same work as a verification, for a name no PIN belongs to: a wrong name takes as long as a wrong PIN. */
export async function spendVerification(pin: string): Promise<false> {
  await derive(pin, Buffer.alloc(SALT_BYTES), DEFAULT_COST_LOG2, HASH_BYTES);
  return false;
}
