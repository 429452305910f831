// The card rules both sides apply (electron/shared/card-rules.ts): the check digits against the
// published worked examples (not against this code's own output), and what a scan is at a desk
// whose libraries have rules — a card, an item barcode, another library's card, or refused and why.
import { describe, expect, it } from 'vitest';
import { codabarCheckDigit, judgeScan, luhnValid, scanRefusal, withCheckDigit, type LibraryRules } from '../../../electron/shared/card-rules.ts';

describe('check digits', () => {
  it('the Codabar library scheme gives the digits of the published examples (JerseyCat, Dynix)', () => {
    // "3 0234 00051786 1" (jerseycat.org, Understanding the Bar Code Structure) and "3 3191 00010586 4" (Dynix barcode format).
    expect(codabarCheckDigit('3023400051786')).toBe(1);
    expect(codabarCheckDigit('3319100010586')).toBe(4);
  });

  it('Luhn accepts the classic test number and refuses it with any other last digit', () => {
    expect(luhnValid('79927398713')).toBe(true);
    for (const last of '0123456789'.replace('3', '')) expect(luhnValid(`7992739871${last}`)).toBe(false);
    expect(luhnValid('7992739871a')).toBe(false);
  });

  it('a one-digit slip or two swapped neighbours break both schemes', () => {
    const codabar = withCheckDigit('2110100000042', 'codabar');
    const luhn = withCheckDigit('20210000042', 'luhn');
    expect(codabarCheckDigit(codabar.slice(0, 13))).toBe(Number(codabar[13]));
    expect(luhnValid(luhn)).toBe(true);
    const slip = (code: string, at: number) => code.slice(0, at) + String((Number(code[at]) + 1) % 10) + code.slice(at + 1);
    const swap = (code: string, at: number) => code.slice(0, at) + code[at + 1] + code[at] + code.slice(at + 2);
    expect(codabarCheckDigit(slip(codabar, 5).slice(0, 13))).not.toBe(Number(codabar[13]));
    expect(luhnValid(slip(luhn, 3))).toBe(false);
    expect(luhnValid(swap('79927398713', 2))).toBe(false); // 9 and 2 swapped
  });
});

describe('what a scan is', () => {
  const RULES: LibraryRules[] = [
    { libraryId: 101, name: 'Riverside', cards: { prefix: '21101', checkDigit: 'codabar' }, items: { prefix: '31101', checkDigit: 'codabar' } },
    { libraryId: 202, name: 'Maple Valley', cards: { prefix: '202', length: 11, checkDigit: 'luhn' } },
    { libraryId: 303 },
  ];
  const card101 = withCheckDigit('2110100000042', 'codabar');
  const item101 = withCheckDigit('3110100012345', 'codabar');
  const card202 = withCheckDigit('2021000004', 'luhn');

  it('a card that keeps its library\'s rules is a card', () => {
    expect(judgeScan(card101, 101, RULES)).toEqual({ kind: 'card' });
    expect(judgeScan(` ${card101} `, 101, RULES)).toEqual({ kind: 'card' });
    expect(judgeScan(card202, 202, RULES)).toEqual({ kind: 'card' });
  });

  it('a wrong check digit, prefix or length is refused with why', () => {
    const wrongDigit = card101.slice(0, 13) + String((Number(card101[13]) + 1) % 10);
    expect(judgeScan(wrongDigit, 101, RULES)).toEqual({ kind: 'refused', reason: 'card.check-digit', params: {} });
    expect(judgeScan('2999900000042', 101, RULES)).toEqual({ kind: 'refused', reason: 'card.wrong-prefix', params: { prefix: '21101' } });
    expect(judgeScan(card101.slice(0, 12), 101, RULES)).toEqual({ kind: 'refused', reason: 'card.wrong-length', params: { length: 14, count: 12 } });
    expect(judgeScan('2021000004X', 202, RULES)).toEqual({ kind: 'refused', reason: 'card.not-digits', params: {} });
  });

  it('an item barcode is recognised as one, at its own library and at another', () => {
    expect(judgeScan(item101, 101, RULES)).toEqual({ kind: 'item', libraryId: 101 });
    expect(judgeScan(item101, 202, RULES)).toEqual({ kind: 'item', libraryId: 101 });
    expect(scanRefusal(judgeScan(item101, 202, RULES))).toEqual({ reason: 'card.item-barcode', params: {} });
  });

  it('a card another library\'s rules accept is that library\'s', () => {
    expect(judgeScan(card202, 101, RULES)).toEqual({ kind: 'other-library', libraryId: 202 });
    expect(scanRefusal(judgeScan(card202, 101, RULES))).toEqual({ reason: 'card.other-library', params: {}, otherLibraryId: 202 });
    expect(judgeScan(card101, 202, RULES)).toEqual({ kind: 'other-library', libraryId: 101 });
  });

  it('a library without card rules takes any card but an item barcode, and so does a desk with no rules at all', () => {
    expect(judgeScan(card202, 303, RULES)).toEqual({ kind: 'card' });
    expect(judgeScan('LIB-303A12', 303, RULES)).toEqual({ kind: 'card' });
    expect(judgeScan(item101, 303, RULES)).toEqual({ kind: 'item', libraryId: 101 });
    expect(judgeScan(item101, 101, [])).toEqual({ kind: 'card' });
  });

  it('the Codabar scheme fixes the kind digit: a patron card with an item\'s 3 is not a card', () => {
    const rules: LibraryRules[] = [{ libraryId: 7, cards: { checkDigit: 'codabar' } }];
    expect(judgeScan(withCheckDigit('2000700000011', 'codabar'), 7, rules)).toEqual({ kind: 'card' });
    expect(judgeScan(withCheckDigit('3000700000011', 'codabar'), 7, rules)).toEqual({ kind: 'refused', reason: 'card.wrong-prefix', params: { prefix: '2' } });
  });
});
