// The library server's configuration: a JSON file (its path as the command's argument, or in
// LIBRARY_SERVER_CONFIG — LIBRARY_MIRROR_CONFIG, its earlier name, still works), a few settings the
// environment may override (a container passes them that way), and the credentials file it names
// (credentials-file.ts). Nothing secret is in the configuration itself.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';
import { COUNTRIES } from '../electron/shared/model.ts';
import { readCredentialsFile, type ServiceCredentials } from './credentials-file.ts';
import { clientConfig, type DatabaseTarget } from '../electron/node/library-mirror/database.ts';
import { LEADER_RETRY_SECONDS } from './leadership.ts';
import { DEFAULT_SESSION_HOURS } from './staff.ts';

/** The credential's published limit: the library server spends it for everyone (staff first, the sync with what is left). */
export const DEFAULT_REQUESTS_PER_MINUTE = 100;

const ConfigJson = z.object({
  partner: z.object({
    baseUrl: z.string().min(1),
    /** The `ws-api` header; empty to omit it. */
    wsApi: z.string().default('2.1'),
  }).strict(),
  /** The libraries the credential serves, each with the countries its catalog is sold in. */
  libraries: z.array(z.object({ libraryId: z.number().int().positive(), countries: z.array(z.enum(COUNTRIES)).min(1) }).strict()).min(1),
  database: z.object({
    url: z.string().min(1),
    /** The CA (PEM file) that issued the server's certificate; absent: the public CAs built into Node (never the OS's store). */
    caFile: z.string().min(1).optional(),
    deskRole: z.string().min(1).default('library_mirror_desk'),
  }).strict(),
  credentialsFile: z.string().min(1),
  requestsPerMinute: z.number().int().min(1).max(10_000).default(DEFAULT_REQUESTS_PER_MINUTE),
  pageSize: z.number().int().min(1).max(500).default(500),
  availabilityEveryMinutes: z.number().positive().default(10),
  catalogEveryHours: z.number().positive().default(24),
  retryAfterFailureMinutes: z.number().positive().default(5),
  leaderRetrySeconds: z.number().int().min(1).max(30).default(LEADER_RETRY_SECONDS),
  /** How this instance names itself in the log and in pg_stat_activity; the host name by default. */
  instanceName: z.string().min(1).max(60).optional(),
  /** Staff who sign in at desks against the server (issue #32): how long a shift lasts at most. */
  staff: z.object({
    sessionHours: z.number().min(1).max(24).default(DEFAULT_SESSION_HOURS),
  }).strict().default({ sessionHours: DEFAULT_SESSION_HOURS }),
  /** The audit trail: how many days the library keeps it (the maintenance role's purge removes what is older). */
  audit: z.object({
    retentionDays: z.number().int().min(1).max(3650).default(365),
  }).strict().default({ retentionDays: 365 }),
  /**
   * The HTTPS endpoint desks send every partner call to (absent: the server only fills the
   * library mirror, and desks call the partner themselves). Its certificate and key are PEM files;
   * `publicUrl` is how desks and the other instance reach this one (its certificate's name).
   */
  deskApi: z.object({
    host: z.string().min(1).default('0.0.0.0'),
    port: z.number().int().min(1).max(65_535).default(8443),
    certFile: z.string().min(1),
    keyFile: z.string().min(1),
    /** The CA that issued the instances' certificates (a follower checks the leader's with it). */
    caFile: z.string().min(1).optional(),
    publicUrl: z.string().url().refine((u) => u.startsWith('https://'), { message: 'publicUrl must be an https:// address' }),
  }).strict().optional(),
}).strict();

export type ServiceConfig = z.output<typeof ConfigJson> & { instanceName: string };

/** The configuration with what it points at read: the credentials, the database's CA, the desk endpoint's certificate. */
export interface LoadedConfig {
  config: ServiceConfig;
  credentials: ServiceCredentials;
  database: DatabaseTarget;
  deskApi?: { key: string; cert: string; ca?: string };
}

/**
 * Settings the environment overrides, for containers: LIBRARY_SERVER_<NAME>, or the name the
 * library mirror service read before it became the library server, LIBRARY_MIRROR_<NAME>, still
 * accepted (the new name wins when both are set).
 */
const ENVIRONMENT: Record<string, (config: Record<string, any>, value: string) => void> = {
  PARTNER_URL: (c, v) => { c.partner = { ...c.partner, baseUrl: v }; },
  DATABASE_URL: (c, v) => { c.database = { ...c.database, url: v }; },
  DATABASE_CA_FILE: (c, v) => { c.database = { ...c.database, caFile: v }; },
  CREDENTIALS_FILE: (c, v) => { c.credentialsFile = v; },
  REQUESTS_PER_MINUTE: (c, v) => { c.requestsPerMinute = Number(v); },
  INSTANCE: (c, v) => { c.instanceName = v; },
  /** The desk endpoint's private key (systemd hands it over as a credential, like the credentials file), where the file configures one. */
  DESK_API_KEY_FILE: (c, v) => { if (typeof c.deskApi === 'object' && c.deskApi !== null) c.deskApi = { ...c.deskApi, keyFile: v }; },
};

/** The environment's value for a setting: LIBRARY_SERVER_<name>, else the old LIBRARY_MIRROR_<name>. */
export function fromEnvironment(env: NodeJS.ProcessEnv, name: string): string | undefined {
  for (const prefix of ['LIBRARY_SERVER_', 'LIBRARY_MIRROR_']) {
    const value = env[`${prefix}${name}`];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

export function parseConfig(json: unknown, env: NodeJS.ProcessEnv = {}): ServiceConfig {
  const merged: Record<string, any> = typeof json === 'object' && json !== null && !Array.isArray(json) ? { ...json } : {};
  for (const [name, apply] of Object.entries(ENVIRONMENT)) {
    const value = fromEnvironment(env, name);
    if (value !== undefined) apply(merged, value);
  }
  const parsed = ConfigJson.safeParse(merged);
  if (!parsed.success) {
    throw new Error(`The library server's configuration is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'the file'}: ${i.message}`).join('; ')}`);
  }
  // A URL the sessions would refuse (sslmode=require, a parameter it does not know…) is refused
  // here, at start, with exit code 2: not retried as "database-unreachable" for ever.
  try {
    clientConfig({ url: parsed.data.database.url });
  } catch (error) {
    throw new Error(`The library server's configuration is not valid: database.url: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { ...parsed.data, instanceName: parsed.data.instanceName ?? hostname() };
}

/** Reads the configuration file, the environment, the credentials file and the CA. */
export function loadConfig(path: string, env: NodeJS.ProcessEnv = process.env, serviceUid?: number): LoadedConfig {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`The configuration file ${path} could not be read as JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  const config = parseConfig(json, env);
  const credentials = readCredentialsFile(config.credentialsFile, serviceUid);
  const ca = config.database.caFile === undefined ? undefined : readFileSync(config.database.caFile, 'utf8');
  const desk = config.deskApi;
  const deskApi = desk === undefined ? undefined : {
    key: readFileSync(desk.keyFile, 'utf8'), cert: readFileSync(desk.certFile, 'utf8'),
    ...(desk.caFile === undefined ? {} : { ca: readFileSync(desk.caFile, 'utf8') }),
  };
  return {
    config, credentials,
    database: { url: config.database.url, ...(ca === undefined ? {} : { ca }), ...(credentials.databasePassword === undefined ? {} : { password: credentials.databasePassword }) },
    ...(deskApi ? { deskApi } : {}),
  };
}
