// Crash safety of local data: the action log after a torn line (the defect the crash run
// found), and the short crash run itself — the mirror, the settings file and the action log
// each killed mid-write by SIGKILL, every figure required to meet its goal.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionLog, type ActionRecord } from '../../../electron/main/action-log/action-log.ts';
import { memoryLogKey } from '../../../electron/main/action-log/log-key.ts';
import { memoryDeskRecords, type DeskKeychain } from '../../../electron/main/credentials/desk-keychain.ts';
import { CRASH_LOG_KEY } from '../../reliability/children/crash-log-key.ts';
import { runCrashSafety } from '../../reliability/crash-safety.ts';
import { formatSection, SHORT } from '../../reliability/report.ts';

const entry = (contentId: number, title = `Title ${contentId}`): ActionRecord => ({
  time: 1_700_000_000_000 + contentId, staff: 'desk-1', profile: 'main', libraryId: 1, card: '21101000012345',
  action: 'borrow', contentId, title, outcome: 'ok',
});

let dir: string;
/** The keychain every start of the desk in a test finds (where the log's chain ends). */
let keychain: DeskKeychain;
/** What the log found changed outside the desk, across every start of a test: a crash must never look like an edit. */
let changes: string[][];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crash-safety-'));
  keychain = memoryDeskRecords();
  changes = [];
});
afterEach(() => {
  expect(changes).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

const logAt = (path: string) => new ActionLog({ path, key: memoryLogKey(CRASH_LOG_KEY), head: keychain, onChanged: (where) => changes.push(where) });
const contentIds = async (path: string) => (await logAt(path).page({}, 0, 100)).entries.map((e) => e.contentId);

describe('action log after a crash mid-append', () => {
  it('keeps the entry appended after a torn last line instead of gluing it onto the fragment', async () => {
    const path = join(dir, 'action-log.jsonl');
    const before = logAt(path);
    await before.record(entry(1));
    await before.record(entry(2));
    // What a process killed mid-append leaves: part of a line, no newline (the keychain still names entry 2 as the last).
    const lines = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, `${readFileSync(path, 'utf8')}${lines[2]!.slice(0, Math.floor(lines[2]!.length / 2))}`);

    const after = logAt(path); // the next start of the app
    await after.record(entry(4));
    await after.record(entry(5));
    expect(await contentIds(path)).toEqual([5, 4, 2, 1]);
    // The fragment is ended on a line of its own, and nothing else is added (the header, 4 entries, the fragment).
    expect(readFileSync(path, 'utf8').split('\n').filter((line) => line !== '')).toHaveLength(6);
  });

  it('keeps an entry whose newline alone was lost, and the one after it', async () => {
    const path = join(dir, 'action-log.jsonl');
    await logAt(path).record(entry(1));
    writeFileSync(path, readFileSync(path, 'utf8').trimEnd());
    await logAt(path).record(entry(2));
    expect(await contentIds(path)).toEqual([2, 1]);
  });

  it('adds nothing but the chain\'s header before the first entry of a new or whole file', async () => {
    const path = join(dir, 'nested', 'action-log.jsonl');
    await logAt(path).record(entry(1));
    await logAt(path).record(entry(2));
    expect(readFileSync(path, 'utf8').startsWith('{"chain":1,')).toBe(true);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(4);
  });

  it('an append whose keychain update a kill prevented is taken as written, not as an edit', async () => {
    const path = join(dir, 'action-log.jsonl');
    await logAt(path).record(entry(1));
    const headAfterOne = await keychain.read('lending-desk:action-log-head');
    await logAt(path).record(entry(2));
    await keychain.write('lending-desk:action-log-head', headAfterOne!);
    const after = logAt(path);
    expect((await after.page({}, 0, 10)).entries.map((e) => e.contentId)).toEqual([2, 1]);
    expect(await after.changed()).toBeUndefined();
  });
});

describe('crash safety (short run)', () => {
  it('a sync, a settings write and an action-log append killed mid-write: nothing corrupt, nothing acknowledged lost', async () => {
    const section = await runCrashSafety({ ...SHORT, crashRuns: 2 });
    const missed = section.figures.filter((f) => !f.met);
    expect(missed, formatSection(section)).toEqual([]);
    expect(section.figures.find((f) => f.name === 'sync kills that landed mid-run')?.value).toBe(2);
  }, 120_000);
});
