// The spec's variants, each read into the one clean shape.
import { describe, expect, it } from 'vitest';
import { DeskError } from '../../../../electron/shared/desk-error.ts';
import {
  errorMessageOf, leadingNextToken, normalizeFormat, normalizePurchaseModel, parseAvailabilityList, parseCatalogRecord,
  parseEntitlementPage, parseGlobalContentPage, parseHolds, parseLibraryContentPage, parseLoans, parseSearchPage, parseToken, readGlobalContentPage,
  recordCountries,
  wireTimeToMs,
} from '../../../../electron/node/partner/normalize.ts';

describe('format and model spellings', () => {
  it('reads Ebooks, e-book and plural forms as one format', () => {
    expect(['EBOOK', 'Ebooks', 'e-book', 'ebook'].map(normalizeFormat)).toEqual(['EBOOK', 'EBOOK', 'EBOOK', 'EBOOK']);
    expect(['Audiobooks', 'MOVIES', 'TV', 'Comics', 'MUSIC'].map(normalizeFormat))
      .toEqual(['AUDIOBOOK', 'MOVIE', 'TELEVISION', 'COMIC', 'MUSIC']);
    expect(normalizeFormat('PAMPHLET')).toBeUndefined();
    expect(normalizeFormat('')).toBeUndefined();
  });

  it('maps PPU and PERPETUAL (and EST) onto Instant and Flex', () => {
    expect(['PPU', 'INSTANT', 'PERPETUAL', 'FLEX', 'EST', 'flex', 'ALL'].map(normalizePurchaseModel))
      .toEqual(['INSTANT', 'INSTANT', 'FLEX', 'FLEX', 'FLEX', 'FLEX', undefined]);
  });
});

