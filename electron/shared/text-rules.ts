// The rules for text staff type that both sides apply: the contract's argument schemas (in
// main) and the forms (in the renderer). Each returns the problem as a reason key (its English
// in shared/reasons.ts, its French in the locale files), or undefined; the caller decides
// whether that is a thrown DeskError or a form message.
import type { Reason } from './reasons.ts';

export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** Zero-width and direction marks: never on a card, and they make a card read differently than it is. */
export const INVISIBLE_CHARS = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069]/;

export type CardProblem = Extract<Reason, `card.${string}`>;
export type AddressProblem = Extract<Reason, `address.${string}`>;

/**
 * Cards keep leading zeros and letters; only surrounding spaces are trimmed. A card made only
 * of dots is refused: URL parsers resolve `.` and `..` (even percent-encoded) as path steps.
 */
export function cardProblem(value: unknown): CardProblem | undefined {
  if (typeof value !== 'string') return 'card.not-text';
  const card = value.trim();
  if (card === '') return 'card.empty';
  if (card.length > 64) return 'card.too-long';
  if (CONTROL_CHARS.test(card)) return 'card.control-character';
  // A lone surrogate cannot be percent-encoded (encodeURIComponent throws); it is not text a scanner or keyboard makes.
  if (!card.isWellFormed()) return 'card.not-valid-text';
  if (INVISIBLE_CHARS.test(card)) return 'card.invisible-character';
  if (/^\.+$/.test(card)) return 'card.not-a-card';
  return undefined;
}

/** The host of an https address without user name or password (a page the desk may open in the system browser); undefined otherwise. */
export function httpsHostOf(raw: string): string | undefined {
  if (!URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  return url.protocol === 'https:' && url.username === '' && url.password === '' && url.hostname !== '' ? url.hostname : undefined;
}

/** This computer: the only place a password may travel to over plain http (a local sandbox). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * A partner service address as staff type it: an https URL (http only to this computer) with nothing a request path would
 * be appended to wrongly (query, fragment) and no credentials (those go to the keychain). The
 * sentence never repeats the address: it can be 500 characters of anything.
 */
export function baseUrlProblem(value: unknown): AddressProblem | undefined {
  if (typeof value !== 'string') return 'address.not-text';
  const address = value.trim();
  if (CONTROL_CHARS.test(address) || INVISIBLE_CHARS.test(address) || !address.isWellFormed()) return 'address.hidden-character';
  if (!URL.canParse(address)) return 'address.not-web';
  const url = new URL(address);
  // Basic credentials would cross the network in clear text over http.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) return 'address.scheme';
  if (/[?#]/.test(address)) return 'address.query';
  if (url.username || url.password) return 'address.credentials';
  return undefined;
}
