// The action log on disk: a header naming the chain, then one sealed entry per line
// (entry-cipher.ts), appended synchronously so a crash loses at most the entry being written.
// Reading skips, and counts, every line that is torn, altered, out of place or under another key:
// one bad line never hides the others. Each line also carries a MAC over the line before it, so
// check() finds where a line was removed, reordered or copied in, and where the file ends; the
// keychain's head (chain-head.ts) says where it should end. Rewriting (the retention purge)
// writes a whole new file — a new chain — beside the old and renames it over.
import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ActionEntry } from '../../shared/action-log.ts';
import { chainMac, chainStart, deriveKeys, parseLine, seal, unseal, type LogKeys, type SealedLine } from './entry-cipher.ts';

/** An entry as stored: what staff see, plus the keyed hash its whole card is matched by. */
export interface StoredAction extends ActionEntry { cardMatch: string }

export interface ReadResult { entries: StoredAction[]; skipped: number }

/** Where a chain ends: which chain (the header's epoch), how many chained lines, the last one's MAC. */
export interface ChainTail { epoch: string; count: number; mac: string }

/** What walking the file found. */
export interface ChainWalk {
  /** The header's epoch, when the file has one. */
  epoch?: string;
  /** Each chained line's MAC, in file order. */
  macs: string[];
  /** Lines (1-based, in the file) whose MAC does not follow the line before: a removal, a move or an insertion just before them. */
  breaks: number[];
  /** Lines without a MAC (written by an earlier version). */
  unchained: number;
  tail: ChainTail;
}

const HEADER_FORMAT = 1;
interface Header { chain: number; epoch: string }

export function newEpoch(): string {
  return randomBytes(12).toString('base64url');
}

export class ActionLogFile {
  readonly path: string;
  readonly keys: LogKeys;
  /** The last sequence number in the file, once read; the next entry gets the one after. */
  private lastSeq: number | undefined;
  /** Where the chain ends, once walked; the next line chains to it. */
  private tail: ChainTail | undefined;
  /** True once an append of ours went through whole: the file then ends with a newline. */
  private endKnownWhole = false;

  constructor(path: string, key: Buffer) {
    this.path = path;
    this.keys = deriveKeys(key);
  }

