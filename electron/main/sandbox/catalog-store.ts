// The live global catalog: the generated ids 1..maxId, minus removals, with metadata
// revisions laid over the generated records. Nothing is stored per title unless a test
// changed it.

import { generateTitle, titleCore } from './catalog.ts';
import type { Title, TitleCore } from './catalog.ts';

export class CatalogStore {
  readonly seed: number;
  private highestId: number;
  private readonly removed = new Set<number>();
  private readonly revisions = new Map<number, number>();
  /** Bumped on every change so cached counts know they are stale. */
  version = 0;

  constructor(seed: number, size: number) {
    this.seed = seed;
    this.highestId = size;
  }

  get maxId(): number {
    return this.highestId;
  }

  /** How many titles exist now; O(1), so a full pull's totalCount is free. */
  get size(): number {
    return this.highestId - this.removed.size;
  }

  has(id: number): boolean {
    return Number.isInteger(id) && id >= 1 && id <= this.highestId && !this.removed.has(id);
  }

  /** The cheap part of a record; defined for removed ids too (deltas need their countries). */
  core(id: number): TitleCore {
    return titleCore(this.seed, id);
  }

  title(id: number): Title | undefined {
    if (!this.has(id)) return undefined;
    const title = generateTitle(this.seed, id);
    const revision = this.revisions.get(id);
    if (revision !== undefined) title.title = `${title.title} (revised ${revision})`;
    return title;
  }

  addTitles(count: number): number[] {
    const added: number[] = [];
    for (let n = 0; n < count; n += 1) {
      this.highestId += 1;
      added.push(this.highestId);
    }
    this.version += 1;
    return added;
  }

  revise(id: number): void {
    this.revisions.set(id, (this.revisions.get(id) ?? 0) + 1);
    this.version += 1;
  }

  remove(id: number): void {
    this.removed.add(id);
    this.version += 1;
  }
}
