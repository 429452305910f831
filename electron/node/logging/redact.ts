// Everything that goes to the log passes through here first. The log file is read by library
// IT and attached to support tickets, and it is kept by size rather than by days, so it must
// never carry a partner password, a token, a PIN, a patron's full library card number, or
// what a patron reads: a field that holds a title, or search text (often a title), is dropped
// whatever called it, as a second line behind callers that leave them out.

import { maskCard } from '../../shared/card-mask.ts';

const REDACTED = '[redacted]';
const MAX_DEPTH = 8;

// Compared without case, "_" or "-", so accessToken, access_token and Access-Token all match.
const SECRET_KEYS = new Set(['password', 'secret', 'token', 'accesstoken', 'refreshtoken', 'authorization', 'credentials', 'clientsecret', 'apikey', 'cookie', 'pin', 'currentpin', 'newpin']);
/** Reading history: titles and what was searched. Left out of the entry altogether. */
const READING_KEYS = new Set(['title', 'titles', 'subtitle', 'series', 'q', 'query', 'searchtext']);
const CARD_KEYS = new Set(['card', 'librarycard', 'patroncard']);
const normalizeKey = (key: string): string => key.toLowerCase().replace(/[-_]/g, '');

export { maskCard };

const FREE_TEXT_RULES: Array<[RegExp, (match: string, kept: string) => string]> = [
  // Authorization header values: keep the scheme, drop the credential.
  [/\b(Bearer|Basic)\s+[^\s,;"']+/gi, (_, scheme) => `${scheme} ${REDACTED}`],
  // A response body or query string quoted in a message: {"access_token":"…"}, ?token=…
  [/("(?:password|secret|token|access_token|refresh_token|authorization|credentials)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi, (_, key) => `${key}"${REDACTED}"`],
  [/\b(password|secret|token|access_token|refresh_token)=[^&\s"']+/gi, (_, name) => `${name}=${REDACTED}`],
  // user:password@ in a URL.
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, (_, scheme) => `${scheme}${REDACTED}@`],
  // Library cards are long digit runs; timestamps and ids in messages are shorter.
  [/\d{8,}/g, (digits) => maskCard(digits)],
];

function redactText(text: string, secrets: string[]): string {
  let result = text;
  for (const secret of secrets) {
    // Short strings would blank out ordinary words; the keyed and pattern rules cover them.
    if (secret.length >= 4) result = result.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of FREE_TEXT_RULES) {
    result = result.replace(pattern, replacement);
  }
  return result;
}

/** A copy of `value` safe to write to a log. */
export function redact(value: unknown, secrets: string[] = []): unknown {
  return redactValue(value, secrets, 0, new WeakSet());
}

function redactValue(value: unknown, secrets: string[], depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value === 'bigint') return redactText(value.toString(), secrets);
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (typeof value !== 'object' || value === null) return value;
  // Only name and message: a stack trace can quote arguments, and a cause can carry a request.
  if (value instanceof Error) {
    const logged: Record<string, unknown> = { name: value.name, message: redactText(value.message, secrets) };
    const { code, status } = value as { code?: unknown; status?: unknown };
    if (typeof code === 'string' || typeof code === 'number') logged.code = code;
    if (typeof status === 'number') logged.status = status;
    return logged;
  }
  if (value instanceof URL) return redactText(value.href, secrets);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[binary, ${value.byteLength} bytes]`;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1, seen));
    const entries = value instanceof Map ? [...value.entries()].map(([k, v]) => [String(k), v] as const) : Object.entries(value);
    const result: Record<string, unknown> = {};
    for (const [key, field] of entries) {
      const name = normalizeKey(key);
      if (READING_KEYS.has(name)) continue;
      if (SECRET_KEYS.has(name)) result[key] = REDACTED;
      else if (CARD_KEYS.has(name)) result[key] = typeof field === 'string' || typeof field === 'number' ? maskCard(String(field)) : REDACTED;
      else result[key] = redactValue(field, secrets, depth + 1, seen);
    }
    return result;
  } finally {
    seen.delete(value);
  }
}
