// Bulk extraction, search and availability over real HTTP: paging yields exactly the data
// set, deltas yield exactly the changes, content info goes 50 ids a call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decoded, type Bytes } from '../../../../electron/node/partner/bytes.ts';
import type { PartnerClient } from '../../../../electron/node/partner/client.ts';
import { parseGlobalContentPage } from '../../../../electron/node/partner/normalize.ts';
import type { CatalogChange, LibraryContentChange } from '../../../../electron/shared/model.ts';
import { collect, library, startHarness, type Harness } from './helpers.ts';

const SIZE = 2000;
let h: Harness;
let client: PartnerClient;

beforeAll(async () => {
  h = await startHarness({ catalogSize: SIZE });
  client = h.client();
});
afterAll(async () => { await h.sandbox.close(); });

const upsertIds = (items: (CatalogChange | LibraryContentChange)[]): number[] =>
  items.flatMap((c) => (c.kind === 'upsert' ? ['record' in c ? c.record.id as number : c.title.id as number] : []));
const removedIds = (items: (CatalogChange | LibraryContentChange)[]): number[] =>
  items.flatMap((c) => (c.kind === 'removed' ? [c.id as number] : []));
const sorted = (ids: Iterable<number>): number[] => [...ids].sort((a, b) => a - b);

describe('global contents', () => {
  it('pages through the whole catalog: every id exactly once, no page over the limit', async () => {
    const sizes: number[] = [];
    let total: number | undefined;
    const ids: number[] = [];
    for await (const page of client.globalContentPages({ limit: 300 })) {
      sizes.push(page.items.length);
      total ??= page.totalCount;
      ids.push(...upsertIds(page.items));
    }
    expect(total).toBe(SIZE);
    expect(ids).toEqual(Array.from({ length: SIZE }, (_, i) => i + 1));
    expect(sizes).toHaveLength(Math.ceil(SIZE / 300));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(300);
  });

  it('covers all six formats, and filters by country', async () => {
    const { items } = await collect(client.globalContentPages({ limit: 500, countries: ['NZ'] }));
    const records = items.flatMap((c) => (c.kind === 'upsert' ? [c.record] : []));
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThan(SIZE);
    expect(records.every((r) => r.countries.includes('NZ'))).toBe(true);
    const all = await collect(client.globalContentPages({ limit: 500 }));
    const formats = new Set(all.items.flatMap((c) => (c.kind === 'upsert' ? [c.record.format] : [])));
    expect([...formats].map(String).sort().join()).toBe(['AUDIOBOOK', 'COMIC', 'EBOOK', 'MOVIE', 'MUSIC', 'TELEVISION'].join());
  });

  it('resumes from a stored page token with the remaining records only', async () => {
    const pages = client.globalContentPages({ limit: 500 });
    const first = await pages.next();
    await pages.return(undefined);
    expect(first.done).toBe(false);
    const token = first.done ? undefined : first.value.next;
    expect(token).toBeDefined();
    const rest = await collect(client.globalContentPages({ limit: 500, startToken: token }));
    expect(upsertIds(rest.items)).toEqual(Array.from({ length: SIZE - 500 }, (_, i) => i + 501));
  });
});

