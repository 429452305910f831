// A body's bytes kept as the chunks they came in (electron/node/partner/bytes.ts): read whole,
// decoded and led by the same bytes as one buffer would be, and each chunk an ArrayBuffer of its
// own, so moving one to another thread moves nothing else.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byteLength, chunksOf, decoded, joined, transferables } from '../../../../electron/node/partner/bytes.ts';
import { readCapped } from '../../../../electron/node/partner/transport.ts';
import { leadingNextToken } from '../../../../electron/node/partner/normalize.ts';

const encode = (text: string): ArrayBuffer => new TextEncoder().encode(text).slice().buffer;

/** `text`'s bytes cut at these byte offsets (a cut may fall inside a character). */
function cut(text: string, at: number[]): ArrayBuffer[] {
  const all = new Uint8Array(encode(text));
  const edges = [0, ...at, all.byteLength];
  return edges.slice(1).map((end, i) => all.slice(edges[i], end).buffer);
}

describe('bytes in chunks', () => {
  const text = '{"metadata":{"nextStartToken":"42"},"data":"Émile Zola — Thérèse Raquin"}';

  it('read, decode and lead as the same bytes in one buffer', () => {
    const whole = encode(text);
    // Cuts inside "É" (2 bytes) and "—" (3 bytes): text is decoded from the joined bytes, never chunk by chunk.
    const accent = new TextEncoder().encode(text.slice(0, text.indexOf('É'))).byteLength + 1;
    const dash = new TextEncoder().encode(text.slice(0, text.indexOf('—'))).byteLength + 2;
    const chunks = cut(text, [5, accent, dash]);
    expect(byteLength(chunks)).toBe(whole.byteLength);
    expect(joined(chunks)).toEqual(new Uint8Array(whole));
    expect(decoded(chunks)).toBe(text);
    expect(decoded(whole)).toBe(text);
    expect(new TextDecoder().decode(joined(chunks, 30))).toBe(text.slice(0, 30));
    expect(joined(chunks, 10_000)).toEqual(new Uint8Array(whole));
    expect(leadingNextToken(chunks)).toBe('42');
    expect(leadingNextToken(whole)).toBe('42');
  });

  it('nothing at all reads as no bytes', () => {
    expect(byteLength([])).toBe(0);
    expect(decoded([])).toBe('');
    expect(joined([], 10).byteLength).toBe(0);
  });

  it('moves every chunk with a message, and no buffer holds another chunk', () => {
    const chunks = cut(text, [10, 20]);
    expect(transferables(chunks)).toEqual([...chunks]);
    expect(chunksOf(encode(text))).toHaveLength(1);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage({ chunks }, transferables(chunks));
    expect(chunks.every((chunk) => chunk.byteLength === 0)).toBe(true); // moved, not copied
    port1.close();
    port2.close();
  });
});

describe('a body read through the cap', () => {
  let server: Server;
  let url: string;
  const body = 'x'.repeat(300_000) + 'é';
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Written in pieces, so the body arrives in several chunks.
      for (let at = 0; at < body.length; at += 50_000) res.write(body.slice(at, at + 50_000));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('comes as chunks, each the whole of its own buffer, holding the body exactly', async () => {
    const chunks = await readCapped(await fetch(url), 1 << 20);
    expect(chunks.length).toBeGreaterThan(1);
    expect(decoded(chunks)).toBe(body);
    for (const chunk of chunks) expect(chunk).toBeInstanceOf(ArrayBuffer);
  });

  it('a chunk that is a view on a buffer holding other bytes is copied, so moving it moves nothing else', async () => {
    const shared = new TextEncoder().encode('{"a":1}{"b":2}');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(shared.subarray(0, 7));
        controller.enqueue(shared.subarray(7));
        controller.close();
      },
    });
    const chunks = await readCapped(new Response(body), 1 << 20);
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([7, 7]);
    expect(decoded(chunks)).toBe('{"a":1}{"b":2}');
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(null, transferables(chunks));
    port1.close();
    port2.close();
    expect(shared.byteLength).toBe(14); // the stream's own buffer was not moved with them
  });

  it('past the cap, is refused while it streams in', async () => {
    await expect(readCapped(await fetch(url), 100_000)).rejects.toMatchObject({ code: 'bad-response' });
  });
});
