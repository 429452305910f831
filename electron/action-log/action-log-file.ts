// The action log on disk: one sealed entry per line (entry-cipher.ts), appended synchronously
// so a crash loses at most the entry being written. Reading skips, and counts, every line that
// is torn, altered, out of place or under another key: one bad line never hides the others.
// Rewriting (the retention purge) writes a whole new file beside the old and renames it over.
import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ActionEntry } from '../shared/action-log.ts';
import { deriveKeys, parseLine, seal, unseal, type LogKeys } from './entry-cipher.ts';

/** An entry as stored: what staff see, plus the keyed hash its whole card is matched by. */
export interface StoredAction extends ActionEntry { cardMatch: string }

export interface ReadResult { entries: StoredAction[]; skipped: number }

export class ActionLogFile {
  readonly path: string;
  readonly keys: LogKeys;
  /** The last sequence number in the file, once read; the next entry gets the one after. */
  private lastSeq: number | undefined;
  /** True once an append of ours went through whole: the file then ends with a newline. */
  private endKnownWhole = false;

  constructor(path: string, key: Buffer) {
    this.path = path;
    this.keys = deriveKeys(key);
  }

  append(entry: StoredAction): void {
    const seq = this.nextSeq();
    mkdirSync(dirname(this.path), { recursive: true });
    // A process killed mid-append leaves a last line without its newline. Appending straight
    // after it would glue this entry onto the fragment, and the reader would skip the glued
    // line whole, losing a good entry along with the torn one. So the first append (and the
    // first after a failed one) ends a torn line before adding its own.
    const line = `${JSON.stringify(seal(this.keys, seq, JSON.stringify(entry)))}\n`;
    const text = this.endKnownWhole || endsWithNewline(this.path) ? line : `\n${line}`;
    this.endKnownWhole = false;
    appendFileSync(this.path, text, { encoding: 'utf8', mode: 0o600 });
    this.endKnownWhole = true;
    this.lastSeq = seq;
  }

  /** Oldest first. */
  read(): ReadResult {
    const entries: StoredAction[] = [];
    let skipped = 0;
    for (const line of this.opened()) {
      if (line.entry) entries.push(line.entry);
      else skipped += 1;
    }
    return { entries, skipped };
  }

  /**
   * Keeps what `keep` returns for each readable entry (the same entry, a changed one, or
   * nothing), each under its own sequence number; unreadable lines go. Returns what went.
   */
  rewrite(keep: (entry: StoredAction) => StoredAction | undefined): { removed: number; unreadable: number; changed: number } {
    if (!existsSync(this.path)) return { removed: 0, unreadable: 0, changed: 0 };
    let removed = 0;
    let unreadable = 0;
    let changed = 0;
    let lastSeq = 0;
    const out: string[] = [];
    for (const { text, seq, entry } of this.opened()) {
      if (!entry) {
        unreadable += 1;
        continue;
      }
      lastSeq = seq;
      const kept = keep(entry);
      if (kept === undefined) removed += 1;
      else if (kept === entry) out.push(text);
      else {
        changed += 1;
        out.push(JSON.stringify(seal(this.keys, seq, JSON.stringify(kept))));
      }
    }
    if (removed + unreadable + changed === 0) return { removed, unreadable, changed };
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, out.map((line) => `${line}\n`).join(''), { encoding: 'utf8', mode: 0o600 });
    renameSync(temporary, this.path);
    this.endKnownWhole = true;
    // Sequence numbers keep rising after a purge, so a line copied back from an old file is out of place.
    this.lastSeq = Math.max(this.lastSeq ?? 0, lastSeq);
    return { removed, unreadable, changed };
  }

  private nextSeq(): number {
    if (this.lastSeq === undefined) {
      // Lines that do not open still hold their number: the next one must be higher.
      this.lastSeq = this.lines().reduce((max, text) => Math.max(max, parseLine(text)?.seq ?? 0), 0);
    }
    return this.lastSeq + 1;
  }

  /**
   * Each line with its entry, or without one when it does not open: torn, altered, under another
   * key, or out of place (a sequence number not above the last good one's: a line copied back).
   */
  private *opened(): Generator<{ text: string; seq: number; entry?: StoredAction }> {
    let lastSeq = 0;
    for (const text of this.lines()) {
      const line = parseLine(text);
      const plain = line && line.seq > lastSeq ? unseal(this.keys, line) : undefined;
      const entry = plain === undefined ? undefined : storedAction(plain);
      if (!line || !entry) {
        yield { text, seq: line?.seq ?? 0 };
        continue;
      }
      lastSeq = line.seq;
      yield { text, seq: line.seq, entry };
    }
  }

  private lines(): string[] {
    if (!existsSync(this.path)) return [];
    return readFileSync(this.path, 'utf8').split('\n').filter((line) => line.trim() !== '');
  }
}

/** Removes the file (retention 0: keep no log). */
export function eraseLogFile(path: string): void {
  rmSync(path, { force: true });
}

function storedAction(plain: string): StoredAction | undefined {
  try {
    const value = JSON.parse(plain) as Partial<StoredAction>;
    if (typeof value.time !== 'number' || typeof value.action !== 'string' || typeof value.cardMatch !== 'string') return undefined;
    return value as StoredAction;
  } catch {
    return undefined;
  }
}

/** True when the file is missing, empty, or ends with a newline: nothing torn to end first. */
function endsWithNewline(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  try {
    const { size } = fstatSync(fd);
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}
