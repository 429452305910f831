// The desk endpoint's database sessions. Desks' calls run side by side, so they take sessions
// from a small pool: none waits behind another desk's statement (one shared session queued them
// all, and pg 9 will refuse a query sent while another runs), and a transaction — an enrolment's —
// has a session to itself, where no other desk's audit entry can land inside it and be rolled
// back with it. The pool opens sessions again after the database restarts.
import pg from 'pg';
import { clientConfig, type DatabaseTarget } from '../electron/node/library-mirror/database.ts';

/** What a reader or writer of one statement at a time needs: a pool or a session. */
export type Queries = Pick<pg.ClientBase, 'query'>;

/** Sessions in the desks' pool: calls side by side on 2–4 cores; PostgreSQL's max_connections counts them (docs/library-server.md). */
export const DESK_SESSIONS = 4;

export class DeskSessions {
  private readonly pool: pg.Pool;
  private closed = false;

  constructor(target: DatabaseTarget, instanceName: string) {
    // Sessions stay open once made (idleTimeoutMillis 0): a new one costs a TLS handshake and SCRAM's
    // password hashing, which would fall on a staff call that finds the pool empty.
    this.pool = new pg.Pool({ ...clientConfig(target, { applicationName: `lending-desk-library-server ${instanceName} desks` }), max: DESK_SESSIONS, idleTimeoutMillis: 0 });
    // A pooled session that fails while idle (the database restarted) says so here; the pool opens another when next asked.
    this.pool.on('error', () => {});
  }

  /** One statement at a time, on whichever session is free. */
  get queries(): Queries {
    if (this.closed) return { query: (() => Promise.reject(stopping())) as Queries['query'] };
    return this.pool;
  }

  /** `work` on a session of its own (a transaction), given back to the pool after. */
  async transaction<T>(work: (session: pg.ClientBase) => Promise<T>): Promise<T> {
    if (this.closed) throw stopping();
    const session = await this.pool.connect();
    let broken: Error | undefined;
    try {
      return await work(session);
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A session whose transaction failed midway is closed, not given to the next desk.
      session.release(broken);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.end().catch(() => {});
  }
}

const stopping = (): Error => new Error('The library server is stopping.');
