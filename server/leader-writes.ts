// Writes to the library mirror come from the leader's session alone, one transaction at a time
// (so change sequences commit in order, and a desk reading up to N has seen everything below N),
// and each first checks that this session still holds the leader lock (leadership.ts): a session
// that lost it — ended, or of a process that no longer leads — writes nothing. Everything else the
// leader sends on that session (its periodic lock check among it) queues here too.
import type pg from 'pg';
import { LOCK, LOCK_CLASS } from '../electron/node/library-mirror/schema.ts';

const HOLDS_LEADER_LOCK = `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = $1 AND objid::bigint = $2
  AND objsubid = 2 AND granted AND pid = pg_backend_pid()) AS leading`;

/** This session does not hold the leader lock: it may not write. */
export class NotLeaderError extends Error {
  constructor() {
    super('This session does not hold the library mirror\'s leader lock, so it writes nothing.');
    this.name = 'NotLeaderError';
  }
}

/** One per leader's session: every writer of that session shares its queue. */
export class LeaderWrites {
  readonly session: pg.ClientBase;
  private readonly rollbackListeners: (() => void)[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(session: pg.ClientBase) {
    this.session = session;
  }

  /** Told when a transaction rolls back (temporary tables made in it are gone with it). */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /**
   * Statements outside any transaction, after the work before them and before the work after: the
   * session never has two queries under way (pg 8 queued a second one itself, with a deprecation
   * warning; pg 9 refuses it). The lock check, LISTEN and the migrations go this way.
   */
  alone<T>(work: (db: pg.ClientBase) => Promise<T>): Promise<T> {
    const result = this.queue.then(() => work(this.session));
    this.queue = result.catch(() => {});
    return result;
  }

  /** Whether this session still holds the leader lock, asked in its turn (leadership.ts checks it every few seconds). */
  stillLeads(): Promise<boolean> {
    return this.alone(holdsLeaderLock);
  }

  /** One transaction on the leader's session, after the ones before it; refused unless the session leads. */
  run<T>(work: (db: pg.ClientBase) => Promise<T>): Promise<T> {
    return this.alone(async (db) => {
      await db.query('BEGIN');
      try {
        if (!(await holdsLeaderLock(db))) throw new NotLeaderError();
        const value = await work(db);
        await db.query('COMMIT');
        return value;
      } catch (error) {
        await db.query('ROLLBACK').catch(() => {});
        for (const listener of this.rollbackListeners) listener();
        throw error;
      }
    });
  }
}

async function holdsLeaderLock(db: pg.ClientBase): Promise<boolean> {
  const { rows } = await db.query<{ leading: boolean }>(HOLDS_LEADER_LOCK, [LOCK_CLASS, LOCK.leader]);
  return rows[0]?.leading === true;
}
