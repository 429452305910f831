// Availability written into the mirror's file as read at a time (content info, or a library
// fill's rows), with each entitlement row's availability rank for the Collection's sort and
// filter; and the Collection's in-memory index told which titles moved, to patch itself in place
// (collection-cache.ts) instead of being built again.
import type { Availability, PurchaseModel } from '../shared/model.ts';
import type { AvailabilityStored } from '../node/sync/page-store.ts';
import { AVAILABILITY_RANK } from './collection-columns.ts';
import type { MirrorFile } from './mirror-file.ts';

/** Availability just stored (the titles' keys: content-keys.ts), for the Collection's index to patch in place. */
export type AvailabilityListener = (libraryId: number, keys: number[]) => void;

export class AvailabilityWrites {
  private readonly file: MirrorFile;
  private readonly listeners = new Set<AvailabilityListener>();

  constructor(file: MirrorFile) {
    this.file = file;
  }

  /**
   * Availability as read at `readAt`. An id the service left out of its answer (`unknown`: the
   * client asked twice) says nothing, so nothing is stored for it; nor for a title the mirror has
   * never filed (it has no key, so no row of the Collection can show it).
   */
  store(libraryId: number, items: readonly Availability[], readAt: number): AvailabilityStored {
    const relabelled = new Map<string, { from: PurchaseModel; to: PurchaseModel; count: number }>();
    const keys = this.file.transaction(() => items.flatMap((a) => {
      const key = a.unknown ? undefined : this.file.keys.keyOf(a.contentId);
      if (key === undefined) return [];
      // Content info's model is the library's own word on the title (issue #34): it wins over the label a pull's filter gave.
      const held = a.purchaseModel === undefined ? undefined
        : this.file.query('SELECT model FROM entitlements WHERE library_id = ? AND content_id = ?').get(libraryId, key) as { model: PurchaseModel } | undefined;
      if (held && a.purchaseModel !== undefined && held.model !== a.purchaseModel) {
        this.file.prepare('UPDATE entitlements SET model = ? WHERE library_id = ? AND content_id = ?').run(a.purchaseModel, libraryId, key);
        const tally = relabelled.get(`${held.model} ${a.purchaseModel}`) ?? { from: held.model, to: a.purchaseModel, count: 0 };
        tally.count++;
        relabelled.set(`${held.model} ${a.purchaseModel}`, tally);
      }
      this.file.prepare(`INSERT INTO availability (library_id, content_id, status, available_copies, total_copies, holds_queue_size, holds_queue_position, read_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (library_id, content_id) DO UPDATE SET status = excluded.status, available_copies = excluded.available_copies,
          total_copies = excluded.total_copies, holds_queue_size = excluded.holds_queue_size, holds_queue_position = excluded.holds_queue_position,
          read_at = excluded.read_at`)
        .run(libraryId, key, a.status ?? null, a.availableCopies ?? null, a.totalCopies ?? null, a.holdsQueueSize ?? null, a.holdsQueuePosition ?? null, readAt);
      this.file.prepare(`UPDATE entitlements SET avail = ${AVAILABILITY_RANK('entitlements')} WHERE library_id = ? AND content_id = ?`)
        .run(libraryId, key);
      return [key];
    }));
    if (relabelled.size > 0) this.file.touch(); // a model changed: the Collection's indexes are built again
    for (const listener of this.listeners) listener(libraryId, keys);
    return { relabelled: [...relabelled.values()] };
  }

  onStored(listener: AvailabilityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
