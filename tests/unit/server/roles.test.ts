// The desks' role against the real server, as IT's script and the service's grants leave it:
// it reads the mirror's tables and nothing else, writes nothing, and reaches the server only over
// TLS whose certificate it verifies.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientConfig, openSession } from '../../../electron/node/library-mirror/database.ts';
import { grantDeskRole, migrate, SCHEMA } from '../../../electron/node/library-mirror/schema.ts';
import { useLibraryMirrorDatabase } from '../../support/library-mirror-database.ts';

const db = useLibraryMirrorDatabase();
let desk: pg.Client;

beforeAll(async () => {
  const service = await db().session(db().service);
  await migrate(service);
  await grantDeskRole(service, db().deskRole);
  // Something of the service's own outside the mirror's tables, which desks must not read either.
  await service.query(`INSERT INTO ${SCHEMA}.sync_cursors (source, next_token) VALUES ('global', 'opaque-cursor')`);
  await service.end();
  desk = await db().session(db().desk);
});
afterAll(async () => {
  await desk?.end();
});

/** The statement's error (its SQLSTATE and message), or undefined when it ran. */
async function refusal(sql: string): Promise<{ code: string; message: string } | undefined> {
  try {
    await desk.query(sql);
    return undefined;
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
}

const PERMISSION_DENIED = '42501';

describe("the desks' role", () => {
  it('reads the mirror\'s tables and the sync status', async () => {
    for (const table of ['titles', 'entitlements', 'availability', 'sync_status']) {
      expect(await refusal(`SELECT * FROM ${SCHEMA}.${table} LIMIT 1`), table).toBeUndefined();
    }
    expect((await desk.query(`SELECT source FROM ${SCHEMA}.sync_status`)).rows).toEqual([{ source: 'global' }]);
  });

  it('cannot INSERT, UPDATE, DELETE or TRUNCATE, even in a transaction it makes read-write', async () => {
    await desk.query('SET default_transaction_read_only = off'); // the role's default is read-only: the grants must refuse on their own
    const statements = [
      `INSERT INTO ${SCHEMA}.titles (id, record, change_seq, seen_run) VALUES (-1, '{}', 1, 1)`,
      `UPDATE ${SCHEMA}.entitlements SET active = false`,
      `DELETE FROM ${SCHEMA}.availability`,
      `TRUNCATE ${SCHEMA}.titles`,
      `UPDATE ${SCHEMA}.sync_status SET items = 0`,
    ];
    for (const sql of statements) expect(await refusal(sql), sql).toMatchObject({ code: PERMISSION_DENIED });
    await desk.query('RESET default_transaction_read_only');
  });

  it('cannot CREATE: not in the mirror\'s schema, not in public, not a temporary table, not a schema', async () => {
    await desk.query('SET default_transaction_read_only = off');
    for (const sql of [`CREATE TABLE ${SCHEMA}.mine (x int)`, 'CREATE TABLE public.mine (x int)', 'CREATE TEMP TABLE mine (x int)', 'CREATE SCHEMA mine']) {
      expect(await refusal(sql), sql).toMatchObject({ code: PERMISSION_DENIED });
    }
    await desk.query('RESET default_transaction_read_only');
  });

  it('cannot read anything of the service\'s but the mirror\'s tables: cursors, its state, the versions, the sequence', async () => {
    for (const sql of [
      `SELECT * FROM ${SCHEMA}.sync_cursors`, `SELECT * FROM ${SCHEMA}.service_state`, `SELECT * FROM ${SCHEMA}.schema_versions`,
      `SELECT nextval('${SCHEMA}.change_seq')`, `SELECT last_value FROM ${SCHEMA}.change_seq`,
    ]) {
      expect(await refusal(sql), sql).toMatchObject({ code: PERMISSION_DENIED });
    }
  });

  it('cannot write by a function PUBLIC may call elsewhere (large objects), nor become the service', async () => {
    await desk.query('SET default_transaction_read_only = off');
    expect(await refusal('SELECT lo_create(0)')).toMatchObject({ code: PERMISSION_DENIED });
    expect(await refusal("SELECT lo_from_bytea(0, '\\x00')")).toMatchObject({ code: PERMISSION_DENIED });
    expect(await refusal(`SET ROLE ${db().serviceRole}`)).toMatchObject({ code: PERMISSION_DENIED });
    await desk.query('RESET default_transaction_read_only');
  });

  it('is read-only by default too (a second line behind the grants)', async () => {
    expect((await desk.query('SHOW default_transaction_read_only')).rows[0].default_transaction_read_only).toBe('on');
  });
});

describe('TLS', () => {
  /** Connects with the desks' role as `config` says; the error's message, or undefined when it got in. */
  async function connectError(config: pg.ClientConfig): Promise<string | undefined> {
    const client = new pg.Client(config);
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  it('connects with the server\'s CA, verifying the certificate and the address it was issued for', async () => {
    const session = await openSession(db().desk);
    expect((await session.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows).toEqual([{ ssl: true }]);
    await session.end();
  });

  it('refuses a server whose certificate another CA signed (a wrong CA)', async () => {
    const wrong = await db().cluster.otherCa();
    expect(await connectError(clientConfig({ ...db().desk, ca: wrong.cert }))).toMatch(/self.signed|unable to (get|verify)/i);
  });

  it('refuses a server whose CA the desk was not given (no CA: only the system\'s trusted ones)', async () => {
    const { ca: _ca, ...withoutCa } = db().desk;
    expect(await connectError(clientConfig(withoutCa))).toMatch(/self.signed|unable to (get|verify)/i);
  });

  it('the server refuses the desks\' role without TLS (pg_hba: hostssl only)', async () => {
    const { ssl: _ssl, ...plain } = clientConfig(db().desk);
    expect(await connectError({ ...plain, ssl: false })).toMatch(/pg_hba\.conf rejects connection.*no encryption/);
  });

  it('a database URL cannot ask for less than verified TLS', () => {
    for (const mode of ['disable', 'prefer', 'require', 'no-verify', 'verify-ca']) {
      expect(() => clientConfig({ url: `${db().desk.url}?sslmode=${mode}` }), mode).toThrow(/verify-full/);
    }
    expect(clientConfig({ url: `${db().desk.url}?sslmode=verify-full`, ca: 'x' }).ssl).toEqual({ rejectUnauthorized: true, ca: 'x' });
  });
});
