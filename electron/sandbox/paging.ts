// Id-ordered paging over the generated id space. Pages are found by scanning forward with a
// cheap predicate, so a page near the end of a million ids costs only that page.

export interface IdPage {
  ids: number[];
  /** The next id to start from; undefined on the last page. */
  next: number | undefined;
}

export function scanPage(from: number, maxId: number, limit: number, matches: (id: number) => boolean): IdPage {
  const ids: number[] = [];
  let id = Math.max(1, from);
  for (; id <= maxId && ids.length < limit; id += 1) if (matches(id)) ids.push(id);
  for (; id <= maxId; id += 1) if (matches(id)) return { ids, next: id };
  return { ids, next: undefined };
}

export function countMatching(maxId: number, matches: (id: number) => boolean): number {
  let count = 0;
  for (let id = 1; id <= maxId; id += 1) if (matches(id)) count += 1;
  return count;
}

/** A page of an already-listed delta (ids ascending), starting at the id `from`. */
export function listPage(ids: readonly number[], from: number, limit: number): IdPage {
  const rest = ids.filter((id) => id >= from);
  return { ids: rest.slice(0, limit), next: rest[limit] };
}
