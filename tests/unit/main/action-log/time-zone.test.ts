// The time zone cannot purge (issue #33). A standard user may change Windows' time zone; with it
// set to UTC+5 at 15:00 Toronto time, the start-up purge took every entry of the day for
// yesterday's. Here each start of the desk is a process of its own started with TZ set, as the
// machine's zone, on one data folder and the real keychain (gnome-keyring inside dbus-run-session),
// on a clock the test names; the purge must count days in the zone the desk was set up in, and the
// change of zone is itself an entry of the log.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import keytar from 'keytar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dayName, startOfDay } from '../../../../electron/main/action-log/day-boundary.ts';
import { retentionRule } from '../../../../electron/main/action-log/rules.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';

const HOUR = 3_600_000;
/** 3 March 2026 in Toronto (EST, UTC−5): one hour there, in absolute time. */
const toronto = (hour: number, minute = 0): number => Date.UTC(2026, 2, 3, hour + 5, minute);
const at = (name: string) => pathToFileURL(join(REPO_ROOT, name)).href;

let dir: string;
let service: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lending-desk-zone-'));
  service = `Lending Desk time zone test ${process.pid} ${Math.random().toString(36).slice(2)}`;
});
afterEach(async () => {
  for (const entry of await keytar.findCredentials(service)) await keytar.deletePassword(service, entry.account);
  rmSync(dir, { recursive: true, force: true });
});

interface Seen { action: string; time: number; zone?: { from?: string; to: string } }

/**
 * One start of the desk in a process whose zone is `tz`, at `now`: it writes `record` entries (as
 * staff's actions would be, one an hour from `now`), then runs the start-up purge and says what the
 * log holds.
 */
function startDesk(tz: string, now: number, options: { record?: number[]; policyZone?: string } = {}): Seen[] {
  const script = join(dir, 'start.mjs');
  writeFileSync(script, `
    import { ActionLog } from ${JSON.stringify(at('electron/main/action-log/action-log.ts'))};
    import { ActionLogFile } from ${JSON.stringify(at('electron/main/action-log/action-log-file.ts'))};
    import { keychainLogKey } from ${JSON.stringify(at('electron/main/action-log/log-key.ts'))};
    import { keychainDeskRecords } from ${JSON.stringify(at('electron/main/credentials/desk-keychain.ts'))};
    import { createKeytarVault } from ${JSON.stringify(at('electron/main/credentials/index.ts'))};
    import { createNodeDesk } from ${JSON.stringify(at('tests/support/node-desk.ts'))};
    const [dir, service, now, record, policyZone] = process.argv.slice(2);
    const keychain = keychainDeskRecords({ service });
    const logKey = keychainLogKey({ service });
    const policy = { version: 1, ...(policyZone ? { actionLogTimeZone: policyZone } : {}) };
    const { desk, logger } = createNodeDesk({ dir, vault: createKeytarVault({ service }), keychain, actionLogKey: logKey, now: () => Number(now), policy, deskPin: 'none' });
    // Staff's actions today, through the log as the desk records them (its days settled first, as at its first action).
    for (const time of JSON.parse(record)) {
      const log = new ActionLog({ path: dir + '/action-log.jsonl', key: logKey, head: keychain, now: () => time });
      await log.dayBoundary?.(policyZone || undefined, Intl.DateTimeFormat().resolvedOptions().timeZone);
      await log.record({ time, staff: 'JD', profile: 'City Library', libraryId: 4512, card: '21101000000042', action: 'borrow', contentId: 7, outcome: 'ok' });
    }
    await desk.background.runNow('retention');
    await desk.close();
    logger.close();
    const { key } = await logKey.get();
    const { entries } = new ActionLogFile(dir + '/action-log.jsonl', key).read();
    console.log(JSON.stringify(entries.map(({ action, time, zone }) => ({ action, time, ...(zone ? { zone } : {}) }))));
  `);
  const result = spawnSync(process.execPath, [script, dir, service, String(now), JSON.stringify(options.record ?? []), options.policyZone ?? ''], { env: { ...process.env, TZ: tz }, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Seen[];
}

const purges = (): Array<Record<string, unknown>> => readFileSync(join(dir, 'logs', 'lending-desk.log'), 'utf8').split('\n').filter((line) => line.includes('"action-log.purged"')).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the time zone cannot purge', () => {
  it('a start with the zone set to UTC+5 at 15:00 Toronto time keeps every entry of the day, and the change is an entry of the log', () => {
    // Set up and used in Toronto: five actions between 08:00 and 12:00.
    const today = [toronto(8), toronto(9), toronto(10), toronto(11), toronto(12)];
    expect(startDesk('America/Toronto', toronto(7, 30), { record: today }).map((e) => e.time)).toEqual(today);
    // 15:00 in Toronto is already 01:00 tomorrow in UTC+5 (Asia/Karachi): a start there.
    const seen = startDesk('Asia/Karachi', toronto(15));
    expect(seen.filter((e) => e.action === 'borrow').map((e) => e.time)).toEqual(today);
    expect(seen.filter((e) => e.action === 'zone-change')).toEqual([{ action: 'zone-change', time: toronto(15), zone: { from: 'America/Toronto', to: 'Asia/Karachi' } }]);
    expect(purges().at(-1)).toMatchObject({ removed: 0, zone: 'America/Toronto' });

    // The day still ends at Toronto's midnight: the next start after it lets the day go, and records no second change.
    const next = startDesk('Asia/Karachi', Date.UTC(2026, 2, 4, 5, 30)); // 00:30 on the 4th in Toronto
    expect(next).toEqual([]);
    expect(purges().at(-1)).toMatchObject({ removed: 6, zone: 'America/Toronto' });
  });

  it('a zone the other way (UTC−10) keeps nothing longer than the rule says either: the day ends at Toronto\'s midnight', () => {
    startDesk('America/Toronto', toronto(7), { record: [toronto(9), toronto(23, 30)] });
    // 00:30 on the 4th in Toronto is still the 3rd in Honolulu: the Toronto day is over all the same.
    const seen = startDesk('Pacific/Honolulu', Date.UTC(2026, 2, 4, 5, 30));
    expect(seen.map((e) => e.action)).toEqual(['zone-change']);
  });

  it('the policy\'s zone counts the days when IT sets one, whatever zone the desk was set up in', () => {
    startDesk('Asia/Karachi', toronto(7), { record: [toronto(8)], policyZone: 'America/Vancouver' });
    // 23:30 in Toronto is 20:30 in Vancouver: the same day there, so the entry stays.
    expect(startDesk('Asia/Karachi', toronto(23, 30), { policyZone: 'America/Vancouver' }).map((e) => e.time)).toEqual([toronto(8)]);
    expect(purges().at(-1)).toMatchObject({ removed: 0, zone: 'America/Vancouver' });
  });

  it('a keychain record deleted and the zone changed: what was made before is kept the whole period in absolute time', async () => {
    startDesk('America/Toronto', toronto(7), { record: [toronto(8), toronto(12)] });
    await keytar.deletePassword(service, 'lending-desk:day-boundary');
    const seen = startDesk('Asia/Karachi', toronto(15));
    expect(seen.filter((e) => e.action === 'borrow').map((e) => e.time)).toEqual([toronto(8), toronto(12)]);
    // Recorded as a zone the desk has no earlier record of.
    expect(seen.filter((e) => e.action === 'zone-change').map((e) => e.zone)).toEqual([{ to: 'Asia/Karachi' }]);
    // A start an hour later, in the zone now on record, still keeps them: they are younger than a day.
    expect(startDesk('Asia/Karachi', toronto(16)).filter((e) => e.action === 'borrow')).toHaveLength(2);
  });
});

