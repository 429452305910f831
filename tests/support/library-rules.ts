// Two libraries' card rules as IT's policy would give them (issue #35), for the tests of the card
// field (renderer), the contract (main) and the counter specs (e2e): Riverside (101) issues
// Codabar cards and item barcodes, Maple Valley (202) Luhn cards of 11 digits. The sandbox's
// libraries have the same ids.
import { withCheckDigit, type LibraryRules } from '../../electron/shared/card-rules.ts';

export const LIBRARY_RULES: readonly LibraryRules[] = [
  { libraryId: 101, name: 'Riverside Public Library', cards: { prefix: '21101', checkDigit: 'codabar' }, items: { prefix: '31101', checkDigit: 'codabar' } },
  { libraryId: 202, name: 'Maple Valley Library', cards: { prefix: '202', length: 11, checkDigit: 'luhn' } },
];

/** The n-th card of Riverside (a Codabar patron card), Maple Valley (Luhn), or an item of Riverside's. */
export const riversideCard = (n: number) => withCheckDigit(`21101${String(n).padStart(8, '0')}`, 'codabar');
export const mapleCard = (n: number) => withCheckDigit(`202${String(n).padStart(7, '0')}`, 'luhn');
export const riversideItem = (n: number) => withCheckDigit(`31101${String(n).padStart(8, '0')}`, 'codabar');
/** The same card with its last digit off by `by`: what a misread scan gives. */
export const wrongDigit = (card: string, by = 3) => card.slice(0, -1) + String((Number(card.at(-1)) + by) % 10);
