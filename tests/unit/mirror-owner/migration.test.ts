// A desk upgraded from an earlier version opens the mirror that version wrote without syncing
// again: browsing works at once, the owner converts it in the background a chunk at a time
// while the Collection and the Sync view say so, and the end result is the mirror a fresh sync
// writes. From schema 1 (an FTS5 table kept by triggers, no copied columns) search words are
// computed too, and a sync that version left half done resumes from its stored page token; from
// schemas 3 and 5 (records normalised, or as the service sent them) every title's details read
// right throughout, and the file is compacted at the end.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, SCHEMA_VERSION } from '../../../electron/mirror-owner/schema.ts';
import { decodeRecord } from '../../../electron/mirror-owner/title-record.ts';
import { wordsOf } from '../../../electron/mirror-owner/title-row.ts';
import { StoredVocabulary } from '../../../electron/mirror-owner/vocabulary.ts';
import { decoded } from '../../../electron/node/partner/bytes.ts';
import type { SyncRequest } from '../../../electron/node/sync/engine.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import { MIRROR_UPGRADE_STEP } from '../../../electron/shared/collection.ts';
import { clientOf, collectRecords, countriesOf, integrityOf, mirrorFingerprint, searchIndexMatchesWords, serviceFingerprint, serviceOf, tempDir } from './helpers.ts';
import { referenceIds } from './collection-reference.ts';

let sandbox: SandboxHandle;
let dir: string;
const request = (extra: Partial<SyncRequest> = {}): SyncRequest => ({
  countries: countriesOf(sandbox), libraries: sandbox.libraries.map((l) => l.libraryId), source: 'global+entitlements', pageSize: 200, ...extra,
});
const service = (name: string) => serviceOf(sandbox, join(dir, `${name}.db`));

