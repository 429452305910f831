// Faults injected into the sandbox per route: what is retried, how long the client waits, and
// that a borrow whose answer was lost is neither lost nor doubled.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerClient } from '../../../../electron/node/partner/client.ts';
import { collect, library, startHarness, type Harness } from './helpers.ts';

let h: Harness;
let client: PartnerClient;
let libraryId: number;
let card: string;
let instant: number[];

beforeAll(async () => {
  h = await startHarness();
  client = h.client();
  ({ libraryId } = library(h));
  const entitled = await collect(client.entitlementPages(libraryId, { status: 'active', purchaseModel: 'INSTANT', limit: 500 }));
  instant = entitled.items.map((e) => e.contentId as number);
  for (const c of library(h).cards) {
    const status = await client.patronStatus(libraryId, c);
    if ((status.borrowsRemaining ?? 0) >= 4) { card = c; break; }
  }
});
afterEach(() => {
  h.sandbox.control.clearFaults();
  h.sleeps.length = 0;
});
afterAll(async () => { await h.sandbox.close(); });

const count = (route: 'status' | 'borrow' | 'checkouts' | 'holds' | 'placeHold'): number => h.sandbox.control.requestCounts()[route];

describe('retries of reads', () => {
  it('retries 429 and waits what Retry-After says', async () => {
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'status', kind: 'rate-limit', times: 2, retryAfterSeconds: 2 });
    await expect(client.patronStatus(libraryId, card)).resolves.toHaveProperty('borrowsRemaining');
    expect(count('status')).toBe(3);
    expect(h.sleeps).toEqual([2000, 4000]); // twice as long after the second 429 in a row (issue #34)
  });

  it('retries 5xx with growing backoff, and gives up after four attempts with server', async () => {
    h.sandbox.control.addFault({ route: 'status', kind: 'server-error', times: 2, status: 502 });
    await expect(client.patronStatus(libraryId, card)).resolves.toHaveProperty('borrowsRemaining');
    expect(h.sleeps).toEqual([188, 375]); // half the ceiling plus half of it times random() = 0.5
    h.sleeps.length = 0;
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'status', kind: 'server-error', status: 503 });
    await expect(client.patronStatus(libraryId, card)).rejects.toMatchObject({ code: 'server', status: 503 });
    expect(count('status')).toBe(4);
    expect(h.sleeps).toHaveLength(3);
  });

  it('gives up on a lasting 429 with rate-limited: a staff call at once with the time to wait, background work after waiting it out in full', async () => {
    h.sandbox.control.addFault({ route: 'status', kind: 'rate-limit', retryAfterSeconds: 3600 });
    // Clients of their own: the hour's pause would hold back the other tests' client.
    const staff = h.client();
    await expect(staff.patronStatus(libraryId, card)).rejects.toMatchObject({ code: 'rate-limited', status: 429, detail: { reason: 'service.wait', params: { seconds: 3600 } } });
    expect(h.sleeps).toEqual([]);
    await expect(h.client().withPriority('background').patronStatus(libraryId, card)).rejects.toMatchObject({ code: 'rate-limited', status: 429 });
    expect(h.sleeps).toEqual([3_600_000, 3_600_000, 3_600_000]); // never cut short; doubling stops at the service's own hour
  });

  it('retries a reset connection, and reports network when it lasts', async () => {
    h.sandbox.control.addFault({ route: 'status', kind: 'reset', times: 1 });
    await expect(client.patronStatus(libraryId, card)).resolves.toHaveProperty('borrowsRemaining');
    h.sandbox.control.addFault({ route: 'status', kind: 'reset' });
    await expect(client.patronStatus(libraryId, card)).rejects.toMatchObject({ code: 'network' });
  });

  it('reads again after one garbled answer, and reports bad-response when it lasts', async () => {
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'checkouts', kind: 'malformed-json', times: 1 });
    await expect(client.currentLoans(libraryId, card)).resolves.toBeInstanceOf(Array);
    expect(count('checkouts')).toBe(2);
    h.sandbox.control.addFault({ route: 'checkouts', kind: 'malformed-json' });
    await expect(client.currentLoans(libraryId, card)).rejects.toMatchObject({ code: 'bad-response' });
  });

  it('after a 429 every request waits out its Retry-After, not only the one refused (found by the fault-mix run)', async () => {
    // Sleeping is held until the test lets it go, so a second request starts while the first waits.
    const sent: { route: string; at: number }[] = [];
    const asleep: (() => void)[] = [];
    let awake = false;
    let moved: (() => void) | undefined;
    const watched = h.client({
      fetch: (input, init) => {
        sent.push({ route: input.includes('/status') ? 'status' : 'other', at: h.clock.now() });
        moved?.();
        return fetch(input, init);
      },
      sleep: async (ms) => {
        if (!awake) await new Promise<void>((wake) => { asleep.push(wake); moved?.(); });
        h.clock.advance(ms);
      },
    });
    const next = (): Promise<void> => new Promise((resolve) => { moved = resolve; });
    await watched.patronStatus(libraryId, card); // the token first
    h.sandbox.control.addFault({ route: 'status', kind: 'rate-limit', times: 1, retryAfterSeconds: 5 });
    const refusedAt = h.clock.now();
    sent.length = 0;
    let step = next();
    const first = watched.patronStatus(libraryId, card);
    while (asleep.length === 0) { // the 429 is in, the first request is waiting
      await step;
      step = next();
    }
    step = next();
    const loans = watched.currentLoans(libraryId, card);
    await step; // the second request either waits too, or was sent
    awake = true;
    for (const wake of asleep.splice(0)) wake();
    await Promise.all([first, loans]);
    const others = sent.filter((s) => s.route === 'other');
    expect(others).toHaveLength(1);
    expect(others[0]?.at).toBeGreaterThanOrEqual(refusedAt + 5000);
  });

  it('reports a stalled answer as timeout', async () => {
    const impatient = h.client({ timeoutMs: 300, retry: { attempts: 2 } });
    h.sandbox.control.addFault({ route: 'holds', kind: 'stall' });
    await expect(impatient.currentHolds(libraryId, card)).rejects.toMatchObject({ code: 'timeout' });
  });

  it('waits through added latency', async () => {
    h.sandbox.control.addFault({ route: 'status', kind: 'latency', ms: 200 });
    await expect(client.patronStatus(libraryId, card)).resolves.toHaveProperty('currentlyBorrowed');
  });
});

