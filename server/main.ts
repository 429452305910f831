// `npm run library-mirror -- <config.json>` (or node server/main.ts, Node 24, no
// Electron): runs the library mirror service until SIGTERM or SIGINT. The configuration file's
// path is the argument or LIBRARY_MIRROR_CONFIG. Logs JSON lines on standard output; a
// configuration it refuses is said on standard error, and the exit code is 2.
import type { Logger } from '../electron/node/logging/index.ts';
import { jsonLinesLog } from './json-lines-log.ts';
import { loadConfig } from './config.ts';
import { startLibraryMirrorService, type RunningService } from './service.ts';

const USAGE = 'Usage: node server/main.ts <config.json>   (or LIBRARY_MIRROR_CONFIG=<config.json>)';

const path = process.argv[2] ?? process.env.LIBRARY_MIRROR_CONFIG;
if (!path || path === '--help') {
  process.stderr.write(`${USAGE}\n`);
  process.exit(path === '--help' ? 0 : 2);
}

let service: RunningService;
let log: Logger;
try {
  const loaded = loadConfig(path);
  const secrets = [loaded.credentials.password, loaded.credentials.databasePassword, new URL(loaded.config.database.url).password]
    .filter((s): s is string => typeof s === 'string' && s !== '');
  log = jsonLinesLog({ secrets: () => secrets, instance: loaded.config.instanceName });
  service = startLibraryMirrorService(loaded, { log });
} catch (error) {
  // A configuration it cannot work with (a file refused, an address that is not https): said once, exit 2.
  process.stderr.write(`library-mirror: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

let stopping = false;
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  log.info('stopping', { signal });
  void service.stop().then(() => {
    log.info('stopped', {});
    process.exit(0);
  });
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
