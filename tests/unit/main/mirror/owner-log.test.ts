// The mirror owner's slow calls reach the desk's app log from the owner's thread (the worker posts
// them beside its replies, main's logger writes them), as `mirror.slow-call` with the call and
// its statements' shapes — and what staff searched for is not in the log. Every call counts as
// slow here (slowCallMs 0: the owner's threshold, not a wait), so nothing depends on how long one takes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { createMemoryVault } from '../../../../electron/main/credentials/memory-vault.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { createSandboxService, type SandboxService } from '../../../../electron/main/sandbox/server.ts';
import type { CollectionPage, TitleDetail } from '../../../../electron/shared/collection.ts';
import { answerOf } from '../../../support/desk-calls.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { createNodeDesk } from '../../../support/node-desk.ts';

const LIB = 101;
let dir: string;
let sandbox: SandboxService;
let desk: DeskService;
let closeLog: () => void;
let logPath: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'owner-log-'));
  const created = createNodeDesk({
    dir, vault: createMemoryVault(),
    sandbox: async () => inProcessSandbox((sandbox = createSandboxService({ catalogSize: 600 }))),
    mirrors: { dir: join(dir, 'mirrors'), slowCallMs: 0 },
  });
  desk = created.desk;
  logPath = created.logger.path;
  closeLog = () => created.logger.close();
  await ok('useSandbox');
  await ok('startShift', { staffName: 'Ana', pin: TEST_DESK_PIN });
  await ok('syncNow', { full: false });
});
afterAll(async () => {
  await desk.close();
  closeLog();
  rmSync(dir, { recursive: true, force: true });
});

const ok = <T>(name: Parameters<typeof answerOf>[1], args?: unknown): Promise<T> => answerOf<T>(desk, name, args);

const entries = (): Record<string, unknown>[] => readFileSync(logPath, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe("the mirror owner's slow calls in the app log", () => {
  it('are written with the call and its statements, and not the search text', async () => {
    // A word of a title the library holds, long enough that the owner asks its full-text index for it
    // (read from the title's details: the search is the owner's first browse, so its own entry is written).
    const details = await Promise.all(sandbox.control.sampleContent(LIB, { count: 20 }).map((contentId) => ok<TitleDetail | null>('collectionTitle', { libraryId: LIB, contentId })));
    const word = details.flatMap((detail) => (detail?.record?.title ?? '').split(/\s+/)).find((w) => /^[A-Za-z]{6,}$/.test(w));
    expect(word).toBeDefined();
    const typed = (word as string).toLowerCase();
    expect(readFileSync(logPath, 'utf8').toLowerCase()).not.toContain(typed);

    const found = await ok<CollectionPage>('collectionBrowse', { libraryId: LIB, text: typed, offset: 0, limit: 100 });
    expect(found.rows.length).toBeGreaterThan(0);
    // The owner posts a call's entry after its answer; one port carries both in order, so once a
    // later call is answered, main has written the entry.
    await ok('syncStatus');
    const written = readFileSync(logPath, 'utf8');
    expect(written.toLowerCase()).not.toContain(typed);

    const slow = entries().filter((entry) => entry.event === 'mirror.slow-call');
    const browse = slow.find((entry) => entry.call === 'browse');
    expect(browse).toMatchObject({ level: 'info', profileId: 'sandbox' });
    const statements = browse?.statements as { sql: string; runs: number; ms: number }[];
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.every((s) => typeof s.sql === 'string' && !/['"]|\d/.test(s.sql) && s.runs > 0)).toBe(true);
    // The sync's own calls came the same way (one entry per call a minute at most).
    expect(slow.map((entry) => entry.call)).toEqual(expect.arrayContaining(['openRun', 'storePage', 'finishRun', 'browse']));
  });
});