beforeAll(async () => {
  sandbox = await startSandbox({ catalogSize: 6000 });
  dir = tempDir();
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A mirror as version `version` of the desk left it (1: an FTS5 table kept by triggers, no
 * copied columns; 3: records normalised; 5: records as the service sent them, in `wire`),
 * holding the titles of `from` (a mirror this version wrote) — all of them, or `titleIds` — and,
 * for all, its entitlements, availability and sync state.
 */
function earlierMirror(version: 1 | 3 | 5, path: string, from: string, options: { titleIds?: number[]; sent?: Map<number, string> } = {}): void {
  const source = new DatabaseSync(from);
  const vocabulary = new StoredVocabulary(source);
  const only = options.titleIds ? `WHERE id IN (${options.titleIds.join(',')})` : '';
  const records = (source.prepare(`SELECT id, seen_run, record FROM titles ${only}`).all() as { id: number; seen_run: number; record: Uint8Array }[])
    .map((t) => ({ seen: t.seen_run, record: decodeRecord(t.record, t.id, vocabulary) }));
  source.close();
  const db = new DatabaseSync(path);
  migrate(db, 1);
  db.exec('BEGIN');
  const title = db.prepare(`INSERT INTO titles (id, title, series, artist, format, year, isbn, upc, for_children, cover, countries, seen_run)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const record = db.prepare('INSERT INTO title_records (id, record) VALUES (?, ?)');
  for (const { seen, record: r } of records) {
    title.run(r.id, r.title ?? null, r.series ?? null, r.artist ?? r.artists[0]?.name ?? null, r.format ?? null, r.year ?? null, r.isbn ?? null,
      r.upc ?? null, r.forChildren ? 1 : 0, r.coverImageUrl ?? null, r.countries.join(','), seen);
    record.run(r.id, JSON.stringify(r)); // every version before 4 kept the record normalised
  }
  if (!options.titleIds) {
    db.exec(`ATTACH '${from}' AS ref`);
    db.exec('INSERT INTO entitlements (library_id, content_id, model, active, seen_run) SELECT library_id, content_id, model, active, seen_run FROM ref.entitlements');
    db.exec(`INSERT INTO availability SELECT library_id, content_id, status, available_copies, total_copies, holds_queue_size, read_at FROM ref.availability`);
    db.exec(`INSERT INTO sync_state SELECT source, in_progress, next_token, run_since, run_started_at, last_success_at, last_attempt_at, last_error, items FROM ref.sync_state`);
  }
  db.exec('COMMIT');
  if (!options.titleIds) db.exec('DETACH ref');
  if (version === 1) {
    expect((db.prepare("SELECT count(*) AS n FROM titles_fts WHERE titles_fts MATCH 'the'").get() as { n: number }).n).toBeGreaterThan(0);
  } else {
    migrate(db, version);
    // Those versions computed every title's words as they stored it.
    db.exec('BEGIN');
    const words = db.prepare('UPDATE titles SET words = ? WHERE id = ?');
    for (const { record: r } of records) words.run(wordsOf(r), r.id);
    db.exec("DELETE FROM mirror_state WHERE key = 'words_after'");
    db.exec('UPDATE entitlements SET words = (SELECT words FROM titles WHERE id = content_id)');
    db.exec("INSERT INTO title_words (title_words) VALUES ('rebuild')");
    if (version === 5) {
      const sent = db.prepare('UPDATE title_records SET record = ?, wire = 1 WHERE id = ?');
      for (const [id, text] of options.sent ?? []) sent.run(text, id);
    }
    db.exec('COMMIT');
  }
  expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(version);
  db.close();
}

describe('a mirror written by the previous version (schema 1)', () => {
  it('migrates in place: browsing at once, search once its words are computed (saying so meanwhile), equal to a fresh sync', async () => {
    const fresh = service('fresh');
    await fresh.syncNow(request());
    const libraryId = 101;
    const ids = (await fresh.browse({ libraryId, model: 'FLEX', offset: 0, limit: 150 })).rows.map((r) => r.contentId);
    await fresh.refreshAvailability(libraryId, ids);
    await fresh.close();
    earlierMirror(1, join(dir, 'old.db'), join(dir, 'fresh.db'));

    const upgraded = service('old');
    // Search words come in the background, a chunk at a time, the owner answering between two
    // chunks: the first page (asked for before the owner even started) says how far that is,
    // and so does the Sync view while it goes on; pages asked for one after another see it end.
    const during = await upgraded.browse({ libraryId, text: 'the', offset: 0, limit: 10 });
    expect(during.searchUpgrade).toBeGreaterThanOrEqual(0);
    expect(during.searchUpgrade).toBeLessThan(1);
    const syncView = (await upgraded.status()).running;
    if (syncView) expect(syncView).toMatchObject({ source: 'search-index', total: 100 });
    const probe = new DatabaseSync(join(dir, 'old.db'), { readOnly: true });
    expect((probe.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
    // Filters, sorts and counts are right meanwhile: the copied columns were filled by the migration.
    for (const query of [{ libraryId }, { libraryId, model: 'FLEX' as const, sort: 'availability' as const }, { libraryId, availableNow: true, sort: 'artist' as const, direction: 'desc' as const }]) {
      const expected = referenceIds(probe, query);
      const page = await upgraded.browse({ ...query, offset: 0, limit: 500 });
      expect(page.total).toBe(expected.length);
      expect(page.rows.map((r) => r.contentId)).toEqual(expected.slice(0, 500));
    }
    const seen: (number | undefined)[] = [during.searchUpgrade];
    for (let last = during; last.searchUpgrade !== undefined;) {
      last = await upgraded.browse({ libraryId, text: 'the', offset: 0, limit: 10 });
      seen.push(last.searchUpgrade);
    }
    expect(seen.slice(0, -1).every((p, i) => p !== undefined && p >= (seen[i - 1] ?? 0))).toBe(true); // it moved on, then ended
    expect((await upgraded.status()).running).toBeUndefined();
    for (const text of ['the', 'gar', 'golden riv', 'zzqx']) {
      const expected = referenceIds(probe, { libraryId, text });
      const page = await upgraded.browse({ libraryId, text, exactCount: true, offset: 0, limit: 500 });
      expect(page.total, text).toBe(expected.length);
      expect(page.rows.map((r) => r.contentId), text).toEqual(expected.slice(0, 500));
    }
    await upgraded.close();
    probe.close();
    // The same mirror a fresh sync writes, search index and copied columns included.
    const [a, b] = [new DatabaseSync(join(dir, 'old.db')), new DatabaseSync(join(dir, 'fresh.db'))];
    expect(mirrorFingerprint(a)).toEqual(mirrorFingerprint(b));
    expect(searchIndexMatchesWords(a)).toBe(true);
    a.close();
    b.close();
  }, 240_000);

  it('a sync the old version left half done resumes from its page token and ends equal to the service', async () => {
    const client = clientOf(sandbox);
    const pages = client.globalContentPages({ countries: countriesOf(sandbox), limit: 200 });
    const seen: number[] = [];
    let token: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = (await pages.next()).value as Awaited<ReturnType<typeof pages.next>>['value'] & { items: { kind: string; record?: { id: number } }[]; next?: string };
      for (const c of page.items) if (c.record) seen.push(c.record.id);
      token = page.next;
    }
    await pages.return(undefined);
    earlierMirror(1, join(dir, 'half.db'), join(dir, 'fresh.db'), { titleIds: seen });
    const old = new DatabaseSync(join(dir, 'half.db'));
    old.prepare(`INSERT INTO sync_state (source, in_progress, next_token, run_since, run_started_at, last_attempt_at, items)
      VALUES ('global', 1, ?, NULL, 1000, 1000, ?)`).run(token ?? null, seen.length);
    old.close();

    const resumed = service('half');
    const status = await resumed.syncNow(request());
    const global = status.sources.find((s) => s.source === 'global')!;
    expect(global.lastSuccessAt).toBe(1000); // the same run went on and finished
    expect(global.items).toBe((await serviceFingerprint(sandbox)).titles); // it counted from where it stopped
    await resumed.close();
    const mirror = new DatabaseSync(join(dir, 'half.db'));
    const expected = await serviceFingerprint(sandbox);
    const actual = mirrorFingerprint(mirror);
    expect({ titles: actual.titles, entitlements: actual.entitlements, entitlementSum: actual.entitlementSum }).toEqual({
      titles: expected.titles, entitlements: expected.entitlements, entitlementSum: expected.entitlementSum,
    });
    // Every title is searchable: the old titles' words came from the upgrade the sync ran first.
    expect((mirror.prepare('SELECT count(*) AS n FROM titles WHERE words IS NULL').get() as { n: number }).n).toBe(0);
    const fresh = new DatabaseSync(join(dir, 'fresh.db'));
    expect(actual.searchSum).toBe(mirrorFingerprint(fresh).searchSum);
    expect(searchIndexMatchesWords(mirror)).toBe(true);
    fresh.close();
    mirror.close();
  }, 240_000);
});

describe('a mirror this desk\'s last version wrote (schema 5: every record as the service sent it)', () => {
  for (const version of [5, 3] as const) {
    it(`schema ${version}: opens at once, details read right throughout, the Sync view shows the upgrade, and it ends as a fresh sync's mirror, smaller`, async () => {
      const fresh = service('fresh-records');
      await fresh.syncNow(request());
      await fresh.close();
      const normalised = await collectRecords(sandbox);
      const sent = new Map<number, string>();
      for await (const page of clientOf(sandbox).bulkPages({ kind: 'global', countries: countriesOf(sandbox), limit: 500 }, async (bytes) => {
        const body = JSON.parse(decoded(bytes)) as { metadata: { nextStartToken?: string }; data: { contents: { id: number; titleId?: unknown }[] } };
        // One record names its title id as a string of digits, as the client reads it too: the upgrade files it as a fresh sync does.
        for (const record of body.data.contents) sent.set(record.id, JSON.stringify(sent.size === 0 ? { ...record, titleId: String(record.titleId) } : record));
        return { ...(body.metadata.nextStartToken === undefined ? {} : { next: body.metadata.nextStartToken }) };
      }));
      const path = join(dir, `schema-${version}.db`);
      earlierMirror(version, path, join(dir, 'fresh-records.db'), { sent });
      const sizeBefore = statSync(path).size;

      const upgraded = serviceOf(sandbox, path);
      // The first answer comes between two chunks of the upgrade: the Sync view says how far it is.
      expect((await upgraded.status()).running).toMatchObject({ source: MIRROR_UPGRADE_STEP, total: 100, done: expect.any(Number) });
      const libraryId = 101;
      const ids = (await upgraded.browse({ libraryId, offset: 0, limit: 300 })).rows.map((r) => r.contentId as number);
      expect(ids).toHaveLength(300);
      // The migration filed each stored title's titleId from its earlier record: search results resolve at once, before the
      // records' conversion reaches them (the spec's reading: a title id is its title's content id).
      const first = ids.slice(0, 20);
      expect(await upgraded.titleContents(libraryId, first)).toEqual(first.map((id) => ({ titleId: id, contents: [expect.objectContaining({ contentId: id })] })));
      const details = async () => {
        for (const id of ids) expect((await upgraded.detail(libraryId, id))?.record, `title ${id}`).toEqual(JSON.parse(JSON.stringify(normalised.get(id))));
      };
      await details(); // read from either form while it goes on
      while ((await upgraded.status()).running !== undefined);
      await details();
      const page = await upgraded.browse({ libraryId, text: 'the', offset: 0, limit: 10 });
      expect(page.searchUpgrade).toBeUndefined(); // search was whole throughout: those versions kept the words
      const after = await upgraded.syncNow(request()); // a delta on the upgraded mirror
      expect(after.sources.every((s) => !s.inProgress && s.lastError === undefined)).toBe(true);
      await upgraded.close();

      const [a, b] = [new DatabaseSync(path), new DatabaseSync(join(dir, 'fresh-records.db'))];
      expect(a.prepare("SELECT name FROM sqlite_schema WHERE name = 'title_records'").get()).toBeUndefined();
      expect((a.prepare('SELECT count(*) AS n FROM titles WHERE record IS NULL').get() as { n: number }).n).toBe(0);
      expect(integrityOf(a)).toBe('ok');
      const [upgradedPrint, freshPrint] = [mirrorFingerprint(a), mirrorFingerprint(b)];
      expect(upgradedPrint).toEqual(freshPrint); // the same titles, records, words, entitlements and their copies
      a.close();
      b.close();
      expect(statSync(path).size).toBeLessThan(sizeBefore / 2); // compacted once converted
    }, 240_000);
  }
});
