// Where the action log's chain should end, kept in the OS keychain (desk-keychain.ts) where no
// file edit reaches: which chain (epoch), how many lines, the last one's MAC. A file cut short,
// emptied, or put back from an older copy no longer ends there. Checked once per start
// (judgeChain); what it finds is kept here as `changed` — when it was found and where — so staff
// keep seeing that the log was changed until the retention period has passed since, even after a
// purge has started a new chain. A purge writes the new chain's end as `next` before it replaces
// the file and settles it after, so a crash between the two is not taken for an edit.
import { DESK_RECORDS, type DeskKeychain } from '../credentials/desk-keychain.ts';
import type { ChainTail, ChainWalk } from './action-log-file.ts';

export interface ChainChange { at: number; where: string[] }

export interface ChainHead extends ChainTail {
  /** A purge's new chain, until it has replaced the file. */
  next?: ChainTail;
  changed?: ChainChange;
}

const FORMAT = 1;
/** Enough to say where; the app log line says the same (the keychain entry has a size limit). */
const MAX_PLACES = 4;

export async function readHead(keychain: DeskKeychain): Promise<ChainHead | undefined> {
  const text = await keychain.read(DESK_RECORDS.actionLogHead);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as { v?: unknown; epoch?: unknown; count?: unknown; mac?: unknown; next?: Partial<ChainTail>; changed?: Partial<ChainChange> };
    // A record the desk did not write is no record: the check then says it cannot tell where the log ends.
    if (value.v !== FORMAT || !isTail(value as Partial<ChainTail>)) return undefined;
    const { epoch, count, mac } = value as ChainTail;
    const { next, changed } = value;
    return {
      epoch, count, mac,
      ...(next && isTail(next) ? { next: { epoch: next.epoch, count: next.count, mac: next.mac } } : {}),
      ...(changed && Number.isSafeInteger(changed.at) && Array.isArray(changed.where)
        ? { changed: { at: changed.at as number, where: changed.where.filter((w): w is string => typeof w === 'string').slice(0, MAX_PLACES) } }
        : {}),
    };
  } catch {
    return undefined;
  }
}

export async function writeHead(keychain: DeskKeychain, head: ChainHead): Promise<void> {
  const { epoch, count, mac, next, changed } = head;
  await keychain.write(DESK_RECORDS.actionLogHead, JSON.stringify({ v: FORMAT, epoch, count, mac, ...(next ? { next } : {}), ...(changed ? { changed } : {}) }));
}

function isTail(value: Partial<ChainTail>): value is ChainTail {
  return typeof value.epoch === 'string' && Number.isSafeInteger(value.count) && (value.count as number) >= 0 && typeof value.mac === 'string';
}

/**
 * What the file's chain says against the keychain's head: where the file was changed, in English
 * for the app log (empty: nothing). `legacy`: a file an earlier version wrote, found before any
 * head existed — the upgrade, not an edit.
 */
export function judgeChain(walk: ChainWalk, head: ChainHead | undefined, fileHasLines: boolean): { where: string[]; legacy: boolean } {
  const where: string[] = [];
  const legacy = head === undefined && walk.epoch === undefined && walk.macs.length === 0 && walk.unchained > 0;
  if (legacy) return { where, legacy };
  if (head === undefined) {
    if (fileHasLines) where.push('the keychain has no record of where this log ends (it cannot be checked for entries cut from its end)');
  } else {
    const expected = walk.epoch !== undefined && head.next?.epoch === walk.epoch ? head.next : head;
    if (!fileHasLines) {
      if (expected.count > 0) where.push(`the file is missing or empty, though the desk had written ${expected.count} entries to it`);
    } else if (walk.epoch !== expected.epoch) {
      where.push('the file is not the log this desk last wrote (an older copy put back, or another desk\'s)');
    } else if (expected.count > 0 && walk.macs[expected.count - 1] !== expected.mac) {
      where.push(walk.macs.length < expected.count
        ? `the file ends after entry ${walk.macs.length} of the ${expected.count} the desk wrote (entries cut from its end, or an older copy put back)`
        : `entry ${expected.count} is not the one the desk wrote last (an older copy put back)`);
    }
  }
  for (const line of walk.breaks.slice(0, 2)) where.push(`line ${line} does not follow the line before it (an entry removed, moved or copied in just before it)`);
  if (walk.breaks.length > 2) where.push(`${walk.breaks.length - 2} more places where the chain breaks`);
  if (walk.unchained > 0) where.push(`${walk.unchained} line(s) without the desk's chain (copied in from an earlier version's log)`);
  return { where: where.slice(0, MAX_PLACES), legacy };
}
