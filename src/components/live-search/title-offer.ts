// What the desk offers on a title for the patron on screen, wherever the title shows (search
// results, a title's details, a Collection row): the patron's own loan or hold first (a
// RESERVED hold is a copy set aside for them: Borrow now), then what the live availability
// and the allowance allow. An Instant borrow with no borrows left is told before the attempt.
import type { PatronView } from '../../../electron/shared/contract.ts';
import type { AvailabilityStatus, ContentId, Hold, PurchaseModel } from '../../../electron/shared/model.ts';
import { allowanceUsedUp } from '../patron/allowance.ts';

export type TitleOffer =
  | { kind: 'on-loan' }
  /** A copy is set aside for this patron (a RESERVED hold): borrow it now. */
  | { kind: 'ready'; hold: Hold }
  | { kind: 'waiting'; hold: Hold }
  | { kind: 'borrow' }
  /** An Instant title and no Instant borrow left this month: Borrow waits, with the reason. */
  | { kind: 'limit' }
  | { kind: 'hold'; queue?: number }
  | { kind: 'none' };

export interface OfferInput {
  status?: AvailabilityStatus | undefined;
  purchaseModel?: PurchaseModel | undefined;
  holdsQueueSize?: number | undefined;
}

export function patronHold(view: PatronView | undefined, contentId: ContentId): Hold | undefined {
  return view?.holds.find((h) => h.contentId === contentId);
}

export function titleOffer(contentId: ContentId, live: OfferInput, view: PatronView | undefined): TitleOffer {
  if (view?.loans.some((l) => l.contentId === contentId)) return { kind: 'on-loan' };
  const hold = patronHold(view, contentId);
  if (hold) return hold.status === 'RESERVED' ? { kind: 'ready', hold } : { kind: 'waiting', hold };
  if (live.status === 'UNAVAILABLE') return { kind: 'none' };
  if (live.status === 'HOLD') return live.holdsQueueSize === undefined ? { kind: 'hold' } : { kind: 'hold', queue: live.holdsQueueSize };
  if (live.purchaseModel === 'INSTANT' && allowanceUsedUp(view?.status)) return { kind: 'limit' };
  return { kind: 'borrow' };
}
