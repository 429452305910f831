// The mirror's owner does the desk's bulk work (a sync's pages, the search index, a first fill);
// main answers staff (every IPC call, a patron lookup, the lock). On a PC whose cores are all
// busy, main should get a core first. Linux gives each thread its own nice value, so the owner's
// thread lowers its own priority (nice 10) when it starts: it still has every idle core, and
// yields only when main wants one. Windows and macOS have no per-thread equivalent that Node
// reaches; there nothing changes. Never raised again (that needs privileges a desk has not).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

export const OWNER_NICE = 10;

/** This thread's id on Linux (from /proc/thread-self → "<pid>/task/<tid>"), else undefined. */
export function linuxThreadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Lowers the calling thread's priority on Linux; answers the thread id it changed, if any. */
export function yieldToMain(): number | undefined {
  const tid = linuxThreadId();
  if (tid === undefined) return undefined;
  try {
    setPriority(tid, OWNER_NICE);
    return tid;
  } catch {
    return undefined; // a sandboxed process may refuse it: the owner then runs as before
  }
}
