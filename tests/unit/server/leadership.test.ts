// The leader's session carries one query at a time (server/leadership.ts, leader-writes.ts): its
// periodic lock check waits its turn behind a write's transaction instead of being sent beside it
// (pg 8 queued such a query itself, with a deprecation warning in the server's log; pg 9 refuses
// it). Against a real PostgreSQL: a transaction that outlasts two check intervals, on a session
// that counts its queries under way.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { Leadership } from '../../../server/leadership.ts';
import { useLibraryMirrorDatabase } from '../../support/library-mirror-database.ts';

const db = useLibraryMirrorDatabase();
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** A session whose query() notes how many of its queries were under way at once, and the lock checks sent. */
function counted(session: pg.Client): { session: pg.Client; most: () => number; checks: () => number } {
  let under = 0;
  let most = 0;
  let checks = 0;
  const query = session.query.bind(session) as (...args: unknown[]) => Promise<unknown>;
  (session as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args: unknown[]) => {
    under += 1;
    most = Math.max(most, under);
    if (typeof args[0] === 'string' && args[0].includes('pg_locks')) checks += 1;
    try {
      return await query(...args);
    } finally {
      under -= 1;
    }
  };
  return { session, most: () => most, checks: () => checks };
}

describe('the leader\'s session', () => {
  it('never has two queries under way: the lock check waits behind a transaction that outlasts two check intervals', async () => {
    let watched: ReturnType<typeof counted> | undefined;
    let checksDuringWrite = 0;
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => { wrote = resolve; });
    const leadership = new Leadership({
      connect: async () => (watched = counted(await db().session(db().service, 'leadership test'))).session,
      retrySeconds: 1,
      log: quiet,
      lead: async ({ writes, signal }) => {
        const before = watched!.checks();
        await writes.run(async (tx) => { await tx.query('SELECT pg_sleep(2.5)'); });
        checksDuringWrite = watched!.checks() - before;
        wrote();
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      },
    });
    const running = leadership.start();
    await written;
    // The checks that came due during the transaction ran after it (their turn), not beside it.
    const after = watched!.checks();
    await expect.poll(() => watched!.checks(), { timeout: 5_000, interval: 100 }).toBeGreaterThan(after);
    await leadership.stop();
    await running;
    expect(watched!.most()).toBe(1);
    expect(checksDuringWrite).toBeGreaterThanOrEqual(1); // the write's own check, at least
  }, 30_000);
});
