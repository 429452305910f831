// Keep what staff use (issue #34, goal 6), against the sandbox over HTTP: what the service sends
// (read here as raw JSON, as it came) reaches a title's details through the mirror's compact
// record — a library's price per borrow, rating and titleTitle, the catalog's products and
// country covers — the mirror keeps holdsQueuePosition, a search result keeps its content flags,
// the Collection filters on the flags (a mirror of schema 6 gets them from its records), and a
// token of another type than bearer is refused.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskMirror } from '../../../electron/main/mirror/desk-mirror.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import type { SyncRequest } from '../../../electron/node/sync/engine.ts';
import { CONTENT_FLAGS } from '../../../electron/shared/collection.ts';
import { clientOf, countriesOf, openFile, serviceOf, tempDir } from './helpers.ts';

type Wire = Record<string, unknown>;

let sandbox: SandboxHandle;
let dir: string;
let token: string;
const LIBRARY = 101;

/** The service's answer as it came: what a test checks the desk against. */
async function wire(path: string): Promise<unknown> {
  const answer = await fetch(`${sandbox.url}/api/v1/${path}`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
  expect(answer.status).toBe(200);
  return answer.json();
}

beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 3000 });
  dir = tempDir();
  const basic = Buffer.from(`${sandbox.username}:${sandbox.password}`).toString('base64');
  token = ((await (await fetch(`${sandbox.url}/api/v1/get-token`, { method: 'POST', headers: { Authorization: `Basic ${basic}` } })).json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a library content record\'s price per borrow, rating and titleTitle reach a title\'s details', () => {
  let mirror: DeskMirror;
  beforeAll(async () => {
    mirror = serviceOf(sandbox, join(dir, 'library-content.db'));
    const request: SyncRequest = { countries: countriesOf(sandbox), libraries: [LIBRARY], source: 'library-content', pageSize: 500 };
    await mirror.syncNow(request);
  }, 120_000);
  afterAll(async () => { await mirror.close(); });

  it('keeps each as the library content sent it (the price was parsed, then thrown away)', async () => {
    const { titles } = await wire(`libraries/${LIBRARY}/content?limit=200&purchaseModel=INSTANT`) as { titles: Wire[] };
    const priced = titles.filter((t) => typeof t.price === 'number' && typeof t.rating === 'string').slice(0, 20);
    expect(priced.length).toBeGreaterThan(10);
    for (const sent of priced) {
      const detail = await mirror.detail(LIBRARY, sent.id as number);
      expect(detail?.purchaseModel, `title ${String(sent.id)}`).toBe('INSTANT');
      expect(detail?.record, `title ${String(sent.id)}`).toMatchObject({ price: sent.price, rating: sent.rating, titleTitle: sent.titleTitle });
    }
  });
});

describe('the global catalog\'s products and country covers, and the content flags', () => {
  let mirror: DeskMirror;
  const path = (): string => join(dir, 'global.db');
  beforeAll(async () => {
    mirror = serviceOf(sandbox, path());
    const request: SyncRequest = { countries: countriesOf(sandbox), libraries: [LIBRARY], source: 'global+entitlements', pageSize: 500 };
    await mirror.syncNow(request);
  }, 120_000);
  afterAll(async () => { await mirror.close(); });

  it('keeps products[].productId and coverImageUrls as the catalog sent them', async () => {
    const { contentIds } = { contentIds: sandbox.control.sampleContent(LIBRARY, { count: 30 }) };
    const page = await wire('global-contents?limit=500') as { data: Record<string, Wire[]> };
    const records = new Map(Object.values(page.data).flat().map((r) => [r.id, r]));
    let compared = 0;
    for (const id of contentIds) {
      const sent = records.get(id);
      if (!sent) continue;
      const record = (await mirror.detail(LIBRARY, id))?.record;
      const products = (sent.products as Wire[]).map((p) => ({ productId: p.productId, model: p.licenseType === 'PPU' ? 'INSTANT' : 'FLEX' }));
      const covers = (sent.coverImageUrls as Wire[]).map((c) => ({ country: c.countryCode, url: c.coverImageUrl }));
      expect(record?.products, `title ${String(id)}`).toEqual(products);
      expect(record?.coverImageUrls, `title ${String(id)}`).toEqual(covers);
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('filters the Collection on the flags the records carry: samples, explicit language, edited versions', async () => {
    const db = openFile(path());
    try {
      const flagged = db.prepare('SELECT count(*) AS n FROM entitlements WHERE library_id = ? AND flags != 0').get(LIBRARY) as { n: number };
      expect(Number(flagged.n)).toBeGreaterThan(20);
    } finally {
      db.close();
    }
    for (const [i, flag] of CONTENT_FLAGS.entries()) {
      const page = await mirror.browse({ libraryId: LIBRARY, flags: [flag], offset: 0, limit: 500 });
      const without = await mirror.browse({ libraryId: LIBRARY, withoutFlags: [flag], offset: 0, limit: 1 });
      const all = await mirror.browse({ libraryId: LIBRARY, offset: 0, limit: 1 });
      expect(page.total, flag).toBeGreaterThan(0);
      expect(page.total + without.total, flag).toBe(all.total);
      for (const row of page.rows) {
        expect(row.flags, `${flag}: row ${String(row.contentId)}`).toContain(flag);
        const record = (await mirror.detail(LIBRARY, row.contentId))?.record;
        const said = [record?.demo, record?.profanity, record?.edited][i];
        expect(said, `${flag}: the record of ${String(row.contentId)}`).toBe(true);
      }
    }
  });

  it('a mirror of schema 6 gets the flags from its records, and filters on them when it is done', async () => {
    const before = (await mirror.browse({ libraryId: LIBRARY, flags: ['sample'], offset: 0, limit: 500 })).rows.map((r) => r.contentId);
    await mirror.close();
    // What migration 7 leaves of a schema 6 mirror: no title has flags yet, and the owner is to read them from the records.
    const db = openFile(path());
    db.exec("UPDATE titles SET flags = 0; UPDATE entitlements SET flags = 0; INSERT INTO mirror_state (key, value) VALUES ('flags_after', -1)");
    db.close();
    mirror = serviceOf(sandbox, path());
    while ((await mirror.status()).running !== undefined); // the owner upgrades between requests: each status is one
    const after = (await mirror.browse({ libraryId: LIBRARY, flags: ['sample'], offset: 0, limit: 500 })).rows.map((r) => r.contentId);
    expect(after).toEqual(before);
    expect(after.length).toBeGreaterThan(0);
  }, 120_000);

  it('keeps the holds queue position content info gives', async () => {
    const [held] = sandbox.control.sampleContent(LIBRARY, { purchaseModel: 'FLEX', status: 'HOLD', count: 1 });
    expect(held).toBeDefined();
    const [sent] = await wire(`libraries/${LIBRARY}/content/info?contentIds=${String(held)}`) as { availability: Wire }[];
    expect(sent?.availability.holdsQueuePosition).toEqual(expect.any(Number));
    await mirror.refreshAvailability(LIBRARY, [held as number]);
    const detail = await mirror.detail(LIBRARY, held as number);
    expect(detail?.availability?.holdsQueuePosition).toBe(sent?.availability.holdsQueuePosition);
  });
});

describe('a search result\'s content flags', () => {
  it('keeps demo, profanity, edited and fixedLayout as the search sent them', async () => {
    const sent = await wire(`libraries/${LIBRARY}/search?q=the&limit=100`) as { titles: Wire[] };
    const page = await clientOf(sandbox).search(LIBRARY, { q: 'the', limit: 100 });
    const byTitle = new Map(sent.titles.map((t) => [t.titleId, t]));
    let flagged = 0;
    for (const hit of page.hits) {
      const wireHit = byTitle.get(hit.titleId);
      if (!wireHit) continue;
      expect({ demo: hit.demo, profanity: hit.profanity, edited: hit.edited, fixedLayout: hit.fixedLayout }, `title ${String(hit.titleId)}`)
        .toEqual({ demo: wireHit.demo, profanity: wireHit.profanity, edited: wireHit.edited, fixedLayout: wireHit.fixedLayout });
      if (hit.fixedLayout || hit.edited || hit.demo || hit.profanity) flagged++;
    }
    expect(flagged).toBeGreaterThan(0);
  });
});

describe('token_type', () => {
  it('refuses a token that is not a bearer token, and says so', async () => {
    sandbox.control.setShapes({ tokenType: 'mac' });
    try {
      await expect(clientOf(sandbox).testConnection()).rejects.toMatchObject({ code: 'bad-response', detail: { reason: 'service.token-type', params: { type: 'mac' } } });
      sandbox.control.setShapes({ tokenType: 'Bearer' }); // the spec's word in another case is the same word
      await expect(clientOf(sandbox).testConnection()).resolves.toBeUndefined();
    } finally {
      sandbox.control.setShapes({ tokenType: 'bearer' });
    }
  });
});
