// Issue #34, goal 4, through the contract on the sandbox over HTTP: a fresh desk — no sync yet —
// borrows a search hit at once. The hit its copy cannot resolve is looked up on the service
// (lookUpTitles: one page of the library's content, starting just before the hit's number) and
// resolved only by a record that names the hit's own titleId; on the published reading of ids,
// where a plain title's titleId is another title's content id, the lookup finds nothing and says
// so, and never lends the other title. A later sync goes on as if no lookup had been made.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { createMemoryVault } from '../../../../electron/main/credentials/memory-vault.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import type { IdReading } from '../../../../electron/main/sandbox/content-ids.ts';
import { createSandboxService, type SandboxService } from '../../../../electron/main/sandbox/server.ts';
import type { MethodName } from '../../../../electron/shared/contract.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { createNodeDesk } from '../../../support/node-desk.ts';
import { answerOf } from '../../../support/desk-calls.ts';

const LIB = 101;
const CARD = '2110100002';

interface Fresh { desk: DeskService; sandbox: SandboxService; close(): Promise<void> }
let fresh: Fresh | undefined;

async function freshDesk(ids: IdReading): Promise<Fresh> {
  const dir = mkdtempSync(join(tmpdir(), 'title-lookup-'));
  let sandbox!: SandboxService;
  const created = createNodeDesk({
    dir, vault: createMemoryVault(),
    sandbox: async () => inProcessSandbox((sandbox = createSandboxService({ catalogSize: 1500, ids }))),
  });
  fresh = {
    desk: created.desk, get sandbox() { return sandbox; },
    async close() {
      await created.desk.close();
      created.logger.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await ok('useSandbox');
  await ok('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
  return fresh;
}
afterEach(async () => {
  await fresh?.close();
  fresh = undefined;
});

async function ok<T = any>(name: MethodName, args?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return answerOf<T>(fresh!.desk, name, args);
}

/** The routes the sandbox was asked for by `work`. */
async function routesOf(work: () => Promise<unknown>): Promise<(string | undefined)[]> {
  const from = fresh!.sandbox.control.requestLogNext();
  await work();
  return fresh!.sandbox.control.requestLog(from).map((r) => r.route);
}

describe('a search hit looked up on the service before the first sync', () => {
  it('resolves with one request of the library\'s content, and is borrowed', async () => {
    const { sandbox } = await freshDesk('spec');
    const { hits } = await ok('liveSearch', { libraryId: LIB, q: 'e', limit: 10, formats: ['EBOOK'], purchaseModel: 'INSTANT' });
    const onLoan = sandbox.control.patronState(LIB, CARD).loans;
    const hit = hits.find((h: { titleId: number }) => !onLoan.includes(h.titleId));
    expect(await ok('titleContents', { libraryId: LIB, titleIds: [hit.titleId] })).toEqual([{ titleId: hit.titleId, unresolved: 'no-mirror' }]);

    let answer: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const routes = await routesOf(async () => { [answer] = await ok('lookUpTitles', { libraryId: LIB, titleIds: [hit.titleId] }); });
    expect(routes).toEqual(['libraryContent']);
    expect(answer.contents).toEqual([expect.objectContaining({ contentId: hit.titleId, purchaseModel: 'INSTANT', active: true })]);
    // From now on the copy knows it: the next search resolves it with no request.
    expect(await routesOf(() => ok('titleContents', { libraryId: LIB, titleIds: [hit.titleId] }))).toEqual([]);

    const borrowed = await ok('borrow', { libraryId: LIB, card: CARD, contentId: answer.contents[0].contentId, title: hit.title });
    expect(borrowed.value.title).toBe(hit.title);
    expect(sandbox.control.patronState(LIB, CARD).loans).toEqual([...onLoan, hit.titleId]);
  });

  it('asks nothing for a hit the copy already resolves', async () => {
    await freshDesk('spec');
    const { hits } = await ok('liveSearch', { libraryId: LIB, q: 'e', limit: 3, formats: ['EBOOK'] });
    const titleIds = hits.map((h: { titleId: number }) => h.titleId);
    await ok('lookUpTitles', { libraryId: LIB, titleIds });
    expect(await routesOf(() => ok('lookUpTitles', { libraryId: LIB, titleIds }))).toEqual([]);
  });

  it('on the published reading of ids, finds no title under a plain title\'s number and lends nothing else', async () => {
    await freshDesk('published');
    const { hits } = await ok('liveSearch', { libraryId: LIB, q: 'e', limit: 10, formats: ['EBOOK'], purchaseModel: 'INSTANT' });
    const hit = hits[0];
    const routes = await routesOf(async () => {
      expect(await ok('lookUpTitles', { libraryId: LIB, titleIds: [hit.titleId] })).toEqual([{ titleId: hit.titleId, unresolved: 'not-found-by-id' }]);
    });
    expect(routes).toEqual(['libraryContent']);
  });

  it('leaves the sync as it was: a full sync after lookups ends with every title, and no source of its own', async () => {
    await freshDesk('spec');
    const { hits } = await ok('liveSearch', { libraryId: LIB, q: 'e', limit: 5 });
    await ok('lookUpTitles', { libraryId: LIB, titleIds: hits.map((h: { titleId: number }) => h.titleId) });
    const status = await ok('syncNow', { full: true });
    const names = status.sources.map((s: { source: string }) => s.source);
    expect(names).toContain('global');
    expect(names.every((name: string) => name === 'global' || /^entitlements:\d+:(FLEX|INSTANT)$/.test(name))).toBe(true);
    expect(status.sources.every((s: { lastError?: unknown; lastSuccessAt?: number }) => s.lastError === undefined && s.lastSuccessAt !== undefined)).toBe(true);
    const resolved = await ok('titleContents', { libraryId: LIB, titleIds: hits.map((h: { titleId: number }) => h.titleId) });
    expect(resolved.every((r: { contents?: unknown[] }) => r.contents?.length)).toBe(true);
  });
});
