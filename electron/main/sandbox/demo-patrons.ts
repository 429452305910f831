// The demo cards each library starts with, one per situation a desk meets, and the other
// (unlisted) patrons whose loans and holds make Flex queues real. Titles are picked from the
// library's own entitlements in id order, so the same seed always gives the same desk.

import type { CatalogStore } from './catalog-store.ts';
import type { ContentIds } from './content-ids.ts';
import { BORROWS_ALLOWED_PER_MONTH, RESERVE_DAYS } from './circulation.ts';
import type { Circulation } from './circulation.ts';
import type { EntitlementStore, LibraryDefinition } from './libraries.ts';
import { DAY_SECONDS, startOfUtcMonth } from './time.ts';

export interface DemoPatron {
  card: string;
  role: string;
  description: string;
}

export function demoPatrons(libraryId: number): DemoPatron[] {
  const id = String(libraryId);
  return [
    { card: `21${id}00001`, role: 'fresh', description: 'No loans, no holds, full allowance' },
    { card: `21${id}00002`, role: 'with-loans', description: 'Two Instant loans, one Flex loan and a WAITING hold' },
    { card: `21${id}00003`, role: 'reserved-hold', description: 'A RESERVED hold: a Flex copy is set aside until reserveUntil' },
    { card: `21${id}00004`, role: 'allowance-used', description: 'Monthly allowance used up: Instant borrows fail with 403' },
    { card: `21${id}00005`, role: 'near-limit', description: 'One Instant borrow left this month' },
    { card: `000${id}12345`, role: 'leading-zeros', description: 'Card with leading zeros (must stay a string); one Instant loan' },
    { card: `LIB-${id}A12`, role: 'letters', description: 'Card with letters and a dash; a WAITING hold' },
    { card: `${id} 77/../5?x#y`, role: 'odd-characters', description: 'Card with a space, slashes, dots, ? and #: tests path encoding' },
  ];
}

/** How many Flex titles start with every copy out and other patrons queued. */
const FULL_FLEX_TITLES = 3;

interface Picks {
  instant: number[];
  flex: number[];
}

/** Contents (content-ids.ts): a title, or a series' first episode where episodes are contents of their own. */
function pickTitles(catalog: CatalogStore, entitlements: EntitlementStore, contents: ContentIds, libraryId: number): Picks {
  const picks: Picks = { instant: [], flex: [] };
  const limit = Math.min(catalog.maxId, 50_000);
  for (let id = 1; id <= limit && (picks.instant.length < 6 || picks.flex.length < 6); id += 1) {
    const entitlement = entitlements.get(libraryId, id);
    if (entitlement === undefined || !entitlement.active) continue;
    const list = entitlement.purchaseModel === 'INSTANT' ? picks.instant : picks.flex;
    const first = contents.contentsOf(id)[0];
    if (list.length < 6 && first !== undefined) list.push(first);
  }
  return picks;
}

export interface SeedDeps {
  catalog: CatalogStore;
  entitlements: EntitlementStore;
  contents: ContentIds;
  circulation: Circulation;
  nowSeconds: number;
}

export function seedLibrary(library: LibraryDefinition, deps: SeedDeps): DemoPatron[] {
  const { circulation, nowSeconds: now } = deps;
  const libraryId = library.libraryId;
  const patrons = demoPatrons(libraryId);
  const byRole = new Map(patrons.map((patron) => [patron.role, patron.card]));
  const card = (role: string): string => byRole.get(role) ?? '';
  for (const patron of patrons) {
    circulation.addPatron(libraryId, { ...patron, borrowsAllowedPerMonth: BORROWS_ALLOWED_PER_MONTH, instantBorrows: [] });
  }
  const { instant, flex } = pickTitles(deps.catalog, deps.entitlements, deps.contents, libraryId);
  const monthStart = startOfUtcMonth(now);
  // Seeded history must fall in the current month whatever day the sandbox starts on.
  const thisMonth = (hoursAgo: number): number => Math.max(monthStart, now - hoursAgo * 3600);
  let hidden = 0;
  const otherPatron = (): string => `other-patron-${libraryId}-${(hidden += 1)}`;
  const instantLoan = (role: string, id: number | undefined, hoursAgo: number): void => {
    if (id === undefined) return;
    const at = thisMonth(hoursAgo);
    if (circulation.seedLoan(libraryId, card(role), id, at)) circulation.patron(libraryId, card(role))?.instantBorrows.push(at);
  };
  const usedAllowance = (role: string, count: number): void => {
    const patron = circulation.patron(libraryId, card(role));
    for (let n = 0; n < count; n += 1) patron?.instantBorrows.push(thisMonth(30 + n));
  };
  const fillCopies = (id: number, leaveFree: number): void => {
    const total = deps.entitlements.get(libraryId, deps.contents.titleOf(id).id)?.totalCopies ?? 0;
    for (let n = 0; n < total - leaveFree; n += 1) circulation.seedLoan(libraryId, otherPatron(), id, now - (n + 1) * DAY_SECONDS);
  };

  // Flex titles with no free copy and a queue of other patrons: borrow gives 422, a hold queues behind them.
  flex.slice(0, FULL_FLEX_TITLES).forEach((id, index) => {
    fillCopies(id, 0);
    for (let n = 0; n < 2 - (index % 2); n += 1) {
      circulation.seedHold(libraryId, { card: otherPatron(), contentId: id, status: 'WAITING', inserted: now - (5 - n) * DAY_SECONDS });
    }
  });

  instantLoan('with-loans', instant[0], 48);
  instantLoan('with-loans', instant[1], 120);
  const flexLoan = flex[FULL_FLEX_TITLES];
  if (flexLoan !== undefined) circulation.seedLoan(libraryId, card('with-loans'), flexLoan, now - 3 * DAY_SECONDS);
  const waitingFor = flex[0];
  if (waitingFor !== undefined) {
    circulation.seedHold(libraryId, { card: card('with-loans'), contentId: waitingFor, status: 'WAITING', inserted: now - DAY_SECONDS });
  }

  const reservedFor = flex[FULL_FLEX_TITLES + 1];
  if (reservedFor !== undefined) {
    fillCopies(reservedFor, 1);
    circulation.seedHold(libraryId, {
      card: card('reserved-hold'),
      contentId: reservedFor,
      status: 'RESERVED',
      inserted: now - 4 * DAY_SECONDS,
      reserveUntil: now + (RESERVE_DAYS - 1) * DAY_SECONDS,
    });
  }

  instantLoan('allowance-used', instant[2], 6);
  usedAllowance('allowance-used', BORROWS_ALLOWED_PER_MONTH - 1);
  instantLoan('near-limit', instant[3], 6);
  usedAllowance('near-limit', BORROWS_ALLOWED_PER_MONTH - 2);
  instantLoan('leading-zeros', instant[4], 24);
  const lettersHold = flex[1];
  if (lettersHold !== undefined) {
    circulation.seedHold(libraryId, { card: card('letters'), contentId: lettersHold, status: 'WAITING', inserted: now - 2 * DAY_SECONDS });
  }
  return patrons;
}
