// PINs are kept only as salted scrypt hashes, written in the PHC string format
// (`$scrypt$ln=16,r=8,p=1$<salt>$<hash>`, base64 without padding) so IT can make one with any
// tool that speaks it (scripts/pin-hash.ts here, Python's hashlib.scrypt, libsodium…).
// A PIN has little entropy: the slow hash only buys time if the policy (readable by every local
// user) or the keychain is copied; what protects the desk is the wait after wrong tries
// (sign-in-throttle.ts) and PINs worth the hash (shared/pin-rules.ts).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The cost the desk uses for a hash it makes: 64 MiB and about a tenth of a second per try (docs/security.md has the figure). */
export const DEFAULT_COST_LOG2 = 16;
/** What a real desk accepts from the policy or its keychain: weaker is refused, costlier would stall the desk. */
export const MIN_COST_LOG2 = 16;
export const MAX_COST_LOG2 = 17;

/** The cost a desk makes hashes at, and the least it accepts. */
export interface PinCost { readonly makeLog2: number; readonly floorLog2: number }
/** Every real desk's: main never passes another (tests/support/weak-pin-cost.ts is the only other, for tests). */
export const PRODUCT_PIN_COST: PinCost = { makeLog2: DEFAULT_COST_LOG2, floorLog2: MIN_COST_LOG2 };
/** Below this even a test may not go: the hash must still be scrypt's, not a token effort. */
const LOWEST_TEST_COST_LOG2 = 14;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

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

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d)\$([A-Za-z0-9+/]{22,88})\$([A-Za-z0-9+/]{43,88})$/;

/** The parts of a hash this desk accepts, or undefined (another algorithm, another cost, a typo). */
export function parsePinHash(text: string, floorLog2 = MIN_COST_LOG2): PinHashParams | undefined {
  const match = PHC.exec(text);
  if (!match) return undefined;
  const [, ln, r, p, salt, hash] = match as unknown as [string, string, string, string, string, string];
  const costLog2 = Number(ln);
  if (costLog2 < floorLog2 || costLog2 > MAX_COST_LOG2 || Number(r) !== BLOCK_SIZE || Number(p) !== PARALLELISM) return undefined;
  const params = { costLog2, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
  return params.salt.length >= SALT_BYTES && params.hash.length >= HASH_BYTES ? params : undefined;
}

/** Why a policy's hash is refused, in IT's words (English, like every policy rule), or undefined. */
export function pinHashProblem(text: string): string | undefined {
  if (parsePinHash(text)) return undefined;
  return `must be a scrypt hash in PHC form ($scrypt$ln=${MIN_COST_LOG2}–${MAX_COST_LOG2},r=${BLOCK_SIZE},p=${PARALLELISM}$salt$hash, salt at least ${SALT_BYTES} bytes, hash at least ${HASH_BYTES}), as scripts/pin-hash.ts makes.`;
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
