// Partner client figures (printed, never asserted):
//  1. the client's overhead over a bare fetch of the same GET, as a ratio;
//  2. throughput of a full paged extraction of 100,000 library content records.
// The sandbox runs in its own process, so the figures are this process's (the client's) work.
import { PartnerClient } from '../electron/node/partner/client.ts';
import { sandboxToken, startSandboxProcess } from './sandbox-process.ts';

const ROUNDS = 1_000;
const REPEATS = 5;

async function perCallMs(rounds: number, once: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await once();
  return (performance.now() - started) / rounds;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function benchClientOverhead(): Promise<void> {
  const sandbox = await startSandboxProcess(['--catalog-size', '5000']);
  try {
    const { libraryId, cards } = sandbox.libraries[0]!;
    const card = cards[0]!;
    const client = new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password } });
    const token = await sandboxToken(sandbox);
    const url = `${sandbox.url}/api/v1/libraries/${libraryId}/patrons/${encodeURIComponent(card)}/status`;
    const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json', 'ws-api': '2.1' };
    const bareCall = async (): Promise<unknown> => (await fetch(url, { headers })).json();
    const clientCall = (): Promise<unknown> => client.patronStatus(libraryId, card);

    await perCallMs(300, bareCall); // warm up connections and JIT on both paths
    await perCallMs(300, clientCall);
    const bare: number[] = [];
    const typed: number[] = [];
    for (let i = 0; i < REPEATS; i++) { // interleaved, so drift in the machine hits both alike
      bare.push(await perCallMs(ROUNDS, bareCall));
      typed.push(await perCallMs(ROUNDS, clientCall));
    }
    const b = median(bare);
    const t = median(typed);
    console.log(`GET patron status, ${REPEATS} interleaved runs of ${ROUNDS} sequential calls, sandbox in another process`);
    console.log(`  bare fetch + JSON.parse       median ${(b * 1000).toFixed(0).padStart(5)} µs per call`);
    console.log(`  PartnerClient.patronStatus    median ${(t * 1000).toFixed(0).padStart(5)} µs per call`);
    console.log(`  client overhead: ${((t - b) * 1000).toFixed(0)} µs per call, ratio client / bare ${(t / b).toFixed(2)}x`);
  } finally {
    sandbox.stop();
  }
}

export async function benchLibraryContentExtraction(target = 100_000, pageSize = 500): Promise<void> {
  // About 60% of a country's titles are entitled and TV series add episodes: 200k ids hold > 100k records.
  const sandbox = await startSandboxProcess(['--catalog-size', '200000']);
  try {
    const { libraryId } = sandbox.libraries[0]!;
    const client = new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password } });
    const memoryBefore = process.memoryUsage().rss;
    const started = performance.now();
    let records = 0;
    let pages = 0;
    for await (const page of client.libraryContentPages(libraryId, { limit: pageSize })) {
      records += page.items.length;
      pages++;
      if (records >= target) break;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`Library content extraction: ${records} records in ${pages} pages of ${pageSize} ids, sandbox in another process`);
    console.log(`  ${seconds.toFixed(2)} s, ${Math.round(records / seconds)} records/s, client RSS +${((process.memoryUsage().rss - memoryBefore) / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    sandbox.stop();
  }
}
