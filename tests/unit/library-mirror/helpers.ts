// Library mirror tests: pulls from the sandbox over HTTP stored run by run, and a desk's reading
// of every change since a sequence number, batch by batch, with the desks' role.
import type pg from 'pg';
import { changesSince, type MirrorChange } from '../../../electron/library-mirror/changes.ts';
import { keepBytes } from '../../../electron/library-mirror/partner-sync.ts';
import type { LibraryMirrorStore, PageKind, Removed, StoredPage } from '../../../electron/library-mirror/store.ts';
import type { PartnerClient, ReadPage } from '../../../electron/partner/client.ts';
import type { PurchaseModel } from '../../../electron/shared/model.ts';

export type Pull = AsyncGenerator<ReadPage<ArrayBuffer>>;

export const globalPull = (client: PartnerClient, since?: number, limit = 500): Pull =>
  client.globalContentPagesReadBy(keepBytes, { limit, ...(since === undefined ? {} : { since }) });

export const entitlementsPull = (client: PartnerClient, libraryId: number, model: PurchaseModel, since?: number, limit = 500): Pull =>
  client.entitlementPagesReadBy(keepBytes, libraryId, { purchaseModel: model, limit, ...(since === undefined ? {} : { since }) });

/** Library content's pages as the service sent them (the client parses them; the store wants the bytes). */
export async function* libraryContentPull(baseUrl: string, token: string, libraryId: number, limit = 500): Pull {
  let startToken: string | undefined = '0';
  while (startToken !== undefined) {
    const response = await fetch(`${baseUrl}/api/v1/libraries/${libraryId}/content?limit=${limit}&purchaseModel=ALL&startToken=${startToken}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`library content answered ${response.status}`);
    const page = await keepBytes(await response.arrayBuffer());
    startToken = page.next;
    yield page;
  }
}

/** One whole run of `source` through the store: begun, every page stored in order, finished. */
export async function storeRun(store: LibraryMirrorStore, source: string, kind: PageKind, pull: Pull, startedAt: number, since?: number):
Promise<{ run: number; answers: StoredPage[]; removed: Removed }> {
  const run = await store.beginRun(source, since, startedAt);
  const answers: StoredPage[] = [];
  let page = 0;
  for await (const read of pull) answers.push(await store.storePage(source, run, kind, await read.items, ++page));
  const removed = await store.finishRun(source, run, { full: since === undefined });
  return { run, answers, removed };
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
