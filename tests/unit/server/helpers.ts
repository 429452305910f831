// Library mirror tests: pulls from the sandbox over HTTP stored run by run, and a desk's reading
// of every change since a sequence number, batch by batch, with the desks' role.
import type pg from 'pg';
import { changesSince, type MirrorChange } from '../../../electron/node/library-mirror/changes.ts';
import type { PageHead, PageStore, RunEnd, SyncSource } from '../../../electron/node/sync/page-store.ts';
import type { SourceState } from '../../../electron/shared/collection.ts';
import { decoded, type Bytes } from '../../../electron/node/partner/bytes.ts';
import type { BulkPull, PartnerClient } from '../../../electron/node/partner/client.ts';
import { nextPageToken, parseBulkPage } from '../../../electron/node/partner/normalize.ts';
import type { PurchaseModel } from '../../../electron/shared/model.ts';

/** A pull's pages as the service sent them: each page's bytes. */
export type Pull = AsyncGenerator<Bytes>;

/** The client's own pull (partner/pull.ts), each page's bytes kept as they came; the next token read from the page. */
async function* bytesOf(client: PartnerClient, pull: BulkPull): Pull {
  const pages = client.bulkPages(pull, async (bytes) => {
    const next = nextPageToken(parseBulkPage(decoded(bytes)));
    return { bytes, ...(next === undefined ? {} : { next }) };
  });
  for await (const page of pages) yield page.bytes;
}

export const globalPull = (client: PartnerClient, since?: number, limit = 500): Pull =>
  bytesOf(client, { kind: 'global', limit, ...(since === undefined ? {} : { since }) });

export const entitlementsPull = (client: PartnerClient, libraryId: number, model: PurchaseModel, since?: number, limit = 500): Pull =>
  bytesOf(client, { kind: 'entitlements', libraryId, purchaseModel: model, limit, ...(since === undefined ? {} : { since }) });

export const libraryContentPull = (client: PartnerClient, libraryId: number, limit = 500): Pull =>
  bytesOf(client, { kind: 'library-content', libraryId, limit });

/** One whole run of `source` through the store: opened, every page stored in order (its head, then stored), finished. */
export async function storeRun(store: PageStore, source: SyncSource, pull: Pull, startedAt: number, since?: number):
Promise<{ run: number; heads: PageHead[]; removed: RunEnd['removed'] }> {
  const { run } = await store.openRun({ source, startedAt, ...(since === undefined ? {} : { since }) });
  const heads: PageHead[] = [];
  let page = 0;
  for await (const bytes of pull) {
    const storing = store.storePage(run, ++page, bytes);
    heads.push(await storing.head);
    await storing.stored;
  }
  const { removed } = await store.finishRun(run);
  return { run, heads, removed };
}

/** One source's state as the store keeps it (a source never run: not in progress, nothing stored). */
export async function stateOf(store: PageStore, source: string): Promise<SourceState> {
  return (await store.states()).find((s) => s.source === source) ?? { source, inProgress: false, items: 0 };
}

/** Every change after `since`, read as a desk reads them (batch after batch); and where to ask from next. */
export async function readAllChanges(desk: pg.ClientBase, since: number, options: { libraries?: number[]; limit?: number } = {}):
Promise<{ changes: MirrorChange[]; through: number; batches: number }> {
  const changes: MirrorChange[] = [];
  let through = since;
  let batches = 0;
  for (;;) {
    const batch = await changesSince(desk, through, options);
    batches++;
    changes.push(...batch.changes);
    through = batch.through;
    if (!batch.more) return { changes, through, batches };
  }
}

export const ofTable = <T extends MirrorChange['table']>(changes: MirrorChange[], table: T): Extract<MirrorChange, { table: T }>[] =>
  changes.filter((c): c is Extract<MirrorChange, { table: T }> => c.table === table);