describe('days in a zone of their own, in absolute time', () => {
  it('starts each day at midnight there, across daylight saving time', () => {
    expect(startOfDay(toronto(15), 'America/Toronto')).toBe(toronto(0));
    expect(startOfDay(toronto(15), 'Asia/Karachi')).toBe(Date.UTC(2026, 2, 3, 19)); // midnight of the 4th there
    // 8 March 2026: clocks go forward in Toronto; the 9th starts at 04:00 UTC, the 8th at 05:00 UTC.
    expect(startOfDay(Date.UTC(2026, 2, 9, 12), 'America/Toronto')).toBe(Date.UTC(2026, 2, 9, 4));
    expect(startOfDay(Date.UTC(2026, 2, 9, 12), 'America/Toronto', -1)).toBe(Date.UTC(2026, 2, 8, 5));
    // A zone whose clocks skip midnight itself (Havana goes from 00:00 to 01:00 on 8 March 2026): the day starts when the clock jumps.
    const havanaDay = startOfDay(Date.UTC(2026, 2, 8, 18), 'America/Havana');
    expect(dayName(havanaDay, 'America/Havana')).toBe('2026-03-08');
    expect(dayName(havanaDay - 1, 'America/Havana')).toBe('2026-03-07');
  });

  it('the rule: an entry goes at the end of its last day, and one made before the record was made again keeps a whole period', () => {
    const rule = retentionRule(toronto(15), 1, { zone: 'America/Toronto', since: 0 });
    expect([rule.expired(toronto(0) - 1), rule.expired(toronto(0)), rule.expired(toronto(14))]).toEqual([true, false, false]);
    expect(rule.oldestKept).toBe(toronto(0));
    const afterLoss = retentionRule(toronto(15), 1, { zone: 'Asia/Karachi', since: toronto(14) });
    // The Karachi day began at 14:00 Toronto; an entry from 09:00 is older than that but younger than 24 hours.
    expect(afterLoss.expired(toronto(9))).toBe(false);
    expect(afterLoss.expired(toronto(15) - 24 * HOUR - 1)).toBe(true);
    expect(afterLoss.oldestKept).toBe(toronto(15) - 24 * HOUR);
  });
});
