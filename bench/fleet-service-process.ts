// One instance of the library mirror service for the fleet bench (bench/fleet.ts): what the
// command line (server/main.ts) runs — the configuration file read and checked,
// the JSON-lines log on standard output — with the credential's rate window compressed as the
// bench's sandbox compresses it. The bench kills one instance with SIGKILL to watch the other
// take over, and stops the last with SIGTERM.
// argv: <config.json> <rate window ms>
import { loadConfig } from '../server/config.ts';
import { jsonLinesLog } from '../server/json-lines-log.ts';
import { startLibraryServer } from '../server/service.ts';
import type { FetchFn } from '../electron/node/partner/transport.ts';

const [path, windowMs] = process.argv.slice(2) as [string, string];
const loaded = loadConfig(path);
const log = jsonLinesLog({ secrets: () => [loaded.credentials.password, loaded.credentials.databasePassword ?? ''].filter(Boolean), instance: loaded.config.instanceName });
// Every catalog, entitlement or availability request it sends, said as it is answered, so the bench can count
// what was fetched twice across the two instances (a killed one says nothing more).
const BULK = /\/(global-contents|entitlements|content\/info)$/;
const fetchSaid: FetchFn = async (input, init) => {
  const answer = await fetch(input, init);
  const url = new URL(input);
  if (BULK.test(url.pathname)) process.stdout.write(`${JSON.stringify({ event: 'fetched', url: url.pathname + url.search, status: answer.status })}\n`);
  return answer;
};
const service = startLibraryServer(loaded, { log, rateWindowMs: Number(windowMs), fetch: fetchSaid });
process.on('SIGTERM', () => {
  log.info('share-at-stop', service.share());
  void service.stop().then(() => process.exit(0));
});
