// The library server: one per library system, on a machine IT runs. Every instance follows until
// it holds the leader lock; the leader brings the schema up to date, grants the desks' role its
// reads, carries every partner call the desks send (desk-api/server.ts) and syncs the catalog,
// the entitlements of every library the credential serves and Flex availability into the library
// mirror — all within the credential's one request budget (credential-budget.ts): staff calls
// first, fairly across desks (staff-queue.ts), the sync with what they leave. Losing the lead
// stops both; the instance goes back to following, and passes desks' calls on to whoever leads.
import { hostname } from 'node:os';
import type { Logger } from '../electron/node/logging/index.ts';
import { PartnerClient } from '../electron/node/partner/client.ts';
import { normalizeBaseUrl, type FetchFn } from '../electron/node/partner/transport.ts';
import { openSession } from '../electron/node/library-mirror/database.ts';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';
import type { LoadedConfig } from './config.ts';
import { CredentialBudget, recentSends, recordSends } from './credential-budget.ts';
import { startDeskApi, type DeskApi, type LeadServing, type StaffCallRecord } from './desk-api/server.ts';
import { DeskTokens, deskTokenKey } from './desk-tokens.ts';
import { LEADER_KEEPALIVES, Leadership, type LeaderTerm } from './leadership.ts';
import { LibraryPageStore } from './page-store.ts';
import { runSchedule } from './schedule.ts';
import { grantDeskRole, migrate } from '../electron/node/library-mirror/schema.ts';
import { ServiceState, SYNC_NOW_CHANNEL } from './service-state.ts';
import { DeskSessions } from './desk-sessions.ts';
import { StaffQueue } from './staff-queue.ts';
import { WorkstationAdmin, WorkstationRegistry } from './workstations.ts';
import { AuditTrail } from './audit-trail.ts';
import { StaffSignIn } from './staff.ts';
import { YieldingShare } from './yielding-share.ts';

export interface ServiceDependencies {
  log: Logger;
  /** Node's fetch unless a test gives another. */
  fetch?: FetchFn;
  now?: () => number;
  /** The credential's rate window, a minute; only a bench that compresses time (bench:fleet) shortens it. */
  rateWindowMs?: number;
  /** Hears every staff call the desk endpoint carried, with where its time went (the fleet bench's breakdown). */
  onStaffCall?: (record: StaffCallRecord) => void;
}

export interface RunningService {
  /** Ends the lead (if it has it), the desk endpoint and the sessions; the sync resumes from its cursors on the next start. */
  stop(): Promise<void>;
  /** The share of the credential's budget the sync may take now (it gives way after a 429), while this instance leads. */
  share(): ReturnType<YieldingShare['describe']> | undefined;
  /** How long a staff call asked now would wait for the credential's window, with `ahead` calls before it, while this instance leads: what desks are told. */
  staffWaitMs(ahead: number): number | undefined;
  /** The desk endpoint's address, once it listens (absent: no desk endpoint configured). */
  deskApi(): Promise<string | undefined>;
}

/** How long a follower trusts what it read of who leads (it asks again when the leader does not answer). */
const LEADER_URL_MS = 2_000;

