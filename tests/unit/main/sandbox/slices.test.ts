// The sandbox makes bulk pages and full-pull counts in slices (slices.ts): a patron's request is
// answered while a page is still being made, and the page's bytes are what JSON.stringify
// would have written.

import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxService } from '../../../../electron/main/sandbox/server.ts';
import { jsonInSlices } from '../../../../electron/main/sandbox/slices.ts';
import type { ShapeChanges } from '../../../../electron/main/sandbox/shapes.ts';
import { basic, startApi, type Api } from './helpers.ts';

let api: Api | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('a patron request while a bulk page is being made', () => {
  it('is answered before the page, which counts a million ids for its total', async () => {
    // A country-filtered full pull's first page counts every id of the catalog (a few hundred
    // ms on one thread): made in one go, the lookup sent after it would wait for all of it.
    api = await startApi({ catalogSize: 1_000_000 });
    const { sandbox } = api;
    const { libraryId, cards } = sandbox.libraries[0]!;
    const token = await api.token();
    const answered: string[] = [];
    const page = fetch(`${sandbox.url}/api/v1/global-contents?countryCodes=US&limit=500`, { headers: { authorization: `Bearer ${token}` } })
      .then(async (response) => { answered.push(`page ${response.status} ${(await response.json()).metadata.totalCount > 0}`); });
    while (sandbox.control.requestCounts().globalContents === 0) await new Promise((resolve) => setImmediate(resolve));
    const status = await api.get(api.patronPath(libraryId, cards[0]!, '/status'));
    answered.push(`status ${status.status}`);
    await page;
    expect(answered).toEqual(['status 200', 'page 200 true']);
  });
});

describe('a page written in slices', () => {
  it('is byte for byte what JSON.stringify writes, for every bulk feed and shape', async () => {
    const service = createSandboxService({ catalogSize: 3000, ids: 'published' });
    try {
      const reply = await service.respond({ method: 'POST', rawUrl: '/api/v1/get-token', headers: { authorization: basic(service.username, service.password) }, body: async () => '' });
      if (reply.kind !== 'reply') throw new Error(`no token: ${reply.kind}`);
      const token = (reply.reply.body as { access_token: string }).access_token;
      const libraryId = service.libraries[0]!.libraryId;
      const bodies: unknown[] = [];
      const ask = async (rawUrl: string): Promise<void> => {
        const outcome = await service.respond({ method: 'GET', rawUrl, headers: { authorization: `Bearer ${token}` }, body: async () => '' });
        if (outcome.kind !== 'reply' || outcome.reply.status !== 200) throw new Error(`${rawUrl}: ${JSON.stringify(outcome)}`);
        bodies.push(outcome.reply.body);
      };
      const shapeSets: ShapeChanges[] = [{}, { globalContents: 'contents', entitlements: 'data', entitlementWarnings: ['partial'] }];
      for (const shapes of shapeSets) {
        service.control.setShapes(shapes);
        await ask('/api/v1/global-contents?limit=500&startToken=400');
        await ask('/api/v1/global-contents?countryCodes=CA,NZ&limit=300');
        await ask(`/api/v1/libraries/${libraryId}/entitlements?limit=500&purchaseModel=FLEX`);
        await ask(`/api/v1/libraries/${libraryId}/content?limit=500`);
      }
      const withRecords = bodies.filter((body) => JSON.stringify(body).length > 10_000);
      expect(withRecords).toHaveLength(bodies.length);
      for (const body of bodies) expect(await jsonInSlices(body)).toBe(JSON.stringify(body));
    } finally {
      service.close();
    }
  });

  it('writes what JSON.stringify writes for the values it could meet', async () => {
    const long = (make: (i: number) => unknown): unknown[] => Array.from({ length: 200 }, (_, i) => make(i));
    const values: unknown[] = [
      undefined, null, 0, -0, 1.5, 'text "quoted" \u2028', true,
      long((i) => ({ id: i, skipped: undefined, name: `n${i}` })),
      long((i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? () => i : Symbol('s'))),
      { metadata: { totalCount: 5, nextStartToken: undefined, warnings: [] }, data: { contents: long((i) => ({ i, at: new Date(i) })) } },
      { 'key "with" quotes': long((i) => [i, 'x']), gone: undefined, fn: () => 1, when: new Date(0) },
      { deep: { deeper: { deepest: { list: long((i) => i) } } } },
      long((i) => ({ toJSON: () => `as ${i}` })),
    ];
    for (const value of values) expect(await jsonInSlices(value)).toBe(JSON.stringify(value));
  });
});