describe('borrow and hold are never blindly repeated', () => {
  it('a borrow whose answer is lost after the service committed it ends with exactly one loan', async () => {
    const contentId = instant[10] as number;
    const before = await client.patronStatus(libraryId, card);
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'borrow', kind: 'reset', phase: 'after', times: 1 });
    const result = await client.borrow(libraryId, card, contentId);
    expect(result.confirmedByReread).toBe(true);
    expect(result.value.contentId).toBe(contentId);
    expect(count('borrow')).toBe(1);
    const loans = await client.currentLoans(libraryId, card);
    expect(loans.filter((l) => l.contentId === contentId)).toHaveLength(1);
    expect((await client.patronStatus(libraryId, card)).borrowsRemaining).toBe((before.borrowsRemaining ?? 0) - 1);
  });

  it('a borrow lost before the service saw it is reported as not done, safe to try again', async () => {
    const contentId = instant[11] as number;
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'borrow', kind: 'reset', phase: 'before', times: 1 });
    await expect(client.borrow(libraryId, card, contentId)).rejects.toMatchObject({
      code: 'network', detail: { reason: 'action.not-borrowed' }, message: expect.stringMatching(/title was not borrowed: it is safe to try again/),
    });
    expect(count('borrow')).toBe(1);
    expect((await client.currentLoans(libraryId, card)).some((l) => l.contentId === contentId)).toBe(false);
  });

  it('a 5xx on a borrow is never repeated blindly: only when the loans list shows it did not happen is it sent once more', async () => {
    const contentId = instant[12] as number;
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'borrow', kind: 'server-error', times: 1 });
    const result = await client.borrow(libraryId, card, contentId);
    expect(result.value.contentId).toBe(contentId);
    expect(count('borrow')).toBe(2);
    expect(count('checkouts')).toBe(1);
    // Two 5xx in a row: the second is reported, with the list re-read after each.
    const other = instant[16] as number;
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'borrow', kind: 'server-error', times: 2 });
    await expect(client.borrow(libraryId, card, other)).rejects.toMatchObject({
      code: 'server', detail: { reason: 'action.not-borrowed', serviceMessage: 'The service is temporarily unavailable (Injected server error).' }, message: expect.stringMatching(/\. The lending service did not confirm the borrow, and the patron’s loans show the title was not borrowed: it is safe to try again\.$/),
    });
    expect(count('borrow')).toBe(2);
    expect(count('checkouts')).toBe(2);
    expect((await client.currentLoans(libraryId, card)).some((l) => l.contentId === other)).toBe(false);
  });

  it('when the answer is lost and the re-read fails too, it says to check before trying again', async () => {
    h.sandbox.control.addFault({ route: 'borrow', kind: 'reset', phase: 'after', times: 1 });
    h.sandbox.control.addFault({ route: 'checkouts', kind: 'server-error' });
    await expect(client.borrow(libraryId, card, instant[13] as number)).rejects.toMatchObject({
      code: 'network', detail: { reason: 'action.outcome-unknown' }, message: expect.stringMatching(/could not be read to see whether it took effect/),
    });
  });

  it('a 429 on a borrow is sent again after the wait: the service refused it unread, so one loan results (found by the fault-mix run)', async () => {
    const contentId = instant[15] as number;
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'borrow', kind: 'rate-limit', times: 1, retryAfterSeconds: 2 });
    const result = await client.borrow(libraryId, card, contentId);
    expect(result.confirmedByReread).toBe(false);
    expect(count('borrow')).toBe(2);
    expect(h.sleeps).toEqual([2000]);
    expect((await client.currentLoans(libraryId, card)).filter((l) => l.contentId === contentId)).toHaveLength(1);
  });

  it('a renewed token after 401 on a borrow sends it once more: the service refused it unseen', async () => {
    const contentId = instant[14] as number;
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'borrow', kind: 'unauthorized', times: 1 });
    const result = await client.borrow(libraryId, card, contentId);
    expect(result.confirmedByReread).toBe(false);
    expect(count('borrow')).toBe(2);
    expect((await client.currentLoans(libraryId, card)).filter((l) => l.contentId === contentId)).toHaveLength(1);
  });
});

