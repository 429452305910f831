// A JSON-lines log file in the app's log folder. Appends are synchronous so a crash loses at
// most the line being written; the file rotates by size (name.log -> name.log.1 -> …) so a
// desk PC left running for months never fills its disk.
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from './redact.ts';

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

export interface FileLoggerOptions {
  dir: string;
  fileName?: string;
  maxBytes?: number;
  /** How many rotated files to keep (.1 is the newest). */
  keep?: number;
  now?: () => number;
  /** The passwords and tokens in use right now; asked at every write, so new ones are covered. */
  secrets?: () => string[];
}

type Level = 'info' | 'warn' | 'error';
const RESERVED_FIELDS = new Set(['time', 'level', 'event']);

export function createFileLogger(options: FileLoggerOptions): Logger & { close(): void; readonly path: string } {
  const { dir, fileName = 'lending-desk.log', maxBytes = 1024 * 1024, keep = 3, now = Date.now, secrets = () => [] } = options;
  const path = join(dir, fileName);
  mkdirSync(dir, { recursive: true });
  let closed = false;

  function rotate(): void {
    rmSync(`${path}.${keep}`, { force: true });
    for (let index = keep - 1; index >= 1; index -= 1) {
      try {
        renameSync(`${path}.${index}`, `${path}.${index + 1}`);
      } catch {
        // A gap in the numbering (a file deleted by hand) is no reason to stop rotating.
      }
    }
    if (keep >= 1) renameSync(path, `${path}.1`);
    else rmSync(path, { force: true });
  }

  function currentSize(): number {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  }

  function write(level: Level, event: string, fields: Record<string, unknown> = {}): void {
    if (closed) return;
    let line = '';
    try {
      const known = secrets();
      const entry: Record<string, unknown> = { time: new Date(now()).toISOString(), level, event: redact(String(event), known) };
      const safeFields = redact(fields, known);
      if (typeof safeFields === 'object' && safeFields !== null) {
        for (const [key, value] of Object.entries(safeFields)) {
          // A field called "time" must not hide when the entry was written.
          entry[RESERVED_FIELDS.has(key) ? `${key}_` : key] = value;
        }
      }
      line = `${JSON.stringify(entry)}\n`;
      const size = currentSize();
      if (size > 0 && size + Buffer.byteLength(line) > maxBytes) rotate();
      appendFileSync(path, line, { encoding: 'utf8', mode: 0o600 });
    } catch (error) {
      // Logging must never break the desk: a full disk or a locked file only costs the line.
      process.stderr.write(`lending-desk log write failed (${error instanceof Error ? error.message : 'unknown'})\n`);
    }
  }

  return {
    path,
    info: (event, fields) => write('info', event, fields),
    warn: (event, fields) => write('warn', event, fields),
    error: (event, fields) => write('error', event, fields),
    close() {
      closed = true;
    },
  };
}
