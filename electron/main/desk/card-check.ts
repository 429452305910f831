// Each library's card rules at the contract (issue #35). The card field refuses a scan that breaks
// them before any request; main refuses it again here, whoever sends it, so an item barcode, a
// misread check digit or another library's card never costs a request to the service. The rules
// are shared/card-rules.ts's, the same code the renderer runs.
import { judgeScan, scanRefusal, type LibraryRules } from '../../shared/card-rules.ts';
import { DeskError } from '../../shared/desk-error.ts';
import type { ErrorParams } from '../../shared/errors.ts';

export class CardCheck {
  readonly #rules: readonly LibraryRules[];
  readonly #nameOf: (libraryId: number) => string;

  /** `nameOf`: a library as staff read it in a refusal (its name, or its number when it has none). */
  constructor(rules: readonly LibraryRules[], nameOf: (libraryId: number) => string) {
    this.#rules = rules;
    this.#nameOf = nameOf;
  }

  /** Whether the card may be a card of this library (its rules, or none). */
  accepts(libraryId: number, card: string): boolean {
    return scanRefusal(judgeScan(card, libraryId, this.#rules)) === undefined;
  }

  /** Throws `invalid-input` with the reason staff read when the card breaks the library's rules. */
  refuseBroken(libraryId: number, card: string): void {
    const refusal = scanRefusal(judgeScan(card, libraryId, this.#rules));
    if (!refusal) return;
    const params: ErrorParams = { library: this.#nameOf(libraryId) };
    for (const [name, value] of Object.entries(refusal.params)) if (value !== undefined) params[name] = value;
    if (refusal.otherLibraryId !== undefined) params.other = this.#nameOf(refusal.otherLibraryId);
    throw DeskError.because('invalid-input', refusal.reason, params);
  }
}
