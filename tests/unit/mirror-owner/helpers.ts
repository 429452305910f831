// Fixtures for mirror tests: a sandbox over HTTP, mirrors in a temporary folder, and
// fingerprints that compare a mirror with the service (or with another mirror) exactly.
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DeskMirror } from '../../../electron/main/mirror/desk-mirror.ts';
import { ContentKeys } from '../../../electron/mirror-owner/content-keys.ts';
import { decodeRecord } from '../../../electron/mirror-owner/title-record.ts';
import { StoredVocabulary } from '../../../electron/mirror-owner/vocabulary.ts';
import { PartnerClient } from '../../../electron/node/partner/client.ts';
import type { CatalogRecord, ContentId, Country, PurchaseModel } from '../../../electron/shared/model.ts';
import type { SandboxHandle } from '../../../electron/main/sandbox/server.ts';

export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'mirror-'));

/** Where the sync child (tests/reliability/children/sync-child.ts) finds the service. */
export interface ChildConnection { baseUrl: string; username: string; password: string; wsApi: string }

export const connectionOf = (sandbox: SandboxHandle): ChildConnection => ({
  baseUrl: sandbox.url, username: sandbox.username, password: sandbox.password, wsApi: '2.1',
});

export const clientOf = (sandbox: SandboxHandle): PartnerClient =>
  new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password } });

/** A mirror over the sandbox, as a connection builds it (one client: its desk and background views; the owner on its thread). */
export function serviceOf(sandbox: SandboxHandle, databasePath: string, extra: { diskSpaceKeptFree?: number } = {}): DeskMirror {
  const client = clientOf(sandbox);
  return new DeskMirror({ databasePath, staff: client, background: client.withPriority('background'), ...extra });
}

/** The mirror's file opened by the test itself, to look inside it (the desk's owner thread may hold it too: WAL lets both). */
export const openFile = (path: string): DatabaseSync => new DatabaseSync(path);

