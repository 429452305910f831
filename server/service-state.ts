// The server's own notes in the library mirror's database (who leads, since when), for IT reading
// it: written by the leader alone, as every write is (leader-writes.ts).
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';
import type { LeaderWrites } from './leader-writes.ts';

export class ServiceState {
  private readonly writes: LeaderWrites;

  constructor(writes: LeaderWrites) {
    this.writes = writes;
  }

  set(key: string, value: unknown): Promise<void> {
    return this.writes.run(async (db) => {
      await db.query(`INSERT INTO ${SCHEMA}.service_state (key, value, updated_at) VALUES ($1, $2, now())
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, [key, JSON.stringify(value)]);
    });
  }
}
