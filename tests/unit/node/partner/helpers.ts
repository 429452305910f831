// Test wiring: a sandbox over real HTTP and a client pointed at it, sharing one adjustable
// clock so token expiry and deltas can be exercised without waiting.
import { PartnerClient, type PartnerClientOptions } from '../../../../electron/node/partner/client.ts';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../../../electron/main/sandbox/server.ts';
import { createClock, type Clock } from '../../../support/clock.ts';

export { createClock, type Clock };

export interface Harness {
  sandbox: SandboxHandle;
  clock: Clock;
  /** Delays the client asked to sleep, in order; sleeping itself is instant. */
  sleeps: number[];
  /** Every URL the client fetched. */
  urls: string[];
  client: (overrides?: Partial<PartnerClientOptions>) => PartnerClient;
}

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const clock = createClock();
  const sandbox = await startSandbox({ catalogSize: 2000, now: clock.now, ...options });
  const sleeps: number[] = [];
  const urls: string[] = [];
  const client = (overrides: Partial<PartnerClientOptions> = {}): PartnerClient => new PartnerClient({
    baseUrl: sandbox.url,
    credentials: { username: sandbox.username, password: sandbox.password },
    now: clock.now,
    // Sleeping is instant but moves the shared clock, as real waiting would.
    sleep: async (ms) => { sleeps.push(ms); clock.advance(ms); },
    random: () => 0.5,
    timeoutMs: 3_000,
    fetch: (input, init) => { urls.push(input); return fetch(input, init); },
    ...overrides,
  });
  return { sandbox, clock, sleeps, urls, client };
}

export async function collect<T>(pages: AsyncIterable<{ items: T[] }>): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let count = 0;
  for await (const page of pages) {
    items.push(...page.items);
    count++;
  }
  return { items, pages: count };
}

export function library(h: Harness, index = 0): { libraryId: number; country: string; cards: string[] } {
  const lib = h.sandbox.libraries[index];
  if (!lib) throw new Error(`the sandbox has no library #${index}`);
  return lib;
}
