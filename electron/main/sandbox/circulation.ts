// Patrons, loans and holds queues per library, with the lending rules: allowance, Flex
// copies, queue order and the lazy time rules (overdue loans return themselves, lapsed
// reservations pass on). Errors carry the exact statuses real clients rely on.

import type { Format, Title } from './catalog.ts';
import type { CatalogStore } from './catalog-store.ts';
import type { ContentIds } from './content-ids.ts';
import type { ChangeLog } from './changes.ts';
import { HttpError } from './http-error.ts';
import { findLibrary } from './libraries.ts';
import type { Entitlement, EntitlementStore, PurchaseModel } from './libraries.ts';
import { DAY_SECONDS, startOfUtcMonth } from './time.ts';
import { itemUrls, type CoverMode } from './urls.ts';

export const RESERVE_DAYS = 3;
export const BORROWS_ALLOWED_PER_MONTH = 10;

/** What a loan or hold shows of its title, kept so it still reads well if the title is removed. */
export interface ItemSnapshot {
  title: string;
  kind: Format;
  url: string;
  coverImageUrl: string;
}

export interface Loan {
  card: string;
  contentId: number;
  purchaseModel: PurchaseModel;
  borrowed: number;
  due: number;
  item: ItemSnapshot;
}

export interface HoldEntry {
  card: string;
  contentId: number;
  status: 'WAITING' | 'RESERVED';
  inserted: number;
  reserveUntil?: number;
  item: ItemSnapshot;
}

export interface PatronHold extends HoldEntry {
  holdsQueuePosition: number;
}

export interface Patron {
  card: string;
  role: string;
  description: string;
  borrowsAllowedPerMonth: number;
  /** Times of every Instant borrow, returned or not: they are what the allowance counts. */
  instantBorrows: number[];
}

export interface Availability {
  status: 'BORROW' | 'HOLD' | 'UNAVAILABLE';
  available: boolean;
  purchaseModel?: PurchaseModel;
  holdsQueueSize?: number;
  holdsQueuePosition?: number;
  availableCopies?: number;
  totalCopies?: number;
}

interface LibraryState {
  patrons: Map<string, Patron>;
  loans: Loan[];
  queues: Map<number, HoldEntry[]>;
}

const NO_ACCOUNT = 'No account with the service for this library card';

export function loanDays(model: PurchaseModel, format: Format): number {
  if (model === 'FLEX') return 21;
  if (format === 'MUSIC') return 7;
  if (format === 'MOVIE' || format === 'TELEVISION') return 3;
  return 21;
}


export interface CirculationDeps {
  catalog: CatalogStore;
  entitlements: EntitlementStore;
  /** Loans, holds and queues are kept by content key: a title's number, or an episode's (content-ids.ts). */
  contents: ContentIds;
  changes: ChangeLog;
  nowSeconds: () => number;
  /** Where the covers of loans and holds are (urls.ts), as the sandbox is set now. */
  covers: () => CoverMode;
}

export class Circulation {
  private readonly deps: CirculationDeps;
  private readonly libraries = new Map<number, LibraryState>();

  constructor(deps: CirculationDeps) {
    this.deps = deps;
  }

  // --- lookups -------------------------------------------------------------------------

  patron(libraryId: number, card: string): Patron | undefined {
    return this.libraries.get(libraryId)?.patrons.get(card);
  }

  loansOf(libraryId: number, card: string): Loan[] {
    this.settle(libraryId);
    return this.state(libraryId).loans.filter((loan) => loan.card === card);
  }

  holdsOf(libraryId: number, card: string): PatronHold[] {
    this.settle(libraryId);
    const holds: PatronHold[] = [];
    for (const queue of this.state(libraryId).queues.values()) {
      queue.forEach((hold, index) => {
        if (hold.card === card) holds.push({ ...hold, holdsQueuePosition: index + 1 });
      });
    }
    return holds.sort((a, b) => a.inserted - b.inserted || a.contentId - b.contentId);
  }

  borrowsRemaining(patron: Patron): number {
    const monthStart = startOfUtcMonth(this.deps.nowSeconds());
    const used = patron.instantBorrows.filter((at) => at >= monthStart).length;
    return Math.max(0, patron.borrowsAllowedPerMonth - used);
  }

  availability(libraryId: number, id: number): Availability {
    this.settle(libraryId);
    const entitlement = this.entitlementOf(libraryId, id);
    if (entitlement === undefined) return { status: 'UNAVAILABLE', available: false };
    if (!entitlement.active) return { status: 'UNAVAILABLE', available: false, purchaseModel: entitlement.purchaseModel };
    if (entitlement.purchaseModel === 'INSTANT') return { status: 'BORROW', available: true, purchaseModel: 'INSTANT' };
    const free = this.freeCopies(libraryId, id, entitlement);
    const queued = this.queue(libraryId, id).length;
    return {
      status: free > 0 ? 'BORROW' : 'HOLD',
      available: free > 0,
      purchaseModel: 'FLEX',
      holdsQueueSize: queued,
      // The spec names the field without saying whose position it is (content info names no patron): here, where a hold placed now would stand.
      ...(free > 0 ? {} : { holdsQueuePosition: queued + 1 }),
      availableCopies: free,
      totalCopies: entitlement.totalCopies,
    };
  }

