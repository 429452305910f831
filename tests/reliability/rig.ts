// The desk every reliability run drives: a sandbox and a DeskService sharing one simulated
// clock, called only through the contract (dispatch, as the Electron registry calls it), with
// the wire watched from the desk's side of the socket. Simulated time is what lets a 20-minute
// desk day or 2-second tokens run in seconds: the clock moves when the driver says "staff
// waited", when the network "took" time, and when the client "sleeps" before a retry.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxOverHttp } from '../../electron/main/connection/sandbox-endpoint.ts';
import { createMemoryVault } from '../../electron/main/credentials/index.ts';
import type { MethodName, Result } from '../../electron/shared/contract.ts';
import type { DeskService } from '../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../electron/main/ipc/dispatch.ts';
import { Rng } from '../../electron/main/sandbox/random.ts';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../electron/main/sandbox/server.ts';
import { startSandboxProcess } from '../../bench/sandbox-process.ts';
import { createClock, type Clock } from '../support/clock.ts';
import { inProcessAdmin, remoteAdmin, type SandboxAdmin } from './sandbox-admin.ts';
import { TEST_DESK_PIN } from '../support/desk-pin.ts';
import { createNodeDesk, keychainOf } from '../support/node-desk.ts';
import { watchSecrets, type SecretWatch } from './secrets.ts';

export interface RigOptions {
  sandbox?: SandboxOptions;
  /** Simulated network time added to each request, uniformly from 0 to this (ms). */
  networkMs?: number;
  /** Real time a request may take before the client gives up (stalls cost this much). */
  timeoutMs?: number;
  seed?: number;
  ratePerMinute?: number;
  /**
   * Runs the sandbox in a process of its own (as `npm run sandbox` does), so this process's
   * heap is the desk's alone — what a memory figure needs. The two share the simulated clock
   * through the sandbox's clock control. `rig.sandbox.control` is then not available.
   */
  sandboxProcess?: boolean;
  /**
   * Watch the titles staff act on for the app log (on by default). Off for bad input, whose
   * "titles" are the same hostile strings it also sends as staff names, which the log keeps.
   */
  watchTitles?: boolean;
}

/** What crossed the socket, seen from the desk's side. */
export interface Wire {
  requests: number;
  tokenRequests: number;
  /** When each token request was sent (simulated ms): a storm is many in one lifetime. */
  tokenTimes: number[];
  /** Requests that met a 5xx, a 429, a dropped connection or no answer (garbled bodies are not counted here). */
  faulted: number;
  /** Requests the service answered 401 (an expired or revoked token), each renewed by the client. */
  refusedTokens: number;
  /** Requests sent while a Retry-After the desk had already received was still running. */
  sentDuringRetryAfter: number;
  retryAfterUntil: number;
}

export interface Rig {
  /** In-process only: `control` throws when the sandbox runs in a process of its own. */
  sandbox: SandboxHandle;
  /** The sandbox's control surface, in process or over its admin routes. */
  admin: SandboxAdmin;
  clock: Clock;
  desk: DeskService;
  dir: string;
  wire: Wire;
  secrets: SecretWatch;
  /** Contract calls whose handler threw something other than a DeskError (logged as unexpected). */
  unexpected: { method: string; error: string }[];
  call(method: MethodName | string, args?: unknown): Promise<Result<unknown>>;
  /** Resolves once no request the desk sent is still on its way (a sync's page asked for ahead, a guessed next page). */
  requestsSettled(): Promise<void>;
  /** Moves simulated time forward only (parallel sleeps to the same moment move it once). */
  advanceTo(ms: number): void;
  random(): number;
  close(): Promise<void>;
}

