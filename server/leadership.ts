// Which of the server's instances leads: the one whose session holds the leader lock (a
// PostgreSQL advisory lock). The others wait in line for it on their own sessions, so one takes
// over as soon as the leader's session ends. The lock lives and dies with its
// session: when the leader's process dies, the server ends the session and the lock is free; the
// leader also writes on that same session (store.ts checks the lock in every write), so a leader
// whose session ended (pg_terminate_backend, a server restart) can no longer write, and stops.
import type pg from 'pg';
import { setTimeout as pause } from 'node:timers/promises';
import type { Logger } from '../electron/node/logging/index.ts';
import { LOCK, LOCK_CLASS } from '../electron/node/library-mirror/schema.ts';
import { errorText } from '../electron/node/logging/tls-refusal.ts';
import { LeaderWrites } from './leader-writes.ts';

/** How often a follower asks for the lock, and the leader checks it still has it. At most 30: a dead leader is replaced within a minute. */
export const LEADER_RETRY_SECONDS = 15;

/**
 * The leader's session asks its server end to probe the connection after 10 s of silence, every
 * 5 s, 3 times: a leader whose machine vanished (no FIN ever comes) loses its session, and so the
 * lock, within about 25 s.
 */
export const LEADER_KEEPALIVES = { tcp_keepalives_idle: 10, tcp_keepalives_interval: 5, tcp_keepalives_count: 3 } as const;

/** SQLSTATE 25P02: a statement sent inside a transaction that already failed. */
const IN_FAILED_TRANSACTION = '25P02';

/** Takes the leader lock on `session` if it is free. */
export async function tryLead(session: pg.ClientBase): Promise<boolean> {
  const { rows } = await session.query<{ led: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS led', [LOCK_CLASS, LOCK.leader]);
  return rows[0]?.led === true;
}

/** Waits for the leader lock (a test that takes over from a killed process waits on the server itself). */
export async function waitToLead(session: pg.ClientBase): Promise<void> {
  await session.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS, LOCK.leader]);
}

/**
 * A leader's time: its session (the lock's, and every write's), the one queue every query on that
 * session goes through, and a signal that aborts when the lead is lost.
 */
export interface LeaderTerm {
  session: pg.Client;
  writes: LeaderWrites;
  signal: AbortSignal;
}

export interface LeadershipOptions {
  /** A new session of the service's role, with LEADER_KEEPALIVES. */
  connect: () => Promise<pg.Client>;
  /** Runs while this instance leads; returns (or throws) once `signal` aborts. */
  lead: (term: LeaderTerm) => Promise<void>;
  log: Logger;
  retrySeconds?: number;
}

/** What the database's certificate is checked against, in words for IT. */
export const DATABASE_CA_WORDS = 'database.caFile (without it, the public CAs built into Node)';
/** A certificate refusal in our words (never Node's advice to use the OS's store, which is never read). */
const messageOf = (error: unknown): string => errorText(error, DATABASE_CA_WORDS);

export class Leadership {
  private readonly options: LeadershipOptions;
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(options: LeadershipOptions) {
    const retrySeconds = options.retrySeconds ?? LEADER_RETRY_SECONDS;
    if (!(retrySeconds > 0 && retrySeconds <= 30)) throw new RangeError('The leader retry interval is from 1 to 30 seconds.');
    this.options = { ...options, retrySeconds };
  }

  private get retryMs(): number {
    return (this.options.retrySeconds as number) * 1000;
  }

  /** Follows, leads when it can, and goes back to following when the lead is lost, until stop(). */
  start(): Promise<void> {
    this.loop ??= this.run();
    return this.loop;
  }

  /** Ends the lead (the sync stops before its next page), lets go of the lock and the session. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('The service is stopping.'));
    await this.loop;
  }

  private async run(): Promise<void> {
    const { log } = this.options;
    const stop = this.stopping.signal;
    let session: pg.Client | undefined;
    let following = false;
    while (!stop.aborted) {
      try {
        session ??= await this.options.connect();
        if (!(await tryLead(session))) {
          if (!following) log.info('following', { retrySeconds: this.options.retrySeconds });
          following = true;
          // Waits in the server's queue for the lock: the moment the leader's session ends (its
          // process killed, its host gone once keepalives give up), this one leads. Stopping ends
          // the session, which ends the wait.
          const waiting = session;
          const endWait = (): void => { void waiting.end().catch(() => {}); };
          stop.addEventListener('abort', endWait, { once: true });
          try {
            await waitToLead(waiting);
          } finally {
            stop.removeEventListener('abort', endWait);
          }
          if (stop.aborted) break;
        }
        following = false;
        await this.lead(session);
        session = undefined; // a lead always ends with its session; the next try comes after the pause, as a follower's would
      } catch (error) {
        if (stop.aborted) break;
        log.warn('database-unreachable', { message: messageOf(error), retrySeconds: this.options.retrySeconds });
        await session?.end().catch(() => {});
        session = undefined;
        following = false;
      }
      await pause(this.retryMs, undefined, { signal: stop }).catch(() => {});
    }
    await session?.end().catch(() => {});
  }

  private async lead(session: pg.Client): Promise<void> {
    const { log } = this.options;
    const lost = new AbortController();
    const lose = (reason: string): void => {
      if (!lost.signal.aborted) lost.abort(new Error(reason));
    };
    const onEnd = (): void => lose('its database session ended');
    const onError = (error: Error): void => lose(`its database session failed (${error.message})`);
    session.on('end', onEnd);
    session.on('error', onError);
    const stopped = (): void => lose('the service is stopping');
    this.stopping.signal.addEventListener('abort', stopped, { once: true });
    const writes = new LeaderWrites(session);
    // The check waits its turn behind the writes (never inside a transaction); one at a time.
    let checking = false;
    const checks = setInterval(() => {
      if (checking) return;
      checking = true;
      writes.stillLeads().then((leading) => leading || lose('its session no longer holds the lock'), (error: unknown) => {
        // A statement that failed inside a transaction about to roll back says nothing about the
        // lock (the queue keeps the check out of transactions; kept as a guard). Any other failure is the session's.
        if ((error as { code?: string }).code !== IN_FAILED_TRANSACTION) lose(messageOf(error));
      }).finally(() => { checking = false; });
    }, this.retryMs);
    log.info('leader', { retrySeconds: this.options.retrySeconds });
    // The lead ends when its work ends or the moment it is lost: the session then ends at once (a
    // request still waiting for the budget or the service must not keep the lock, or a write that
    // session could still make, alive). The work's own end follows; its writes fail on the ended session.
    const ended = new Promise<void>((resolve) => lost.signal.addEventListener('abort', () => resolve(), { once: true }));
    const work = this.options.lead({ session, writes, signal: lost.signal });
    try {
      await Promise.race([work, ended]);
      if (!lost.signal.aborted) lose('its work ended');
    } catch (error) {
      if (!lost.signal.aborted) {
        log.error('lead-failed', { message: messageOf(error) });
        lose('its work failed');
      }
    } finally {
      work.catch(() => {}); // settles later, if at all, on the ended session
      clearInterval(checks);
      this.stopping.signal.removeEventListener('abort', stopped);
      session.off('end', onEnd);
      session.off('error', onError);
      const reason = messageOf(lost.signal.reason);
      if (this.stopping.signal.aborted) log.info('lead-ended', { reason });
      else log.warn('leadership-lost', { reason });
      // Ending the session is what lets go of the lock (whatever state the session is in).
      await session.end().catch(() => {});
    }
  }
}
