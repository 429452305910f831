// The Collection matrix the browse tests walk (filters × sorts × directions × searches), and the
// changes they make to the 20,000-title sandbox first: every copy of a few Flex titles out on
// loan, then a delta that adds, revises, removes and deactivates titles. Shared by the reference
// comparison (browse-equivalence.test.ts) and the two-sources one (library-equivalence.test.ts).
import type { BrowseQuery } from '../../../electron/node/mirror-interface.ts';
import type { PartnerClient } from '../../../electron/node/partner/client.ts';
import type { SandboxHandle } from '../../../electron/main/sandbox/server.ts';
import type { ContentId } from '../../../electron/shared/model.ts';

export const FILTERS: Omit<BrowseQuery, 'libraryId' | 'offset' | 'limit'>[] = [
  {}, { model: 'FLEX' }, { model: 'INSTANT', active: true, formats: ['EBOOK'] }, { formats: ['MOVIE', 'MUSIC', 'TELEVISION'] },
  { active: false }, { availableNow: true }, { kids: true }, { availableNow: true, kids: true, model: 'FLEX' }, { noCopyFree: true },
  // The content flags (issue #34): samples; neither explicit language nor an edited version.
  { flags: ['sample'] }, { withoutFlags: ['profanity', 'edited'], active: true },
];
export const SORTS = ['title', 'artist', 'format', 'year', 'availability'] as const;
export const DIRECTIONS = ['asc', 'desc'] as const;
export const TEXTS = ['', 'the', 'g', 'gar', 'golden riv', 'garden o', "alice's", 'GARCÍA', 'revised', 'zzqx', '97', 'a b', 'hollowmere'];
/** Library 101, changed by the delta: browsing and a few searches. */
export const DELTA_TEXTS = ['', 'the', 'gar', 'revised', 'zzqx'];

/** How many queries the matrix makes over these searches. */
export const matrixSize = (texts: readonly string[]): number => texts.length * FILTERS.length * SORTS.length * DIRECTIONS.length;

/** Every copy of these Flex titles out on loan to three new patrons (`cardPrefix` keeps each test's own): read as not free. */
export async function lendEveryCopy(sandbox: SandboxHandle, client: PartnerClient, libraryId: number, ids: readonly ContentId[], cardPrefix: string): Promise<void> {
  for (let patron = 0; patron < 3; patron++) {
    const card = `${cardPrefix}${libraryId}00${patron}`;
    sandbox.control.addPatron(libraryId, card);
    for (const id of ids) await client.borrow(libraryId, card, id).catch(() => undefined); // "no copy free" once all are out
  }
}

/** The delta: 40 titles added, 60 revised, 25 of library 101's removed and 35 deactivated (`some`: its first active titles). */
export function applyTheDelta(sandbox: SandboxHandle, some: readonly number[]): void {
  sandbox.control.applyCatalogChanges({
    add: 40, modify: Array.from({ length: 60 }, (_, i) => 1 + i * 301), remove: some.slice(0, 25),
    deactivate: { libraryId: 101, contentIds: some.slice(25, 60) },
  });
}