  // --- patron actions ------------------------------------------------------------------

  borrow(libraryId: number, card: string, id: number): Loan {
    const patron = this.patron(libraryId, card);
    if (patron === undefined) throw new HttpError(404, NO_ACCOUNT);
    this.settle(libraryId);
    const entitlement = this.entitlementOf(libraryId, id);
    const title = this.contentTitle(id);
    if (entitlement === undefined || !entitlement.active || title === undefined) {
      throw new HttpError(400, `Title ${this.deps.contents.wire(id)} is not available at this library`);
    }
    const state = this.state(libraryId);
    if (state.loans.some((loan) => loan.card === card && loan.contentId === id)) {
      throw new HttpError(409, 'This patron already has this title on loan');
    }
    const now = this.deps.nowSeconds();
    if (entitlement.purchaseModel === 'FLEX') {
      const queue = this.queue(libraryId, id);
      const reserved = queue.findIndex((hold) => hold.card === card && hold.status === 'RESERVED');
      if (reserved >= 0) {
        queue.splice(reserved, 1);
      } else if (this.freeCopies(libraryId, id, entitlement) === 0) {
        throw new HttpError(422, 'No copy is free to borrow right now; place a hold instead', `holdsQueueSize=${queue.length}`);
      }
      this.touchAvailability(libraryId, id);
    } else {
      if (this.borrowsRemaining(patron) === 0) {
        throw new HttpError(403, 'Monthly borrow allowance used up', `0 of ${patron.borrowsAllowedPerMonth} borrows remaining this month`);
      }
      patron.instantBorrows.push(now);
    }
    const loan: Loan = {
      card,
      contentId: id,
      purchaseModel: entitlement.purchaseModel,
      borrowed: now,
      due: now + loanDays(entitlement.purchaseModel, title.format) * DAY_SECONDS,
      item: this.snapshot(id, title),
    };
    state.loans.push(loan);
    return loan;
  }

  returnTitle(libraryId: number, card: string, id: number): void {
    this.settle(libraryId);
    const state = this.libraries.get(libraryId);
    const index = state?.loans.findIndex((loan) => loan.card === card && loan.contentId === id) ?? -1;
    if (state === undefined || index < 0 || !state.patrons.has(card)) {
      throw new HttpError(404, 'This title is not on loan to this patron');
    }
    const [loan] = state.loans.splice(index, 1);
    if (loan?.purchaseModel === 'FLEX') this.passOnCopies(libraryId, id);
  }

  placeHold(libraryId: number, card: string, id: number): PatronHold {
    if (this.patron(libraryId, card) === undefined) throw new HttpError(403, NO_ACCOUNT);
    this.settle(libraryId);
    const entitlement = this.entitlementOf(libraryId, id);
    const title = this.contentTitle(id);
    if (entitlement === undefined || !entitlement.active || title === undefined) {
      throw new HttpError(404, `Title ${this.deps.contents.wire(id)} is not in this library's collection`);
    }
    const queue = this.queue(libraryId, id);
    if (this.state(libraryId).loans.some((loan) => loan.card === card && loan.contentId === id)) {
      throw new HttpError(409, 'This patron already has this title on loan');
    }
    if (queue.some((hold) => hold.card === card)) throw new HttpError(409, 'This patron already has a hold on this title');
    if (entitlement.purchaseModel === 'INSTANT' || this.freeCopies(libraryId, id, entitlement) > 0) {
      throw new HttpError(400, 'Title is available to borrow; no hold needed');
    }
    const hold: HoldEntry = {
      card,
      contentId: id,
      status: 'WAITING',
      inserted: this.deps.nowSeconds(),
      item: this.snapshot(id, title),
    };
    queue.push(hold);
    this.state(libraryId).queues.set(id, queue);
    this.touchAvailability(libraryId, id);
    return { ...hold, holdsQueuePosition: queue.length };
  }

  removeHold(libraryId: number, card: string, id: number): void {
    this.settle(libraryId);
    const queue = this.queue(libraryId, id);
    const index = queue.findIndex((hold) => hold.card === card);
    if (index < 0 || this.patron(libraryId, card) === undefined) throw new HttpError(403, 'No such hold');
    const [removed] = queue.splice(index, 1);
    this.touchAvailability(libraryId, id);
    if (removed?.status === 'RESERVED') this.passOnCopies(libraryId, id);
  }

  /** Titles leaving a collection take their queues (each of a series' episodes') with them; loans run to their end. */
  dropQueue(libraryId: number, id: number): void {
    for (const key of this.deps.contents.contentsOf(id)) this.libraries.get(libraryId)?.queues.delete(key);
  }

  // --- seeding (demo-patrons.ts) -------------------------------------------------------

