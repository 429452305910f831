// `node electron/main/sandbox/cli.ts`: runs the sandbox on its own and prints one JSON line
// (url, credentials, the admin token, libraries and cards) for whoever started it to read.

import { parseArgs } from 'node:util';
import { MAX_CATALOG_SIZE } from './catalog.ts';
import { ID_READINGS } from './content-ids.ts';
import { startSandbox } from './server.ts';
import { ENTITLEMENT_FILTERS, REMOVALS } from './state.ts';
import { COVER_MODES } from './urls.ts';

const USAGE = `Usage: node electron/main/sandbox/cli.ts [options]
  --host <address>         default 127.0.0.1
  --port <n>               default 0 (a free port)
  --seed <n>               default 1
  --catalog-size <n>       default 5000 (max ${MAX_CATALOG_SIZE})
  --token-lifetime <s>     default 3600
  --username <name>        default desk-sandbox
  --password <text>        default: a new random password each start
  --rate-limit <n>         at most n requests a minute per credential, then 429 (default: no limit)
  --rate-window-ms <ms>    the rate limit's "minute", 1000 to 60000 (default 60000; benches compress time)
  --ids spec|published     how content ids and titleIds relate (default spec; published:
                           titleIds differ from content ids, a series' episodes are
                           contents with string ids)
  --removals marked|absent how a delta shows a removal (default marked: removed: true;
                           absent: only a full pull shows it)
  --covers sandbox|partner where covers are (default sandbox: its own .invalid host;
                           partner: real-looking addresses on the partner's cover host)
  --entitlement-filters honoured|ignored
                           whether entitlements apply purchaseModel and status
                           (default honoured; ignored: every entitlement, whatever asked)
  --verbose                log each request to stderr`;

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function integer(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) fail(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) fail(`--${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      seed: { type: 'string' },
      'catalog-size': { type: 'string' },
      'token-lifetime': { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      'rate-limit': { type: 'string' },
      'rate-window-ms': { type: 'string' },
      ids: { type: 'string' },
      removals: { type: 'string' },
      covers: { type: 'string' },
      'entitlement-filters': { type: 'string' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const { values } = parsed;
if (values.help === true) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const sandbox = await startSandbox({
  host: values.host,
  port: integer('port', values.port, 0, 65_535),
  seed: integer('seed', values.seed, 0, 0xffffffff),
  catalogSize: integer('catalog-size', values['catalog-size'], 1, MAX_CATALOG_SIZE),
  tokenLifetimeSeconds: integer('token-lifetime', values['token-lifetime'], 1, 100_000_000),
  username: values.username,
  password: values.password,
  rateLimitPerMinute: integer('rate-limit', values['rate-limit'], 1, 1_000_000),
  rateLimitWindowMs: integer('rate-window-ms', values['rate-window-ms'], 1000, 60_000),
  ids: oneOf('ids', values.ids, ID_READINGS),
  removals: oneOf('removals', values.removals, REMOVALS),
  covers: oneOf('covers', values.covers, COVER_MODES),
  entitlementFilters: oneOf('entitlement-filters', values['entitlement-filters'], ENTITLEMENT_FILTERS),
  log: values.verbose === true ? (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`) : undefined,
}).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));

const { url, username, password, adminToken, libraries } = sandbox;
process.stdout.write(`${JSON.stringify({ url, username, password, adminToken, ids: values.ids ?? 'spec', removals: values.removals ?? 'marked', covers: values.covers ?? 'sandbox', entitlementFilters: values['entitlement-filters'] ?? 'honoured', libraries })}\n`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void sandbox.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
