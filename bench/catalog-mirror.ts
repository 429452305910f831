// Catalog mirror figures on a 1,000,000-title sandbox (in its own process): full ingest of the
// global catalog (records/s, peak RSS) beside the raw limit measured in the same run (the same
// pages parsed and inserted with no HTTP), a 1% delta, and local search and filter latency.
// Printed, never asserted. The rate limiter is lifted: the sandbox is on loopback; against
// the real service the ~100 requests a minute limit governs instead (500 records a request).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogMirror } from '../electron/mirror/mirror.ts';
import { browse } from '../electron/mirror/queries.ts';
import { ShelfCache } from '../electron/mirror/shelf-cache.ts';
import { RateLimiter } from '../electron/mirror/rate-limiter.ts';
import { runSync, type SyncContext } from '../electron/mirror/sync.ts';
import { PartnerClient } from '../electron/partner/client.ts';
import type { Country, Format } from '../electron/shared/model.ts';
import { parseGlobalContentPage } from '../electron/partner/normalize.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const CATALOG = 1_000_000;
const PAGE = 1000;
const RAW_SAMPLE_PAGES = 100;
const QUERIES = 200;

const mib = (kib: number): string => `${(kib / 1024).toFixed(0)} MiB`;
const quantile = (values: number[], q: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] as number;

export async function benchCatalogMirror(): Promise<void> {
  const sandbox = await startSandboxProcess(['--catalog-size', String(CATALOG)]);
  const dir = mkdtempSync(join(tmpdir(), 'bench-mirror-'));
  try {
    const client = new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password } });
    const { libraryId, country } = sandbox.libraries[0]!;
    const countries = [country as Country];
    const mirror = new CatalogMirror(join(dir, 'mirror.db'));
    const ctx: SyncContext = { client, mirror, limiter: new RateLimiter(1_000_000), now: Date.now };

    // 1. Full ingest over HTTP: the global catalog for the library's country.
    let started = performance.now();
    await runSync(ctx, { countries, libraries: [], source: 'global+entitlements', pageSize: PAGE });
    const ingestSeconds = (performance.now() - started) / 1000;
    const titles = mirror.state('global').items;
    const ingestRate = titles / ingestSeconds;
    const peakAfterIngest = process.resourceUsage().maxRSS;

    // 2. The raw limit: the first pages fetched once into memory as text, then parsed and
    //    inserted into a fresh mirror with no HTTP in the timing.
    const raw: string[] = [];
    let token: string | undefined;
    const basic = Buffer.from(`${sandbox.username}:${sandbox.password}`).toString('base64');
    const { access_token: accessToken } = await (await fetch(`${sandbox.url}/api/v1/get-token`, { method: 'POST', headers: { Authorization: `Basic ${basic}` } })).json() as { access_token: string };
    for (let i = 0; i < RAW_SAMPLE_PAGES; i++) {
      const url = `${sandbox.url}/api/v1/global-contents?countryCodes=${country}&limit=${PAGE}${token ? `&startToken=${token}` : ''}`;
      const text = await (await fetch(url, { headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' } })).text();
      raw.push(text);
      token = parseGlobalContentPage(JSON.parse(text)).next;
    }
    const rawMirror = new CatalogMirror(join(dir, 'raw.db'));
    rawMirror.beginRun('global', undefined, 1);
    let rawRecords = 0;
    started = performance.now();
    for (const text of raw) {
      const page = parseGlobalContentPage(JSON.parse(text));
      rawMirror.applyGlobalPage('global', 1, page.items, page.next);
      rawRecords += page.items.length;
    }
    const rawRate = rawRecords / ((performance.now() - started) / 1000);
    rawMirror.close();

    console.log(`Catalog mirror, sandbox of ${CATALOG.toLocaleString('en')} titles in another process, pages of ${PAGE}`);
    console.log(`  full ingest (${country}): ${titles.toLocaleString('en')} records in ${ingestSeconds.toFixed(1)} s = ${Math.round(ingestRate).toLocaleString('en')} records/s, peak RSS ${mib(peakAfterIngest)}`);
    console.log(`  raw limit (same pages, ${rawRecords.toLocaleString('en')} records parsed + inserted, no HTTP): ${Math.round(rawRate).toLocaleString('en')} records/s`);
    console.log(`  ingest / raw limit: ${(ingestRate / rawRate).toFixed(2)}`);

    // 3. Entitlements of one library, so the browser's queries have rows to filter.
    started = performance.now();
    await runSync(ctx, { countries, libraries: [libraryId], source: 'global+entitlements', pageSize: PAGE });
    const entitlements = mirror.state(`entitlements:${libraryId}:INSTANT`).items + mirror.state(`entitlements:${libraryId}:FLEX`).items;
    console.log(`  entitlements of library ${libraryId} (with a global delta first): ${entitlements.toLocaleString('en')} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // 4. A 1% delta: 10,000 titles changed on the service, then a delta sync.
    const changed = Array.from({ length: CATALOG / 100 }, (_, i) => 1 + i * 97);
    const answer = await fetch(`${sandbox.url}/__sandbox/catalog-changes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ modify: changed }) });
    if (!answer.ok) throw new Error(`the sandbox refused the changes: ${answer.status}`);
    started = performance.now();
    await runSync(ctx, { countries, libraries: [], source: 'global+entitlements', pageSize: PAGE });
    console.log(`  1% delta (${changed.length.toLocaleString('en')} titles changed on the service): ${((performance.now() - started) / 1000).toFixed(2)} s, ${mirror.state('global').items.toLocaleString('en')} records applied`);

    // 5. Local search (FTS5) and filter latency over the mirrored million.
    const shelves = new ShelfCache(mirror);
    const words = (mirror.db.prepare('SELECT title FROM titles WHERE title IS NOT NULL LIMIT 2000').all() as { title: string }[])
      .flatMap((r) => r.title.split(/\s+/).filter((w) => w.length > 3));
    const searchMs: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const word = words[(i * 7919) % words.length]!.slice(0, 5);
      const t = performance.now();
      browse(mirror.db, shelves, { libraryId, text: word, offset: 0, limit: 100 });
      searchMs.push(performance.now() - t);
    }
    const formats: Format[] = ['EBOOK', 'AUDIOBOOK', 'MOVIE', 'TELEVISION', 'MUSIC', 'COMIC'];
    const filterMs: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const t = performance.now();
      browse(mirror.db, shelves, { libraryId, model: i % 2 ? 'FLEX' : 'INSTANT', formats: [formats[i % 6]!], active: true, sort: 'title', offset: (i * 37) % 2000, limit: 100 });
      filterMs.push(performance.now() - t);
    }
    console.log(`  local search (FTS5 prefix, total count + first 100), ${QUERIES} queries: median ${quantile(searchMs, 0.5).toFixed(1)} ms, p95 ${quantile(searchMs, 0.95).toFixed(1)} ms`);
    console.log(`  filter (model + format + active, sorted by title, total count + a page of 100), ${QUERIES} queries: median ${quantile(filterMs, 0.5).toFixed(1)} ms, p95 ${quantile(filterMs, 0.95).toFixed(1)} ms`);
    console.log(`  peak RSS of this process over the whole run: ${mib(process.resourceUsage().maxRSS)}`);
    mirror.close();
  } finally {
    sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