  addPatron(libraryId: number, patron: Patron): void {
    this.state(libraryId).patrons.set(patron.card, patron);
  }

  /** Puts a loan in place without the borrow rules: other patrons' copies, history. */
  seedLoan(libraryId: number, card: string, id: number, borrowed: number): boolean {
    const entitlement = this.entitlementOf(libraryId, id);
    const title = this.contentTitle(id);
    if (entitlement === undefined || title === undefined) return false;
    this.state(libraryId).loans.push({
      card,
      contentId: id,
      purchaseModel: entitlement.purchaseModel,
      borrowed,
      due: borrowed + loanDays(entitlement.purchaseModel, title.format) * DAY_SECONDS,
      item: this.snapshot(id, title),
    });
    return true;
  }

  seedHold(libraryId: number, hold: Omit<HoldEntry, 'item'>): void {
    const title = this.contentTitle(hold.contentId);
    if (title === undefined) return;
    const queue = this.queue(libraryId, hold.contentId);
    queue.push({ ...hold, item: this.snapshot(hold.contentId, title) });
    this.state(libraryId).queues.set(hold.contentId, queue);
  }

  // --- internals -----------------------------------------------------------------------

  /** The library's entitlement to a content: its title's (a series' episodes share it); none for a key that names no content. */
  private entitlementOf(libraryId: number, key: number): Entitlement | undefined {
    const { contents, entitlements } = this.deps;
    return contents.isContent(key) ? entitlements.get(libraryId, contents.titleOf(key).id) : undefined;
  }

  /** The title a content is (an episode: the series, under the episode's name). */
  private contentTitle(key: number): Title | undefined {
    const { id, episode } = this.deps.contents.titleOf(key);
    const title = this.deps.contents.isContent(key) ? this.deps.catalog.title(id) : undefined;
    if (title === undefined || episode === undefined) return title;
    const named = title.episodes?.find((e) => e.episode === episode);
    return named ? { ...title, title: `${title.title}: ${named.title}` } : title;
  }

  private snapshot(key: number, title: Title): ItemSnapshot {
    return { title: title.title, kind: title.format, ...itemUrls(this.deps.contents.titleOf(key).id, title.format, this.deps.covers()) };
  }

  private state(libraryId: number): LibraryState {
    let state = this.libraries.get(libraryId);
    if (state === undefined) {
      if (findLibrary(libraryId) === undefined) throw new HttpError(404, `No library ${libraryId}`);
      state = { patrons: new Map(), loans: [], queues: new Map() };
      this.libraries.set(libraryId, state);
    }
    return state;
  }

  private queue(libraryId: number, id: number): HoldEntry[] {
    return this.libraries.get(libraryId)?.queues.get(id) ?? [];
  }

  private freeCopies(libraryId: number, id: number, entitlement: Entitlement): number {
    if (entitlement.purchaseModel !== 'FLEX') return 0;
    const state = this.libraries.get(libraryId);
    const onLoan = state?.loans.filter((loan) => loan.contentId === id).length ?? 0;
    const reserved = this.queue(libraryId, id).filter((hold) => hold.status === 'RESERVED').length;
    return Math.max(0, entitlement.totalCopies - onLoan - reserved);
  }

  /** A copy came back: set it aside for the first waiting patron, or leave it free. */
  private passOnCopies(libraryId: number, id: number): void {
    this.touchAvailability(libraryId, id);
    const entitlement = this.entitlementOf(libraryId, id);
    if (entitlement === undefined || entitlement.purchaseModel !== 'FLEX') return;
    const queue = this.queue(libraryId, id);
    while (this.freeCopies(libraryId, id, entitlement) > 0) {
      const next = queue.find((hold) => hold.status === 'WAITING');
      if (next === undefined) return;
      next.status = 'RESERVED';
      next.reserveUntil = this.deps.nowSeconds() + RESERVE_DAYS * DAY_SECONDS;
    }
  }

  /** The lazy time rules, run before anything reads or changes a library's circulation. */
  private settle(libraryId: number): void {
    const state = this.libraries.get(libraryId);
    if (state === undefined) return;
    const now = this.deps.nowSeconds();
    const released = new Set<number>();
    state.loans = state.loans.filter((loan) => {
      if (loan.due > now) return true;
      if (loan.purchaseModel === 'FLEX') released.add(loan.contentId);
      return false;
    });
    for (const [id, queue] of state.queues) {
      const kept = queue.filter((hold) => hold.status !== 'RESERVED' || (hold.reserveUntil ?? Infinity) > now);
      if (kept.length !== queue.length) {
        state.queues.set(id, kept);
        released.add(id);
      }
    }
    for (const id of released) this.passOnCopies(libraryId, id);
  }

  /** The entitlements delta lists the title: every one of its contents is reported changed. */
  private touchAvailability(libraryId: number, key: number): void {
    this.deps.changes.recordLibrary('entitlements', libraryId, this.deps.contents.titleOf(key).id, this.deps.nowSeconds());
  }
}
