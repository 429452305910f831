// The desk endpoint's database sessions. Desks' calls run side by side, so they take sessions
// from a small pool: none waits behind another desk's statement (one shared session queued them
// all, and pg 9 will refuse a query sent while another runs), and a transaction — an enrolment's —
// has a session to itself, where no other desk's audit entry can land inside it and be rolled
// back with it. The pool opens sessions again after the database restarts.
//
// A lookup's audit entry is written on a second, smaller pool whose commits do not wait for the
// disk (synchronous_commit off): a lookup's answer waits for its entry, and an fsync beside the
// leader's page writes cost it more than the partner's answer (bench:fleet's breakdown). The entry
// is in PostgreSQL, where no desk can rewrite it, before the desk sees the patron; only a crash of
// the database's host within a fraction of a second (wal_writer_delay, 200 ms, three times at
// most) could lose it. Every other entry — an action's, written before it is sent; a sign-in; a
// manager's read — commits durably on the first pool.
import pg from 'pg';
import { clientConfig, type DatabaseTarget } from '../electron/node/library-mirror/database.ts';

/** What a reader or writer of one statement at a time needs: a pool or a session. */
export type Queries = Pick<pg.ClientBase, 'query'>;

/** Sessions in the desks' pool: calls side by side on 2–4 cores; PostgreSQL's max_connections counts them (docs/library-server.md). */
export const DESK_SESSIONS = 4;
/** Sessions for lookups' audit entries. */
export const LOOKUP_ENTRY_SESSIONS = 2;

export class DeskSessions {
  private readonly durable: pg.Pool;
  private readonly lookups: pg.Pool;
  private closed = false;

  constructor(target: DatabaseTarget, instanceName: string) {
    // Sessions stay open once made (idleTimeoutMillis 0): a new one costs a TLS handshake and SCRAM's
    // password hashing, which would fall on a staff call that finds the pool empty.
    const pool = (what: string, max: number, settings?: Record<string, string>): pg.Pool => {
      const created = new pg.Pool({ ...clientConfig(target, { applicationName: `lending-desk-library-server ${instanceName} ${what}`, ...(settings ? { settings } : {}) }), max, idleTimeoutMillis: 0 });
      // A pooled session that fails while idle (the database restarted) says so here; the pool opens another when next asked.
      created.on('error', () => {});
      return created;
    };
    this.durable = pool('desks', DESK_SESSIONS);
    this.lookups = pool('desks lookup entries', LOOKUP_ENTRY_SESSIONS, { synchronous_commit: 'off' });
  }

  /** One statement at a time, durably committed. */
  get queries(): Queries {
    return this.checked(this.durable);
  }

  /** One statement at a time, committed without waiting for the disk: a lookup's audit entry only. */
  get lookupEntries(): Queries {
    return this.checked(this.lookups);
  }

  /** `work` on a session of its own (a transaction), given back to the pool after. */
  async transaction<T>(work: (session: pg.ClientBase) => Promise<T>): Promise<T> {
    if (this.closed) throw stopping();
    const session = await this.durable.connect();
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
    await Promise.all([this.durable.end(), this.lookups.end()].map((ending) => ending.catch(() => {})));
  }

  private checked(pool: pg.Pool): Queries {
    if (this.closed) return { query: (() => Promise.reject(stopping())) as Queries['query'] };
    return pool;
  }
}

const stopping = (): Error => new Error('The library server is stopping.');
