// The sandbox's long work in slices. The service answers every client from one thread; a real
// one is a farm, where a patron's lookup never waits for another client's bulk page. So a bulk
// page (its records, its JSON) and a full pull's count over every id are made a slice of about
// SLICE_MS at a time, and between slices the thread answers whatever else came in.

/** How long one slice runs before the thread turns to other requests. */
export const SLICE_MS = 2;
/** Steps between two looks at the clock (a step can be as cheap as one id's hash). */
const STEPS_BETWEEN_CLOCK_READS = 64;

/** The next turn of the event loop, after the I/O that came in meanwhile (setImmediate runs after the poll phase). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs `step` over `count` items (index 0..count-1) in slices of about SLICE_MS, yielding to other requests between them. */
export async function inSlices(count: number, step: (index: number) => void): Promise<void> {
  let index = 0;
  while (index < count) {
    const until = performance.now() + SLICE_MS;
    do {
      const end = Math.min(count, index + STEPS_BETWEEN_CLOCK_READS);
      for (; index < end; index += 1) step(index);
    } while (index < count && performance.now() < until);
    if (index < count) await nextTurn();
  }
}

/** `items.flatMap(project)`, made in slices. */
export async function flatMapInSlices<T, R>(items: readonly T[], project: (item: T) => R[]): Promise<R[]> {
  const out: R[] = [];
  await inSlices(items.length, (index) => {
    for (const value of project(items[index] as T)) out.push(value);
  });
  return out;
}

/** `items.filter(keep)`, made in slices. */
export async function filterInSlices<T>(items: readonly T[], keep: (item: T) => boolean): Promise<T[]> {
  const out: T[] = [];
  await inSlices(items.length, (index) => {
    const item = items[index] as T;
    if (keep(item)) out.push(item);
  });
  return out;
}

/** Arrays at least this long are written an element at a time, in slices; shorter values in one go. */
const SLICED_ARRAY_LENGTH = 64;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype
  && typeof (value as { toJSON?: unknown }).toJSON !== 'function';

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
const omitted = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

const holdsLongArray = (value: unknown, depth: number): boolean => {
  if (Array.isArray(value)) return value.length >= SLICED_ARRAY_LENGTH;
  if (depth === 0 || !isPlainObject(value)) return false;
  return Object.values(value).some((inner) => holdsLongArray(inner, depth - 1));
};

/**
 * Exactly `JSON.stringify(value)` (the bytes the client reads are the same), but a long array
 * within the first few levels (a bulk page's records) is written in slices, so writing a page of
 * 500 records does not hold the thread for its whole length.
 */
export async function jsonInSlices(value: unknown): Promise<string | undefined> {
  if (!holdsLongArray(value, 3)) return JSON.stringify(value);
  if (Array.isArray(value)) {
    const parts: string[] = new Array<string>(value.length);
    await inSlices(value.length, (index) => {
      const item: unknown = value[index];
      parts[index] = omitted(item) ? 'null' : (JSON.stringify(item) ?? 'null');
    });
    return `[${parts.join(',')}]`;
  }
  const parts: string[] = [];
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (omitted(inner)) continue;
    const text = await jsonInSlices(inner);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
