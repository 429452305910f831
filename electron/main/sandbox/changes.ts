// When each record last changed, per feed, so deltas can answer "what changed since T".
// Keyed by id (a later change replaces an earlier one): a delta reports the current state
// of every record touched since T, not a history.

export type Feed = 'libraryContent' | 'entitlements';

export class ChangeLog {
  private readonly global = new Map<number, number>();
  private readonly perLibrary = new Map<string, Map<number, number>>();

  recordGlobal(id: number, atSeconds: number): void {
    this.global.set(id, atSeconds);
  }

  recordLibrary(feed: Feed, libraryId: number, id: number, atSeconds: number): void {
    const key = `${feed}:${libraryId}`;
    let changes = this.perLibrary.get(key);
    if (changes === undefined) {
      changes = new Map();
      this.perLibrary.set(key, changes);
    }
    changes.set(id, atSeconds);
  }

  /** Ids changed at or after `sinceSeconds`, ascending. Inclusive, so a client's clock margin never loses a change. */
  globalSince(sinceSeconds: number): number[] {
    return idsSince(this.global, sinceSeconds);
  }

  librarySince(feed: Feed, libraryId: number, sinceSeconds: number): number[] {
    return idsSince(this.perLibrary.get(`${feed}:${libraryId}`), sinceSeconds);
  }
}

function idsSince(changes: Map<number, number> | undefined, sinceSeconds: number): number[] {
  if (changes === undefined) return [];
  const ids: number[] = [];
  for (const [id, at] of changes) if (at >= sinceSeconds) ids.push(id);
  return ids.sort((a, b) => a - b);
}
