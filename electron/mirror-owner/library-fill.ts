// A desk in a library fills its mirror from the library system's mirror in PostgreSQL (issue
// #25), on the owner's thread: it asks "what changed since change sequence N" with the desks'
// read-only role (electron/node/library-mirror/changes.ts), batch after batch, and writes each batch
// with the very writes a partner page's records take (page-writes.ts: titles and entitlements;
// availability-writes.ts), so the Collection, its queries and the title details are the same whichever
// source filled them. Each batch and the change sequence it reaches commit in one transaction: a
// fill cut short goes on from the last batch stored. The first fill writes as a full run of titles
// does (the search index built once at its end).
//
// What the desk keeps is what a partner sync of its profile would have given it: titles offered in
// its countries (a title that leaves them is removed), and its own libraries' entitlements and
// availability. Removals come as tombstones and remove.
//
// A failure (the server down, the certificate or the password refused) keeps the copy as it was
// and is recorded on the source with a reason staff read; the desk never turns to the partner.
import pg from 'pg';
import { changesSince, DEFAULT_CHANGES_LIMIT, type AvailabilityChange, type ChangeBatch, type EntitlementChange, type MirrorChange, type TitleChange } from '../node/library-mirror/changes.ts';
import { deskSessionConfig, libraryFailure } from '../node/library-mirror/desk-session.ts';
import { DeskError } from '../shared/desk-error.ts';
import type { Availability, CatalogChange, ContentId, Country, Entitlement, PurchaseModel } from '../shared/model.ts';
import type { MirrorDatabase } from './mirror-database.ts';
import { LIBRARY_FILL_SOURCE, type LibraryFillRequest, type LibraryFillResult } from '../node/mirror-interface.ts';
import type { RunFailure } from '../node/sync/page-store.ts';
import type { PageStoreOnFile } from './page-store.ts';
import { recordOf } from './title-row.ts';

const failureOf = (error: DeskError): RunFailure => {
  const { reason, params } = error.detail;
  return { code: error.code, message: error.message, ...(reason ? { reason, params: params ?? {} } : {}) };
};

/** The writes one batch takes, grouped the way the store writes pages. */
interface BatchWrites {
  /** As read: each is parsed only when the store takes it (catalogChanges). */
  titles: TitleChange[];
  entitlements: Map<string, { libraryId: number; model: PurchaseModel; items: Entitlement[] }>;
  availability: Map<string, { libraryId: number; readAt: number; items: Availability[] }>;
}

/** The parts of the mirror a fill works through. */
export type LibraryFillParts = Pick<MirrorDatabase, 'file' | 'runs' | 'pages' | 'availability' | 'collection'>;

export class LibraryFillOnFile {
  private readonly mirror: LibraryFillParts;
  private readonly store: PageStoreOnFile;
  private session: { key: string; client: pg.Client } | undefined;
  private filling: Promise<LibraryFillResult> | undefined;
  /** close() was called: the fill stops before its next batch and records nothing (as a cancelled sync). */
  private stopping = false;

  constructor(mirror: LibraryFillParts, store: PageStoreOnFile) {
    this.mirror = mirror;
    this.store = store;
  }

  /** One fill at a time: a second request joins the one under way. */
  fill(request: LibraryFillRequest): Promise<LibraryFillResult> {
    if (this.stopping) return Promise.reject(DeskError.because('network', 'sync.cancelled'));
    this.filling ??= this.fillNow(request).finally(() => { this.filling = undefined; });
    return this.filling;
  }

  /** Stops a fill under way (its session ended: the query on the wire fails) and lets the session go. */
  async close(): Promise<void> {
    this.stopping = true;
    await this.dropSession();
    await this.filling?.catch(() => {});
  }

  private async fillNow(request: LibraryFillRequest): Promise<LibraryFillResult> {
    const { file, runs, collection } = this.mirror;
    const from = runs.librarySeq();
    const first = from === 0;
    // A first fill writes as a full run of titles does (bulk: the search index built once at the end).
    const since = first ? undefined : runs.state(LIBRARY_FILL_SOURCE).lastSuccessAt ?? request.startedAt;
    file.transaction(() => {
      runs.beginRun(LIBRARY_FILL_SOURCE, since, request.startedAt);
      if (first) {
        collection.beginBulk();
        collection.deferCollectionOrders(); // built once at the end (finishTitles)
      }
    });
    let through = from;
    let changes = 0;
    let bytesRead = 0;
    try {
      const session = await this.connect(request);
      const readBefore = bytesReadOn(session);
      const libraries = [...request.libraries];
      const countries = new Set(request.countries);
      const read = (since: number): Promise<ChangeBatch> => {
        const reading = changesSince(session, since, { libraries, limit: request.batchSize ?? DEFAULT_CHANGES_LIMIT });
        reading.catch(() => {}); // a batch asked for ahead and never awaited (a write failed first) is no unhandled rejection
        return reading;
      };
      let next = read(through);
      for (;;) {
        const batch = await next;
        if (this.stopping) throw DeskError.because('network', 'sync.cancelled');
        // The next batch is asked for before this one is written: PostgreSQL reads and sends it
        // while this thread writes (one message: changes.ts), instead of waiting turn about.
        if (batch.more) next = read(batch.through);
        this.write(batch.changes, batch.through, countries, request.startedAt);
        through = batch.through;
        changes += batch.changes.length;
        if (!batch.more) break;
      }
      bytesRead = bytesReadOn(session) - readBefore;
    } catch (error) {
      if (this.stopping) {
        await this.dropSession(); // one opened while close() was under way
        throw DeskError.because('network', 'sync.cancelled'); // what it stored stays; the next start goes on from there
      }
      const failure = libraryFailure(error, request.target);
      await this.dropSession();
      runs.failRun(LIBRARY_FILL_SOURCE, failureOf(failure), request.startedAt);
      runs.endRun(LIBRARY_FILL_SOURCE);
      throw failure;
    }
    runs.finishRun(LIBRARY_FILL_SOURCE, () => ({ titles: 0, entitlements: 0 }));
    this.store.finishTitles(); // after a first fill: the search index, built once
    return { through, changes, first, bytesRead };
  }

