// The mirror's owner thread yields to main on a busy machine: on Linux it runs at nice 10 (its
// own thread only; main and the rest of the process keep theirs), read back from /proc.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MirrorClient } from '../../../electron/main/mirror/mirror-client.ts';
import { linuxThreadId, OWNER_NICE } from '../../../electron/mirror-owner/thread-priority.ts';

/** Each thread of this process and its nice value (field 19 of /proc/self/task/<tid>/stat). */
function niceByThread(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    nice.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nice;
}

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

if (process.platform !== 'linux') console.info('thread-priority: skipped, a thread of its own nice value is Linux only (elsewhere the owner runs as before)');

describe.runIf(process.platform === 'linux')('the mirror owner\'s thread priority', () => {
  it('is lowered for the owner\'s thread alone once it starts, main\'s left as it was', async () => {
    dir = mkdtempSync(join(tmpdir(), 'owner-nice-'));
    const before = niceByThread();
    const main = linuxThreadId() as number;
    const mirror = new MirrorClient({ databasePath: join(dir, 'mirror.db') });
    try {
      await mirror.states(); // the owner has started and answered
      const after = niceByThread();
      const lowered = [...after].filter(([tid, nice]) => !before.has(tid) && nice === OWNER_NICE);
      expect(lowered).toHaveLength(1);
      expect(after.get(main)).toBe(before.get(main));
      expect([...after].filter(([, nice]) => nice === OWNER_NICE)).toHaveLength([...before].filter(([, nice]) => nice === OWNER_NICE).length + 1);
    } finally {
      await mirror.close();
    }
  });
});
