// What a scan at the card field is, by each library's rules as IT's policy gives them (issue #35):
// a card of this library, an item barcode (a book's, scanned by mistake), a card of another
// library of the connection, or a number that breaks this library's rules (prefix, length, check
// digit). Pure code both sides apply: the card field refuses before any request, and main refuses
// again at the contract. A library without card rules takes any card (cards are opaque).
//
// Check digits: mod-10 Luhn (the digit that makes the whole number's Luhn sum a multiple of 10),
// or the Codabar library scheme: 14 digits — the kind (2 a patron, 3 an item), a 4-digit
// institution code, an 8-digit number — and a check digit over the first 13, where the digits in
// odd places from the left are doubled (less 9 when over 9) and the even ones added as they are.
// On 14 digits the two give the same digit; the Codabar scheme also fixes the shape and the kind.

export const CHECK_DIGITS = ['none', 'luhn', 'codabar'] as const;
export type CheckDigit = (typeof CHECK_DIGITS)[number];

/** The shape of a library's cards, or of its item barcodes. */
export interface BarcodeRule {
  /** What every one of them starts with (a Codabar card's kind and institution code: 21101). */
  prefix?: string | undefined;
  /** How many characters, the check digit included. */
  length?: number | undefined;
  checkDigit?: CheckDigit | undefined;
}

/** One library as IT's policy describes it: its name, its cards, its item barcodes. */
export interface LibraryRules {
  libraryId: number;
  name?: string | undefined;
  cards?: BarcodeRule | undefined;
  items?: BarcodeRule | undefined;
}

export const CODABAR_LENGTH = 14;
/** The Codabar kind digit: 2 on a patron's card, 3 on an item. */
export const CODABAR_KIND = { cards: '2', items: '3' } as const;
export type BarcodeKind = keyof typeof CODABAR_KIND;

/** Why a number breaks a rule: a reason key (shared/reasons.ts) and what its sentence names. */
export interface RuleProblem {
  reason: 'card.wrong-prefix' | 'card.wrong-length' | 'card.not-digits' | 'card.check-digit';
  params: { prefix?: string; length?: number; count?: number };
}

/** What a scan is at `libraryId`'s desk. */
export type ScanVerdict =
  | { kind: 'card' }
  /** An item barcode: this library's, or another one's (`libraryId`). */
  | { kind: 'item'; libraryId: number }
  /** Not a card of this library, but one of `libraryId`'s. */
  | { kind: 'other-library'; libraryId: number }
  | ({ kind: 'refused' } & RuleProblem);

const DIGITS = /^[0-9]+$/;

/** The Luhn sum of every digit of `digits` (the check digit last) is a multiple of 10. */
export function luhnValid(digits: string): boolean {
  if (!DIGITS.test(digits) || digits.length < 2) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The Codabar library scheme's check digit of the first 13 digits. */
export function codabarCheckDigit(first13: string): number {
  let sum = 0;
  for (let i = 0; i < CODABAR_LENGTH - 1; i++) {
    let digit = Number(first13[i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** `body` completed with its check digit (for IT's tools and the tests). */
export function withCheckDigit(body: string, scheme: 'luhn' | 'codabar'): string {
  if (scheme === 'codabar') return body + String(codabarCheckDigit(body));
  for (let digit = 0; digit <= 9; digit++) if (luhnValid(body + String(digit))) return body + String(digit);
  throw new Error(`no Luhn check digit for ${body}`);
}

/** The prefix a rule asks for: its own, or the Codabar kind digit when it names none. */
function prefixOf(rule: BarcodeRule, kind: BarcodeKind): string | undefined {
  return rule.prefix ?? (rule.checkDigit === 'codabar' ? CODABAR_KIND[kind] : undefined);
}

function lengthOf(rule: BarcodeRule): number | undefined {
  return rule.checkDigit === 'codabar' ? CODABAR_LENGTH : rule.length;
}

/** Why `code` is not one of a rule's cards (or items), or undefined when it is. */
export function ruleProblem(code: string, rule: BarcodeRule, kind: BarcodeKind): RuleProblem | undefined {
  const prefix = prefixOf(rule, kind);
  const length = lengthOf(rule);
  if (prefix !== undefined && !code.toUpperCase().startsWith(prefix.toUpperCase())) return { reason: 'card.wrong-prefix', params: { prefix } };
  if (length !== undefined && code.length !== length) return { reason: 'card.wrong-length', params: { length, count: code.length } };
  const scheme = rule.checkDigit ?? 'none';
  if (scheme === 'none') return undefined;
  if (!DIGITS.test(code)) return { reason: 'card.not-digits', params: {} };
  const valid = scheme === 'luhn' ? luhnValid(code) : codabarCheckDigit(code) === Number(code[CODABAR_LENGTH - 1]);
  return valid ? undefined : { reason: 'card.check-digit', params: {} };
}

/**
 * What `scan` is at the desk of `libraryId`. This library's cards first; then an item barcode of
 * any library; a library with no card rules takes the rest as cards; otherwise a card another
 * library's rules accept is that library's, and anything else is refused with why.
 */
export function judgeScan(scan: string, libraryId: number, rules: readonly LibraryRules[]): ScanVerdict {
  const code = scan.trim();
  const own = rules.find((r) => r.libraryId === libraryId);
  if (own?.cards && !ruleProblem(code, own.cards, 'cards')) return { kind: 'card' };
  const ordered = own ? [own, ...rules.filter((r) => r !== own)] : rules;
  const item = ordered.find((r) => r.items && !ruleProblem(code, r.items, 'items'));
  if (item) return { kind: 'item', libraryId: item.libraryId };
  if (!own?.cards) return { kind: 'card' };
  const other = rules.find((r) => r.libraryId !== libraryId && r.cards && !ruleProblem(code, r.cards, 'cards'));
  if (other) return { kind: 'other-library', libraryId: other.libraryId };
  return { kind: 'refused', ...(ruleProblem(code, own.cards, 'cards') as RuleProblem) };
}

export type ScanReason = RuleProblem['reason'] | 'card.item-barcode' | 'card.other-library';

/**
 * The refusal a verdict stands for (nothing for a card): its reason and the values its sentence
 * names, but the libraries' names, which each side words itself ({library}: this one, {other}:
 * the one whose card it is).
 */
export function scanRefusal(verdict: ScanVerdict): { reason: ScanReason; params: RuleProblem['params']; otherLibraryId?: number } | undefined {
  switch (verdict.kind) {
    case 'card': return undefined;
    case 'item': return { reason: 'card.item-barcode', params: {} };
    case 'other-library': return { reason: 'card.other-library', params: {}, otherLibraryId: verdict.libraryId };
    case 'refused': return { reason: verdict.reason, params: verdict.params };
  }
}