  /** A session kept between fills while its settings are the same; a new one after a failure. */
  private async connect(request: LibraryFillRequest): Promise<pg.ClientBase> {
    const config = deskSessionConfig(request.target, request.password); // first: a CA file or password gone since the last fill is said, not a session reused
    const key = JSON.stringify([request.target, request.password]);
    if (this.session?.key === key) return this.session.client;
    await this.dropSession();
    const client = new pg.Client(config);
    // An idle session that fails (the server restarted) would otherwise end the thread; the next fill reconnects.
    client.on('error', () => { if (this.session?.client === client) this.session = undefined; });
    await client.connect();
    this.session = { key, client };
    return client;
  }

  private async dropSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    await session?.client.end().catch(() => {});
  }

  /** One batch, its writes and the change sequence it reaches in one transaction. */
  private write(changes: readonly MirrorChange[], through: number, countries: ReadonlySet<Country>, run: number): void {
    const writes: BatchWrites = { titles: [], entitlements: new Map(), availability: new Map() };
    for (const change of changes) {
      if (change.table === 'titles') writes.titles.push(change);
      else if (change.table === 'entitlements') addEntitlement(writes, change);
      else addAvailability(writes, change);
    }
    const { file, runs, pages, availability } = this.mirror;
    file.transaction(() => {
      if (writes.titles.length > 0) pages.applyGlobalPage(LIBRARY_FILL_SOURCE, run, catalogChanges(writes.titles, countries), undefined);
      for (const { libraryId, model, items } of writes.entitlements.values()) pages.applyEntitlementPage(LIBRARY_FILL_SOURCE, run, libraryId, model, items, undefined);
      for (const { libraryId, readAt, items } of writes.availability.values()) availability.store(libraryId, items, readAt);
      runs.setLibrarySeq(through);
    }, true);
  }
}

/** Bytes the session's socket has read (pg keeps its socket on `connection.stream`, which its types do not name). */
function bytesReadOn(session: pg.ClientBase): number {
  const stream = (session as unknown as { connection?: { stream?: { bytesRead?: number } } }).connection?.stream;
  return stream?.bytesRead ?? 0;
}

/** The titles as the desk's own sync would have them, each parsed when the store takes it (applyGlobalPage). */
function* catalogChanges(changes: readonly TitleChange[], countries: ReadonlySet<Country>): Generator<CatalogChange> {
  for (const change of changes) yield titleChange(change, countries);
}

/** A title as the desk's own sync would have it: kept only while offered in one of the desk's countries. */
function titleChange(change: TitleChange, countries: ReadonlySet<Country>): CatalogChange {
  const offeredHere = change.countries.length === 0 || change.countries.some((c) => countries.has(c as Country));
  if (change.removed || change.record === undefined || !offeredHere) return { kind: 'removed', id: change.id };
  // A global record as the service sent it is read as a partner page's is; library content's is already normalised.
  const record = recordOf(change.record, change.wire ? 1 : 0, change.id as number);
  record.id = change.id; // its own, freshly parsed: no copy of a million records
  return { kind: 'upsert', record };
}

function addEntitlement(writes: BatchWrites, change: EntitlementChange): void {
  const key = `${change.libraryId}:${change.model}`;
  let group = writes.entitlements.get(key);
  if (!group) writes.entitlements.set(key, (group = { libraryId: change.libraryId, model: change.model, items: [] }));
  group.items.push({ contentId: change.contentId, active: change.active, removed: change.removed });
}

function addAvailability(writes: BatchWrites, change: AvailabilityChange): void {
  const key = `${change.libraryId}:${change.readAt}`;
  let group = writes.availability.get(key);
  if (!group) writes.availability.set(key, (group = { libraryId: change.libraryId, readAt: change.readAt, items: [] }));
  const { table: _table, seq: _seq, libraryId: _library, readAt: _readAt, ...availability } = change;
  group.items.push(availability);
}
