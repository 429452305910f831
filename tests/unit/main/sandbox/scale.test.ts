// A million-title catalog: nothing is generated up front, and a page near the end is served
// without walking the ids before it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './helpers.ts';
import type { Api } from './helpers.ts';

let api: Api;

beforeAll(async () => {
  api = await startApi({ catalogSize: 1_000_000 });
});
afterAll(() => api.close());

describe('catalogSize 1,000,000', () => {
  it('starts and serves a global page near id 999,000', async () => {
    const reply = await api.get('/api/v1/global-contents?startToken=999000&limit=500');
    expect(reply.status).toBe(200);
    const ids = reply.body.data.contents.map((record: any) => record.id);
    expect(ids).toEqual(Array.from({ length: 500 }, (_, i) => 999_000 + i));
    expect(reply.body.metadata).toMatchObject({ totalCount: 1_000_000, nextStartToken: '999500' });
    const last = await api.get('/api/v1/global-contents?startToken=999900&limit=500');
    expect(last.body.data.contents).toHaveLength(101);
    expect(last.body.metadata).not.toHaveProperty('nextStartToken');
  });

  it('serves library content and content info at the far end of the id space', async () => {
    const reply = await api.get('/api/v1/libraries/202/content?startToken=999800&limit=50');
    expect(reply.status).toBe(200);
    const ids: number[] = [...new Set<number>(reply.body.titles.map((t: any) => t.id))];
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id >= 999_800 && id <= 1_000_000)).toBe(true);
    const info = await api.get(`/api/v1/libraries/202/content/info?contentIds=${ids.slice(0, 5).join(',')}`);
    expect(info.body.every((element: any) => element.availability.status !== undefined)).toBe(true);
  });

  it('generates the same record for the same seed and id', async () => {
    const again = await startApi({ catalogSize: 1_000_000 });
    try {
      const path = '/api/v1/global-contents?startToken=123456&limit=3';
      expect((await again.get(path)).body).toEqual((await api.get(path)).body);
      const other = await startApi({ catalogSize: 1_000_000, seed: 2 });
      try {
        expect((await other.get(path)).body).not.toEqual((await api.get(path)).body);
      } finally {
        await other.close();
      }
    } finally {
      await again.close();
    }
  });
});
