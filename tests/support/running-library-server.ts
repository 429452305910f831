// The library server as IT runs it, in the test's process: the configuration file IT writes
// (tests/unit/server/service-process.ts writeServiceConfig), loaded as main.ts loads it, with its
// desk endpoint on a free loopback port and a certificate from a test CA; its log kept, and waited
// on event by event (never a sleep).
import { createServer } from 'node:net';
import type { Logger } from '../../electron/node/logging/index.ts';
import type { SandboxHandle } from '../../electron/main/sandbox/server.ts';
import { loadConfig } from '../../server/config.ts';
import { startLibraryServer, type RunningService, type ServiceDependencies } from '../../server/service.ts';
import { writeServiceConfig } from '../unit/server/service-process.ts';
import type { LibraryMirrorDatabase } from './library-mirror-database.ts';
import { makeServerCertificate, type CertificateAuthority } from './certificates.ts';

export interface LoggedEvent { event: string; level: 'info' | 'warn' | 'error'; fields: Record<string, unknown> }

/** A logger that keeps every event, and resolves waits as events come. */
export function eventLog(): { logger: Logger; events: LoggedEvent[]; waitFor(event: string, match?: (fields: Record<string, unknown>) => boolean, after?: number): Promise<LoggedEvent> } {
  const events: LoggedEvent[] = [];
  const waiters = new Set<{ test: (e: LoggedEvent, index: number) => boolean; resolve: (e: LoggedEvent) => void }>();
  const add = (level: LoggedEvent['level']) => (event: string, fields: Record<string, unknown> = {}): void => {
    const logged = { event, level, fields };
    events.push(logged);
    for (const waiter of waiters) {
      if (waiter.test(logged, events.length - 1)) {
        waiters.delete(waiter);
        waiter.resolve(logged);
      }
    }
  };
  return {
    logger: { info: add('info'), warn: add('warn'), error: add('error') },
    events,
    /** The first `event` (at index `after` or later) whose fields `match` accepts: already logged, or to come. */
    waitFor(event, match = () => true, after = 0) {
      const test = (e: LoggedEvent, index: number): boolean => index >= after && e.event === event && match(e.fields);
      const index = events.findIndex(test);
      if (index >= 0) return Promise.resolve(events[index]!);
      return new Promise((resolve) => waiters.add({ test, resolve }));
    },
  };
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface RunningLibraryServer {
  service: RunningService;
  /** The desk endpoint's address (https://127.0.0.1:<port>). */
  url: string;
  /** The configuration file IT would write (for the server's commands). */
  configPath: string;
  log: ReturnType<typeof eventLog>;
}

/**
 * One instance against `db` and `sandbox`, its desk endpoint's certificate from `ca` (written in
 * `dir`, named `name`); `overrides` change the configuration file. Stop it with service.stop().
 */
export async function runLibraryServer(db: LibraryMirrorDatabase, sandbox: SandboxHandle, options: {
  dir: string; ca: CertificateAuthority; name: string; overrides?: Record<string, unknown>; deps?: Omit<ServiceDependencies, 'log'>;
}): Promise<RunningLibraryServer> {
  const cert = await makeServerCertificate(options.dir, options.ca, options.name);
  const port = await freePort();
  const configPath = writeServiceConfig(db, sandbox, {
    instanceName: options.name,
    deskApi: { host: '127.0.0.1', port, certFile: cert.certFile, keyFile: cert.keyFile, caFile: options.ca.certFile, publicUrl: `https://127.0.0.1:${port}` },
    ...options.overrides,
  });
  const log = eventLog();
  const service = startLibraryServer(loadConfig(configPath), { ...options.deps, log: log.logger });
  const url = await service.deskApi();
  if (url === undefined) throw new Error('The library server started without its desk endpoint.');
  return { service, url, configPath, log };
}
