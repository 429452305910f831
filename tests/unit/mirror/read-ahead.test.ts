// Reading pages one ahead: the next page is asked for before the caller has written this one,
// the rate limiter is taken before every request after the first and never after the last page,
// the pages arrive in order, a failure surfaces at the page it belongs to, and a caller that
// stops early leaves no request running unchecked.
import { describe, expect, it } from 'vitest';
import { readAhead } from '../../../electron/mirror/read-ahead.ts';

interface Page { n: number; next?: number }

function source(count: number, events: string[], failAt?: number): AsyncGenerator<Page> {
  return (async function* pages() {
    try {
      for (let n = 1; n <= count; n++) {
        events.push(`request ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (n === failAt) throw new Error(`page ${n} failed`);
        yield { n, ...(n < count ? { next: n + 1 } : {}) };
      }
    } finally {
      events.push('closed');
    }
  })();
}

describe('readAhead', () => {
  it('asks for the next page before the caller writes this one, the limiter before each later request, none after the last', async () => {
    const events: string[] = [];
    const seen: number[] = [];
    for await (const page of readAhead(source(3, events), (p) => p.next !== undefined, async () => { events.push('limiter'); })) {
      events.push(`write ${page.n}`);
      seen.push(page.n);
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(events).toEqual(['request 1', 'limiter', 'request 2', 'write 1', 'limiter', 'request 3', 'write 2', 'write 3', 'closed']);
  });

  it('a failed request surfaces after the pages before it are written', async () => {
    const events: string[] = [];
    const written: number[] = [];
    await expect((async () => {
      for await (const page of readAhead(source(4, events, 3), (p) => p.next !== undefined, async () => {})) written.push(page.n);
    })()).rejects.toThrow('page 3 failed');
    expect(written).toEqual([1, 2]);
  });

  it('a caller that stops early closes the source once its request in flight settles', async () => {
    const events: string[] = [];
    for await (const page of readAhead(source(5, events), (p) => p.next !== undefined, async () => {})) {
      if (page.n === 2) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events.at(-1)).toBe('closed');
    expect(events.filter((e) => e.startsWith('request'))).toEqual(['request 1', 'request 2', 'request 3']);
  });
});
