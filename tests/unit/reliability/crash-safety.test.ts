// Crash safety of local data: the action log after a torn line (the defect the crash run
// found), and the short crash run itself — the mirror, the settings file and the action log
// each killed mid-write by SIGKILL, every figure required to meet its goal.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionLog, type ActionRecord } from '../../../electron/action-log/action-log.ts';
import { runCrashSafety } from '../../reliability/crash-safety.ts';
import { formatSection, SHORT } from '../../reliability/report.ts';

const entry = (contentId: number, title = `Title ${contentId}`): ActionRecord => ({
  time: 1_700_000_000_000 + contentId, staff: 'desk-1', profile: 'main', libraryId: 1, card: '21101000012345',
  action: 'borrow', contentId, title, outcome: 'ok',
});

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'crash-safety-')); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

describe('action log after a crash mid-append', () => {
  it('keeps the entry appended after a torn last line instead of gluing it onto the fragment', () => {
    const path = join(dir, 'action-log.jsonl');
    const before = new ActionLog(path);
    before.record(entry(1));
    before.record(entry(2));
    // What a process killed mid-append leaves: part of a line, no newline.
    const torn = JSON.stringify({ ...entry(3), card: '••••2345' });
    appendFileSync(path, torn.slice(0, Math.floor(torn.length / 2)));

    const after = new ActionLog(path); // the next start of the app
    after.record(entry(4));
    after.record(entry(5));
    expect(after.list().entries.map((e) => e.contentId)).toEqual([5, 4, 2, 1]);
    // The fragment is ended on a line of its own, and nothing else is added.
    expect(readFileSync(path, 'utf8').split('\n').filter((line) => line !== '')).toHaveLength(5);
  });

  it('keeps an entry whose newline alone was lost, and the one after it', () => {
    const path = join(dir, 'action-log.jsonl');
    writeFileSync(path, JSON.stringify({ ...entry(1), card: '••••2345' }));
    new ActionLog(path).record(entry(2));
    expect(new ActionLog(path).list().entries.map((e) => e.contentId)).toEqual([2, 1]);
  });

  it('adds nothing before the first entry of a new or whole file', () => {
    const path = join(dir, 'nested', 'action-log.jsonl');
    new ActionLog(path).record(entry(1));
    new ActionLog(path).record(entry(2));
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
