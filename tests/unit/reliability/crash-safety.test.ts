// Crash safety of local data: the action log after a torn line (the defect the crash run
// found), and the short crash run itself — the mirror, the settings file and the action log
// each killed mid-write by SIGKILL, every figure required to meet its goal.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionLog, type ActionRecord } from '../../../electron/action-log/action-log.ts';
import { memoryLogKey } from '../../../electron/action-log/log-key.ts';
import { CRASH_LOG_KEY } from '../../reliability/children/crash-log-key.ts';
import { runCrashSafety } from '../../reliability/crash-safety.ts';
import { formatSection, SHORT } from '../../reliability/report.ts';

const entry = (contentId: number, title = `Title ${contentId}`): ActionRecord => ({
  time: 1_700_000_000_000 + contentId, staff: 'desk-1', profile: 'main', libraryId: 1, card: '21101000012345',
  action: 'borrow', contentId, title, outcome: 'ok',
});

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'crash-safety-')); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

const logAt = (path: string) => new ActionLog({ path, key: memoryLogKey(CRASH_LOG_KEY) });
const contentIds = async (path: string) => (await logAt(path).page({}, 0, 100)).entries.map((e) => e.contentId);

describe('action log after a crash mid-append', () => {
  it('keeps the entry appended after a torn last line instead of gluing it onto the fragment', async () => {
    const path = join(dir, 'action-log.jsonl');
    const before = logAt(path);
    await before.record(entry(1));
    await before.record(entry(2));
    await before.record(entry(3));
    // What a process killed mid-append leaves: part of a line, no newline.
    const lines = readFileSync(path, 'utf8').split('\n');
    const torn = lines[2]!;
    writeFileSync(path, `${lines.slice(0, 2).join('\n')}\n${torn.slice(0, Math.floor(torn.length / 2))}`);

    const after = logAt(path); // the next start of the app
    await after.record(entry(4));
    await after.record(entry(5));
    expect(await contentIds(path)).toEqual([5, 4, 2, 1]);
    // The fragment is ended on a line of its own, and nothing else is added.
    expect(readFileSync(path, 'utf8').split('\n').filter((line) => line !== '')).toHaveLength(5);
  });

  it('keeps an entry whose newline alone was lost, and the one after it', async () => {
    const path = join(dir, 'action-log.jsonl');
    await logAt(path).record(entry(1));
    writeFileSync(path, readFileSync(path, 'utf8').trimEnd());
    await logAt(path).record(entry(2));
    expect(await contentIds(path)).toEqual([2, 1]);
  });

  it('adds nothing before the first entry of a new or whole file', async () => {
    const path = join(dir, 'nested', 'action-log.jsonl');
    await logAt(path).record(entry(1));
    await logAt(path).record(entry(2));
    expect(readFileSync(path, 'utf8').startsWith('{')).toBe(true);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3);
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
