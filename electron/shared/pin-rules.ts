// What makes a PIN worth its hash. A PIN's hash is slow (scrypt at 2^16) but its space is small,
// and per-staff hashes in IT's policy can be read by every local user: a 4-digit PIN falls to an
// offline search in seconds, and the PINs people pick first (123456, 111111) are the first any
// guesser tries. So a PIN is at least 6 characters and is none of: one character repeated, a run
// up or down (123456, 987654, abcdef), a short group repeated (121212, 123123, abcabc), or one of
// the most common PINs. The same rules bind the desk PIN (main refuses it), the PINs IT hashes
// (scripts/pin-hash.ts refuses them) and a PIN typed at sign-in with per-staff PINs (the desk
// refuses it and tells staff to ask IT, since the policy holds only hashes the desk cannot check).
import type { Reason } from './reasons.ts';

export const MIN_PIN_LENGTH = 6;
export const MAX_PIN_LENGTH = 64;

/** From published counts of the most chosen 6-digit PINs and keyboard runs; the runs and repeats above are caught by rule. */
const COMMON_PINS: ReadonlySet<string> = new Set([
  '112233', '123321', '111222', '159753', '147258', '102030', '696969', '520520', '123654', '789456', '159357', '100200',
  '123000', '112211', '121314', '131313', '252525', '200000', '101010', '110110', '000111', '778899', '147852', '142536',
  '753951', '258369', '987456', '741852', '963852', '102938', '212121', '999888', '010203', '202020', '123789',
  'qwerty', 'azerty', 'qwertz', 'abc123', 'password', 'motdepasse', 'letmein', 'iloveyou', 'passw0rd', 'admin1',
]);

function isOneRepeated(pin: string): boolean {
  return [...pin].every((char) => char === pin[0]);
}

/** Each character one above (or each one below) the last: 123456, 345678, 654321, abcdef, 890123 (digits wrap). */
function isRun(pin: string): boolean {
  const codes = [...pin.toLowerCase()].map((char) => char.codePointAt(0) ?? 0);
  const digits = /^\d+$/.test(pin);
  const step = (from: number, to: number): number => (digits ? (to - from + 10) % 10 : to - from);
  const first = step(codes[0]!, codes[1]!);
  if (first !== 1 && first !== (digits ? 9 : -1)) return false;
  return codes.slice(1).every((code, index) => step(codes[index]!, code) === first);
}

/** A group of two or three characters said again and again: 121212, 123123, abcabc. */
function isGroupRepeated(pin: string): boolean {
  return [2, 3].some((size) => pin.length % size === 0 && pin === pin.slice(0, size).repeat(pin.length / size));
}

/** Why this PIN is refused, as a reason key, or undefined when it may be used. */
export function pinProblem(pin: string): Reason | undefined {
  const chars = [...pin];
  if (chars.length < MIN_PIN_LENGTH) return 'pin.too-short';
  if (chars.length > MAX_PIN_LENGTH) return 'pin.too-long';
  const folded = pin.toLowerCase();
  if (isOneRepeated(folded) || isRun(folded) || isGroupRepeated(folded) || COMMON_PINS.has(folded)) return 'pin.too-common';
  return undefined;
}
