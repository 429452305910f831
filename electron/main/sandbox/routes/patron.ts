// The patron routes. Each route answers an unknown library or card with the status real
// clients expect of that route (400, 403 or 404: they differ, and clients rely on them).

import type { WireBorrowRecord, WireHold, WirePatronStatus } from '../../../node/partner/wire.ts';
import type { Loan, PatronHold } from '../circulation.ts';
import type { ContentIds } from '../content-ids.ts';
import { HttpError } from '../http-error.ts';
import { parseId } from '../query.ts';
import { longUtcDate } from '../time.ts';
import { noContent, ok } from './context.ts';
import type { Handler, Reply, RequestContext } from './context.ts';

interface PatronRef {
  libraryId: number;
  card: string;
}

const NO_ACCOUNT = 'No account with the service for this library card';
const INVALID_PATRON = 'Invalid library or library card';

function patronRef(context: RequestContext, unknownStatus: number, unknownMessage = NO_ACCOUNT): PatronRef {
  const libraryId = parseId('libraryId', context.params.libraryId);
  const card = context.params.card ?? '';
  if (context.state.circulation.patron(libraryId, card) === undefined) throw new HttpError(unknownStatus, unknownMessage);
  return { libraryId, card };
}

function borrowRecord(loan: Loan, contents: ContentIds): WireBorrowRecord {
  return {
    contentId: contents.wire(loan.contentId),
    title: loan.item.title,
    borrowed: loan.borrowed,
    due: loan.due,
    kind: loan.item.kind,
    url: loan.item.url,
    coverImageUrl: loan.item.coverImageUrl,
  };
}

function holdRecord(hold: PatronHold, contents: ContentIds): WireHold {
  return {
    status: hold.status,
    contentId: contents.wire(hold.contentId),
    title: hold.item.title,
    inserted: hold.inserted,
    reserveUntil: hold.status === 'RESERVED' ? hold.reserveUntil : undefined,
    url: hold.item.url,
    coverImageUrl: hold.item.coverImageUrl,
    kind: hold.item.kind,
    holdsQueuePosition: hold.holdsQueuePosition,
  };
}

export const patronStatus: Handler = (context) => {
  const { libraryId, card } = patronRef(context, 400, INVALID_PATRON);
  const { circulation } = context.state;
  const patron = circulation.patron(libraryId, card);
  if (patron === undefined) throw new HttpError(400, INVALID_PATRON);
  const body: WirePatronStatus = {
    borrowsRemaining: circulation.borrowsRemaining(patron),
    borrowsAllowedPerMonth: patron.borrowsAllowedPerMonth,
    currentlyBorrowed: circulation.loansOf(libraryId, card).length,
  };
  return ok(body);
};

export const currentCheckouts: Handler = (context) => {
  const { libraryId, card } = patronRef(context, 400, INVALID_PATRON);
  return ok(context.state.circulation.loansOf(libraryId, card).map((loan) => borrowRecord(loan, context.state.contents)));
};

export const currentHolds: Handler = (context) => {
  const { libraryId, card } = patronRef(context, 400, INVALID_PATRON);
  const holds = context.state.circulation.holdsOf(libraryId, card).map((hold) => holdRecord(hold, context.state.contents));
  if (context.state.shapes.holds === 'array' || holds.length > 1) return ok(holds);
  return ok(holds[0] ?? {});
};

export const borrow: Handler = (context) => {
  const { libraryId, card } = patronRef(context, 404);
  const contentId = context.state.contents.parse('contentId', context.params.contentId);
  const loan = context.state.circulation.borrow(libraryId, card, contentId);
  const body: WireBorrowRecord = {
    ...borrowRecord(loan, context.state.contents),
    message: `Enjoy ${loan.item.title} until ${longUtcDate(loan.due)}. It returns itself then; no late fees.`,
  };
  return ok(body);
};

export const returnTitle: Handler = (context): Reply => {
  const { libraryId, card } = patronRef(context, 404, 'This title is not on loan to this patron');
  const contentId = context.state.contents.parse('contentId', context.params.contentId);
  context.state.circulation.returnTitle(libraryId, card, contentId);
  return noContent();
};

export const placeHold: Handler = (context) => {
  const { libraryId, card } = patronRef(context, 403);
  const contentId = context.state.contents.parse('contentId', context.params.contentId);
  return ok(holdRecord(context.state.circulation.placeHold(libraryId, card, contentId), context.state.contents));
};

export const removeHold: Handler = (context) => {
  const { libraryId, card } = patronRef(context, 403, 'No such hold');
  const contentId = context.state.contents.parse('contentId', context.params.contentId);
  context.state.circulation.removeHold(libraryId, card, contentId);
  return noContent();
};