describe('patron answers', () => {
  it('keeps absent fields absent and converts seconds to milliseconds', () => {
    const [loan] = parseLoans([{ contentId: 7, title: '', borrowed: 1_700_000_000, kind: 'Ebooks' }]);
    expect(loan).toEqual({
      contentId: 7, title: undefined, format: 'EBOOK', borrowedAt: 1_700_000_000_000, dueAt: undefined,
      url: undefined, coverImageUrl: undefined, message: undefined,
    });
  });

  it('takes a time already in milliseconds as it is', () => {
    expect(wireTimeToMs(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(wireTimeToMs(0)).toBeUndefined();
    expect(wireTimeToMs('soon')).toBeUndefined();
  });

  it('reads holds as an array, a single object, an empty object or a wrapped list', () => {
    const hold = { contentId: 3, status: 'WAITING', holdsQueuePosition: 2 };
    expect(parseHolds([hold]).map((h) => h.contentId)).toEqual([3]);
    expect(parseHolds(hold).map((h) => h.queuePosition)).toEqual([2]);
    expect(parseHolds({})).toEqual([]);
    expect(parseHolds({ holds: [hold, { ...hold, contentId: 4 }] }).map((h) => h.contentId)).toEqual([3, 4]);
  });

  it('refuses a body of the wrong kind with bad-response', () => {
    expect(() => parseLoans('oops')).toThrowError(DeskError);
    expect(() => parseLoans([{ title: 'no id' }])).toThrow(/contentId/);
    try {
      parseHolds(42);
    } catch (error) {
      expect((error as DeskError).code).toBe('bad-response');
    }
  });
});

describe('bulk pages', () => {
  it('finds global records under data, contents or a data list, and the token under metadata', () => {
    const record = { id: 1, titleId: 1, format: 'MOVIE', products: [{ licenseType: 'PERPETUAL' }], countryCodes: ['US', 'XX'] };
    const viaData = parseGlobalContentPage({ metadata: { totalCount: 2, nextStartToken: '2' }, data: { contents: [record] } });
    expect(viaData.next).toBe('2');
    expect(viaData.totalCount).toBe(2);
    const viaContents = parseGlobalContentPage({ metadata: {}, contents: [record, { id: 9, removed: true }] });
    expect(viaContents.next).toBeUndefined();
    expect(viaContents.items).toEqual([
      expect.objectContaining({ kind: 'upsert', record: expect.objectContaining({ id: 1, format: 'MOVIE', purchaseModels: ['FLEX'], countries: ['US'] }) }),
      { kind: 'removed', id: 9 },
    ]);
  });

  it('reads global records in either spelling, checks each one, and skips what is not a record', () => {
    // Both spellings of every column, blank text, numbers as strings, countries as objects or lower case, artists with no name first.
    const records: Record<string, unknown>[] = [
      { id: 1, title: 'Le Petit Prince', seriesName: 'Folio', artist: 'Saint-Exupéry', format: 'Ebooks', releaseYear: '1943', isbn: '978-2-07-061275-8', isForChildren: true, coverImageUrl: 'https://c/1.jpg', countryCodes: ['us', { name: 'CA' }, 'FR'] },
      { id: '2', title: '  ', series: 'Old spelling', kind: 'AUDIOBOOK', year: 2001.7, children: false, artists: [{ relationship: 'AUTHOR' }, { name: ' ' }, { name: 'First Named' }, { name: 'Second' }], upc: '0123' },
      { id: 3, artist: '', artists: 'not a list', format: 'PAMPHLET', releaseYear: 'soon', countryCodes: 'US' },
      { id: 4 },
    ];
    const body = { metadata: { nextStartToken: '5', totalCount: 9 }, data: { contents: [...records, { id: 8, removed: true }, { id: 'x,y' }, { id: 2.5 }, { id: -3 }, 'not a record'] } };
    const page = parseGlobalContentPage(body);
    expect({ next: page.next, totalCount: page.totalCount }).toEqual({ next: '5', totalCount: 9 });
    expect(page.items.map((c) => (c.kind === 'removed' ? ['removed', c.id] : ['upsert', c.record.id]))).toEqual([['upsert', 1], ['upsert', 2], ['upsert', 3], ['upsert', 4], ['removed', 8]]);
    const [first, second, third] = page.items.map((c) => (c.kind === 'upsert' ? c.record : undefined));
    expect(first).toMatchObject({ series: 'Folio', format: 'EBOOK', year: 1943, forChildren: true, countries: ['US', 'CA'], artist: 'Saint-Exupéry' });
    expect(second).toMatchObject({ title: undefined, series: 'Old spelling', format: 'AUDIOBOOK', year: 2001, forChildren: false, artists: [{ name: 'First Named' }, { name: 'Second' }] });
    expect(third).toMatchObject({ artist: undefined, artists: [], format: undefined, year: undefined, countries: [] });
    // The same page with each record kept as the service sent it (the library mirror stores it so): the same records, not copies.
    const sent = readGlobalContentPage(body);
    expect({ next: sent.next, totalCount: sent.totalCount }).toEqual({ next: page.next, totalCount: page.totalCount });
    expect(sent.items.map((c) => [c.kind, c.id])).toEqual(page.items.map((c) => [c.kind, c.kind === 'removed' ? c.id : c.record.id]));
    for (const change of sent.items) {
      if (change.kind !== 'upsert') continue;
      expect(change.wire).toBe(records[(change.id as number) - 1]);
      expect(recordCountries(change.wire)).toEqual(parseCatalogRecord(change.wire, change.id).countries);
    }
  });

  it("guesses a page's next token from its first bytes, as the parsed page will read it", () => {
    const guessNextToken = (start: string) => leadingNextToken(new TextEncoder().encode(start).buffer as ArrayBuffer);
    expect(guessNextToken('{"metadata":{"totalCount":849661,"nextStartToken":"2339","warnings":[]},"data":{"contents":[{"id":1')).toBe('2339');
    expect(guessNextToken('{ "metadata" : { "nextStartToken" : 17 , "totalCount": 40 }')).toBe('17');
    expect(guessNextToken('{"metadata":{"nextStartToken":"a \\"quoted\\" token"}}')).toBe('a "quoted" token');
    // No token yet, a blank one (the page then has none), or one cut off where the bytes end.
    expect(guessNextToken('{"metadata":{"totalCount":40},"contents":[')).toBeUndefined();
    expect(guessNextToken('{"metadata":{"nextStartToken":"  "}}')).toBeUndefined();
    expect(guessNextToken('{"metadata":{"nextStartToken":"23')).toBeUndefined();
    // A key inside a string is text, not a key.
    expect(guessNextToken('{"title":"the \\"nextStartToken\\": \\"9\\" trick"}')).toBeUndefined();
    // Only the first KiB is looked at: a token further in is the parsed page's to read.
    expect(guessNextToken(`{"contents":[{"title":"${'x'.repeat(1100)}"}],"metadata":{"nextStartToken":"5"}}`)).toBeUndefined();
  });

  it('reads entitlements under entitlements or data, removed ones as inactive', () => {
    const a = parseEntitlementPage({ metadata: { nextStartToken: 5 }, entitlements: [{ contentId: 1, active: true }] });
    expect(a).toEqual({ items: [{ contentId: 1, active: true, removed: false }], next: '5' });
    const b = parseEntitlementPage({ metadata: {}, data: { entitlements: [{ contentId: 2, active: false, removed: true }] } });
    expect(b.items).toEqual([{ contentId: 2, active: false, removed: true }]);
  });

  it('reads both library content schema generations, nextStartToken at the top level', () => {
    const earlier = parseLibraryContentPage({ nextStartToken: 40, titles: [{ id: 3, kind: 'EBOOK', purchaseModel: 'INSTANT', active: true }] });
    const later = parseLibraryContentPage({ titles: [{ id: 3, kind: 'EBOOK', seriesNumber: 2, lexile: '', audience: 'Juvenile' }] });
    expect(earlier.next).toBe('40');
    expect(earlier.items[0]).toMatchObject({ kind: 'upsert', title: { id: 3, purchaseModel: 'INSTANT', active: true } });
    expect(later.next).toBeUndefined();
    expect(later.items[0]).toMatchObject({ kind: 'upsert', title: { seriesNumber: 2, audience: 'Juvenile', lexile: undefined } });
  });

  it('refuses a page with no list at all', () => {
    expect(() => parseEntitlementPage({ metadata: {} })).toThrow(/could not be read/);
  });
});

describe('search, availability, tokens, errors', () => {
  it("keeps what staff are asked on the phone, and episodes' own ids as the strings they are", () => {
    const { hits: [series] } = parseSearchPage({ found: 1, titles: [{
      titleId: 7, kind: 'TELEVISION', duration: 5400, pages: 0, abridged: false, fiction: true, readAlong: false, rating: 'PG', pa: true,
      language: 'ENGLISH', subtitleLanguage: 'FRENCH', dubLanguage: 'SPANISH', segments: [{ segmentNumber: 1, name: 'Part 1', seconds: 60 }],
      episodes: [{ id: 'ep/7/1', episode: 1, title: 'One', duration: 1800 }, { id: '0042', episode: 2, duration: -5 }, { id: '43', episode: 3 }, { id: 'a,b' }],
    }] });
    expect(series).toMatchObject({
      titleId: 7, seconds: 5400, pages: 0, abridged: false, fiction: true, readAlong: false, rating: 'PG', parentalAdvisory: true,
      language: 'ENGLISH', subtitleLanguage: 'FRENCH', dubLanguage: 'SPANISH', segments: [{ number: 1, name: 'Part 1', seconds: 60 }],
    });
    // A string id stays a string ("0042" too: it is not 42's one form); "43" is 43; one no content can have is dropped, not guessed.
    expect(series!.episodes.map((e) => [e.id, e.seconds])).toEqual([['ep/7/1', 1800], ['0042', undefined], [43, undefined], [undefined, undefined]]);
  });

  it('drops repeated artists and reads genres given as objects', () => {
    const page = parseSearchPage({ found: 1, titles: [{ titleId: 5, artists: [{ name: 'A', relationship: 'AUTHOR' }, { name: 'A', relationship: 'AUTHOR' }], genres: [{ name: 'Poetry' }] }] });
    expect(page.hits[0]?.artists).toEqual([{ name: 'A', role: 'AUTHOR', formalName: undefined }]);
    expect(page.hits[0]?.genres).toEqual(['Poetry']);
  });

  it('reads availability elements and skips ones without an id', () => {
    const list = parseAvailabilityList([{ contentId: 1, availability: { status: 'hold', holdsQueueSize: 3, purchaseModel: 'FLEX' } }, { availability: {} }]);
    expect(list).toEqual([expect.objectContaining({ contentId: 1, status: 'HOLD', holdsQueueSize: 3, purchaseModel: 'FLEX' })]);
  });

  it('treats expires_in as seconds, and as milliseconds above a year', () => {
    expect(parseToken({ access_token: 't', expires_in: 770_000 }).lifetimeMs).toBe(770_000_000);
    expect(parseToken({ access_token: 't', expires_in: 40_000_000_000 }).lifetimeMs).toBe(40_000_000_000);
    expect(() => parseToken({ expires_in: 5 })).toThrow(/access_token/);
  });

  it("keeps the service's words as one finished sentence of readable length (found by the token-churn run)", () => {
    expect(errorMessageOf({ message: 'Title is available to borrow; no hold needed' })).toBe('Title is available to borrow; no hold needed.');
    expect(errorMessageOf({ message: 'Too many requests', detail: 'Retry after 2 seconds' })).toBe('Too many requests (Retry after 2 seconds).');
    expect(errorMessageOf({ message: 'Bad\u0000 card\u202e\n\n here!' })).toBe('Bad card here!');
    const long = errorMessageOf({ message: 'word '.repeat(2000) }) ?? '';
    expect(long.length).toBeLessThanOrEqual(281);
    expect(long.endsWith('…')).toBe(true);
  });

  it('joins message and detail of an error body', () => {
    expect(errorMessageOf({ message: 'Allowance used up', detail: '0 of 10 left' })).toBe('Allowance used up (0 of 10 left).');
    expect(errorMessageOf({ detail: 'only detail' })).toBe('only detail.');
    expect(errorMessageOf('<html>')).toBeUndefined();
  });
});