describe('an answer larger than the desk reads (32 MiB)', () => {
  /** The client's fetch, counting the bytes the client actually read from each body. */
  function countingClient(read: number[]): PartnerClient {
    return h.client({
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const at = read.push(0) - 1;
        const counted = response.body?.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) { read[at]! += chunk.byteLength; controller.enqueue(chunk); },
        }));
        return new Response(counted ?? null, { status: response.status, headers: response.headers });
      },
    });
  }

  it('a 120 MB body streamed without a length is refused once 32 MiB have come in, not read whole, and not asked for again', async () => {
    const read: number[] = [];
    const counting = countingClient(read);
    await counting.patronStatus(libraryId, card); // the token first, and a normal answer
    read.length = 0;
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'status', kind: 'oversized', bytes: 120 * 1024 * 1024, times: 1 });
    await expect(counting.patronStatus(libraryId, card)).rejects.toMatchObject({
      code: 'bad-response', detail: { reason: 'service.response-too-large', params: { limit: 32 } },
    });
    expect(count('status')).toBe(1);
    expect(read).toHaveLength(1);
    expect(read[0]).toBeGreaterThan(32 * 1024 * 1024);
    expect(read[0]).toBeLessThan(34 * 1024 * 1024);
    // The next answer is read as usual.
    await expect(counting.patronStatus(libraryId, card)).resolves.toHaveProperty('borrowsRemaining');
  });

  it('a bulk page streamed past 32 MiB (the bytes a sync hands to the mirror as they came) is refused the same way: never handed on, not asked for again', async () => {
    const read: number[] = [];
    const counting = countingClient(read);
    await counting.patronStatus(libraryId, card);
    read.length = 0;
    h.sandbox.control.resetRequestCounts();
    h.sandbox.control.addFault({ route: 'globalContents', kind: 'oversized', bytes: 120 * 1024 * 1024, times: 1 });
    let handedOn = 0;
    const pages = counting.bulkPages({ kind: 'global', limit: 10 }, async () => {
      handedOn++;
      return {};
    });
    await expect(pages.next()).rejects.toMatchObject({ code: 'bad-response', detail: { reason: 'service.response-too-large', params: { limit: 32 } } });
    expect(handedOn).toBe(0);
    expect(h.sandbox.control.requestCounts().globalContents).toBe(1);
    expect(read).toHaveLength(1);
    expect(read[0]).toBeGreaterThan(32 * 1024 * 1024);
    expect(read[0]).toBeLessThan(34 * 1024 * 1024);
  });

  it('a body that says its length up front is refused before any of it is read', async () => {
    const read: number[] = [];
    const counting = countingClient(read);
    await counting.patronStatus(libraryId, card);
    read.length = 0;
    h.sandbox.control.addFault({ route: 'status', kind: 'oversized', bytes: 120 * 1024 * 1024, declared: true, times: 1 });
    await expect(counting.patronStatus(libraryId, card)).rejects.toMatchObject({ detail: { reason: 'service.response-too-large' } });
    expect(read[0]).toBeLessThan(1024 * 1024);
  });
});
