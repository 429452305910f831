// One instance of the library server for the fleet bench (bench/fleet.ts): what the command line
// (server/main.ts) runs — the configuration file read and checked, the desk endpoint over TLS, the
// JSON-lines log on standard output — with the credential's rate window compressed as the bench's
// sandbox compresses it. The bench kills one instance with SIGKILL to watch the other take over,
// and stops the last with SIGTERM.
// argv: <config.json> <rate window ms>
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../server/config.ts';
import { jsonLinesLog } from '../server/json-lines-log.ts';
import { startLibraryServer } from '../server/service.ts';
import type { FetchFn } from '../electron/node/partner/transport.ts';
import type { StaffCallRecord } from '../server/desk-api/server.ts';

const [path, windowMs] = process.argv.slice(2) as [string, string];
const loaded = loadConfig(path);
const log = jsonLinesLog({ secrets: () => [loaded.credentials.password, loaded.credentials.databasePassword ?? ''].filter(Boolean), instance: loaded.config.instanceName });
// Every catalog, entitlement or availability request it sends, said as it is answered, so the bench can count
// what was fetched twice across the two instances (a killed one says nothing more).
// Any other request the partner refused is said too (the credential's limit should refuse none).
const BULK = /\/(global-contents|entitlements|content\/info)$/;
const fetchSaid: FetchFn = async (input, init) => {
  const answer = await fetch(input, init);
  const url = new URL(input);
  if (BULK.test(url.pathname) || answer.status === 429) process.stdout.write(`${JSON.stringify({ event: 'fetched', url: url.pathname + url.search, status: answer.status })}\n`);
  return answer;
};
// How late its event loop ran (staff calls wait behind whatever holds it) and its CPU, said at the end.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
// Every staff call with where its time went (its line, its audit entries, the partner): the bench's breakdown of the relay.
const onStaffCall = ({ call, status, waitedMs, queuedMs, auditMs, partnerMs }: StaffCallRecord): void => {
  process.stdout.write(`${JSON.stringify({ event: 'staff-call', operation: call.operation, status, waitedMs, queuedMs, auditMs, partnerMs })}\n`);
};
const service = startLibraryServer(loaded, { log, rateWindowMs: Number(windowMs), fetch: fetchSaid, onStaffCall });
process.on('SIGTERM', () => {
  log.info('share-at-stop', service.share());
  const cpu = process.cpuUsage();
  log.info('loop-delay', { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
  void service.stop().then(() => process.exit(0));
});
