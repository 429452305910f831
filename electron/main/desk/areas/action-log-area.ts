// The action log: recording what the desk did for a patron (and who read or exported the log),
// reading it back, the export, and retention (the period, applied now and at every midnight of the
// log's own time zone, which the machine's does not move: action-log/day-boundary.ts). The log's
// rules come from IT's policy (action-log/rules.ts). Asks who is on shift (and whether their role
// lets them read the log by card or export it: a patron's reading history, issue #35) and which
// connection is active; the patron desk records through it, never the other way round.

import type { ActionEntry, ActionExport, ActionPage, ParsedArgsOf } from '../../../shared/contract.ts';
import type { ActionFilter, ActionKind, ActionLog } from '../../action-log/action-log.ts';
import type { LogAuditKind } from '../../../shared/action-log.ts';
import { dayName, machineTimeZone, startOfDay, type DayBoundary } from '../../action-log/day-boundary.ts';
import { nextRetentionRun, retentionRule, type LogRules } from '../../action-log/rules.ts';
import type { Logger } from '../../../node/logging/logger.ts';
import { DeskError } from '../../../shared/desk-error.ts';
import { contentIdOf } from '../../../shared/content-id.ts';
import type { ContentId } from '../../../shared/model.ts';
import type { BackgroundTask } from '../background-tasks.ts';
import type { ConnectionsArea } from './connections-area.ts';
import type { ShiftArea } from './shift-area.ts';

export interface ActionLogAreaParts {
  log: ActionLog;
  rules: LogRules;
  shift: Pick<ShiftArea, 'who' | 'requireMay' | 'confirmPin'>;
  connections: Pick<ConnectionsArea, 'activeProfile'>;
  logger: Logger;
  now: () => number;
  /** The machine's time zone now (the process's, unless a test names one). */
  machineZone?: () => string;
  /** A library's name from IT's policy, where the profile gives it none (issue #35). */
  libraryName?: (libraryId: number) => string | undefined;
  /**
   * Titles the desk's copy of the Collection knows, for today's actions of the patron on screen
   * whose entries keep none (titles off by policy, or an action sent without one): read, never kept.
   */
  titles?: (libraryId: number, contentIds: ContentId[]) => Promise<Map<string, string>>;
}

/** An on-behalf action as the log records it: the whole card (the log masks and hashes it), and the title when the policy keeps titles. */
export interface OnBehalf { libraryId: number; card: string; contentId: ContentId; title?: string | undefined }

export class ActionLogArea {
  readonly #parts: ActionLogAreaParts;
  /** The zone the log's days are counted in, settled once per start (and again at each retention run). */
  #boundary: Promise<DayBoundary> | undefined;

  constructor(parts: ActionLogAreaParts) {
    this.#parts = parts;
  }

