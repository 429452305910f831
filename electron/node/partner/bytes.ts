// A body's bytes as they came: one buffer, or the socket's chunks in order. A bulk page of 500
// titles (about 0.7 MB) arrives in about eleven chunks of 64 KiB, each an ArrayBuffer of its
// own; joining them in the thread that fetched it allocated the page a second time there, and in
// the desk's main that churn of ArrayBuffers is what sets off its full collections during a sync
// (docs/benchmarks.md, "Main's collections"). So a page's chunks are moved to the thread that
// reads it, and joined there.

export type Bytes = ArrayBuffer | readonly ArrayBuffer[];

/** The bytes' buffers, in order. */
export const chunksOf = (bytes: Bytes): readonly ArrayBuffer[] => (bytes instanceof ArrayBuffer ? [bytes] : bytes);

/** The buffers to move with a message that carries `bytes` (postMessage's transfer list). */
export const transferables = (bytes: Bytes): ArrayBuffer[] => [...chunksOf(bytes)];

export const byteLength = (bytes: Bytes): number => chunksOf(bytes).reduce((sum, chunk) => sum + chunk.byteLength, 0);

/**
 * The first `count` bytes (all of them unless told) in one piece: a view of the first buffer when
 * it holds them, else copied from the chunks.
 */
export function joined(bytes: Bytes, count = Number.POSITIVE_INFINITY): Uint8Array {
  const chunks = chunksOf(bytes);
  const length = Math.min(count, byteLength(bytes));
  const first = chunks[0];
  if (first === undefined) return new Uint8Array(0);
  if (first.byteLength >= length) return new Uint8Array(first, 0, length);
  const whole = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    if (at === length) break;
    const part = Math.min(chunk.byteLength, length - at);
    whole.set(new Uint8Array(chunk, 0, part), at);
    at += part;
  }
  return whole;
}

const utf8 = new TextDecoder();

/** The bytes as UTF-8 text (a view, as a page read from disk comes, decoded as it is). */
export const decoded = (bytes: Bytes | Uint8Array): string => utf8.decode(bytes instanceof Uint8Array ? bytes : joined(bytes));
