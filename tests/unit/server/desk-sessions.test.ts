// The desk endpoint's sessions against a real PostgreSQL: desks' statements run side by side, an
// enrolment's transaction has a session to itself (with one shared session, another desk's audit
// entry sent meanwhile landed inside the transaction and went with its rollback), and a session
// whose transaction failed is not handed to the next desk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA, migrate } from '../../../electron/node/library-mirror/schema.ts';
import { DeskSessions } from '../../../server/desk-sessions.ts';
import { useLibraryMirrorDatabase } from '../../support/library-mirror-database.ts';

const db = useLibraryMirrorDatabase();
let sessions: DeskSessions;

beforeAll(async () => {
  sessions = new DeskSessions(db().service, 'test');
  const setUp = await sessions.transaction(async (session) => migrate(session));
  expect(setUp.to).toBeGreaterThan(0);
}, 60_000);
afterAll(async () => {
  await sessions?.close();
});

const stateOf = async (key: string): Promise<unknown> =>
  (await sessions.queries.query<{ value: unknown }>(`SELECT value FROM ${SCHEMA}.service_state WHERE key = $1`, [key])).rows[0]?.value;

describe('the desk endpoint\'s sessions', () => {
  it('keep another desk\'s write out of a transaction that rolls back', async () => {
    await sessions.transaction(async (session) => {
      await session.query('BEGIN');
      await session.query(`INSERT INTO ${SCHEMA}.service_state (key, value) VALUES ('inside', '1')`);
      // Another desk's write, sent while the transaction is open: it must not wait for it, nor join it.
      await sessions.queries.query(`INSERT INTO ${SCHEMA}.service_state (key, value) VALUES ('beside', '1')`);
      await session.query('ROLLBACK');
    });
    expect(await stateOf('inside')).toBeUndefined();
    expect(await stateOf('beside')).toBe(1);
  });

  it('give a session whose transaction failed back closed, and the next desk a working one', async () => {
    await expect(sessions.transaction(async (session) => {
      await session.query('BEGIN');
      await session.query('SELECT 1/0');
    })).rejects.toThrow(/division by zero/);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => sessions.queries.query<{ n: number }>('SELECT $1::int AS n', [i])));
    expect(answers.map((a) => a.rows[0]?.n)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('refuse statements once closed, with the server\'s reason', async () => {
    const closing = new DeskSessions(db().service, 'closing');
    await closing.close();
    await expect(closing.queries.query('SELECT 1')).rejects.toThrow('The library server is stopping.');
    await expect(closing.transaction(async () => undefined)).rejects.toThrow('The library server is stopping.');
  });
});