export function startLibraryServer({ config, credentials, database, deskApi: deskTls }: LoadedConfig, deps: ServiceDependencies): RunningService {
  const { log } = deps;
  const now = deps.now ?? Date.now;
  const windowMs = deps.rateWindowMs ?? 60_000;
  // Refused at start, before any session: the credential must never travel in clear text.
  normalizeBaseUrl(config.partner.baseUrl);
  let serving: (LeadServing & { share: YieldingShare }) | undefined;

  const lead = async ({ session, writes, signal }: LeaderTerm): Promise<void> => {
    const versions = await writes.alone(migrate);
    if (versions.from !== versions.to) log.info('schema-migrated', versions);
    await writes.alone((db) => grantDeskRole(db, config.database.deskRole));
    const store = new LibraryPageStore(writes);
    // Sends are recorded on a session of their own: never inside a page's transaction, never behind it.
    const records = await openSession(database, { applicationName: `lending-desk-library-server ${config.instanceName} budget` });
    let requested: (() => void)[] = [];
    try {
      const budget = new CredentialBudget({ perMinute: config.requestsPerMinute, windowMs, now, record: recordSends(records, config.instanceName) });
      budget.takeOver(await recentSends(records, windowMs, now()));
      const share = new YieldingShare(budget.budget, now, (perMinute) => log.info('request-share', { perMinute, of: config.requestsPerMinute }));
      const client = new PartnerClient({
        baseUrl: config.partner.baseUrl,
        credentials: { username: credentials.username, password: credentials.password },
        wsApi: config.partner.wsApi,
        gate: share.gate(budget.gate),
        now,
        fetch: share.watch(deps.fetch ?? ((input, init) => fetch(input, init))),
      });
      serving = { client, queue: new StaffQueue(budget), share };
      const state = new ServiceState(writes);
      // IT's sync-now command notifies whichever instance leads.
      session.on('notification', (message) => {
        if (message.channel !== SYNC_NOW_CHANNEL) return;
        for (const wake of requested.splice(0)) wake();
      });
      await writes.alone((db) => db.query(`LISTEN ${SYNC_NOW_CHANNEL}`));
      await state.set('leader', {
        instance: config.instanceName, host: hostname(), pid: process.pid, since: new Date(now()).toISOString(),
        ...(config.deskApi ? { deskUrl: config.deskApi.publicUrl } : {}),
      });
      await runSchedule({
        client: client.withPriority('background'), store, now, signal, log, pageSize: config.pageSize,
        syncRequested: () => new Promise<void>((resolve) => { requested.push(resolve); }),
        firstFullSync: { done: async () => (await state.get('first-full-sync')) !== undefined, mark: (summary) => state.set('first-full-sync', { ...summary, at: new Date(now()).toISOString() }) },
      }, {
        libraries: config.libraries,
        catalogEveryMs: config.catalogEveryHours * 3_600_000,
        availabilityEveryMs: config.availabilityEveryMinutes * 60_000,
        retryAfterFailureMs: config.retryAfterFailureMinutes * 60_000,
      });
    } finally {
      requested = [];
      serving = undefined;
      await records.end().catch(() => {});
    }
  };
  const leadership = new Leadership({
    connect: () => openSession(database, { applicationName: `lending-desk-library-server ${config.instanceName}`, settings: LEADER_KEEPALIVES }),
    lead, log, retrySeconds: config.leaderRetrySeconds,
  });

  // The desk endpoint's own sessions: workstations, enrolments, staff, the audit trail, the token key, who leads.
  const api = new DeskSessions(database, config.instanceName);
  let deskApi: Promise<DeskApi> | undefined;
  if (config.deskApi && deskTls) {
    let tokens: Promise<DeskTokens> | undefined;
    let leader: { url: string | undefined; readAt: number } = { url: undefined, readAt: -Infinity };
    deskApi = startDeskApi({
      host: config.deskApi.host, port: config.deskApi.port, key: deskTls.key, cert: deskTls.cert, ...(deskTls.ca ? { ca: deskTls.ca } : {}),
      instance: config.instanceName, libraries: config.libraries, log, now, ...(deps.onStaffCall ? { onStaffCall: deps.onStaffCall } : {}),
      registry: new WorkstationRegistry(async () => api.queries, now),
      enrol: (code) => api.transaction((session) => new WorkstationAdmin(session).enrol(code)),
      tokens: () => {
        tokens ??= deskTokenKey(api.queries).then((key) => new DeskTokens(key, now));
        tokens.catch(() => { tokens = undefined; });
        return tokens;
      },
      staff: new StaffSignIn({ db: async () => api.queries, now, sessionHours: config.staff.sessionHours }),
      audit: new AuditTrail(async () => api.queries),
      lead: () => serving,
      leaderUrl: async () => {
        if (now() - leader.readAt < LEADER_URL_MS) return leader.url;
        const { rows } = await api.queries.query<{ url: string | null }>(`SELECT value->>'deskUrl' AS url FROM ${SCHEMA}.service_state WHERE key = 'leader'`);
        const url = rows[0]?.url ?? undefined;
        leader = { url: url === config.deskApi?.publicUrl ? undefined : url, readAt: now() };
        return leader.url;
      },
    });
    deskApi.then((listening) => log.info('desk-api-listening', { url: listening.url, publicUrl: config.deskApi?.publicUrl }),
      (error: unknown) => log.error('desk-api-failed-to-start', { message: error instanceof Error ? error.message : String(error) }));
  }

  log.info('started', {
    libraries: config.libraries.map((l) => l.libraryId), requestsPerMinute: config.requestsPerMinute, partner: config.partner.baseUrl,
    deskApi: config.deskApi?.publicUrl ?? null,
  });
  void leadership.start();
  return {
    stop: async () => {
      await leadership.stop();
      await (await deskApi?.catch(() => undefined))?.close();
      await api.close();
    },
    share: () => serving?.share.describe(),
    staffWaitMs: (ahead) => serving?.queue.windowWaitMs(ahead),
    deskApi: async () => (await deskApi)?.url,
  };
}