describe('entitlements and library content', () => {
  it('agree with each other: the library content is exactly the entitled titles', async () => {
    const { libraryId } = library(h);
    const entitled = await collect(client.entitlementPages(libraryId, { limit: 250 }));
    const entitledIds = entitled.items.map((e) => e.contentId as number);
    expect(new Set(entitledIds).size).toBe(entitledIds.length);
    const content = await collect(client.libraryContentPages(libraryId, { limit: 250 }));
    expect(sorted(new Set(upsertIds(content.items)))).toEqual(sorted(entitledIds));

    const instant = await collect(client.entitlementPages(libraryId, { purchaseModel: 'INSTANT', limit: 500 }));
    const flex = await collect(client.entitlementPages(libraryId, { purchaseModel: 'FLEX', limit: 500 }));
    expect(sorted([...instant.items, ...flex.items].map((e) => e.contentId as number))).toEqual(sorted(entitledIds));
    const active = await collect(client.entitlementPages(libraryId, { status: 'active', limit: 500 }));
    const inactive = await collect(client.entitlementPages(libraryId, { status: 'inactive', limit: 500 }));
    expect(active.items.every((e) => e.active)).toBe(true);
    expect(inactive.items.every((e) => !e.active)).toBe(true);
    expect(active.items.length + inactive.items.length).toBe(entitledIds.length);
  });

  it('differs between libraries', async () => {
    const [a, b] = await Promise.all([0, 1].map(async (i) =>
      (await collect(client.entitlementPages(library(h, i).libraryId, { limit: 500 }))).items.map((e) => e.contentId).join()));
    expect(a).not.toBe(b);
  });

  it('reads both schema generations of library content; TV keeps one id per series, one titleId per episode', async () => {
    const later: string[] = [];
    for (let i = 0; i < h.sandbox.libraries.length; i++) {
      const { items } = await collect(client.libraryContentPages(library(h, i).libraryId, { limit: 500 }));
      const titles = items.flatMap((c) => (c.kind === 'upsert' ? [c.title] : []));
      expect(titles.every((t) => t.purchaseModel === 'INSTANT' || t.purchaseModel === 'FLEX')).toBe(true);
      if (titles.some((t) => t.audience !== undefined)) later.push(String(library(h, i).libraryId));
      const tv = titles.filter((t) => t.format === 'TELEVISION');
      expect(tv.length).toBeGreaterThan(0);
      const bySeries = Map.groupBy(tv, (t) => t.id);
      for (const [id, episodes] of bySeries) {
        expect(episodes.find((e) => e.titleId === id), `series ${id} has an episode whose titleId is its id`).toBeDefined();
        expect(new Set(episodes.map((e) => e.titleId)).size).toBe(episodes.length);
      }
    }
    expect(later.length).toBeGreaterThan(0);
    expect(later.length).toBeLessThan(h.sandbox.libraries.length); // one library still on the earlier schema
  });
});

describe('deltas', () => {
  it('return exactly the additions, changes, removals and deactivations since a time', async () => {
    const { libraryId } = library(h);
    const active = await collect(client.entitlementPages(libraryId, { status: 'active', limit: 500 }));
    const [deactivate, removeEntitled] = active.items.slice(-2).map((e) => e.contentId) as [number, number];
    h.clock.advance(60_000);
    const since = h.clock.now();
    h.clock.advance(60_000);
    const { added } = h.sandbox.control.applyCatalogChanges({
      add: 3, modify: [5, 6], remove: [removeEntitled], deactivate: { libraryId, contentIds: [deactivate] },
    });
    expect(added).toHaveLength(3);

    const global = await collect(client.globalContentPages({ since, limit: 2 }));
    expect(sorted(upsertIds(global.items))).toEqual(sorted([...added, 5, 6]));
    expect(removedIds(global.items)).toEqual([removeEntitled]);
    const modified = global.items.find((c) => c.kind === 'upsert' && c.record.id === 5);
    expect(modified?.kind === 'upsert' && modified.record.title).toMatch(/revised/);

    const ent = await collect(client.entitlementPages(libraryId, { since, limit: 500 }));
    const byId = new Map(ent.items.map((e) => [e.contentId, e]));
    expect(byId.get(deactivate)).toEqual({ contentId: deactivate, active: false, removed: false });
    expect(byId.get(removeEntitled)).toEqual({ contentId: removeEntitled, active: false, removed: true });

    const content = await collect(client.libraryContentPages(libraryId, { since, limit: 500 }));
    expect(removedIds(content.items)).toContain(removeEntitled);
    const deactivated = content.items.find((c) => c.kind === 'upsert' && c.title.id === deactivate);
    expect(deactivated?.kind === 'upsert' && deactivated.title.active).toBe(false);

    const nothing = await collect(client.globalContentPages({ since: h.clock.now() + 1000 }));
    expect(nothing.items).toEqual([]);
  });
});

