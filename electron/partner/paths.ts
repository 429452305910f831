// Builds request paths from segments. A library card is an opaque string typed by staff or
// read by a scanner: it is always percent-encoded as one segment, so `12 34/../5?x#y` can
// only ever reach the patron route it belongs to.

import { PartnerError } from './errors.ts';

export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** Zero-width and direction marks: never on a card, and they make a card read differently than it is. */
export const INVISIBLE_CHARS = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069]/;

export function apiPath(...segments: (string | number)[]): string {
  return '/api/v1/' + segments.map((s) => encodeURIComponent(String(s))).join('/');
}

export function checkLibraryId(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new PartnerError('invalid-input', `The library id must be a positive whole number (got ${describe(value)}).`);
}

export function checkContentId(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new PartnerError('invalid-input', `The title id must be a positive whole number (got ${describe(value)}).`);
}

/**
 * Cards keep leading zeros and letters; only surrounding spaces are trimmed. A card made only
 * of dots is refused: URL parsers resolve `.` and `..` (even percent-encoded) as path steps.
 */
export function checkCard(value: unknown): string {
  if (typeof value !== 'string') throw new PartnerError('invalid-input', 'The library card must be text.');
  const card = value.trim();
  if (card === '') throw new PartnerError('invalid-input', 'Enter a library card number.');
  if (card.length > 64) throw new PartnerError('invalid-input', 'That library card is too long (more than 64 characters).');
  if (CONTROL_CHARS.test(card)) throw new PartnerError('invalid-input', 'The library card contains a control character.');
  // A lone surrogate cannot be percent-encoded (encodeURIComponent throws); it is not text a scanner or keyboard makes.
  if (!card.isWellFormed()) throw new PartnerError('invalid-input', 'The library card contains a character that is not valid text.');
  if (INVISIBLE_CHARS.test(card)) throw new PartnerError('invalid-input', 'The library card contains an invisible formatting character.');
  if (/^\.+$/.test(card)) throw new PartnerError('invalid-input', 'That is not a library card number.');
  return card;
}

/**
 * A partner service address as staff type it: an http(s) URL with nothing a request path would
 * be appended to wrongly (query, fragment) and no credentials (those go to the keychain). The
 * message never repeats the address: it can be 500 characters of anything.
 */
export function checkBaseUrl(value: unknown): string {
  if (typeof value !== 'string') throw new PartnerError('invalid-input', 'The service address must be text.');
  const address = value.trim();
  if (CONTROL_CHARS.test(address) || INVISIBLE_CHARS.test(address) || !address.isWellFormed()) {
    throw new PartnerError('invalid-input', 'The service address contains a control or invisible character.');
  }
  if (!URL.canParse(address)) throw new PartnerError('invalid-input', 'The service address is not a web address (such as https://lending.example.org).');
  const url = new URL(address);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new PartnerError('invalid-input', 'The service address must start with https:// (or http:// for a local sandbox).');
  }
  if (/[?#]/.test(address)) throw new PartnerError('invalid-input', 'The service address must not carry a query or fragment (? or #).');
  if (url.username || url.password) throw new PartnerError('invalid-input', 'The service address must not carry a user name or password; enter those in their own fields.');
  return address;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 20 ? value.slice(0, 20) + '…' : value);
  return value === null ? 'null' : typeof value === 'number' ? String(value) : typeof value;
}
