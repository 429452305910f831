// A desk upgraded from the previous version opens the mirror that version wrote (schema 1: an
// FTS5 table kept by triggers, no copied columns) without syncing again: browsing works at
// once, search words are computed in the background while the Collection says so, and the end
// result is the mirror a fresh sync writes. A sync the old version left half done resumes from
// its stored page token and ends equal to the service.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogService } from '../../../electron/mirror/catalog-service.ts';
import { migrate, SCHEMA_VERSION } from '../../../electron/mirror/schema.ts';
import { recordOf } from '../../../electron/mirror/title-row.ts';
import type { SyncRequest } from '../../../electron/mirror/sync.ts';
import { startSandbox, type SandboxHandle } from '../../../electron/sandbox/server.ts';
import { clientOf, collectRecords, connectionOf, countriesOf, mirrorFingerprint, searchIndexMatchesWords, serviceFingerprint, serviceOf, tempDir } from './helpers.ts';
import { referenceIds } from './shelf-reference.ts';

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

/** A schema 1 mirror holding `from`'s titles (the old triggers fill the old index), entitlements, availability and sync state. */
function writeSchemaOne(path: string, from: string, titleIds?: number[]): void {
  const db = new DatabaseSync(path);
  migrate(db, 1);
  db.exec(`ATTACH '${from}' AS ref`);
  const only = titleIds ? `WHERE id IN (${titleIds.join(',')})` : '';
  db.exec(`INSERT INTO titles (id, title, series, artist, format, year, isbn, upc, for_children, cover, countries, seen_run)
    SELECT id, title, series, artist, format, year, isbn, upc, for_children, cover, countries, seen_run FROM ref.titles ${only}`);
  // That version stored every record normalised.
  const records = db.prepare(`SELECT id, record, wire FROM ref.title_records ${only}`).all() as { id: number; record: string; wire: number }[];
  const insert = db.prepare('INSERT INTO title_records (id, record) VALUES (?, ?)');
  for (const r of records) insert.run(r.id, JSON.stringify(recordOf(r.record, r.wire, r.id)));
  if (!titleIds) {
    db.exec('INSERT INTO entitlements (library_id, content_id, model, active, seen_run) SELECT library_id, content_id, model, active, seen_run FROM ref.entitlements');
    db.exec('INSERT INTO availability SELECT * FROM ref.availability');
    db.exec(`INSERT INTO sync_state SELECT source, in_progress, next_token, run_since, run_started_at, last_success_at, last_attempt_at, last_error, items FROM ref.sync_state`);
  }
  db.exec('DETACH ref');
  expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(1);
  expect((db.prepare("SELECT count(*) AS n FROM titles_fts WHERE titles_fts MATCH 'the'").get() as { n: number }).n).toBeGreaterThan(0);
  db.close();
}