describe('search and content info', () => {
  it('finds a title by a word of its name, and honours kids mode and the format filter', async () => {
    const { libraryId } = library(h);
    const { items } = await collect(client.libraryContentPages(libraryId, { limit: 500 }));
    const sample = items.flatMap((c) => (c.kind === 'upsert' && c.title.active && c.title.title ? [c.title] : []))[0];
    expect(sample).toBeDefined();
    const word = (sample!.title as string).split(/\s+/).find((w) => w.length > 3) ?? (sample!.title as string);
    const page = await client.search(libraryId, { q: word, limit: 100 });
    expect(page.found).toBeGreaterThan(0);
    expect(page.hits.every((hit) => JSON.stringify(hit).toLowerCase().includes(word.toLowerCase()))).toBe(true);

    const broad = await client.search(libraryId, { q: 'the', limit: 50, formats: ['EBOOK', 'COMIC'] });
    expect(broad.hits.every((hit) => hit.format === 'EBOOK' || hit.format === 'COMIC')).toBe(true);
    const kids = await client.search(libraryId, { q: 'the', limit: 50, kidsMode: true });
    expect(kids.found).toBeLessThanOrEqual((await client.search(libraryId, { q: 'the', limit: 1 })).found);
    expect(kids.hits.every((hit) => hit.forChildren === true)).toBe(true);
    const second = await client.search(libraryId, { q: 'the', limit: 5, offset: 5 });
    const first = await client.search(libraryId, { q: 'the', limit: 10 });
    expect(second.hits.map((x) => x.titleId)).toEqual(first.hits.slice(5).map((x) => x.titleId));
  });

  it('turns 120 ids into three content-info calls, answers in request order', async () => {
    const { libraryId } = library(h);
    const ids = Array.from({ length: 120 }, (_, i) => i + 1);
    h.sandbox.control.resetRequestCounts();
    const result = await client.contentInfo(libraryId, [...ids, 1, 2]);
    expect(h.sandbox.control.requestCounts().contentInfo).toBe(3);
    expect(result.map((a) => a.contentId)).toEqual(ids);
    expect(result.every((a) => ['BORROW', 'HOLD', 'UNAVAILABLE'].includes(a.status ?? ''))).toBe(true);
    expect(await client.contentInfo(libraryId, [])).toEqual([]);
  });
});

