// The action log at rest: sealed per entry under a key in the OS keychain (a real Secret
// Service here), noise without it, and what happens to a line someone altered, moved, copied
// or a crash tore; a lost key; a keychain that cannot be reached.
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionLog, ActionLogFile, type ActionRecord } from '../../../../electron/main/action-log/action-log.ts';
import { ACTION_LOG_KEY_ACCOUNT, keychainLogKey, memoryLogKey } from '../../../../electron/main/action-log/log-key.ts';
import { DESK_RECORDS, keychainDeskRecords, memoryDeskRecords, type DeskKeychain } from '../../../../electron/main/credentials/desk-keychain.ts';

const CARD = '21101000077731';
const entry = (n: number, fields: Partial<ActionRecord> = {}): ActionRecord => ({
  time: Date.UTC(2026, 2, 10, 14, n), staff: 'Marguerite Tremblay', osUser: 'circ-desk', profile: 'City Library', libraryId: 101,
  libraryName: 'Riverside branch', card: CARD, action: 'borrow', contentId: 9000 + n, title: `Le Petit Prince, volume ${n}`, outcome: 'ok', ...fields,
});

let dir: string;
let path: string;
let service: string;
/** The desk's keychain records (where the chain ends) in memory, for the tests that keep the key in memory too. */
let head: DeskKeychain;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sealed-log-'));
  path = join(dir, 'action-log.jsonl');
  service = `Lending Desk action log ${randomUUID()}`;
  head = memoryDeskRecords();
});
afterEach(async () => {
  await keytar.deletePassword(service, ACTION_LOG_KEY_ACCOUNT).catch(() => false);
  await keytar.deletePassword(service, DESK_RECORDS.actionLogHead).catch(() => false);
  rmSync(dir, { recursive: true, force: true });
});

/** The file's lines; the first is the chain's header. */
const lines = () => readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
const entryLines = () => lines().slice(1);

describe('sealed at rest', () => {
  it('reads back with the keychain key after a restart; a copied file without it is noise', async () => {
    const log = new ActionLog({ path, key: keychainLogKey({ service }), head: keychainDeskRecords({ service }) });
    for (let n = 1; n <= 3; n++) await log.record(entry(n));

    const key = await keytar.getPassword(service, ACTION_LOG_KEY_ACCOUNT);
    expect(Buffer.from(key ?? '', 'base64')).toHaveLength(32);
    const raw = readFileSync(path, 'utf8');
    for (const clear of ['Petit Prince', 'Marguerite', 'circ-desk', 'City Library', 'Riverside', CARD.slice(-4), '"staff"', key!]) expect(raw).not.toContain(clear);

    // The next start of the app: the same key from the keychain.
    const restarted = new ActionLog({ path, key: keychainLogKey({ service }), head: keychainDeskRecords({ service }) });
    const page = await restarted.page({}, 0, 10);
    expect(page.skipped).toBe(0);
    expect(page.entries.map((e) => e.title)).toEqual(['Le Petit Prince, volume 3', 'Le Petit Prince, volume 2', 'Le Petit Prince, volume 1']);
    expect(page.entries[0]).toEqual({ ...entry(3), card: `••••${CARD.slice(-4)}` });

    // Someone copies the file to another computer: another key reads nothing, and says so.
    const copy = new ActionLogFile(path, randomBytes(32)).read();
    expect(copy).toEqual({ entries: [], skipped: 3 });
  });

  it('skips and counts a line altered, moved, copied twice or torn; the others still read and new ones append', async () => {
    const key = randomBytes(32);
    const log = new ActionLog({ path, key: memoryLogKey(key), head });
    for (let n = 1; n <= 5; n++) await log.record(entry(n));
    const [header, one, two, three, four, five] = lines() as [string, string, string, string, string, string];
    const altered = JSON.parse(three) as { data: string };
    const bytes = Buffer.from(altered.data, 'base64');
    bytes[bytes.length - 20]! ^= 0x01;
    altered.data = bytes.toString('base64');
    // 2 is moved after 4, 1 appears twice, 3 is altered, and a torn half line ends the file.
    writeFileSync(path, [header, one, JSON.stringify(altered), four, two, five, one].join('\n') + '\n' + five.slice(0, 40));
    const read = new ActionLogFile(path, key).read();
    expect(read.entries.map((e) => e.contentId)).toEqual([9001, 9004, 9005]);
    expect(read.skipped).toBe(4);

    const again = new ActionLog({ path, key: memoryLogKey(key), head });
    await again.record(entry(6));
    const after = await again.page({}, 0, 10);
    expect(after.entries.map((e) => e.contentId)).toEqual([9006, 9005, 9004, 9001]);
    expect(after.skipped).toBe(4);
  });

  it('a lost key sets the old file aside (it can never be read again) and starts a new log', async () => {
    const log = new ActionLog({ path, key: keychainLogKey({ service }), head: keychainDeskRecords({ service }), now: () => 1_000 });
    await log.record(entry(1));
    await keytar.deletePassword(service, ACTION_LOG_KEY_ACCOUNT);
    const next = new ActionLog({ path, key: keychainLogKey({ service }), head: keychainDeskRecords({ service }), now: () => 2_000 });
    expect(await next.page({}, 0, 10)).toEqual({ total: 0, entries: [], skipped: 0 });
    expect(readdirSync(dir).sort()).toEqual(['action-log.jsonl.unreadable-2000']);
    await next.record(entry(2));
    expect((await next.page({}, 0, 10)).entries.map((e) => e.contentId)).toEqual([9002]);
    // Retention removes what was set aside once it is past the period.
    expect((await next.purge({ expired: (time) => time < 1_999, titles: true })).setAsideRemoved).toBe(0);
    expect((await next.purge({ expired: (time) => time < 2_001, titles: true })).setAsideRemoved).toBe(1);
    expect(readdirSync(dir)).toEqual(['action-log.jsonl']);
  });

  it('without a reachable keychain: refused as keychain-unavailable, nothing written in plain text, tried again later', async () => {
    let reachable = false;
    const flaky = {
      getPassword: async (s: string, a: string) => { if (!reachable) throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'); return keytar.getPassword(s, a); },
      setPassword: (s: string, a: string, p: string) => keytar.setPassword(s, a, p),
      deletePassword: (s: string, a: string) => keytar.deletePassword(s, a),
    };
    const log = new ActionLog({ path, key: keychainLogKey({ service, keytar: flaky }), head });
    await expect(log.record(entry(1))).rejects.toMatchObject({ code: 'keychain-unavailable', detail: { reason: 'action-log.keychain-unavailable' } });
    expect(existsSync(path)).toBe(false);
    reachable = true;
    await log.record(entry(2));
    expect((await log.page({}, 0, 10)).entries.map((e) => e.contentId)).toEqual([9002]);
  });
});

describe('the file under a crash', () => {
  it('an entry appended after a torn line keeps its own line', async () => {
    const key = randomBytes(32);
    const log = new ActionLog({ path, key: memoryLogKey(key), head });
    await log.record(entry(1));
    await log.record(entry(2));
    appendFileSync(path, entryLines()[1]!.slice(0, 30));
    const after = new ActionLog({ path, key: memoryLogKey(key), head });
    await after.record(entry(3));
    expect(await after.page({}, 0, 10)).toMatchObject({ total: 3, skipped: 1 });
    expect(entryLines()).toHaveLength(4);
  });
});
