// The Collection: what the desk asks of the active connection's mirror. Its queries (browse, a
// title's details, rows with fresh availability, what a search hit's titleId stands for), the
// sync (staff's "Sync now", its status for the Sync page), and its background tasks
// (background-tasks.ts): the catalog refresh when it is due (catalog-refresh.ts), the full
// entitlement pass when it is due (full-pass.ts) and the 10-minute availability refresh; on a
// desk in a library, the library mirror's fill every minute instead (library-fill-settings.ts). Works
// through the active connection and nothing else of the other areas.

import type { DeskHandlers, EventName, EventPayloads, ParsedArgsOf, SyncStatusView } from '../../../shared/contract.ts';
import type { Connection } from '../../connection/connection.ts';
import type { DeskKeychain } from '../../credentials/desk-keychain.ts';
import type { Logger } from '../../../node/logging/logger.ts';
import type { Policy } from '../../policy/index.ts';
import { catalogRefreshDue, catalogRefreshView } from '../catalog-refresh.ts';
import type { DaysRule } from '../days-rule.ts';
import { fullPassDue, fullPassView } from '../full-pass.ts';
import { LIBRARY_FILL_CHECK_EVERY_MS, libraryFillDue, libraryMirrorView, saveLibraryMirrorPassword } from '../library-fill-settings.ts';
import type { BackgroundTask } from '../background-tasks.ts';
import { emptySyncStatus, syncRequest } from '../sync-request.ts';
import type { TitlePages } from '../title-pages.ts';
import type { ConnectionsArea } from './connections-area.ts';

export interface CollectionAreaParts {
  connections: Pick<ConnectionsArea, 'forLibrary' | 'active' | 'activeIfAny'>;
  /** How often the full entitlement pass runs (IT's policy, or a week). */
  fullPass: DaysRule;
  /** How often a desk on its own refreshes its catalog and holdings (IT's policy, or every other day). */
  catalogRefresh: DaysRule;
  titlePages: TitlePages;
  logger: Logger;
  now: () => number;
  emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => void;
  /** A desk in a library (issue #25): what IT's policy names, the keychain that holds its password, who is signed in (for the log). */
  library: { policy: Policy['libraryMirror']; keychain: DeskKeychain; staff: () => string };
}

type MirrorStatus = Awaited<ReturnType<Connection['mirror']['status']>>;

/** The Collection's background tasks, by name (main starts them: background-tasks.ts). */
export type CollectionTaskName = 'full-pass' | 'catalog-refresh' | 'availability-refresh' | 'library-fill';

export class CollectionArea {
  readonly #parts: CollectionAreaParts;

  constructor(parts: CollectionAreaParts) {
    this.#parts = parts;
  }

  async #mirrorOf(libraryId: number): Promise<Connection['mirror']> {
    return (await this.#parts.connections.forLibrary(libraryId)).mirror;
  }

  // `signal`: the renderer no longer wants the answer (a newer query): the owner drops it before it runs, the service is not asked.

