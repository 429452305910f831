// Acting for a patron over real HTTP: reads, borrow and return, the Flex queue, the monthly
// allowance, the errors staff see, and input that must never reach the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerClient } from '../../../../electron/node/partner/client.ts';
import type { Availability } from '../../../../electron/shared/model.ts';
import type { DeskError } from '../../../../electron/shared/desk-error.ts';
import { collect, library, startHarness, type Harness } from './helpers.ts';

let h: Harness;
let client: PartnerClient;
let libraryId: number;
let cards: string[];
let availability: Availability[];

beforeAll(async () => {
  h = await startHarness();
  client = h.client();
  ({ libraryId, cards } = library(h));
  const entitled = await collect(client.entitlementPages(libraryId, { status: 'active', limit: 500 }));
  availability = await client.contentInfo(libraryId, entitled.items.map((e) => e.contentId));
});
afterAll(async () => { await h.sandbox.close(); });

/** A card whose patron matches, found by asking the service, not by knowing the seed. */
async function patronWhere(test: (s: { remaining: number; loans: number; holds: number }) => boolean): Promise<string> {
  for (const card of cards) {
    const [status, loans, holds] = await Promise.all([
      client.patronStatus(libraryId, card), client.currentLoans(libraryId, card), client.currentHolds(libraryId, card),
    ]);
    if (test({ remaining: status.borrowsRemaining ?? 0, loans: loans.length, holds: holds.length })) return card;
  }
  throw new Error('no demo patron in that state');
}

async function loanIds(card: string): Promise<number[]> {
  return (await client.currentLoans(libraryId, card)).map((l) => l.contentId as number);
}

const instantTitle = (skip = 0): number => {
  const found = availability.filter((a) => a.purchaseModel === 'INSTANT' && a.status === 'BORROW')[skip];
  if (!found) throw new Error('no Instant title');
  return found.contentId as number;
};

describe('patron reads', () => {
  it('shows the demo patrons in several states: loans, waiting and reserved holds, allowance', async () => {
    const all = await Promise.all(cards.map(async (card) => ({
      status: await client.patronStatus(libraryId, card),
      loans: await client.currentLoans(libraryId, card),
      holds: await client.currentHolds(libraryId, card),
    })));
    expect(all.some((p) => p.loans.length > 0)).toBe(true);
    expect(all.some((p) => p.holds.some((x) => x.status === 'WAITING' && (x.queuePosition ?? 0) >= 1))).toBe(true);
    expect(all.some((p) => p.holds.some((x) => x.status === 'RESERVED' && x.reserveUntil !== undefined))).toBe(true);
    expect(all.some((p) => p.status.borrowsRemaining === 0)).toBe(true);
    for (const p of all) {
      expect(p.status.currentlyBorrowed).toBe(p.loans.length);
      for (const loan of p.loans) expect(loan.dueAt).toBeGreaterThan(loan.borrowedAt ?? 0);
    }
  });

  it('keeps leading zeros and letters in cards', async () => {
    const odd = cards.filter((c) => /^0/.test(c) || /[A-Za-z]/.test(c));
    expect(odd.length).toBeGreaterThanOrEqual(2);
    for (const card of odd) await expect(client.patronStatus(libraryId, ` ${card} `)).resolves.toHaveProperty('borrowsAllowedPerMonth');
  });

  it('says a card is unknown: invalid-patron on reads and on a borrow', async () => {
    await expect(client.patronStatus(libraryId, '99999999999999')).rejects.toMatchObject({ code: 'invalid-patron', status: 400 });
    await expect(client.currentLoans(libraryId, '99999999999999')).rejects.toMatchObject({ code: 'invalid-patron' });
    await expect(client.borrow(libraryId, '99999999999999', instantTitle())).rejects.toMatchObject({ code: 'invalid-patron', status: 404 });
    await expect(client.placeHold(libraryId, '99999999999999', instantTitle())).rejects.toMatchObject({ code: 'invalid-patron', status: 403 });
  });

  it('sends a card with spaces, slashes, dots, ? and # as one path segment to the intended route only', async () => {
    const before = h.sandbox.control.requestCounts();
    h.urls.length = 0;
    await expect(client.patronStatus(libraryId, '12 34/../5?x#y')).rejects.toMatchObject({ code: 'invalid-patron', status: 400 });
    expect(h.urls).toHaveLength(1);
    expect(new URL(h.urls[0] as string).pathname).toBe(`/api/v1/libraries/${libraryId}/patrons/12%2034%2F..%2F5%3Fx%23y/status`);
    const after = h.sandbox.control.requestCounts();
    const changed = Object.entries(after).filter(([route, n]) => n !== before[route as keyof typeof before]);
    expect(changed).toEqual([['status', (before.status ?? 0) + 1]]);
  });
});

