// The rules for text staff type that both sides apply: the contract's argument schemas (in
// main) and the forms (in the renderer). Each returns the problem in a sentence, or undefined;
// the caller decides whether that is a thrown PartnerError or a form message.

export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** Zero-width and direction marks: never on a card, and they make a card read differently than it is. */
export const INVISIBLE_CHARS = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069]/;

/**
 * Cards keep leading zeros and letters; only surrounding spaces are trimmed. A card made only
 * of dots is refused: URL parsers resolve `.` and `..` (even percent-encoded) as path steps.
 */
export function cardProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'The library card must be text.';
  const card = value.trim();
  if (card === '') return 'Enter a library card number.';
  if (card.length > 64) return 'That library card is too long (more than 64 characters).';
  if (CONTROL_CHARS.test(card)) return 'The library card contains a control character.';
  // A lone surrogate cannot be percent-encoded (encodeURIComponent throws); it is not text a scanner or keyboard makes.
  if (!card.isWellFormed()) return 'The library card contains a character that is not valid text.';
  if (INVISIBLE_CHARS.test(card)) return 'The library card contains an invisible formatting character.';
  if (/^\.+$/.test(card)) return 'That is not a library card number.';
  return undefined;
}

/** This computer: the only place a password may travel to over plain http (a local sandbox). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * A partner service address as staff type it: an https URL (http only to this computer) with nothing a request path would
 * be appended to wrongly (query, fragment) and no credentials (those go to the keychain). The
 * message never repeats the address: it can be 500 characters of anything.
 */
export function baseUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'The service address must be text.';
  const address = value.trim();
  if (CONTROL_CHARS.test(address) || INVISIBLE_CHARS.test(address) || !address.isWellFormed()) {
    return 'The service address contains a control or invisible character.';
  }
  if (!URL.canParse(address)) return 'The service address is not a web address (such as https://lending.example.org).';
  const url = new URL(address);
  // Basic credentials would cross the network in clear text over http.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return 'The service address must start with https:// (http:// only for this computer, such as a local sandbox).';
  }
  if (/[?#]/.test(address)) return 'The service address must not carry a query or fragment (? or #).';
  if (url.username || url.password) return 'The service address must not carry a user name or password; enter those in their own fields.';
  return undefined;
}