  /** Appends one entry, chained to the last; returns where the chain now ends (for the keychain's head). */
  append(entry: StoredAction): ChainTail {
    const seq = this.nextSeq();
    const tail = this.tail ?? this.walk().tail;
    mkdirSync(dirname(this.path), { recursive: true });
    const sealed = seal(this.keys, seq, JSON.stringify(entry));
    const mac = chainMac(this.keys, tail.mac, sealed);
    // A new (or emptied) file starts with its chain's header.
    const header = this.lines().length === 0 ? `${JSON.stringify({ chain: HEADER_FORMAT, epoch: tail.epoch } satisfies Header)}\n` : '';
    // A process killed mid-append leaves a last line without its newline. Appending straight
    // after it would glue this entry onto the fragment, and the reader would skip the glued
    // line whole, losing a good entry along with the torn one. So the first append (and the
    // first after a failed one) ends a torn line before adding its own.
    const line = `${header}${JSON.stringify({ ...sealed, mac })}\n`;
    const text = this.endKnownWhole || endsWithNewline(this.path) ? line : `\n${line}`;
    this.endKnownWhole = false;
    appendFileSync(this.path, text, { encoding: 'utf8', mode: 0o600 });
    this.endKnownWhole = true;
    this.lastSeq = seq;
    this.tail = { epoch: tail.epoch, count: tail.count + 1, mac };
    return this.tail;
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
   * The chain as the file holds it: where it breaks and where it ends. Torn or unreadable lines
   * are not links (a crash tears the last line; read() counts them); every line with a MAC is.
   */
  walk(): ChainWalk {
    const texts = this.lines();
    const header = parseHeader(texts[0]);
    const epoch = header?.epoch ?? newEpoch();
    let previous: string | undefined = header ? chainStart(this.keys, header.epoch) : undefined;
    const macs: string[] = [];
    const breaks: number[] = [];
    let unchained = 0;
    texts.forEach((text, index) => {
      if (index === 0 && header) return;
      const line = parseLine(text);
      if (!line) return;
      if (line.mac === undefined) {
        unchained += 1;
        return;
      }
      if (previous === undefined || chainMac(this.keys, previous, line) !== line.mac) breaks.push(index + 1);
      previous = line.mac;
      macs.push(line.mac);
    });
    const tail = { epoch, count: macs.length, mac: previous ?? chainStart(this.keys, epoch) };
    this.tail = header || texts.length === 0 ? tail : undefined;
    return { ...(header ? { epoch: header.epoch } : {}), macs, breaks, unchained, tail };
  }

  /**
   * Keeps what `keep` returns for each readable entry (the same entry, a changed one, or
   * nothing), each under its own sequence number, in a new chain; unreadable lines go.
   * `beforeReplacing` is told where the new chain will end before the new file replaces the old
   * (the keychain learns it first, so a crash between the two is told from an edit). Returns what went.
   */
  async rewrite(keep: (entry: StoredAction) => StoredAction | undefined, beforeReplacing: (tail: ChainTail) => Promise<void>): Promise<{ removed: number; unreadable: number; changed: number; tail?: ChainTail }> {
    if (!existsSync(this.path)) return { removed: 0, unreadable: 0, changed: 0 };
    let removed = 0;
    let unreadable = 0;
    let changed = 0;
    let lastSeq = 0;
    const kept: SealedLine[] = [];
    for (const { line, seq, entry } of this.opened()) {
      if (!entry || !line) {
        unreadable += 1;
        continue;
      }
      lastSeq = seq;
      const after = keep(entry);
      if (after === undefined) removed += 1;
      else if (after === entry) kept.push(line);
      else {
        changed += 1;
        kept.push(seal(this.keys, seq, JSON.stringify(after)));
      }
    }
    if (removed + unreadable + changed === 0) return { removed, unreadable, changed };
    const epoch = newEpoch();
    let mac = chainStart(this.keys, epoch);
    const out = [JSON.stringify({ chain: HEADER_FORMAT, epoch } satisfies Header)];
    for (const { v, seq, iv, data } of kept) {
      mac = chainMac(this.keys, mac, { seq, iv, data });
      out.push(JSON.stringify({ v, seq, iv, data, mac }));
    }
    const tail: ChainTail = { epoch, count: kept.length, mac };
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, out.map((line) => `${line}\n`).join(''), { encoding: 'utf8', mode: 0o600 });
    await beforeReplacing(tail);
    renameSync(temporary, this.path);
    this.endKnownWhole = true;
    this.tail = tail;
    // Sequence numbers keep rising after a purge, so a line copied back from an old file is out of place.
    this.lastSeq = Math.max(this.lastSeq ?? 0, lastSeq);
    return { removed, unreadable, changed, tail };
  }

  private nextSeq(): number {
    if (this.lastSeq === undefined) {
      // Lines that do not open still hold their number: the next one must be higher.
      this.lastSeq = this.lines().reduce((max, text) => Math.max(max, parseLine(text)?.seq ?? 0), 0);
    }
    return this.lastSeq + 1;
  }

  /**
   * Each entry line with its entry, or without one when it does not open: torn, altered, under
   * another key, or out of place (a sequence number not above the last good one's: a line copied back).
   */
  private *opened(): Generator<{ line?: SealedLine; seq: number; entry?: StoredAction }> {
    let lastSeq = 0;
    const texts = this.lines();
    for (const [index, text] of texts.entries()) {
      if (index === 0 && parseHeader(text)) continue;
      const line = parseLine(text);
      const plain = line && line.seq > lastSeq ? unseal(this.keys, line) : undefined;
      const entry = plain === undefined ? undefined : storedAction(plain);
      if (!line || !entry) {
        yield { seq: line?.seq ?? 0 };
        continue;
      }
      lastSeq = line.seq;
      yield { line, seq: line.seq, entry };
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

function parseHeader(text: string | undefined): Header | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<Header>;
    return value.chain === HEADER_FORMAT && typeof value.epoch === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(value.epoch) ? value as Header : undefined;
  } catch {
    return undefined;
  }
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