describe('a mirror written by the previous version (schema 1)', () => {
  it('migrates in place: browsing at once, search once its words are computed (saying so meanwhile), equal to a fresh sync', async () => {
    const fresh = service('fresh');
    await fresh.syncNow(request());
    const libraryId = 101;
    const ids = fresh.browse({ libraryId, model: 'FLEX', offset: 0, limit: 150 }).rows.map((r) => r.contentId);
    await fresh.refreshAvailability(libraryId, ids);
    await fresh.close();
    writeSchemaOne(join(dir, 'old.db'), join(dir, 'fresh.db'));

    const upgraded = service('old');
    const probe = new DatabaseSync(join(dir, 'old.db'), { readOnly: true });
    expect((probe.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
    // Filters, sorts and counts are right from the first browse: the copied columns were filled by the migration.
    for (const query of [{ libraryId }, { libraryId, model: 'FLEX' as const, sort: 'availability' as const }, { libraryId, availableNow: true, sort: 'artist' as const, direction: 'desc' as const }]) {
      const expected = referenceIds(probe, query);
      const page = upgraded.browse({ ...query, offset: 0, limit: 500 });
      expect(page.total).toBe(expected.length);
      expect(page.rows.map((r) => r.contentId)).toEqual(expected.slice(0, 500));
    }
    // Search words come in the background; meanwhile each page says how far that is.
    const during = upgraded.browse({ libraryId, text: 'the', offset: 0, limit: 10 });
    expect(during.searchUpgrade).toBeGreaterThanOrEqual(0);
    expect(during.searchUpgrade).toBeLessThan(1);
    // Looked for at every turn of the event loop, which the upgrade shares, with no deadline but
    // the test's own: each page says how far it is until the words are all there.
    let last = during;
    while (last.searchUpgrade !== undefined) {
      await new Promise((resolve) => setImmediate(resolve));
      last = upgraded.browse({ libraryId, offset: 0, limit: 1 });
    }
    expect(upgraded.browse({ libraryId, text: 'the', offset: 0, limit: 10 }).searchUpgrade).toBeUndefined();
    for (const text of ['the', 'gar', 'golden riv', 'zzqx']) {
      const expected = referenceIds(probe, { libraryId, text });
      const page = upgraded.browse({ libraryId, text, exactCount: true, offset: 0, limit: 500 });
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
    writeSchemaOne(join(dir, 'half.db'), join(dir, 'fresh.db'), seen);
    const old = new DatabaseSync(join(dir, 'half.db'));
    old.prepare(`INSERT INTO sync_state (source, in_progress, next_token, run_since, run_started_at, last_attempt_at, items)
      VALUES ('global', 1, ?, NULL, 1000, 1000, ?)`).run(token ?? null, seen.length);
    old.close();

    const resumed = service('half');
    const status = await resumed.syncNow(request());
    const global = status.sources.find((s) => s.source === 'global')!;
    expect(global.lastSuccessAt).toBe(1000); // the same run went on and finished
    expect(global.items).toBe((await serviceFingerprint(sandbox)).titles); // it counted from where it stopped
    resumed.close();
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

describe('records as the service sent them (schema 4)', () => {
  it("a title's detail is the client's normalised record, whether the mirror kept the record as sent or (schema 3 and before) normalised", async () => {
    const wire = service('wire');
    await wire.syncNow(request());
    await wire.close();
    const normalised = await collectRecords(sandbox);
    const libraryId = 101;
    const probe = service('wire');
    const ids = probe.browse({ libraryId, offset: 0, limit: 300 }).rows.map((r) => r.contentId);
    expect(ids.length).toBe(300);
    for (const id of ids) expect(probe.detail(libraryId, id)?.record, `title ${id}`).toEqual(normalised.get(id));
    await probe.close();
    const stored = new DatabaseSync(join(dir, 'wire.db'));
    expect(stored.prepare('SELECT count(*) AS n, sum(wire) AS kept FROM title_records').get()).toEqual({ n: normalised.size, kept: normalised.size });

    // The same mirror as schema 3 wrote it: every record normalised, no wire column.
    stored.exec(`VACUUM INTO '${join(dir, 'three.db')}'`);
    stored.close();
    const three = new DatabaseSync(join(dir, 'three.db'));
    const update = three.prepare('UPDATE title_records SET record = ? WHERE id = ?');
    for (const [id, record] of normalised) update.run(JSON.stringify(record), id);
    three.exec('ALTER TABLE title_records DROP COLUMN wire');
    // …and without what schema 6 added (content keys, the titleId index, the full runs' columns).
    three.exec('DROP INDEX titles_by_title_id');
    three.exec('ALTER TABLE titles DROP COLUMN title_id');
    three.exec('DROP TABLE content_keys');
    three.exec('ALTER TABLE sync_state DROP COLUMN full_success_at');
    three.exec('ALTER TABLE sync_state DROP COLUMN full_removed');
    three.exec('PRAGMA user_version = 3');
    three.close();
    const upgraded = service('three');
    for (const id of ids) expect(upgraded.detail(libraryId, id)?.record, `title ${id}`).toEqual(JSON.parse(JSON.stringify(normalised.get(id))));
    // Schema 6 filed each stored title's titleId from its record: search results resolve at once (the spec's reading: a title id is its content id).
    expect(upgraded.titleContents(libraryId, ids.slice(0, 20) as number[])).toEqual(ids.slice(0, 20).map((id) => ({ titleId: id, contents: [expect.objectContaining({ contentId: id })] })));
    await upgraded.close();
  }, 240_000);
});
