// The library mirror's tables in PostgreSQL, versioned: `schema_versions` records each version
// applied, and each migration runs in one transaction (PostgreSQL's DDL is transactional), so
// the database never sits between two versions. Two service instances starting at once take
// turns on an advisory lock; the second finds the work done.
//
// Change sequence: every row of the tables desks read (titles, entitlements, availability)
// carries `change_seq`, drawn from ONE sequence for the whole mirror when the row last changed,
// so a desk asks "what changed since N" (changes.ts). A removal is not a DELETE: the row stays
// as a tombstone (`removed`, with a change_seq of its own) so desks learn it too. Writes come
// from the leader's session alone (leadership.ts), one transaction at a time, so change
// sequences commit in order and a desk reading up to N has seen everything below N.
//
// No patron data is ever stored here: titles, entitlements, availability and sync cursors.
import type pg from 'pg';

import { SCHEMA } from './schema-name.ts';

export { SCHEMA };

/** Advisory lock keys (two int4s, shown in pg_locks as classid and objid): 'LDMR', then what for. */
export const LOCK_CLASS = 0x4c444d52;
export const LOCK = { leader: 1, migration: 2 } as const;

interface Migration {
  description: string;
  statements: string[];
}

const MIGRATIONS: Migration[] = [
  {
    description: 'titles, entitlements, availability with one change sequence; sync cursors; service state; the desks\' status view',
    statements: [
      `CREATE SEQUENCE ${SCHEMA}.change_seq AS bigint`,
      // A global catalog record is kept as the service sent it (wire): a desk parses it exactly
      // as it would a partner page, so both sources give the same answers. Library content's
      // records are kept as the desk keeps them: normalised, a series' episodes merged (wire false).
      `CREATE TABLE ${SCHEMA}.titles (
         id text PRIMARY KEY,               -- the content id (String of a ContentId: a whole number's digits, or an episode's string id); a TV series' titleId is not unique, its id is
         title_id bigint,
         countries text[] NOT NULL DEFAULT '{}',
         record text,                       -- NULL once removed
         wire boolean NOT NULL DEFAULT true,
         removed boolean NOT NULL DEFAULT false,
         change_seq bigint NOT NULL,
         seen_run bigint NOT NULL,          -- the run (its start, epoch ms) that last saw it: a full run sweeps the rest
         CHECK (removed OR record IS NOT NULL)
       )`,
      `CREATE INDEX titles_by_change ON ${SCHEMA}.titles (change_seq)`,
      // Keyed as the desk keys them: one row per library and title, its model an attribute.
      `CREATE TABLE ${SCHEMA}.entitlements (
         library_id bigint NOT NULL,
         content_id text NOT NULL,          -- as titles.id
         model text NOT NULL CHECK (model IN ('INSTANT', 'FLEX')),
         active boolean NOT NULL,
         removed boolean NOT NULL DEFAULT false,
         change_seq bigint NOT NULL,
         seen_run bigint NOT NULL,
         PRIMARY KEY (library_id, content_id)
       )`,
      `CREATE INDEX entitlements_by_change ON ${SCHEMA}.entitlements (change_seq)`,
      `CREATE TABLE ${SCHEMA}.availability (
         library_id bigint NOT NULL,
         content_id text NOT NULL,          -- as titles.id
         status text,
         available_copies integer,
         total_copies integer,
         holds_queue_size integer,
         read_at timestamptz NOT NULL,
         change_seq bigint NOT NULL,
         PRIMARY KEY (library_id, content_id)
       )`,
      `CREATE INDEX availability_by_change ON ${SCHEMA}.availability (change_seq)`,
      // One row per source ('global', 'entitlements:101:FLEX', 'availability:101', …). The next
      // token is written in the same transaction as the page it follows.
      `CREATE TABLE ${SCHEMA}.sync_cursors (
         source text PRIMARY KEY,
         page_kind jsonb,                   -- what the source's pages hold: what a full run sweeps
         in_progress boolean NOT NULL DEFAULT false,
         next_token text,                   -- where the run under way continues (NULL: from its start)
         pages integer NOT NULL DEFAULT 0,  -- pages stored in the run under way
         run_since timestamptz,             -- the delta base of the run under way (NULL: a full run)
         run_started_at timestamptz,        -- also the run's identity (seen_run, in epoch ms)
         last_success_at timestamptz,
         last_attempt_at timestamptz,
         last_error text,
         last_error_code text,
         items bigint NOT NULL DEFAULT 0
       )`,
      `CREATE TABLE ${SCHEMA}.service_state (
         key text PRIMARY KEY,
         value jsonb NOT NULL,
         updated_at timestamptz NOT NULL DEFAULT now()
       )`,
      // What a desk may know of the sync: when each source last succeeded, and why not (a code,
      // never the service's own words, tokens or cursors).
      `CREATE VIEW ${SCHEMA}.sync_status AS
         SELECT source, in_progress, last_success_at, last_attempt_at, last_error_code, items FROM ${SCHEMA}.sync_cursors`,
    ],
  },
  {
    description: 'sync cursors keep what the desk\'s mirror keeps of a failure (its reason and parameters) and of the last full run',
    statements: [
      `ALTER TABLE ${SCHEMA}.sync_cursors ADD COLUMN last_error_reason text, ADD COLUMN last_error_params jsonb,
         ADD COLUMN full_success_at timestamptz, ADD COLUMN full_removed bigint`,
    ],
  },
  {
    description: 'the library server: enrolled workstations and their one-time enrolment codes; the partner requests of the last minutes (the credential\'s shared budget)',
    statements: [
      // A desk PC the server carries partner calls for. Its secret is 32 random bytes the desk
      // keeps in its keychain; only a SHA-256 of it is kept here (a secret that long needs no slow hash).
      `CREATE TABLE ${SCHEMA}.workstations (
         id text PRIMARY KEY,
         name text NOT NULL,
         secret_sha256 bytea NOT NULL,
         enrolled_at timestamptz NOT NULL DEFAULT now(),
         revoked_at timestamptz,
         last_seen_at timestamptz
       )`,
      // Made by IT (the server's enrol-desk command) and traded once, before it expires, for a
      // workstation's secret. Kept as a SHA-256 too: a code read off this table enrols nothing.
      `CREATE TABLE ${SCHEMA}.enrolment_codes (
         code_sha256 bytea PRIMARY KEY,
         name text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         expires_at timestamptz NOT NULL,
         used_at timestamptz,
         workstation_id text REFERENCES ${SCHEMA}.workstations (id)
       )`,
      // When the leader sent each partner request: an instance that takes the lead over counts
      // the last window's requests of the one before it, so the credential's limit holds across a
      // failover. Old rows are pruned by the leader.
      `CREATE TABLE ${SCHEMA}.partner_requests (at timestamptz NOT NULL, instance text NOT NULL)`,
      `CREATE INDEX partner_requests_by_time ON ${SCHEMA}.partner_requests (at)`,
    ],
  },
  {
    description: 'staff who sign in at desks against the server: their accounts, wrong tries (per account and per workstation) and sessions',
    statements: [
      // A member of staff, created, reset and disabled by IT or a manager with the server's
      // commands. The PIN is kept only as its scrypt hash (electron/node/pin/pin-hash.ts).
      `CREATE TABLE ${SCHEMA}.staff (
         id text PRIMARY KEY,
         name text NOT NULL,
         name_key text NOT NULL UNIQUE,     -- the name as staff type it: case, accents and spaces folded
         role text NOT NULL CHECK (role IN ('desk-staff', 'manager')),
         pin_hash text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         pin_set_at timestamptz NOT NULL DEFAULT now(),
         disabled_at timestamptz
       )`,
      // Wrong tries in a row, counted on the server so nothing at a desk resets them: one row per
      // account ('staff:<id>') and per workstation ('workstation:<id>').
      `CREATE TABLE ${SCHEMA}.sign_in_failures (
         key text PRIMARY KEY,
         failures integer NOT NULL,
         last_failure_at timestamptz NOT NULL
       )`,
      // A signed-in shift: bound to the member of staff and the workstation; the desk holds its
      // token in memory only (a SHA-256 of it is kept here) and ends it at its lock.
      `CREATE TABLE ${SCHEMA}.staff_sessions (
         token_sha256 bytea PRIMARY KEY,
         staff_id text NOT NULL REFERENCES ${SCHEMA}.staff (id),
         workstation_id text NOT NULL REFERENCES ${SCHEMA}.workstations (id),
         started_at timestamptz NOT NULL DEFAULT now(),
         expires_at timestamptz NOT NULL,
         ended_at timestamptz,
         ended_why text
       )`,
    ],
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** What the desks' read-only role may SELECT: nothing else in the database. */
export const DESK_READABLE = ['titles', 'entitlements', 'availability', 'sync_status'] as const;

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Applies the migrations this database lacks (`upTo` is for tests); answers the versions before and after. */
export async function migrate(session: pg.ClientBase, upTo = SCHEMA_VERSION): Promise<{ from: number; to: number }> {
  let from: number | undefined;
  for (;;) {
    await session.query('BEGIN');
    try {
      await session.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, LOCK.migration]);
      await session.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA}.schema_versions (
        version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      const current = Number((await session.query(`SELECT coalesce(max(version), 0) AS v FROM ${SCHEMA}.schema_versions`)).rows[0].v);
      from ??= current;
      if (current > SCHEMA_VERSION) {
        throw new Error(`The library mirror's database was written by a newer service (schema ${current}; this one knows ${SCHEMA_VERSION}).`);
      }
      if (current >= upTo) {
        await session.query('COMMIT');
        return { from, to: current };
      }
      const migration = MIGRATIONS[current] as Migration;
      for (const statement of migration.statements) await session.query(statement);
      await session.query(`INSERT INTO ${SCHEMA}.schema_versions (version, description) VALUES ($1, $2)`, [current + 1, migration.description]);
      await session.query('COMMIT');
    } catch (error) {
      await session.query('ROLLBACK').catch(() => {});
      throw error;
    }
  }
}

/**
 * The desks' role: USAGE on the schema and SELECT on DESK_READABLE, and nothing else here (any
 * other grant it held in the schema is taken back). Run at every start, after the migrations,
 * so a table a migration adds is granted (or not) by this list alone.
 */
export async function grantDeskRole(session: pg.ClientBase, deskRole: string): Promise<void> {
  const exists = await session.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [deskRole]);
  if (exists.rowCount === 0) throw new Error(`The desks' role ${JSON.stringify(deskRole)} does not exist: create it first (docs/library-server.md §1).`);
  const role = quoteIdent(deskRole);
  await session.query('BEGIN');
  try {
    await session.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${SCHEMA} FROM ${role}`);
    await session.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${SCHEMA} FROM ${role}`);
    await session.query(`REVOKE ALL ON SCHEMA ${SCHEMA} FROM ${role}`);
    await session.query(`GRANT USAGE ON SCHEMA ${SCHEMA} TO ${role}`);
    await session.query(`GRANT SELECT ON ${DESK_READABLE.map((t) => `${SCHEMA}.${t}`).join(', ')} TO ${role}`);
    await session.query('COMMIT');
  } catch (error) {
    await session.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
