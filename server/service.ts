// The library mirror service: one per library system, on a server IT runs. Every instance
// follows until it holds the leader lock; the leader brings the schema up to date, grants the
// desks' role its reads, and syncs the catalog, the entitlements of every library the credential
// serves and Flex availability into PostgreSQL, within its share of the credential's request
// budget. Losing the lead stops the sync before its next page; the instance goes back to following.
import { hostname } from 'node:os';
import type { Logger } from '../electron/node/logging/index.ts';
import { PartnerClient } from '../electron/node/partner/client.ts';
import { RequestBudget } from '../electron/node/partner/request-budget.ts';
import type { FetchFn } from '../electron/node/partner/transport.ts';
import type { LoadedConfig } from './config.ts';
import { openSession } from '../electron/node/library-mirror/database.ts';
import { LEADER_KEEPALIVES, Leadership, type LeaderTerm } from './leadership.ts';
import { runSchedule } from './schedule.ts';
import { grantDeskRole, migrate } from '../electron/node/library-mirror/schema.ts';
import { LeaderWrites } from './leader-writes.ts';
import { LibraryPageStore } from './page-store.ts';
import { ServiceState } from './service-state.ts';
import { YieldingShare } from './yielding-share.ts';

export interface ServiceDependencies {
  log: Logger;
  /** Node's fetch unless a test gives another. */
  fetch?: FetchFn;
  now?: () => number;
  /** The credential's rate window, a minute; only a bench that compresses time (bench:fleet) shortens it. */
  rateWindowMs?: number;
}

export interface RunningService {
  /** Ends the lead (if it has it) and the sessions; the sync resumes from its cursors on the next start. */
  stop(): Promise<void>;
  /** The share of the credential's budget the service allows itself now (it gives way to busy desks). */
  share(): ReturnType<YieldingShare['describe']>;
}

export function startLibraryMirrorService({ config, credentials, database }: LoadedConfig, deps: ServiceDependencies): RunningService {
  const { log } = deps;
  const now = deps.now ?? Date.now;
  // The service's own share of the credential's budget: every request, retries included, passes
  // it, and the share halves when a 429 says the desks have filled the credential's window.
  const budget = new RequestBudget({ perMinute: config.requestsPerMinute, now, ...(deps.rateWindowMs ? { windowMs: deps.rateWindowMs } : {}) });
  const share = new YieldingShare(budget, now, (perMinute) => log.info('request-share', { perMinute, of: config.requestsPerMinute }));
  const client = new PartnerClient({
    baseUrl: config.partner.baseUrl,
    credentials: { username: credentials.username, password: credentials.password },
    wsApi: config.partner.wsApi,
    gate: share.gate(budget.gate),
    now,
    fetch: share.watch(deps.fetch ?? ((input, init) => fetch(input, init))),
  });
  const lead = async ({ session, signal }: LeaderTerm): Promise<void> => {
    const versions = await migrate(session);
    if (versions.from !== versions.to) log.info('schema-migrated', versions);
    await grantDeskRole(session, config.database.deskRole);
    const writes = new LeaderWrites(session);
    const store = new LibraryPageStore(writes);
    await new ServiceState(writes).set('leader', { instance: config.instanceName, host: hostname(), pid: process.pid, since: new Date(now()).toISOString() });
    await runSchedule({ client, store, now, signal, log, pageSize: config.pageSize }, {
      libraries: config.libraries,
      catalogEveryMs: config.catalogEveryHours * 3_600_000,
      availabilityEveryMs: config.availabilityEveryMinutes * 60_000,
      retryAfterFailureMs: config.retryAfterFailureMinutes * 60_000,
    });
  };
  const leadership = new Leadership({
    connect: () => openSession(database, { applicationName: `lending-desk-library-mirror ${config.instanceName}`, settings: LEADER_KEEPALIVES }),
    lead, log, retrySeconds: config.leaderRetrySeconds,
  });
  log.info('started', {
    libraries: config.libraries.map((l) => l.libraryId), requestsPerMinute: config.requestsPerMinute,
    partner: config.partner.baseUrl,
  });
  void leadership.start();
  return { stop: () => leadership.stop(), share: () => share.describe() };
}
