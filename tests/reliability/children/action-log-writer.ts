// Appends to the on-behalf action log in a tight loop, as the app records borrows and holds,
// so the crash-safety run can kill it with SIGKILL in the middle of an append. Entry n has
// contentId n; titles vary from none to about a megabyte, so some appends are long enough
// for a kill to tear them. After each completed append it prints "ack <n>".
// argv: <log file> <first entry number> [<entries to write, then exit>]
import { ActionLog, type ActionKind } from '../../../electron/main/action-log/action-log.ts';
import { memoryLogKey } from '../../../electron/main/action-log/log-key.ts';
import { CRASH_LOG_KEY } from './crash-log-key.ts';
import { fileDeskRecords } from './file-desk-records.ts';

const [path, first, count] = process.argv.slice(2) as [string, string, string | undefined];
// The chain's head where the next child (and the reader) find it, as the desk's next start finds the keychain's.
const log = new ActionLog({ path, key: memoryLogKey(CRASH_LOG_KEY), head: fileDeskRecords(path) });
const KINDS: ActionKind[] = ['borrow', 'return', 'place-hold', 'remove-hold'];
// Title lengths by entry number: mostly what a catalog holds, now and then far longer.
const LENGTHS = [0, 24, 180, 60, 2_000, 12, 90_000, 40, 700_000, 300, 1_200_000, 8];

function titleFor(n: number): string | undefined {
  const length = LENGTHS[n % LENGTHS.length] as number;
  if (length === 0) return undefined;
  const words = `Title ${n} — l'été des bibliothèques, a "quoted", comma-laden story; `;
  return words.repeat(Math.ceil(length / words.length)).slice(0, length);
}

const last = count === undefined ? Infinity : Number(first) + Number(count);
for (let n = Number(first); n < last; n++) {
  const title = titleFor(n);
  // The append itself is synchronous (the key is read once, before the first).
  await log.record({
    time: Date.now(), staff: 'crash-run', profile: 'crash', libraryId: 1, card: '21101000012345',
    action: KINDS[n % KINDS.length] as ActionKind, contentId: n, ...(title === undefined ? {} : { title }), outcome: 'ok',
  });
  process.stdout.write(`ack ${n}\n`);
}
