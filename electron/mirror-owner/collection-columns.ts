// Each library's entitlement rows carry copies of what the Collection filters and sorts on, so a
// library is read in one pass and ordered by its own indexes (schema 2). These are the only
// statements that fill the copies, shared by the migration and the write path.

/** The copied columns, in the order COPY_FROM_TITLE selects them. */
export const COLLECTION_COLUMNS = '(title, artist, format, year, kids, words)';

/**
 * The title's columns for the entitlement row `e` (NULLs, and not for children, while the
 * global record is missing: the row still shows, as the browser always showed it).
 */
export const COPY_FROM_TITLE = (e: string): string =>
  `(SELECT t.title, t.artist, t.format, t.year, coalesce(t.for_children, 0), t.words FROM (SELECT 1) LEFT JOIN titles t ON t.id = ${e}.content_id)`;

/** A title's content flags (schema 7) for the entitlement row `e`: 0 while the global record is missing. */
export const FLAGS_FROM_TITLE = (e: string): string => `coalesce((SELECT t.flags FROM titles t WHERE t.id = ${e}.content_id), 0)`;

/**
 * The availability sort's rank of the entitlement row `e`: 0 can be borrowed now (Instant, or a
 * Flex copy free), 1 a Flex title read as not free, 2 never read, 3 inactive. The same order as
 * the browser's reference query; "Available now" is rank 0.
 */
export const AVAILABILITY_RANK = (e: string): string =>
  `CASE WHEN ${e}.active = 0 THEN 3 WHEN ${e}.model = 'INSTANT' THEN 0 ELSE coalesce((SELECT CASE WHEN a.available_copies > 0 THEN 0 WHEN a.status IS NULL THEN 2 ELSE 1 END
     FROM availability a WHERE a.library_id = ${e}.library_id AND a.content_id = ${e}.content_id), 2) END`;