/** The sandbox's seeded generator as a function, so a run can be repeated exactly. */
export function seeded(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const seed = options.seed ?? 7;
  const random = seeded(seed);
  const { sandbox, admin, clock } = options.sandboxProcess ? await sandboxInProcessOfItsOwn(options, seed) : await sandboxHere(options, seed);
  const dir = mkdtempSync(join(tmpdir(), 'lending-desk-reliability-'));
  const secrets = watchSecrets([sandbox.password]);
  secrets.addPin(TEST_DESK_PIN);
  const wire: Wire = { requests: 0, tokenRequests: 0, tokenTimes: [], faulted: 0, refusedTokens: 0, sentDuringRetryAfter: 0, retryAfterUntil: 0 };
  const advanceTo = (ms: number): void => {
    const ahead = ms - clock.now();
    if (ahead > 0) clock.advance(ahead);
  };

  let inFlight = 0;
  let settledWaiters: Array<() => void> = [];
  const requestsSettled = (): Promise<void> => (inFlight === 0 ? Promise.resolve() : new Promise((resolve) => settledWaiters.push(resolve)));
  const watchedFetch = async (input: string, init: RequestInit): Promise<Response> => {
    inFlight += 1;
    try {
      return await sendWatched(input, init);
    } finally {
      inFlight -= 1;
      if (inFlight === 0) {
        const waiting = settledWaiters;
        settledWaiters = [];
        for (const resolve of waiting) resolve();
      }
    }
  };
  const sendWatched = async (input: string, init: RequestInit): Promise<Response> => {
    wire.requests += 1;
    if (clock.now() < wire.retryAfterUntil) wire.sentDuringRetryAfter += 1;
    const headers = new Headers(init.headers);
    const bearer = headers.get('authorization')?.match(/^Bearer (.+)$/)?.[1];
    if (bearer) secrets.add(bearer);
    const isToken = input.includes('/get-token');
    if (isToken) {
      wire.tokenRequests += 1;
      wire.tokenTimes.push(clock.now());
    }
    if (options.networkMs) clock.advance(Math.floor(random() * options.networkMs));
    await admin.syncClock();
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      wire.faulted += 1;
      throw error;
    }
    if (response.status >= 500 || response.status === 429) wire.faulted += 1;
    if (response.status === 401 && !isToken) wire.refusedTokens += 1;
    if (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after') ?? '0');
      wire.retryAfterUntil = Math.max(wire.retryAfterUntil, clock.now() + (Number.isFinite(seconds) ? seconds * 1000 : 0));
    }
    if (isToken && response.ok) {
      // The token body is read from a copy; the client reads the original.
      const text = await response.clone().text().catch(() => '');
      for (const value of text.match(/"[A-Za-z0-9_\-.~+/=]{16,}"/g) ?? []) secrets.add(value.slice(1, -1));
    }
    return response;
  };

  const vault = createMemoryVault();
  const { desk } = createNodeDesk({
    dir,
    vault,
    fetch: watchedFetch,
    // The rig's sandbox outlives any one connection: the runs steer it throughout.
    sandbox: async () => sandboxOverHttp(sandbox, async () => {}),
    now: clock.now,
    clientOptions: {
      timeoutMs: options.timeoutMs ?? 1500,
      sleep: async (ms) => advanceTo(clock.now() + ms),
      random,
    },
    mirrors: { dir: join(dir, 'catalog') },
    ratePerMinute: options.ratePerMinute ?? 100,
  });

  const unexpected: Rig['unexpected'] = [];
  const call = async (method: string, args?: unknown): Promise<Result<unknown>> => {
    const result = await dispatch(desk, method, args, {
      error: (_event, fields) => unexpected.push({ method, error: String((fields?.error as Error | undefined)?.stack ?? fields?.error) }),
    });
    secrets.scanValue(`result of ${method}`, result);
    const title = (args as { title?: unknown } | undefined)?.title;
    if (options.watchTitles !== false && typeof title === 'string' && result.ok) secrets.addTitle(title);
    return result;
  };

  const rig: Rig = {
    sandbox, admin, clock, desk, dir, wire, secrets, unexpected, call, requestsSettled, advanceTo, random,
    close: async () => {
      // Every token the service issued — the sync's too, which this side never saw —
      // then every file the desk wrote, before they go.
      for (const token of await admin.issuedTokens()) secrets.add(token);
      await desk.close();
      secrets.scanFiles(dir);
      // The desk's records in its keychain (sign-in record, connections, the log's head): a PIN's hash, never a PIN.
      for (const [record, text] of keychainOf(vault).entries) secrets.scanText(`keychain ${record}`, text);
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await expectOk(rig, 'useSandbox');
  await expectOk(rig, 'startShift', { staffName: 'Reliability run', pin: TEST_DESK_PIN });
  return rig;
}

/** For set-up steps: a failure here is a broken run, not a figure. */
export async function expectOk<T = unknown>(rig: Rig, method: MethodName, args?: unknown): Promise<T> {
  const result = await rig.call(method, args);
  if (!result.ok) throw new Error(`${method} failed during set-up: ${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

/** Adds sandbox patrons with room for a whole run's borrows, and remembers their cards as secrets. */
export async function addPatrons(rig: Rig, libraryId: number, prefix: string, count: number, allowance = 10_000): Promise<string[]> {
  const cards = Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(6, '0')}`);
  for (const card of cards) {
    await rig.admin.addPatron(libraryId, card, allowance);
    rig.secrets.addCard(card);
  }
  return cards;
}

async function sandboxHere(options: RigOptions, seed: number): Promise<{ sandbox: SandboxHandle; admin: SandboxAdmin; clock: Clock }> {
  const clock = createClock();
  const sandbox = await startSandbox({ catalogSize: 3000, now: clock.now, seed, ...options.sandbox });
  return { sandbox, admin: inProcessAdmin(sandbox.control), clock };
}

/** The sandbox CLI in a child process; the desk's clock is the wall clock plus an offset both sides move together. */
async function sandboxInProcessOfItsOwn(options: RigOptions, seed: number): Promise<{ sandbox: SandboxHandle; admin: SandboxAdmin; clock: Clock }> {
  const o = options.sandbox ?? {};
  const args = ['--seed', String(seed), '--catalog-size', String(o.catalogSize ?? 3000)];
  if (o.tokenLifetimeSeconds !== undefined) args.push('--token-lifetime', String(o.tokenLifetimeSeconds));
  const child = await startSandboxProcess(args);
  const admin = remoteAdmin(child.url, child.adminToken);
  let offset = 0;
  const clock: Clock = {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
      admin.owe(ms);
    },
  };
  const sandbox = {
    url: child.url, username: child.username, password: child.password, adminToken: child.adminToken,
    libraries: child.libraries.map((l) => ({ ...l, name: `Library ${l.libraryId}`, patrons: [] })),
    get control(): never {
      throw new Error('The sandbox runs in a process of its own: use rig.admin');
    },
    close: async () => child.stop(),
  } as SandboxHandle;
  return { sandbox, admin, clock };
}
