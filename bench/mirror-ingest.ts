// Ingest figures of the mirror, each beside the limit it is held to, measured in the
// same run against the same sandbox:
// - the HTTP limit: the partner client's bare paged extraction of the global catalog (every
//   page fetched and parsed, nothing stored);
// - the full ingest: the same pages through the real sync path (a connection's mirror, syncNow:
//   pages fetched in this process, read and stored by the mirror's owner thread), the search
//   index built at the end;
// - the bulk limit: a sample of the same pages, read from disk, parsed and each record made into
//   what the mirror keeps of it (the client's normalised record in the compact form of
//   title-record.ts, its columns and search words), inserted with plain statements into a fresh
//   database with no triggers, its FTS5 index built once afterwards. (Before the mirror's
//   schema 6 the mirror kept each record as sent, and so did this limit: it then only sliced
//   each record's text out of the page. Keeping less costs the normalising and encoding, here
//   as in the mirror.)
// - the insert path: the same sample, also from disk, through the owner's own code for a page
//   (MirrorOwner.serve, driven in this thread: each page read and stored, the run's end
//   building its index).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { DeskMirror } from '../electron/main/mirror/desk-mirror.ts';
import type { AnswerOf, ArgsOf, MirrorCall, MirrorRequest } from '../electron/node/mirror-interface.ts';
import { MirrorOwner } from '../electron/mirror-owner/mirror-owner.ts';
import type { SyncRequest } from '../electron/node/sync/engine.ts';
import { PartnerClient } from '../electron/node/partner/client.ts';
import { pageMetadata, parseGlobalContentPage } from '../electron/node/partner/normalize.ts';
import { encodeRecord, type Vocabulary } from '../electron/mirror-owner/title-record.ts';
import { wordsOf } from '../electron/mirror-owner/title-row.ts';
import type { Country } from '../electron/shared/model.ts';
import { sandboxToken, type SandboxProcess } from './sandbox-process.ts';

export const PAGE = Number(process.env.PAGE ?? 500);
const SAMPLE_PAGES = 150;

export interface IngestFigures {
  httpRecordsPerSecond: number;
  ingestRecords: number;
  ingestSeconds: number;
  ingestRecordsPerSecond: number;
  bulkLimitPerSecond: number;
  insertPathPerSecond: number;
  sampleRecords: number;
}

const clientOf = (sandbox: Pick<SandboxProcess, 'url' | 'username' | 'password'>): PartnerClient =>
  new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password } });

/** Records a second of the client's paged extraction, nothing stored (`maxPages` for a warm-up). */
export async function bareExtraction(sandbox: Pick<SandboxProcess, 'url' | 'username' | 'password'>, country: Country, maxPages = Infinity): Promise<{ records: number; seconds: number }> {
  const client = clientOf(sandbox);
  const started = performance.now();
  let records = 0;
  let pages = 0;
  for await (const page of client.globalContentPages({ countries: [country], limit: PAGE })) {
    records += page.items.length;
    if (++pages >= maxPages) break;
  }
  return { records, seconds: (performance.now() - started) / 1000 };
}

/** The first pages of the global catalog as the service sends them, one file each. */
async function savePages(sandbox: Pick<SandboxProcess, 'url' | 'username' | 'password'>, country: Country, dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const token = await sandboxToken(sandbox);
  const files: string[] = [];
  let startToken: string | undefined;
  for (let i = 0; i < SAMPLE_PAGES; i++) {
    const url = `${sandbox.url}/api/v1/global-contents?countryCodes=${country}&limit=${PAGE}${startToken ? `&startToken=${startToken}` : ''}`;
    const text = await (await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } })).text();
    const file = join(dir, `page-${i}.json`);
    writeFileSync(file, text);
    files.push(file);
    startToken = pageMetadata(JSON.parse(text)).next;
    if (startToken === undefined) break;
  }
  return files;
}

/** Words kept in memory only: the least a vocabulary could cost. */
function memoryVocabulary(): Vocabulary {
  const ids = new Map<string, number>();
  const texts = [''];
  return {
    idOf: (text) => ids.get(text) ?? (ids.set(text, texts.length), texts.push(text) - 1),
    textOf: (id) => texts[id] as string,
  };
}