  async collectionBrowse(args: ParsedArgsOf<'collectionBrowse'>, signal?: AbortSignal): ReturnType<DeskHandlers['collectionBrowse']> {
    return (await this.#mirrorOf(args.libraryId)).browse(args, signal);
  }

  async collectionTitle(args: ParsedArgsOf<'collectionTitle'>, signal?: AbortSignal): ReturnType<DeskHandlers['collectionTitle']> {
    const detail = await (await this.#mirrorOf(args.libraryId)).detail(args.libraryId, args.contentId, signal);
    this.#parts.titlePages.note([detail?.record?.url]);
    return detail;
  }

  async collectionLiveAvailability(args: ParsedArgsOf<'collectionLiveAvailability'>, signal?: AbortSignal): ReturnType<DeskHandlers['collectionLiveAvailability']> {
    return (await this.#mirrorOf(args.libraryId)).refreshAvailability(args.libraryId, args.contentIds, signal);
  }

  /** A search hit resolves through the mirror to the contents it stands for (title-contents.ts); the desk never borrows by a titleId. */
  async titleContents(args: ParsedArgsOf<'titleContents'>, signal?: AbortSignal): ReturnType<DeskHandlers['titleContents']> {
    return (await this.#mirrorOf(args.libraryId)).titleContents(args.libraryId, args.titleIds, signal);
  }

  /** Hits the mirror cannot resolve yet, looked up on the service (or the library mirror) now: desk-mirror.ts lookUpTitles. */
  async lookUpTitles(args: ParsedArgsOf<'lookUpTitles'>): ReturnType<DeskHandlers['lookUpTitles']> {
    const answers = await (await this.#mirrorOf(args.libraryId)).lookUpTitles(args.libraryId, args.titleIds);
    this.#parts.logger.info('collection.title-lookup', {
      libraryId: args.libraryId, asked: args.titleIds.length, resolved: answers.filter((a) => 'contents' in a).length,
    });
    return answers;
  }

  async syncStatus(): ReturnType<DeskHandlers['syncStatus']> {
    const connection = await this.#parts.connections.activeIfAny();
    return connection ? this.#statusView(await connection.mirror.status()) : emptySyncStatus(this.#parts);
  }

  async syncNow(args: ParsedArgsOf<'syncNow'>): ReturnType<DeskHandlers['syncNow']> {
    const connection = await this.#parts.connections.active();
    const entitlementsOnly = args.full && args.entitlementsOnly;
    this.#parts.logger.info('sync.asked', { profileId: connection.profile.id, full: args.full, entitlementsOnly });
    // A connection closed under the sync (a credential or address change, the app quitting)
    // cancels it: DeskMirror refuses it as `sync.cancelled` (the desk's words: it resumes from its
    // stored page on the next sync), and nothing is recorded as failed.
    const status = await this.#sync(connection, args.full, entitlementsOnly);
    if (entitlementsOnly) this.#logFullPass(connection.profile.id, status.sources, 'staff');
    return this.#statusView(status);
  }

  #sync(connection: Connection, full: boolean, entitlementsOnly: boolean): Promise<MirrorStatus> {
    return connection.mirror.syncNow(syncRequest(connection, full, entitlementsOnly), (progress) => this.#parts.emit('syncProgress', progress));
  }

  #statusView(status: MirrorStatus): SyncStatusView {
    return {
      available: true, ...status, fullPass: fullPassView(status.sources, this.#parts.fullPass),
      catalogRefresh: catalogRefreshView(status.sources, this.#parts.catalogRefresh),
    };
  }

  /**
   * The Collection's background tasks (background-tasks.ts):
   * - the spec's 10-minute availability refresh;
   * - the full entitlement pass when it is due (full-pass.ts): checked at start and every hour, so
   *   a desk that is off at the due time runs it soon after it starts;
   * - the catalog refresh (catalog-refresh.ts): checked at start and every 10 minutes, run when due;
   * - a desk in a library: the library mirror's fill, checked at start and every 15 seconds
   *   (LIBRARY_FILL_CHECK_EVERY_MS), run when due (a minute after the last).
   */
  backgroundTasks(): BackgroundTask<CollectionTaskName>[] {
    return [
      { name: 'availability-refresh', schedule: { everyMs: 600_000 }, runIfDue: () => this.#refreshChanged(), failedEvent: 'availability-refresh.failed' },
      { name: 'full-pass', schedule: { everyMs: 3_600_000 }, runIfDue: () => this.#runDueFullPass(), failedEvent: 'full-pass.failed', now: true },
      { name: 'catalog-refresh', schedule: { everyMs: 600_000 }, runIfDue: () => this.#runDueCatalogRefresh(), failedEvent: 'catalog-refresh.failed', now: true },
      { name: 'library-fill', schedule: { everyMs: LIBRARY_FILL_CHECK_EVERY_MS }, runIfDue: () => this.#runDueLibraryFill(), failedEvent: 'library-fill.failed', now: true },
    ];
  }

  /** Runs the full entitlement pass of the active connection if it is due; true when it ran. */
  async #runDueFullPass(): Promise<boolean> {
    const connection = await this.#parts.connections.activeIfAny();
    if (!connection || !fullPassDue((await connection.mirror.status()).sources, this.#parts.fullPass, this.#parts.now())) return false;
    const status = await this.#sync(connection, true, true);
    this.#logFullPass(connection.profile.id, status.sources, 'schedule');
    return true;
  }

  /** Runs the catalog's and holdings' deltas of the active connection (its first sync, on a fresh desk) when due; true when it ran. */
  async #runDueCatalogRefresh(): Promise<boolean> {
    const connection = await this.#parts.connections.activeIfAny();
    if (!connection || connection.mirror.fromLibrary) return false;
    const before = (await connection.mirror.status()).sources;
    if (!catalogRefreshDue(before, this.#parts.catalogRefresh, this.#parts.now())) return false;
    const first = before.every((s) => s.lastSuccessAt === undefined);
    this.#parts.logger.info('catalog-refresh.started', { profileId: connection.profile.id, first, everyDays: this.#parts.catalogRefresh.everyDays });
    await this.#sync(connection, first, false);
    return true;
  }

  #logFullPass(profileId: string, sources: SyncStatusView['sources'], by: 'staff' | 'schedule'): void {
    const view = fullPassView(sources, this.#parts.fullPass);
    this.#parts.logger.info('full-pass.done', { profileId, by, everyDays: view.everyDays, removed: view.removed ?? 0 });
  }

  /** The spec's 10-minute refresh (availability of the titles changed since the last run), for a connection whose entitlements have been mirrored once. */
  async #refreshChanged(): Promise<boolean> {
    const connection = await this.#parts.connections.activeIfAny();
    if (!connection) return false;
    const mirrored = (await connection.mirror.status()).sources.some((s) => s.source.startsWith('entitlements:') && s.lastSuccessAt !== undefined);
    if (mirrored) await connection.mirror.refreshChanged(connection.libraries.map((l) => l.libraryId));
    return mirrored;
  }

  // ---- a desk in a library (issue #25, library-fill-settings.ts) ----

  /** Fills the active connection's Collection from the library mirror when it is due; true when it ran. Its failure is kept on the source and thrown. */
  async #runDueLibraryFill(): Promise<boolean> {
    if (!this.#parts.library.policy) return false; // a desk on its own: nothing opened, nothing logged
    const connection = await this.#parts.connections.activeIfAny();
    if (!connection?.mirror.fromLibrary || !libraryFillDue((await connection.mirror.status()).sources, this.#parts.now())) return false;
    await connection.mirror.fillFromLibrary();
    return true;
  }

  async libraryMirror(): ReturnType<DeskHandlers['libraryMirror']> {
    return libraryMirrorView(this.#parts.library.policy, this.#parts.library.keychain);
  }

  async setLibraryMirrorPassword(args: ParsedArgsOf<'setLibraryMirrorPassword'>): ReturnType<DeskHandlers['setLibraryMirrorPassword']> {
    const { policy, keychain, staff } = this.#parts.library;
    const view = await saveLibraryMirrorPassword(policy, keychain, args.password);
    this.#parts.logger.info('library-mirror.password-set', { server: view.server, by: staff() });
    return view;
  }
}
