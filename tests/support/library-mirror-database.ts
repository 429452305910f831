// The library mirror's database on a test cluster, made by the very script IT runs
// (server/deploy/create-database.sql): its two roles with passwords made for this run,
// the database, the schema the service owns. One cluster per test file (useLibraryMirrorDatabase), as
// starting one takes a second or two.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openSession, type DatabaseTarget } from '../../electron/node/library-mirror/database.ts';
import { tryLead } from '../../server/leadership.ts';
import { grantDeskRole, migrate } from '../../electron/node/library-mirror/schema.ts';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.ts';

export const CREATE_DATABASE_SQL = join(import.meta.dirname, '..', '..', 'server', 'deploy', 'create-database.sql');
/** And the audit trail's schema, roles and purge (issue #32), as IT runs it after. */
export const CREATE_AUDIT_TRAIL_SQL = join(import.meta.dirname, '..', '..', 'server', 'deploy', 'create-audit-trail.sql');

export interface LibraryMirrorDatabase {
  cluster: PostgresCluster;
  name: string;
  /** The service's role over TLS, verified against the cluster's CA. */
  service: DatabaseTarget;
  /** The desks' read-only role over TLS, verified against the cluster's CA. */
  desk: DatabaseTarget;
  serviceRole: string;
  deskRole: string;
  /** The audit trail's maintenance role (it may only purge), over TLS. */
  maintenance: DatabaseTarget;
  maintenanceRole: string;
  /** A session of `target`'s role; ended by the caller. */
  session(target: DatabaseTarget, applicationName?: string): Promise<pg.Client>;
  /** The superuser on the mirror's database (over the socket). */
  admin(): Promise<pg.Client>;
}

const url = (cluster: PostgresCluster, role: string, password: string, database: string): string =>
  `postgres://${role}:${encodeURIComponent(password)}@${cluster.host}:${cluster.port}/${database}`;

export async function createLibraryMirrorDatabase(cluster: PostgresCluster, name = 'library_mirror'): Promise<LibraryMirrorDatabase> {
  const serviceRole = `${name}_service`;
  const deskRole = `${name}_desk`;
  const servicePassword = randomBytes(12).toString('base64url');
  const deskPassword = randomBytes(12).toString('base64url');
  await cluster.psqlFile(CREATE_DATABASE_SQL, {
    database: name, service_role: serviceRole, desk_role: deskRole, service_password: servicePassword, desk_password: deskPassword,
  });
  const maintenanceRole = `${name}_maintenance`;
  const maintenancePassword = randomBytes(12).toString('base64url');
  await cluster.psqlFile(CREATE_AUDIT_TRAIL_SQL, {
    service_role: serviceRole, audit_owner: `${name}_audit_owner`, maintenance_role: maintenanceRole, maintenance_password: maintenancePassword,
  }, name);
  const service: DatabaseTarget = { url: url(cluster, serviceRole, servicePassword, name), ca: cluster.ca.cert };
  const desk: DatabaseTarget = { url: url(cluster, deskRole, deskPassword, name), ca: cluster.ca.cert };
  const maintenance: DatabaseTarget = { url: url(cluster, maintenanceRole, maintenancePassword, name), ca: cluster.ca.cert };
  return {
    cluster, name, service, desk, serviceRole, deskRole, maintenance, maintenanceRole,
    session: (target, applicationName) => openSession(target, applicationName ? { applicationName } : {}),
    admin: () => cluster.admin(name),
  };
}

/** A session of the service's role set up as the service sets up its own: the schema migrated, the desks' role granted, the lead taken. */
export async function leadingSession(db: LibraryMirrorDatabase, applicationName?: string): Promise<pg.Client> {
  const session = await db.session(db.service, applicationName);
  await migrate(session);
  await grantDeskRole(session, db.deskRole);
  if (!(await tryLead(session))) throw new Error('Another session leads this library mirror.');
  return session;
}

/** A cluster with one mirror database for this test file, stopped (and its folder removed) after the file, failed or not. */
export function useLibraryMirrorDatabase(): () => LibraryMirrorDatabase {
  let cluster: PostgresCluster | undefined;
  let db: LibraryMirrorDatabase | undefined;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    db = await createLibraryMirrorDatabase(cluster);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return () => {
    if (!db) throw new Error('The test cluster is not running (beforeAll failed).');
    return db;
  };
}
