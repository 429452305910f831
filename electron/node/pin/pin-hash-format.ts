// A PIN's hash as IT writes it in the policy and the desk keeps it in its keychain: scrypt in
// the PHC string format (`$scrypt$ln=16,r=8,p=1$<salt>$<hash>`, base64 without padding), so IT
// can make one with any tool that speaks it (scripts/pin-hash.ts here, Python's hashlib.scrypt,
// libsodium…). The form is text: the policy checks it here when it reads a hash, below the desk,
// which makes and verifies hashes with Node's scrypt (desk/pin-hash.ts).

/** The cost the desk uses for a hash it makes: 64 MiB and about a tenth of a second per try (docs/security.md has the figure). */
export const DEFAULT_COST_LOG2 = 16;
/** What a real desk accepts from the policy or its keychain: weaker is refused, costlier would stall the desk. */
export const MIN_COST_LOG2 = 16;
export const MAX_COST_LOG2 = 17;
export const BLOCK_SIZE = 8;
export const PARALLELISM = 1;
export const SALT_BYTES = 16;
export const HASH_BYTES = 32;

/** A hash's parts as written: the cost, and the salt and hash in base64. */
export interface PinHashText { costLog2: number; salt: string; hash: string }

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d)\$([A-Za-z0-9+/]{22,88})\$([A-Za-z0-9+/]{43,88})$/;

/** The whole bytes unpadded base64 of this length decodes to. */
const base64Bytes = (text: string): number => Math.floor((text.length * 3) / 4);

/** The parts of a hash this desk accepts, or undefined (another algorithm, another cost, a typo). */
export function pinHashText(text: string, floorLog2 = MIN_COST_LOG2): PinHashText | undefined {
  const match = PHC.exec(text);
  if (!match) return undefined;
  const [, ln, r, p, salt, hash] = match as unknown as [string, string, string, string, string, string];
  const costLog2 = Number(ln);
  if (costLog2 < floorLog2 || costLog2 > MAX_COST_LOG2 || Number(r) !== BLOCK_SIZE || Number(p) !== PARALLELISM) return undefined;
  return base64Bytes(salt) >= SALT_BYTES && base64Bytes(hash) >= HASH_BYTES ? { costLog2, salt, hash } : undefined;
}

/** Why a policy's hash is refused, in IT's words (English, like every policy rule), or undefined. */
export function pinHashProblem(text: string): string | undefined {
  if (pinHashText(text)) return undefined;
  return `must be a scrypt hash in PHC form ($scrypt$ln=${MIN_COST_LOG2}–${MAX_COST_LOG2},r=${BLOCK_SIZE},p=${PARALLELISM}$salt$hash, salt at least ${SALT_BYTES} bytes, hash at least ${HASH_BYTES}), as scripts/pin-hash.ts makes.`;
}
