// The owner times every call it serves and logs the slow ones (slow-calls.ts) with the shapes of
// the statements that took the time — never what the call was asked: a Collection search's text
// is what a patron is looking for, and the app log keeps none (docs/security.md). A call is made
// slow here by the owner's clock, which the test moves: no call waits for anything.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MirrorReply, MirrorRequest, OwnerLogEntry } from '../../../electron/node/mirror-interface.ts';
import { MirrorDatabase } from '../../../electron/mirror-owner/mirror-database.ts';
import { MirrorOwner } from '../../../electron/mirror-owner/mirror-owner.ts';
import { queryShape } from '../../../electron/mirror-owner/query-trace.ts';
import { SLOW_CALL_LOG_EVERY_MS, SLOW_CALL_MS } from '../../../electron/mirror-owner/slow-calls.ts';
import type { CatalogRecord } from '../../../electron/shared/model.ts';
import { tempDir } from './helpers.ts';

const LIBRARY = 7;
/** What staff type into the Collection's search: words of titles in the mirror, long enough to be asked of the full-text index. */
const SEARCH = 'Zanzibar Quokkas';
const TITLES = ['Zanzibar Quokkas at Dawn', 'The Quokkas of Zanzibar', 'Harbour Lights', 'Quiet Orchards'];

const record = (id: number, title: string): CatalogRecord => ({
  id, title, artists: [], genres: [], countries: ['US'], purchaseModels: ['INSTANT'], ratings: [], ppuPrices: [], segments: [], episodes: [], format: 'EBOOK',
});

let dir: string;
let path: string;

beforeAll(() => {
  dir = tempDir();
  path = join(dir, 'mirror.db');
  const mirror = new MirrorDatabase(path);
  mirror.runs.beginRun('global', undefined, 1);
  mirror.pages.applyGlobalPage('global', 1, TITLES.map((title, i) => ({ kind: 'upsert' as const, record: record(i + 1, title) })), undefined);
  mirror.runs.finishRun('global', () => ({ titles: 0, entitlements: 0 }));
  mirror.pages.applyEntitlementPage('entitlements', 1, LIBRARY, 'INSTANT', TITLES.map((_, i) => ({ contentId: i + 1, active: true, removed: false })), undefined);
  mirror.close();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** An owner on the test's thread whose clock moves `step` ms at each reading (0: no call takes any time), and what it logged. */
function ownerWithClock() {
  const clock = { now: 0, step: 0 };
  const logged: OwnerLogEntry[] = [];
  const owner = new MirrorOwner({ databasePath: path }, { log: (entry) => logged.push(entry), clock: () => (clock.now += clock.step) });
  let id = 0;
  const ask = (call: MirrorRequest['call'], ...args: unknown[]): unknown => {
    let last: MirrorReply | undefined;
    owner.serve({ id: ++id, call, args } as MirrorRequest, (reply) => { last = reply; });
    if (last?.kind !== 'answer') throw new Error(`${call}: ${JSON.stringify(last)}`);
    return last.answer;
  };
  return { clock, logged, ask };
}

describe("the owner's slow calls", () => {
  it('are logged with the call and the shapes of its statements, and the search text is nowhere in the entry', () => {
    const { clock, logged, ask } = ownerWithClock();
    const page = ask('browse', { libraryId: LIBRARY, text: SEARCH, sort: 'artist', offset: 0, limit: 10 }) as { total: number };
    expect(page.total).toBe(2); // the search ran, and found what was typed
    expect(logged).toEqual([]); // no time passed: not slow

    clock.step = SLOW_CALL_MS; // every reading of the clock that much later: any call that reads it twice is slow
    // In another order: a search of its own, which asks the full-text index with the words typed.
    expect((ask('browse', { libraryId: LIBRARY, text: SEARCH, offset: 0, limit: 10 }) as { total: number }).total).toBe(2);
    expect(logged).toHaveLength(1);
    const [entry] = logged as [OwnerLogEntry];
    expect(entry.event).toBe('mirror.slow-call');
    expect(entry.fields.call).toBe('browse');
    expect(entry.fields.ms).toBeGreaterThanOrEqual(SLOW_CALL_MS);
    expect(entry.fields.statements.length).toBeGreaterThan(0);
    expect(entry.fields.statements.length).toBeLessThanOrEqual(5);
    for (const statement of entry.fields.statements) {
      expect(statement.sql).toMatch(/^(SELECT|WITH|INSERT|UPDATE|DELETE|BEGIN|COMMIT)\b/);
      expect(statement.sql).not.toMatch(/['"]|\d/); // every literal a placeholder
      expect(statement.runs).toBeGreaterThan(0);
    }
    expect(entry.fields.statements.map((s) => s.sql)).toContain('SELECT count(*) AS n, group_concat(rowid) AS ids FROM (SELECT rowid FROM title_words WHERE title_words MATCH ? LIMIT ?)');
    const written = JSON.stringify(entry).toLowerCase();
    for (const word of SEARCH.toLowerCase().split(' ')) expect(written).not.toContain(word);
    expect(written).not.toContain(`"libraryid"`);
  });

  it('are logged once a minute per call at most, the ones in between counted in the next entry', () => {
    const { clock, logged, ask } = ownerWithClock();
    clock.step = SLOW_CALL_MS;
    ask('status');
    ask('status');
    ask('status');
    expect(logged.map((e) => e.fields.call)).toEqual(['status']);
    ask('rows', LIBRARY, [1, 2]); // another call's first entry is not held back by status's
    expect(logged.map((e) => e.fields.call)).toEqual(['status', 'rows']);
    clock.now += SLOW_CALL_LOG_EVERY_MS;
    ask('status');
    expect(logged.map((e) => e.fields.call)).toEqual(['status', 'rows', 'status']);
    expect(logged[2]?.fields.alsoSlow).toBe(2);
    expect(logged[0]?.fields.alsoSlow).toBeUndefined();
  });

  it('name statements by their shape: quoted text, numbers and comments left out', () => {
    expect(queryShape(`SELECT rowid FROM title_words
        WHERE title_words MATCH 'zanzibar* quokkas*' LIMIT 8001 -- the typing path`)).toBe('SELECT rowid FROM title_words WHERE title_words MATCH ? LIMIT ?');
    expect(queryShape("INSERT INTO t (a, b, c) VALUES ('it''s', x'00ff', 2.5e3) /* 4111111111111111 */")).toBe('INSERT INTO t (a, b, c) VALUES (?, ?, ?)');
    expect(queryShape('SELECT * FROM entitlements_by_title WHERE library_id = 0x1F')).toBe('SELECT * FROM entitlements_by_title WHERE library_id = ?');
    expect(queryShape(`SELECT "2110100001" FROM t WHERE ${'x = 1 AND '.repeat(60)}y = 2`)).toMatch(/^SELECT \? FROM t WHERE x = \? AND .{300,}…$/);
  });
});