/** SQLite's own check of the whole file. */
export const integrityOf = (db: DatabaseSync): string => (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;

/** Every source's state, as the file holds it. */
export const sourcesOf = (db: DatabaseSync): { source: string; in_progress: number }[] =>
  db.prepare('SELECT source, in_progress FROM sync_state ORDER BY source').all() as { source: string; in_progress: number }[];

export const countriesOf = (sandbox: SandboxHandle): Country[] => [...new Set(sandbox.libraries.map((l) => l.country as Country))];

const sha = (lines: string[]): string => createHash('sha256').update(lines.sort().join('\n')).digest('hex');

/**
 * Ids, key fields and records of every mirrored title, and of every entitlement; and what search and the
 * browser read: every word of the full-text index with the title it points to, and the columns
 * each entitlement row copies from its title.
 */
export function mirrorFingerprint(db: DatabaseSync): { titles: number; titleSum: string; entitlements: number; entitlementSum: string; searchSum: string; collectionSum: string } {
  const vocabulary = new StoredVocabulary(db);
  const keys = new ContentKeys(db);
  const titles = db.prepare('SELECT id, title, format, title_id, record FROM titles').all() as { id: number; title: string | null; format: string | null; title_id: number | null; record: Uint8Array }[];
  const ents = db.prepare('SELECT library_id, content_id, model, active FROM entitlements').all() as { library_id: number; content_id: number; model: string; active: number }[];
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.fingerprint_words USING fts5vocab(main, title_words, instance)');
  const words = db.prepare('SELECT term, doc FROM temp.fingerprint_words').all() as { term: string; doc: number }[];
  const collections = db.prepare('SELECT library_id, content_id, title, artist, format, year, kids, flags, avail, words FROM entitlements').all() as Record<string, unknown>[];
  return {
    titles: titles.length,
    // The record as the details read it, and the title id a search result names.
    titleSum: sha(titles.map((t) => `${t.id}|${t.title ?? ''}|${t.format ?? ''}|${t.title_id ?? ''}|${JSON.stringify(decodeRecord(t.record, keys.contentIdOf(t.id), vocabulary))}`)),
    entitlements: ents.length,
    entitlementSum: sha(ents.map((e) => `${e.library_id}|${e.content_id}|${e.model}|${e.active}`)),
    searchSum: sha(words.map((w) => `${w.term}|${w.doc}`)),
    collectionSum: sha(collections.map((row) => JSON.stringify(Object.values(row)))),
  };
}

/** The full-text index holds exactly the stored words of every title (FTS5's own check against its content). */
export function searchIndexMatchesWords(db: DatabaseSync): boolean {
  try {
    db.exec("INSERT INTO title_words (title_words, rank) VALUES ('integrity-check', 1)");
    return true;
  } catch {
    return false;
  }
}

/** The same fingerprint read straight from the service. */
export async function serviceFingerprint(sandbox: SandboxHandle): Promise<{ titles: number; titleKeys: string; entitlements: number; entitlementSum: string }> {
  const client = clientOf(sandbox);
  const titleLines: string[] = [];
  for await (const page of client.globalContentPages({ countries: countriesOf(sandbox), limit: 500 })) {
    for (const c of page.items) if (c.kind === 'upsert') titleLines.push(`${c.record.id}|${c.record.title ?? ''}|${c.record.format ?? ''}`);
  }
  const entLines: string[] = [];
  for (const { libraryId } of sandbox.libraries) {
    for (const model of ['INSTANT', 'FLEX'] as PurchaseModel[]) {
      for await (const page of client.entitlementPages(libraryId, { purchaseModel: model, limit: 500 })) {
        for (const e of page.items) entLines.push(`${libraryId}|${e.contentId}|${model}|${e.active ? 1 : 0}`);
      }
    }
  }
  return { titles: titleLines.length, titleKeys: sha(titleLines), entitlements: entLines.length, entitlementSum: sha(entLines) };
}

/** Every title of the service's global catalog as the client normalises it, by id. */
export async function collectRecords(sandbox: SandboxHandle): Promise<Map<ContentId, CatalogRecord>> {
  const records = new Map<ContentId, CatalogRecord>();
  for await (const page of clientOf(sandbox).globalContentPages({ countries: countriesOf(sandbox), limit: 500 })) {
    for (const c of page.items) if (c.kind === 'upsert') records.set(c.record.id, c.record);
  }
  return records;
}

export function mirrorTitleKeys(db: DatabaseSync): string {
  const rows = db.prepare('SELECT id, title, format FROM titles').all() as { id: number; title: string | null; format: string | null }[];
  return sha(rows.map((t) => `${t.id}|${t.title ?? ''}|${t.format ?? ''}`));
}

/**
 * What differs between two mirrors, in lines a person can read: per table, the row counts, a few
 * ids found in one and not the other, and for rows in both, which fields differ (with a few ids).
 * Empty when the fingerprints agree. For when a fingerprint comparison says "no".
 */
export function mirrorDifferences(a: DatabaseSync, b: DatabaseSync, names: [string, string] = ['a', 'b']): string[] {
  const rowsOf = (db: DatabaseSync): Map<string, Map<string, Record<string, unknown>>> => {
    const vocabulary = new StoredVocabulary(db);
    const keys = new ContentKeys(db);
    const tables = new Map<string, Map<string, Record<string, unknown>>>();
    const titles = new Map<string, Record<string, unknown>>();
    for (const t of db.prepare('SELECT id, title, format, title_id, words, record FROM titles').all() as Record<string, unknown>[]) {
      const contentId = keys.contentIdOf(t.id as number);
      const record = decodeRecord(t.record as Uint8Array, contentId, vocabulary) as unknown as Record<string, unknown>;
      const row: Record<string, unknown> = { title: t.title, format: t.format, title_id: t.title_id, words: t.words };
      for (const [field, value] of Object.entries(record)) row[`record.${field}`] = JSON.stringify(value);
      titles.set(String(contentId), row);
    }
    tables.set('titles', titles);
    const ents = new Map<string, Record<string, unknown>>();
    for (const e of db.prepare('SELECT * FROM entitlements').all() as Record<string, unknown>[]) {
      const { library_id, content_id, seen_run: _seen, ...rest } = e;
      ents.set(`${String(library_id)}/${String(keys.contentIdOf(content_id as number))}`, rest);
    }
    tables.set('entitlements', ents);
    db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.difference_words USING fts5vocab(main, title_words, instance)');
    const words = new Map<string, Record<string, unknown>>();
    for (const w of db.prepare('SELECT term, doc FROM temp.difference_words').all() as { term: string; doc: number }[]) {
      words.set(`${w.term}@${String(keys.contentIdOf(w.doc))}`, {});
    }
    tables.set('search words', words);
    return tables;
  };
  const left = rowsOf(a);
  const right = rowsOf(b);
  const few = (ids: string[]): string => `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`;
  const lines: string[] = [];
  for (const [table, rowsA] of left) {
    const rowsB = right.get(table) ?? new Map<string, Record<string, unknown>>();
    const onlyA = [...rowsA.keys()].filter((id) => !rowsB.has(id));
    const onlyB = [...rowsB.keys()].filter((id) => !rowsA.has(id));
    const fields = new Map<string, string[]>();
    for (const [id, rowA] of rowsA) {
      const rowB = rowsB.get(id);
      if (rowB === undefined) continue;
      for (const field of new Set([...Object.keys(rowA), ...Object.keys(rowB)])) {
        if (rowA[field] === rowB[field]) continue;
        const ids = fields.get(field) ?? [];
        fields.set(field, ids);
        ids.push(id);
      }
    }
    if (onlyA.length === 0 && onlyB.length === 0 && fields.size === 0) continue;
    const parts = [`${table}: ${rowsA.size.toLocaleString('en-US')} in ${names[0]}, ${rowsB.size.toLocaleString('en-US')} in ${names[1]}`];
    if (onlyA.length > 0) parts.push(`${onlyA.length} only in ${names[0]} (${few(onlyA)})`);
    if (onlyB.length > 0) parts.push(`${onlyB.length} only in ${names[1]} (${few(onlyB)})`);
    for (const [field, ids] of fields) {
      const [id] = ids as [string];
      parts.push(`${field} differs in ${ids.length} (${few(ids)}; ${id}: ${String(rowsA.get(id)?.[field]).slice(0, 60)} / ${String(rowsB.get(id)?.[field]).slice(0, 60)})`);
    }
    lines.push(parts.join('; '));
  }
  return lines;
}
