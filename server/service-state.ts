// The server's own notes in the library mirror's database (who leads, since when), for IT reading
// it: written by the leader alone, as every write is (leader-writes.ts).
import type pg from 'pg';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';
import type { LeaderWrites } from './leader-writes.ts';

/** The channel the server's sync-now command notifies; the leader listens on it. */
export const SYNC_NOW_CHANNEL = 'lending_desk_sync_now';

/** Asks the leader, whichever instance it is, to sync the catalog now (any session of the server's role). */
export async function requestSync(db: pg.ClientBase): Promise<void> {
  await db.query(`NOTIFY ${SYNC_NOW_CHANNEL}`);
}

export class ServiceState {
  private readonly writes: LeaderWrites;

  constructor(writes: LeaderWrites) {
    this.writes = writes;
  }

  async get(key: string): Promise<unknown> {
    const { rows } = await this.writes.alone((db) => db.query<{ value: unknown }>(`SELECT value FROM ${SCHEMA}.service_state WHERE key = $1`, [key]));
    return rows[0]?.value;
  }

  set(key: string, value: unknown): Promise<void> {
    return this.writes.run(async (db) => {
      await db.query(`INSERT INTO ${SCHEMA}.service_state (key, value, updated_at) VALUES ($1, $2, now())
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, [key, JSON.stringify(value)]);
    });
  }
}
