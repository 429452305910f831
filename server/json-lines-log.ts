// The service's log: one JSON object a line on standard output, for journald or the container
// runtime to keep (they rotate it; the desk's own log file rotates itself). Each entry passes the
// desk's redaction first (electron/node/logging/redact.ts): no password, token or title reaches it.
import type { Logger } from '../electron/node/logging/index.ts';
import { redact } from '../electron/node/logging/index.ts';

export interface JsonLinesLogOptions {
  write?: (line: string) => void;
  now?: () => number;
  /** The secrets in use (the partner password, the database's), never written whatever the field. */
  secrets?: () => string[];
  /** Added to every entry: which instance wrote it. */
  instance?: string;
}

export function jsonLinesLog(options: JsonLinesLogOptions = {}): Logger {
  const { write = (line) => process.stdout.write(line), now = Date.now, secrets = () => [], instance } = options;
  const entry = (level: 'info' | 'warn' | 'error') => (event: string, fields: Record<string, unknown> = {}): void => {
    const known = secrets();
    const line: Record<string, unknown> = { time: new Date(now()).toISOString(), level, event: redact(event, known), ...(instance ? { instance } : {}) };
    // A field named like one of these must not hide when, how bad or what.
    for (const [key, value] of Object.entries(redact(fields, known) as Record<string, unknown>)) line[key in line ? `${key}_` : key] = value;
    write(`${JSON.stringify(line)}\n`);
  };
  return { info: entry('info'), warn: entry('warn'), error: entry('error') };
}