  /** The day boundary in force, and a change of the machine's zone since the desk last looked. */
  #settleBoundary(): ReturnType<ActionLog['dayBoundary']> {
    const settled = this.#parts.log.dayBoundary(this.#parts.rules.timeZone, (this.#parts.machineZone ?? machineTimeZone)());
    this.#boundary = settled.then(({ boundary }) => boundary, (error: unknown) => {
      this.#boundary = undefined;
      throw error;
    });
    return settled;
  }

  #dayBoundary(): Promise<DayBoundary> {
    return this.#boundary ?? this.#settleBoundary().then(({ boundary }) => boundary);
  }

  /** Nothing is kept (IT's policy says 0 days): nothing is recorded, read or exported. */
  get #off(): boolean {
    return this.#parts.rules.retentionDays === 0;
  }

  /**
   * Runs an on-behalf action and records it in the action log (what staff did, for the retention
   * period) and the app log (that it happened, without the card, the title or even the title's id:
   * the app log is kept by size, not by days, and is sent to support).
   */
  async recorded<T extends { confirmedByReread: boolean }>(action: ActionKind, args: OnBehalf, work: () => Promise<T>): Promise<T> {
    const { log, rules, logger } = this.#parts;
    const keeping = !this.#off;
    // No key, no action: an action the log cannot record safely is not sent (there is no plaintext fallback).
    // The log's days are settled before its first entry (its zone is the one the desk was set up in).
    if (keeping) await Promise.all([log.open(), this.#dayBoundary()]);
    const profile = this.#parts.connections.activeProfile();
    const libraryName = profile?.libraries.find((l) => l.libraryId === args.libraryId)?.name ?? this.#parts.libraryName?.(args.libraryId);
    const { staff, osUser, deskPin } = this.#parts.shift.who();
    const entry = {
      time: this.#parts.now(), staff, osUser, ...(deskPin ? { deskPin } : {}), profile: profile?.name ?? '',
      libraryId: args.libraryId, ...(libraryName ? { libraryName } : {}), card: args.card,
      action, contentId: args.contentId, ...(args.title && rules.titles ? { title: args.title } : {}),
    };
    const record = async (outcome: string, confirmedByReread?: boolean): Promise<void> => {
      const fields = { action, outcome, ...(confirmedByReread === undefined ? {} : { confirmedByReread }) };
      if (outcome === 'ok') logger.info('patron.action', fields);
      else logger.warn('patron.action', fields);
      if (!keeping) return;
      // The action happened (or failed) whatever the disk says: a write that fails is reported, not thrown at staff.
      await log.record({ ...entry, ...fields }).catch((error: unknown) => logger.error('action-log.write-failed', { error }));
    };
    try {
      const result = await work();
      await record('ok', result.confirmedByReread);
      return result;
    } catch (error) {
      await record(outcomeOf(error));
      throw error;
    }
  }

  /** A page of the log, newest first. Opening it (or a new filter: the first page) is itself logged, before it is read. */
  async listActions(args: ParsedArgsOf<'listActions'>): Promise<ActionPage> {
    const { offset, limit, ...filter } = args;
    // Which titles one card borrowed is a patron's reading history: a manager's to read.
    if (filter.cardEnding !== undefined) this.#parts.shift.requireMay('readLogByCard', 'log.managers-only');
    if (this.#off) return { total: 0, entries: [], skipped: 0 };
    if (offset === 0) await this.#recordAudit('log-read', filter);
    const page = await this.#parts.log.page(await this.#withinRetention(filter), offset, limit);
    return { ...page, ...await this.#changedAt() };
  }

  /** The entries for a CSV, oldest first; the renderer words it in the desk's language (shared/action-log-csv.ts). The export is logged first. */
  async exportActions(args: ParsedArgsOf<'exportActions'>): Promise<ActionExport> {
    const { pin, ...filter } = args;
    // A file of titles per card leaves the desk: a manager's, with their PIN typed again (issue #33).
    this.#parts.shift.requireMay('exportLog', 'log.managers-only');
    await this.#parts.shift.confirmPin(pin, 'log.export-pin-needed');
    if (this.#off) return { fileName: `lending-desk-actions-${dayName(this.#parts.now(), machineTimeZone())}.csv`, entries: [], skipped: 0 };
    const fileName = `lending-desk-actions-${dayName(this.#parts.now(), (await this.#dayBoundary()).zone)}.csv`;
    await this.#recordAudit('log-export', filter);
    return { fileName, ...await this.#parts.log.matching(await this.#withinRetention(filter)), ...await this.#changedAt() };
  }

  /** What this desk did today (in the log's time zone) for the patron on screen. */
  async todaysActions(args: ParsedArgsOf<'todaysActions'>): Promise<ActionEntry[]> {
    if (this.#off) return [];
    const today = startOfDay(this.#parts.now(), (await this.#dayBoundary()).zone);
    const entries = await this.#parts.log.forPatron(args.libraryId, args.card, today);
    return this.#withTitles(args.libraryId, entries);
  }

  /** Entries that keep no title get the one the desk's copy of the Collection knows, for the screen only. */
  async #withTitles(libraryId: number, entries: ActionEntry[]): Promise<ActionEntry[]> {
    const untitled = [...new Set(entries.filter((e) => e.title === undefined).map((e) => e.contentId))];
    if (untitled.length === 0 || !this.#parts.titles) return entries;
    const titles = await this.#parts.titles(libraryId, untitled).catch((error: unknown) => {
      this.#parts.logger.warn('action-log.titles-unread', { error });
      return new Map<string, string>();
    });
    return entries.map((entry) => {
      const title = entry.title ?? titles.get(String(contentIdOf(entry.contentId) ?? entry.contentId));
      return title === undefined ? entry : { ...entry, title };
    });
  }

  /** Who read or exported the log, when, with which filter: in the action log itself (no card, no title) and, without the filter's values, the app log. */
  async #recordAudit(action: LogAuditKind, filter: ActionFilter): Promise<void> {
    const used = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as ActionFilter;
    await this.#dayBoundary();
    const { staff, osUser, deskPin } = this.#parts.shift.who();
    await this.#parts.log.recordAudit({
      time: this.#parts.now(), staff, osUser, ...(deskPin ? { deskPin } : {}), profile: this.#parts.connections.activeProfile()?.name ?? '', action, filter: used,
    });
    this.#parts.logger.info('action-log.audit', { action, staff, osUser, filtered: Object.keys(used) });
  }

  async #changedAt(): Promise<{ changedAt?: number }> {
    const changed = await this.#parts.log.changed();
    return changed ? { changedAt: changed.at } : {};
  }

  /** What is past the retention period is never shown, even before the purge has run (a desk asleep at midnight). */
  async #withinRetention<F extends { from?: number | undefined }>(filter: F): Promise<F> {
    const { oldestKept } = retentionRule(this.#parts.now(), this.#parts.rules.retentionDays, await this.#dayBoundary());
    return { ...filter, from: Math.max(filter.from ?? oldestKept, oldestKept) };
  }

  /**
   * The retention period, applied at start and at every midnight of the log's zone after (the
   * period is counted in calendar days: rules.ts): old entries, and titles the policy no longer
   * allows, go. Main runs it with its other background tasks (background-tasks.ts).
   */
  backgroundTasks(): BackgroundTask<'retention'>[] {
    return [{
      name: 'retention', schedule: { after: () => this.#untilNextRetention() }, failedEvent: 'action-log.purge-failed', now: true,
      runIfDue: async () => {
        await this.#applyRetention();
        return true;
      },
    }];
  }

  /** How long until the next midnight of the log's zone; a desk whose keychain is away (no boundary to count by) looks again in an hour. */
  async #untilNextRetention(): Promise<number> {
    const now = this.#parts.now();
    const next = await this.#dayBoundary().then((boundary) => nextRetentionRun(now, boundary), () => now + 3_600_000);
    return next - now;
  }

  async #applyRetention(): Promise<void> {
    const { log, logger, rules: { retentionDays, titles } } = this.#parts;
    if (retentionDays === 0) {
      const setAside = await log.erase();
      logger.info('action-log.purged', { retentionDays, erased: true, setAsideRemoved: setAside });
      return;
    }
    const { boundary, change } = await this.#settleBoundary();
    // The machine's zone changed since the desk last looked: recorded before anything goes (it moves no cut-off).
    if (change) await this.#recordZoneChange(change);
    const result = await log.purge({ expired: retentionRule(this.#parts.now(), retentionDays, boundary).expired, titles });
    logger.info('action-log.purged', { retentionDays, keepTitles: titles, zone: boundary.zone, ...result });
  }

  async #recordZoneChange(zone: { from?: string; to: string }): Promise<void> {
    const { staff, osUser } = this.#parts.shift.who();
    await this.#parts.log.recordAudit({ time: this.#parts.now(), staff, osUser, profile: this.#parts.connections.activeProfile()?.name ?? '', action: 'zone-change', zone });
    this.#parts.logger.warn('action-log.zone-changed', zone);
  }
}

/**
 * What the log keeps of a failed action: the error's code, or `unknown` when nobody knows whether
 * it took effect (the service did not answer clearly and the account could not be read): the
 * record must not say "refused" where the screen says it may have gone through.
 */
function outcomeOf(error: unknown): string {
  if (!(error instanceof DeskError)) return 'error';
  return error.detail.reason === 'action.outcome-unknown' ? 'unknown' : error.code;
}
