// Issue #24, goal 2, through the contract (dispatch, as the IPC registry calls it) on a sandbox
// that reads ids as the published guidance does: a search result's titleId resolves, through the
// desk's mirror, to the contents it stands for; an episode's string id is borrowed,
// listed on the patron's account, kept in the action log and returned as the string it is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { createMemoryVault } from '../../../../electron/main/credentials/memory-vault.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import { createSandboxService, type SandboxService } from '../../../../electron/main/sandbox/server.ts';
import type { MethodName } from '../../../../electron/shared/contract.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { createNodeDesk } from '../../../support/node-desk.ts';
import { answerOf } from '../../../support/desk-calls.ts';

const LIB = 101;
const CARD = '2110100001';
let dir: string;
let desk: DeskService;
let sandbox: SandboxService;
let closeLog: () => void;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'search-contents-'));
  const created = createNodeDesk({
    dir, vault: createMemoryVault(),
    sandbox: async () => inProcessSandbox((sandbox = createSandboxService({ catalogSize: 1500, ids: 'published' }))),
  });
  desk = created.desk;
  closeLog = () => created.logger.close();
  await ok('useSandbox');
  await ok('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
});
afterAll(async () => {
  await desk.close();
  closeLog();
  rmSync(dir, { recursive: true, force: true });
});

async function call(name: MethodName, args?: unknown) {
  return dispatch(desk, name, args);
}
async function ok<T = any>(name: MethodName, args?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return answerOf<T>(desk, name, args);
}

describe('a search result, resolved through the desk\'s copy, on the published reading of ids', () => {
  it('before a sync the desk cannot tell which content a result borrows, and says so', async () => {
    const { hits } = await ok('liveSearch', { libraryId: LIB, q: 'e', limit: 5 });
    expect(await ok('titleContents', { libraryId: LIB, titleIds: [hits[0].titleId] })).toEqual([{ titleId: hits[0].titleId, unresolved: 'no-mirror' }]);
  });

  it('borrows, lists, logs and returns an episode by its own string id', async () => {
    await ok('syncNow', { full: false });
    const { hits } = await ok('liveSearch', { libraryId: LIB, q: 'e', limit: 50, formats: ['TELEVISION'], purchaseModel: 'INSTANT' });
    const series = hits[0];
    const [resolved] = await ok('titleContents', { libraryId: LIB, titleIds: [series.titleId] });
    const episode = resolved.contents[1];
    expect(episode.contentId).toBe(series.episodes[1].id);
    expect(episode.contentId).toMatch(/^ep\//);

    const borrowed = await ok('borrow', { libraryId: LIB, card: CARD, contentId: episode.contentId, title: `${series.title}: ${episode.title}` });
    expect(borrowed.value.contentId).toBe(episode.contentId);
    expect(sandbox.control.patronState(LIB, CARD).loans).toEqual([episode.contentId]);
    const view = await ok('lookupPatron', { libraryId: LIB, card: CARD });
    expect(view.loans.map((l: { contentId: unknown }) => l.contentId)).toEqual([episode.contentId]);
    // Newest first: this reading of the log (an entry of its own), then the borrow.
    const [reading, logged] = (await ok('listActions', { limit: 2 })).entries;
    expect(reading).toMatchObject({ action: 'log-read' });
    expect(logged).toMatchObject({ action: 'borrow', contentId: episode.contentId, outcome: 'ok' });
    const availability = await ok('liveAvailability', { libraryId: LIB, contentIds: [episode.contentId] });
    expect(availability).toEqual([expect.objectContaining({ contentId: episode.contentId, status: 'BORROW' })]);

    await ok('returnTitle', { libraryId: LIB, card: CARD, contentId: episode.contentId });
    expect(sandbox.control.patronState(LIB, CARD).loans).toEqual([]);
  });

  it('never lends by the titleId: the content the copy names is the title searched for', async () => {
    const { hits } = await ok('liveSearch', { libraryId: LIB, q: 'e', limit: 30, formats: ['EBOOK'], purchaseModel: 'INSTANT' });
    const resolved = await ok('titleContents', { libraryId: LIB, titleIds: hits.map((h: { titleId: number }) => h.titleId) });
    const hit = hits.find((h: { titleId: number }, i: number) => resolved[i].contents?.length === 1 && resolved[i].contents[0].contentId !== h.titleId);
    const content = resolved[hits.indexOf(hit)].contents[0];
    const borrowed = await ok('borrow', { libraryId: LIB, card: '2110100005', contentId: content.contentId });
    expect(borrowed.value.title).toBe(hit.title);
  });

  it('keeps every title linked to its page on the service: the hosts the service named open, no other', async () => {
    const { hits } = await ok('liveSearch', { libraryId: LIB, q: 'e', limit: 5 });
    expect(hits.every((h: { url?: string }) => h.url?.startsWith('https://'))).toBe(true);
    expect(desk.isTitlePage(hits[0].url)).toBe(true);
    expect(desk.isTitlePage(hits[0].url.replace('https:', 'http:'))).toBe(false);
    expect(desk.isTitlePage('https://evil.example/titles/1')).toBe(false);
    expect(desk.isTitlePage(`https://user:pw@${new URL(hits[0].url).host}/`)).toBe(false);
  });

  it('refuses an id no content can have before anything is sent', async () => {
    for (const contentId of ['..', 'a,b', ' ep/1/2', 'x'.repeat(101), 0, 1.5]) {
      const refused = await call('borrow', { libraryId: LIB, card: CARD, contentId });
      expect(refused, JSON.stringify(contentId)).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
  });
});
