// A connection as main builds one, on simulated time (tests/support/simulated-time.ts), against a
// sandbox in another process: every exchange tracked (its path, when it went on the wire and when
// its answer was in), each taking `networkMs` of simulated time. And staff calls made at a steady
// pace meanwhile, each timed from asking to its own request going on the wire: what it waited for.
// The benches of the request budget (connection-budget.ts, staff-first.ts) share both.
import { join } from 'node:path';
import { Connection } from '../../electron/main/connection/connection.ts';
import { SimulatedTime } from '../../tests/support/simulated-time.ts';
import type { SandboxProcess } from '../sandbox-process.ts';

export interface Exchange { path: string; sentAt: number; answeredAt?: number }

export interface SimulatedConnection { connection: Connection; time: SimulatedTime; exchanges: Exchange[] }

export function simulatedConnection(
  sandbox: Pick<SandboxProcess, 'url' | 'username' | 'password'>,
  options: {
    dir: string; libraryId: number; perMinute: number; networkMs: number;
    /** Writes into the mirror's file before the connection opens it (a bench's starting state), at the clock's time. */
    before?: (databasePath: string, now: number) => void;
  },
): SimulatedConnection {
  const { dir, libraryId, perMinute, networkMs } = options;
  const time = new SimulatedTime();
  options.before?.(join(dir, 'mirror.db'), time.now());
  const exchanges: Exchange[] = [];
  const fetchTracked = time.track(async (input, init) => {
    const exchange: Exchange = { path: new URL(input).pathname, sentAt: time.now() };
    exchanges.push(exchange);
    try {
      return await fetch(input, init);
    } finally {
      // The simulated network time comes after the answer (SimulatedTime.track): the answer is in `networkMs` later.
      exchange.answeredAt = time.now() + networkMs;
    }
  }, networkMs);
  const connection = new Connection({
    profile: { id: 'bench', name: 'Bench', kind: 'partner', baseUrl: sandbox.url, libraries: [{ libraryId }], wsApi: '2.1', country: 'US' },
    baseUrl: sandbox.url, fetch: fetchTracked, credentials: async () => ({ username: sandbox.username, password: sandbox.password }),
    libraries: [{ libraryId, country: 'US' }], ratePerMinute: perMinute,
    mirror: { databasePath: join(dir, 'mirror.db') }, now: time.now,
    clientOptions: { now: time.now, sleep: time.sleep, timeoutMs: 60_000 },
  });
  time.waitFor(connection.mirror.ownerThread);
  return { connection, time, exchanges };
}

export interface StaffCalls {
  /** Ends once `busy()` is false after a call. */
  done: Promise<void>;
  /** Each answered call's wait: from asking to its own request on the wire (its token included). */
  waits: number[];
  /** Each answered call's own exchange, on the wire to answered. */
  roundTrips: number[];
  /** Calls the desk answered with a time to wait instead (the service's pacing). */
  refused: number;
}

/** A patron's status asked every `everyMs` of simulated time while `busy()`. */
export function staffCalls(simulated: SimulatedConnection, libraryId: number, card: string, everyMs: number, busy: () => boolean): StaffCalls {
  const { connection, time, exchanges } = simulated;
  const calls: StaffCalls = { done: Promise.resolve(), waits: [], roundTrips: [], refused: 0 };
  calls.done = (async () => {
    while (busy()) {
      await time.sleep(everyMs);
      if (!busy()) break;
      const asked = time.now();
      const from = exchanges.length;
      try {
        await connection.staff.patronStatus(libraryId, card);
      } catch {
        calls.refused += 1;
        continue;
      }
      const own = exchanges.slice(from).find((e) => e.path.endsWith('/status'));
      if (!own) continue;
      calls.waits.push(own.sentAt - asked);
      calls.roundTrips.push((own.answeredAt ?? own.sentAt) - own.sentAt);
    }
  })();
  return calls;
}