describe('Instant borrows and returns', () => {
  it('borrows: the loan appears, borrowsRemaining drops by one, currentlyBorrowed rises by one; return undoes the loan', async () => {
    const card = await patronWhere((s) => s.remaining >= 3);
    const contentId = instantTitle();
    const before = await client.patronStatus(libraryId, card);
    const borrowed = await client.borrow(libraryId, card, contentId);
    expect(borrowed.confirmedByReread).toBe(false);
    expect(borrowed.value).toMatchObject({ contentId, title: expect.any(String), message: expect.any(String) });
    expect(borrowed.value.dueAt).toBeGreaterThan(borrowed.value.borrowedAt ?? Infinity);
    const after = await client.patronStatus(libraryId, card);
    expect(after.borrowsRemaining).toBe((before.borrowsRemaining ?? 0) - 1);
    expect(after.currentlyBorrowed).toBe((before.currentlyBorrowed ?? 0) + 1);
    expect(await loanIds(card)).toContain(contentId);

    await expect(client.borrow(libraryId, card, contentId)).rejects.toMatchObject({ code: 'already-borrowed', status: 409 });
    await expect(client.returnTitle(libraryId, card, contentId)).resolves.toEqual({ value: undefined, confirmedByReread: false });
    expect(await loanIds(card)).not.toContain(contentId);
    expect((await client.patronStatus(libraryId, card)).currentlyBorrowed).toBe(before.currentlyBorrowed);
    await expect(client.returnTitle(libraryId, card, contentId)).rejects.toMatchObject({ code: 'not-found' });
  });

  it('refuses a borrow past the monthly allowance with the numbers', async () => {
    const card = await patronWhere((s) => s.remaining === 0);
    const error = await client.borrow(libraryId, card, instantTitle(1)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'limit-reached', status: 403 });
    // The numbers are the service's words, kept apart from the desk's sentence (which repeats nothing the service sent).
    expect((error as DeskError).detail.serviceMessage).toMatch(/\d/);
    expect(await loanIds(card)).not.toContain(instantTitle(1));
  });

  it('a hold on a title the patron already has on loan says already-borrowed, not already-on-hold (the service answers 409 for both)', async () => {
    h.sandbox.control.addPatron(libraryId, 'HOLD-ON-LOAN', 10);
    const [flex] = h.sandbox.control.sampleContent(libraryId, { purchaseModel: 'FLEX', status: 'BORROW', count: 1 });
    await client.borrow(libraryId, 'HOLD-ON-LOAN', flex as number);
    await expect(client.placeHold(libraryId, 'HOLD-ON-LOAN', flex as number)).rejects.toMatchObject({ code: 'already-borrowed', status: 409 });
  });

  it('refuses a hold on an Instant title: it can be borrowed now', async () => {
    await expect(client.placeHold(libraryId, cards[0] as string, instantTitle())).rejects.toMatchObject({ code: 'available-to-borrow', status: 400 });
  });

  it('refuses a borrow of a title the library does not have', async () => {
    const notEntitled = Math.max(...availability.map((a) => a.contentId as number)) + 10_000_000;
    await expect(client.borrow(libraryId, cards[0] as string, notEntitled)).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('Flex: one copy, one user, and the holds queue', () => {
  it('offers a hold when no copy is free, keeps the queue in order, and releases a returned copy to the first in line', async () => {
    const single = availability.find((a) => a.purchaseModel === 'FLEX' && a.totalCopies === 1 && a.availableCopies === 1 && a.holdsQueueSize === 0);
    expect(single, 'a free single-copy Flex title').toBeDefined();
    const contentId = single!.contentId;
    const [a, b, c] = cards as [string, string, string];

    const statusBefore = await client.patronStatus(libraryId, a);
    await client.borrow(libraryId, a, contentId);
    expect((await client.patronStatus(libraryId, a)).borrowsRemaining).toBe(statusBefore.borrowsRemaining); // Flex spends no allowance
    const [info] = await client.contentInfo(libraryId, [contentId]);
    expect(info).toMatchObject({ status: 'HOLD', availableCopies: 0, totalCopies: 1, purchaseModel: 'FLEX' });

    await expect(client.borrow(libraryId, b, contentId)).rejects.toMatchObject({ code: 'unavailable', status: 422 });
    expect((await client.placeHold(libraryId, b, contentId)).value).toMatchObject({ contentId, status: 'WAITING', queuePosition: 1 });
    expect((await client.placeHold(libraryId, c, contentId)).value).toMatchObject({ queuePosition: 2 });
    await expect(client.placeHold(libraryId, c, contentId)).rejects.toMatchObject({ code: 'already-on-hold' });
    expect((await client.contentInfo(libraryId, [contentId]))[0]?.holdsQueueSize).toBe(2);

    await client.removeHold(libraryId, b, contentId);
    const cHold = (await client.currentHolds(libraryId, c)).find((x) => x.contentId === contentId);
    expect(cHold).toMatchObject({ status: 'WAITING', queuePosition: 1 });
    await expect(client.removeHold(libraryId, b, contentId)).rejects.toMatchObject({ code: 'not-found', status: 403 });

    await client.returnTitle(libraryId, a, contentId);
    const reserved = (await client.currentHolds(libraryId, c)).find((x) => x.contentId === contentId);
    expect(reserved).toMatchObject({ status: 'RESERVED' });
    expect(reserved?.reserveUntil).toBeGreaterThan(h.clock.now());
    await expect(client.borrow(libraryId, a, contentId)).rejects.toMatchObject({ code: 'unavailable' }); // reserved for c

    await client.borrow(libraryId, c, contentId);
    expect((await client.currentHolds(libraryId, c)).some((x) => x.contentId === contentId)).toBe(false);
    expect(await loanIds(c)).toContain(contentId);
  });
});

describe('bad input never reaches the service', () => {
  it('refuses bad ids and cards with invalid-input and sends nothing', async () => {
    h.urls.length = 0;
    const attempts: Promise<unknown>[] = [
      client.borrow(0, cards[0] as string, 1),
      client.borrow(libraryId, '', 1),
      client.borrow(libraryId, '   ', 1),
      client.borrow(libraryId, '..', 1),
      client.borrow(libraryId, 'x'.repeat(65), 1),
      client.borrow(libraryId, 'a\u0000b', 1),
      client.borrow(libraryId, cards[0] as string, -4),
      client.borrow(libraryId, cards[0] as string, 1.5),
      client.placeHold(Number.NaN, cards[0] as string, 1),
      client.returnTitle(libraryId, cards[0] as string, Number.MAX_SAFE_INTEGER + 2),
      client.removeHold(libraryId, 42 as unknown as string, 1),
      client.patronStatus('101' as unknown as number, cards[0] as string),
      client.contentInfo(libraryId, [1, 0]),
      client.search(libraryId, { q: '   ' }),
      client.search(libraryId, { q: 'x', limit: 0 }),
      client.search(libraryId, { q: 'x', offset: -1 }),
      client.search(libraryId, { q: 'x', formats: ['PAMPHLET' as never] }),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toMatchObject({ code: 'invalid-input', message: expect.any(String) });
    expect(() => client.globalContentPages({ limit: 5000 })).toThrow(/1 to 500/);
    // The service's batch limit (500): the client never asks for more, on any bulk pull.
    expect(() => client.globalContentPages({ limit: 501 })).toThrow(/1 to 500/);
    expect(() => client.entitlementPages(libraryId, { limit: 501 })).toThrow(/1 to 500/);
    expect(() => client.libraryContentPages(libraryId, { limit: 501 })).toThrow(/1 to 500/);
    expect(() => client.globalContentPages({ countries: ['FR' as never] })).toThrow(/US, CA, AU, NZ/);
    expect(() => client.entitlementPages(libraryId, { status: 'gone' as never })).toThrow(/active, inactive or all/);
    expect(h.urls).toEqual([]);
  });
});
