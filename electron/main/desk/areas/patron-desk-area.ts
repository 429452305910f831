// The patron desk: looking a card up (here, or at the profile's other libraries), acting for the
// patron (borrow, return, place and remove a hold: each recorded in the action log, a repeated
// click joining the first), the live search and live availability, and the slip or card staff
// copy to the clipboard. Works through the active connection; records through the action log.

import type { ActionOutcome, CardElsewhere, DeskHandlers, ParsedArgsOf, PatronView } from '../../../shared/contract.ts';
import type { ActionKind } from '../../action-log/action-log.ts';
import type { Connection } from '../../connection/connection.ts';
import type { Logger } from '../../../node/logging/logger.ts';
import { isDeskError } from '../../../shared/desk-error.ts';
import type { Hold, Loan } from '../../../shared/model.ts';
import type { CardCheck } from '../card-check.ts';
import type { DeskClipboard } from '../clipboard.ts';
import { patronView } from '../patron-view.ts';
import type { TitlePages } from '../title-pages.ts';
import type { ActionLogArea, OnBehalf } from './action-log-area.ts';
import type { ConnectionsArea } from './connections-area.ts';

export interface PatronDeskAreaParts {
  connections: Pick<ConnectionsArea, 'forLibrary'>;
  actionLog: Pick<ActionLogArea, 'recorded'>;
  /** The hosts of title pages the service named in what the desk showed (main opens links to them). */
  titlePages: TitlePages;
  clipboard: DeskClipboard;
  logger: Logger;
  /** Each library's card rules from IT's policy (issue #35): a card that breaks them is refused before any request. */
  cards?: CardCheck;
}

export class PatronDeskArea {
  readonly #parts: PatronDeskAreaParts;
  /** On-behalf actions under way, so a double click or a repeated Enter joins the first instead of sending twice. */
  readonly #inFlight = new Map<string, Promise<unknown>>();

  constructor(parts: PatronDeskAreaParts) {
    this.#parts = parts;
  }

  // `signal`: the renderer no longer wants the answer (a newer lookup or search): what was not sent yet is not.

  async lookupPatron(args: ParsedArgsOf<'lookupPatron'>, signal?: AbortSignal): Promise<PatronView> {
    this.#parts.cards?.refuseBroken(args.libraryId, args.card);
    const { staff } = await this.#parts.connections.forLibrary(args.libraryId);
    const view = await patronView(staff, args.libraryId, args.card, signal);
    this.#parts.titlePages.note([...view.loans, ...view.holds].map((item) => item.url));
    return view;
  }

  /** A card this library does not know, tried at the profile's other libraries at once: staff switch to one that knows it. */
  async findCardElsewhere(args: ParsedArgsOf<'findCardElsewhere'>, signal?: AbortSignal): Promise<CardElsewhere[]> {
    const { staff, libraries } = await this.#parts.connections.forLibrary(args.libraryId);
    const others = libraries.map((l) => l.libraryId).filter((libraryId) => libraryId !== args.libraryId);
    return Promise.all(others.map(async (libraryId): Promise<CardElsewhere> => {
      // Not a card of a library whose rules it breaks: that library is not asked.
      if (this.#parts.cards && !this.#parts.cards.accepts(libraryId, args.card)) return { libraryId, known: false };
      try {
        await staff.patronStatus(libraryId, args.card, signal);
        return { libraryId, known: true };
      } catch (error) {
        if (!isDeskError(error) || signal?.aborted) throw error;
        return error.code === 'invalid-patron' ? { libraryId, known: false } : { libraryId, known: false, error: error.toInfo() };
      }
    }));
  }

  borrow(args: ParsedArgsOf<'borrow'>): Promise<ActionOutcome<Loan>> {
    return this.#act('borrow', args, (staff) => staff.borrow(args.libraryId, args.card, args.contentId));
  }

  returnTitle(args: ParsedArgsOf<'returnTitle'>): Promise<ActionOutcome<null>> {
    return withoutValue(this.#act('return', args, (staff) => staff.returnTitle(args.libraryId, args.card, args.contentId)));
  }

  placeHold(args: ParsedArgsOf<'placeHold'>): Promise<ActionOutcome<Hold>> {
    return this.#act('place-hold', args, (staff) => staff.placeHold(args.libraryId, args.card, args.contentId));
  }

  removeHold(args: ParsedArgsOf<'removeHold'>): Promise<ActionOutcome<null>> {
    return withoutValue(this.#act('remove-hold', args, (staff) => staff.removeHold(args.libraryId, args.card, args.contentId)));
  }

  async liveSearch(args: ParsedArgsOf<'liveSearch'>, signal?: AbortSignal): ReturnType<DeskHandlers['liveSearch']> {
    const { staff } = await this.#parts.connections.forLibrary(args.libraryId);
    const { libraryId, ...query } = args;
    const page = await staff.search(libraryId, query, signal);
    this.#parts.titlePages.note(page.hits.map((hit) => hit.url));
    return page;
  }

  async liveAvailability(args: ParsedArgsOf<'liveAvailability'>, signal?: AbortSignal): ReturnType<DeskHandlers['liveAvailability']> {
    const { staff } = await this.#parts.connections.forLibrary(args.libraryId);
    return staff.contentInfo(args.libraryId, args.contentIds, signal);
  }

  /** A due-date slip or a card, for the patron's email; the lock clears it if it is still there. */
  async copyText(args: ParsedArgsOf<'copyText'>): Promise<null> {
    await this.#parts.clipboard.copy(args.text);
    this.#parts.logger.info('clipboard.copy', { purpose: args.purpose, characters: args.text.length });
    return null;
  }

  /** An on-behalf action at the patron's library, recorded in the action log; a repeated click while it runs joins it instead of sending twice. */
  async #act<T extends { confirmedByReread: boolean }>(action: ActionKind, args: OnBehalf, work: (staff: Connection['staff']) => Promise<T>): Promise<T> {
    this.#parts.cards?.refuseBroken(args.libraryId, args.card);
    const { staff } = await this.#parts.connections.forLibrary(args.libraryId);
    const key = `${action}|${args.libraryId}|${args.card}|${args.contentId}`;
    const running = this.#inFlight.get(key);
    if (running) return running as Promise<T>;
    const promise = this.#parts.actionLog.recorded(action, args, () => work(staff)).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, promise);
    return promise;
  }
}

async function withoutValue(outcome: Promise<{ confirmedByReread: boolean }>): Promise<ActionOutcome<null>> {
  return { value: null, confirmedByReread: (await outcome).confirmedByReread };
}