/** Plain inserts, no triggers, the full-text index built once at the end: the least a mirror keeping what this one keeps could do. */
function bulkLimit(files: string[], path: string): number {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(`CREATE TABLE titles (id INTEGER PRIMARY KEY, title TEXT, artist TEXT, format TEXT, year INTEGER,
    for_children INTEGER NOT NULL DEFAULT 0, seen_run INTEGER NOT NULL, words TEXT, record BLOB)`);
  const title = db.prepare('INSERT INTO titles VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)');
  const vocabulary = memoryVocabulary();
  let records = 0;
  const started = performance.now();
  for (const file of files) {
    const page = parseGlobalContentPage(JSON.parse(readFileSync(file, 'utf8')));
    db.exec('BEGIN');
    for (const change of page.items) {
      if (change.kind !== 'upsert') continue;
      const r = change.record;
      title.run(r.id, r.title ?? null, r.artist ?? r.artists[0]?.name ?? null, r.format ?? null, r.year ?? null, r.forChildren ? 1 : 0,
        wordsOf(r), encodeRecord(r, vocabulary));
      records++;
    }
    db.exec('COMMIT');
  }
  // The mirror's own index: its tokenizer, prefix lengths and options.
  db.exec(`CREATE VIRTUAL TABLE title_words USING fts5(words, content='titles', content_rowid='id', tokenize='ascii', prefix='3 4', detail=none, columnsize=0)`);
  db.exec("INSERT INTO title_words (title_words) VALUES ('rebuild')");
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return records / seconds;
}

/** The owner's own code over the same pages: a full run of the global catalog, its end building the index. */
function insertPath(files: string[], path: string): number {
  const owner = new MirrorOwner({ databasePath: path });
  let id = 0;
  const ask = <K extends MirrorCall>(call: K, ...args: ArgsOf<K>): AnswerOf<K> => {
    let answer: AnswerOf<K> | undefined;
    owner.serve({ id: ++id, call, args } as MirrorRequest, (reply) => {
      if (reply.kind === 'refused') throw new Error(reply.error.message);
      if (reply.kind === 'answer') answer = reply.answer as AnswerOf<K>;
    });
    return answer as AnswerOf<K>;
  };
  let records = 0;
  const started = performance.now();
  const { run } = ask('openRun', { source: { kind: 'global' }, startedAt: 1 });
  for (const [i, file] of files.entries()) {
    const bytes = readFileSync(file);
    records += ask('storePage', run, i + 1, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer).items;
  }
  ask('finishRun', run);
  const seconds = (performance.now() - started) / 1000;
  ask('close');
  return records / seconds;
}

/** The two limits on the same sample, alternated twice (the better of each), so a busy moment on the machine hits both alike. */
export async function writeLimits(sandbox: Pick<SandboxProcess, 'url' | 'username' | 'password'>, country: Country, dir: string): Promise<{ bulkLimitPerSecond: number; insertPathPerSecond: number; sampleRecords: number }> {
  const files = await savePages(sandbox, country, join(dir, 'pages'));
  const bulk: number[] = [];
  const insert: number[] = [];
  for (let round = 0; round < 2; round++) {
    bulk.push(bulkLimit(files, join(dir, `bulk-${round}.db`)));
    insert.push(insertPath(files, join(dir, `insert-${round}.db`)));
    for (const name of [`bulk-${round}.db`, `insert-${round}.db`]) for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, name + suffix), { force: true });
  }
  rmSync(join(dir, 'pages'), { recursive: true, force: true });
  return { bulkLimitPerSecond: Math.max(...bulk), insertPathPerSecond: Math.max(...insert), sampleRecords: files.length * PAGE };
}

/** The full ingest of the global catalog through the sync as the desk runs it (the owner's thread). */
export async function fullIngest(catalog: DeskMirror, country: Country): Promise<{ records: number; seconds: number }> {
  const request: SyncRequest = { countries: [country], libraries: [], source: 'global+entitlements', pageSize: PAGE, full: true };
  const started = performance.now();
  const status = await catalog.syncNow(request);
  const seconds = (performance.now() - started) / 1000;
  return { records: status.sources.find((s) => s.source === 'global')?.items ?? 0, seconds };
}