describe('the pull: one page ahead, never round in circles, cancelled on the wire', () => {
  /** A client whose every bulk request is announced as it leaves (`asked`), its signal kept. */
  function watched(rewrite?: (url: URL, text: string) => string) {
    const asked: { token: string | null; signal: AbortSignal }[] = [];
    let announce: () => void = () => {};
    const next = () => new Promise<void>((resolve) => { announce = resolve; });
    const client = h.client({
      fetch: async (input, init) => {
        const url = new URL(input);
        if (url.pathname.endsWith('/global-contents')) {
          asked.push({ token: url.searchParams.get('startToken'), signal: init.signal as AbortSignal });
          announce();
        }
        const answer = await fetch(input, init);
        if (!rewrite || !url.pathname.endsWith('/global-contents')) return answer;
        return new Response(rewrite(url, await answer.text()), { status: answer.status, headers: answer.headers });
      },
    });
    return { client, asked, next };
  }
  const headOf = async (bytes: Bytes) => {
    const page = parseGlobalContentPage(JSON.parse(decoded(bytes)));
    return { ...(page.next === undefined ? {} : { next: page.next }), items: page.items.length };
  };

  it('asks for the next page on the token the page begins with while the page is read, and for no page twice', async () => {
    const { client, asked, next } = watched();
    const readWhileNextAsked: boolean[] = [];
    // A reader that finishes a page only once the service has been asked for the page after it.
    let pages = 0;
    for await (const head of client.bulkPages({ kind: 'global', limit: 400 }, async (bytes) => {
      const head = await headOf(bytes);
      const before = asked.length;
      if (head.next !== undefined && asked.length === pages + 1) await next();
      readWhileNextAsked.push(head.next === undefined || asked.length > before || asked.length === pages + 2);
      return head;
    })) {
      expect(head.items).toBeGreaterThan(0);
      pages++;
    }
    expect(pages).toBe((await collect(h.client().globalContentPages({ limit: 400 }))).pages);
    expect(readWhileNextAsked).toEqual(Array(pages).fill(true));
    expect(asked.map((a) => a.token)).toEqual([null, ...new Set(asked.slice(1).map((a) => a.token))]); // every page asked for once
  });

  it('without look-ahead (the library mirror service), asks for no page until the one before it is taken', async () => {
    const { client, asked } = watched();
    const askedWhileTaking: number[] = [];
    let pages = 0;
    for await (const head of client.bulkPages({ kind: 'global', limit: 400 }, async (bytes) => {
      const head = await headOf(bytes);
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve)); // room for a request ahead, were one made
      askedWhileTaking.push(asked.length);
      return head;
    }, undefined, { ahead: false })) {
      pages++;
    }
    expect(pages).toBeGreaterThan(2);
    expect(askedWhileTaking).toEqual(Array.from({ length: pages }, (_, i) => i + 1)); // page i+1 taken with only i+1 pages asked for
  });

  it('on a wrong guess, cancels that request and asks for the page the parsed page names', async () => {
    // The first bytes show a token the page's metadata overrides (the metadata's is the one read).
    const { client, asked } = watched((_url, text) => (text.includes('"nextStartToken"') ? text.replace(/^\{/, '{"nextStartToken":"999999",') : text));
    const plain: number[] = [];
    for await (const page of h.client().globalContentPages({ limit: 500 })) plain.push(page.items.length);
    const pages: number[] = [];
    for await (const head of client.bulkPages({ kind: 'global', limit: 500 }, headOf)) pages.push(head.items);
    expect(pages).toEqual(plain);
    const guesses = asked.filter((a) => a.token === '999999');
    expect(guesses.length).toBe(plain.length - 1);
    expect(guesses.every((g) => g.signal.aborted)).toBe(true);
  });

  for (const length of [1, 2, 3]) {
    it(`ends with a clear error when the page tokens go round in a circle of ${length}`, async () => {
      // Page n + 1 names the token of page n + 1 - length again, once `length` pages in.
      const tokens: (string | null)[] = [];
      const { client } = watched((url, text) => {
        const body = JSON.parse(text) as { metadata: { nextStartToken?: string } };
        tokens.push(url.searchParams.get('startToken'));
        const back = tokens.length > length ? tokens[tokens.length - length] : undefined;
        if (back) body.metadata.nextStartToken = back;
        return JSON.stringify(body);
      });
      let pages = 0;
      const pull = (async () => {
        for await (const _ of client.bulkPages({ kind: 'global', limit: 100 }, headOf)) pages++;
      })();
      await expect(pull).rejects.toMatchObject({ code: 'bad-response', detail: { reason: 'pull.token-cycle' } });
      expect(pages).toBe(length + 1);
    });
  }

  it('a cancelled pull aborts the request on the wire and rejects with the reason it was given', async () => {
    const { client, asked, next } = watched();
    h.sandbox.control.addFault({ route: 'globalContents', kind: 'latency', ms: 5_000 });
    try {
      const stop = new AbortController();
      const why = new Error('the connection was closed');
      const first = next();
      const pull = (async () => {
        for await (const _ of client.bulkPages({ kind: 'global', limit: 100 }, headOf, stop.signal)) { /* none arrives */ }
      })();
      await first; // the request has left
      stop.abort(why);
      await expect(pull).rejects.toBe(why);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.signal.aborted).toBe(true);
    } finally {
      h.sandbox.control.clearFaults();
    }
  });

  it('a cancellation during the wait before a retry ends it there, without the retry', async () => {
    const stop = new AbortController();
    let slept!: () => void;
    const sleeping = new Promise<void>((resolve) => { slept = resolve; });
    const client = h.client({ sleep: () => { slept(); return new Promise(() => {}); } }); // a wait that never ends by itself
    h.sandbox.control.addFault({ route: 'globalContents', kind: 'server-error', status: 503, times: 1 });
    const before = h.sandbox.control.requestCounts().globalContents;
    try {
      const pull = (async () => {
        for await (const _ of client.bulkPages({ kind: 'global', limit: 100 }, headOf, stop.signal)) { /* none arrives */ }
      })();
      await sleeping; // the 503 came, the backoff began
      stop.abort(new Error('closed'));
      await expect(pull).rejects.toThrow('closed');
      expect(h.sandbox.control.requestCounts().globalContents - before).toBe(1);
    } finally {
      h.sandbox.control.clearFaults();
    }
  });
});
