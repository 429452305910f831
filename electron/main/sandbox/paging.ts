// Id-ordered paging over the generated id space. Pages are found by scanning forward with a
// cheap predicate, so a page near the end of a million ids costs only that page.

import { inSlices } from './slices.ts';

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

/** A scan of every id (a few hundred ms over a million): made in slices, so other requests are answered meanwhile. */
export async function countMatching(maxId: number, matches: (id: number) => boolean): Promise<number> {
  let count = 0;
  await inSlices(maxId, (index) => {
    if (matches(index + 1)) count += 1;
  });
  return count;
}

/** A page of an already-listed delta (ids ascending), starting at the id `from`. */
export function listPage(ids: readonly number[], from: number, limit: number): IdPage {
  const rest = ids.filter((id) => id >= from);
  return { ids: rest.slice(0, limit), next: rest[limit] };
}
