// Where the action log's days begin and end (issue #33). Retention counts calendar days, and a
// calendar day needs a time zone; the desk's own zone will not do, since a standard user may
// change it (Windows lets them): with the zone set to UTC+5 at 15:00 Toronto time, the start-up
// purge took the whole day as yesterday's, along with the record of who read the log. So the day
// boundary is one zone that stays: IT's (`actionLogTimeZone` in the policy), or else the zone the
// desk had when it was set up, kept in the keychain where no file edit reaches. Every moment is
// worked out in absolute time in that zone, whatever the machine's zone says now.
//
// The keychain record also keeps the machine zone the desk last saw, so a change of it is found
// (and the action log records it: action-log-area.ts). A record that is missing while a log exists
// (deleted, or a desk from before this record) is made again from the zone of now, which may be
// one someone chose: the entries made before that moment then go only once they are older than
// the whole retention period in absolute time (`since`, rules.ts), never earlier.
import { DESK_RECORDS, type DeskKeychain } from '../credentials/desk-keychain.ts';

export interface DayBoundary {
  /** The zone days are counted in (an IANA name). */
  zone: string;
  /** Entries before this moment keep at least the whole period in absolute time (0: none need it). */
  since: number;
}

/** A change of the machine's zone, or the record found missing (`from` undefined). */
export interface ZoneChange { from?: string; to: string }

interface DayBoundaryRecord { v: 1; zone: string; since: number; seen: string }

/** The zone this process runs in (the machine's, or TZ where it is set). */
export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` at `ms`: year, month (1–12), day, and minutes east of UTC. */
function wallClock(ms: number, zone: string): { year: number; month: number; day: number; offsetMinutes: number } {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formats.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(ms).map(({ type, value }) => [type, Number(value)])) as Record<string, number>;
  const asUtc = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return { year: part.year!, month: part.month!, day: part.day!, offsetMinutes: Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000) };
}

/**
 * The first moment of the day `days` days after the one `ms` falls on in `zone` (negative:
 * before), in absolute time: midnight there, or the first moment after it where a clock change
 * skips midnight.
 */
export function startOfDay(ms: number, zone: string, days = 0): number {
  const here = wallClock(ms, zone);
  const date = new Date(Date.UTC(here.year, here.month - 1, here.day + days));
  const wanted = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
  const midnightUtc = date.getTime();
  // The offset at a guess of the moment, then at the moment it gives (it changes across a DST switch).
  let moment = midnightUtc - wallClock(midnightUtc, zone).offsetMinutes * 60_000;
  moment = midnightUtc - wallClock(moment, zone).offsetMinutes * 60_000;
  const sameDay = (clock: { year: number; month: number; day: number }): boolean => clock.year === wanted.year && clock.month === wanted.month && clock.day === wanted.day;
  // Where a clock change skips midnight, the day starts at the first quarter hour that falls on it.
  if (!sameDay(wallClock(moment, zone))) {
    for (let step = 15; step <= 180; step += 15) if (sameDay(wallClock(moment + step * 60_000, zone))) return moment + step * 60_000;
  }
  return moment;
}

/** The date in `zone` as YYYY-MM-DD (the export's file name). */
export function dayName(ms: number, zone: string): string {
  const { year, month, day } = wallClock(ms, zone);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function parseRecord(text: string | undefined): DayBoundaryRecord | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<DayBoundaryRecord>;
    if (value.v !== 1 || typeof value.zone !== 'string' || typeof value.seen !== 'string' || !Number.isSafeInteger(value.since)) return undefined;
    return value as DayBoundaryRecord;
  } catch {
    return undefined;
  }
}

/**
 * The day boundary in force, making or updating the keychain's record: the policy's zone when IT
 * set one, else the zone kept since set-up. `hadLog`: a log existed before (then a missing record
 * is a change worth recording, and the entries before now keep their whole period).
 */
export async function settleDayBoundary(options: {
  keychain: DeskKeychain;
  policyZone: string | undefined;
  machineZone: string;
  now: number;
  hadLog: boolean;
}): Promise<{ boundary: DayBoundary; change?: ZoneChange }> {
  const { keychain, policyZone, machineZone, now, hadLog } = options;
  const kept = parseRecord(await keychain.read(DESK_RECORDS.dayBoundary));
  const record: DayBoundaryRecord = kept ?? { v: 1, zone: machineZone, since: hadLog ? now : 0, seen: machineZone };
  let change: ZoneChange | undefined;
  if (!kept && hadLog) change = { to: machineZone };
  else if (kept && kept.seen !== machineZone) change = { from: kept.seen, to: machineZone };
  if (!kept || change) await keychain.write(DESK_RECORDS.dayBoundary, JSON.stringify({ ...record, seen: machineZone }));
  const boundary = policyZone === undefined ? { zone: record.zone, since: record.since } : { zone: policyZone, since: 0 };
  return change ? { boundary, change } : { boundary };
}
