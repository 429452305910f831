// Issue #24, goal 2, in the mirror: a search result's titleId resolves through the mirrored
// records to the contents it stands for — never to the titleId taken as a content id. Against
// the sandbox over HTTP in both readings of ids: the spec's (a titleId is its title's content id,
// a series one content) and the published guidance's (titleIds are other titles' content ids, a
// series' episodes are contents with string ids), from the global catalog and from library content.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncRequest } from '../../../electron/node/sync/engine.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import type { SearchHit } from '../../../electron/shared/model.ts';
import { clientOf, countriesOf, serviceOf, tempDir } from './helpers.ts';

const LIB = 101;
let dir: string;
beforeAll(() => { dir = tempDir(); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (sandbox: SandboxHandle, source: SyncRequest['source'] = 'global+entitlements'): SyncRequest => ({
  countries: countriesOf(sandbox), libraries: [LIB], source, pageSize: 200,
});

async function hits(sandbox: SandboxHandle, formats: SearchHit['format'][]): Promise<SearchHit[]> {
  return (await clientOf(sandbox).search(LIB, { q: 'e', limit: 100, formats: formats as never })).hits;
}

describe.each(['global+entitlements', 'library-content'] as const)('a search result resolves through the mirror (%s)', (source) => {
  let published: SandboxHandle;
  let spec: SandboxHandle;
  beforeAll(async () => {
    published = await startSandbox({ catalogSize: 1200, ids: 'published' });
    spec = await startSandbox({ catalogSize: 1200 });
  });
  afterAll(async () => {
    await published.close();
    await spec.close();
  });

  it('published ids: a title to its own content (not the titleId), a series to each episode by its string id, each lendable', async () => {
    const catalog = serviceOf(published, join(dir, `published-${source}.db`));
    expect(await catalog.titleContents(LIB, [8])).toEqual([{ titleId: 8, unresolved: 'no-mirror' }]);
    await catalog.syncNow(request(published, source));

    const books = await hits(published, ['EBOOK']);
    const resolved = await catalog.titleContents(LIB, books.map((h) => h.titleId!));
    for (const [i, hit] of books.entries()) {
      const found = resolved[i]!;
      expect('contents' in found && found.contents.length, hit.title).toBe(1);
      const [content] = 'contents' in found ? found.contents : [];
      expect(content!.contentId).not.toBe(hit.titleId);
      expect(content!.title).toBe(hit.title);
      expect((await catalog.detail(LIB, content!.contentId))?.record?.title).toBe(hit.title);
    }

    const [series] = await hits(published, ['TELEVISION']);
    const [episodes] = await catalog.titleContents(LIB, [series!.titleId!]);
    expect(episodes).toMatchObject({ titleId: series!.titleId });
    const contents = 'contents' in episodes! ? episodes.contents : [];
    expect(contents.map((c) => c.contentId)).toEqual(series!.episodes.map((e) => e.id));
    expect(contents.every((c) => typeof c.contentId === 'string' && c.purchaseModel === series!.purchaseModel && c.active === true)).toBe(true);
    expect(contents.map((c) => c.episode)).toEqual(series!.episodes.map((e) => e.episode));
    expect(contents.every((c) => (c.seconds ?? 0) > 0 && c.title !== undefined)).toBe(true);
    // The browser shows the episodes as rows of their own, by their string ids; their details and availability read by those ids.
    const rows = (await catalog.browse({ libraryId: LIB, text: series!.title!.split(' ').slice(-1)[0]!.toLowerCase(), offset: 0, limit: 500 })).rows;
    expect(rows.filter((r) => typeof r.contentId === 'string').map((r) => r.contentId)).toEqual(expect.arrayContaining(contents.map((c) => c.contentId)));
    const fresh = await catalog.refreshAvailability(LIB, [contents[1]!.contentId]);
    expect(fresh).toEqual([expect.objectContaining({ contentId: contents[1]!.contentId, availability: expect.objectContaining({ status: 'BORROW' }) })]);
    expect(await catalog.detail(LIB, contents[1]!.contentId)).toMatchObject({ contentId: contents[1]!.contentId, record: { id: contents[1]!.contentId, episode: 2 } });

    // A title the mirror does not hold: said so, never guessed.
    expect(await catalog.titleContents(LIB, [999_999])).toEqual([{ titleId: 999_999, unresolved: 'not-in-mirror' }]);
    await catalog.close();
  });

  it('spec ids: a title to the content of the same number, a series to its one content', async () => {
    const catalog = serviceOf(spec, join(dir, `spec-${source}.db`));
    await catalog.syncNow(request(spec, source));
    const books = await hits(spec, ['EBOOK', 'TELEVISION']);
    const resolved = await catalog.titleContents(LIB, books.map((h) => h.titleId!));
    for (const [i, hit] of books.entries()) {
      expect(resolved[i], hit.title).toMatchObject({ titleId: hit.titleId, contents: [{ contentId: hit.titleId }] });
    }
    await catalog.close();
  });
});
