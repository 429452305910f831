// Rows into a table with COPY … FROM STDIN (PostgreSQL's text format): the bulk path, one
// round trip for a page of records instead of one statement per row.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CopyValue = string | number | boolean | null | readonly string[];

/** Backslash, tab, newline and carriage return are what the text format escapes. */
const SPECIAL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** An array of plain codes (a title's countries) as an array literal; each element quoted. */
const arrayLiteral = (values: readonly string[]): string => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

export function copyField(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`A COPY field cannot be ${value}.`);
    return String(value);
  }
  const text = typeof value === 'string' ? value : arrayLiteral(value);
  // PostgreSQL's text cannot hold NUL: a JSON text escapes it, so only a stray one is dropped.
  return text.replace(SPECIAL, (c) => ESCAPES[c] as string).replace(/\u0000/g, '');
}

/** The rows as COPY's text format. */
export function copyText(rows: Iterable<readonly CopyValue[]>): string {
  let text = '';
  for (const row of rows) text += `${row.map(copyField).join('\t')}\n`;
  return text;
}

/** Copies `rows` into `table` (`columns` in order) on `session`, inside whatever transaction it has open. */
export async function copyRows(session: pg.ClientBase, table: string, columns: readonly string[], rows: Iterable<readonly CopyValue[]>): Promise<void> {
  await copyBytes(session, table, columns, Buffer.from(copyText(rows), 'utf8'));
}

/** Copies rows already in COPY's text format, UTF-8 (copyText's, made on the page reader's thread). */
export async function copyBytes(session: pg.ClientBase, table: string, columns: readonly string[], bytes: Uint8Array): Promise<void> {
  const stream = session.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  await pipeline(Readable.from([bytes]), stream);
}
