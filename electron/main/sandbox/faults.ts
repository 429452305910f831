// Injected failures, so the client's retries, token refresh and ambiguous-outcome handling
// can be tested against a real socket. A fault affects the next `times` matching requests.

import { Rng } from './random.ts';
import { isRouteName } from './route-names.ts';
import type { RouteName } from './route-names.ts';

export const FAULT_KINDS = [
  'latency', 'unauthorized', 'rate-limit', 'server-error', 'reset', 'malformed-json', 'stall', 'oversized', 'other-content', 'drop-ids',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Faults that let the handler run and then change its answer (not replace it). */
export const ANSWER_FAULTS: readonly FaultKind[] = ['reset', 'malformed-json', 'other-content', 'drop-ids'];

export interface FaultSpec {
  route: RouteName | '*';
  kind: FaultKind;
  /** How many matching requests it affects; unlimited when absent. */
  times?: number;
  /** Each matching request is hit with this chance (0 < p <= 1, default 1): a steady background failure rate. */
  probability?: number;
  /** latency: delay before answering. */
  ms?: number;
  /** rate-limit: the Retry-After header, seconds (default 1). */
  retryAfterSeconds?: number;
  /** server-error: the 5xx status (default 503). */
  status?: number;
  /** reset: 'after' commits the request's effect, then drops the socket unanswered. */
  phase?: 'before' | 'after';
  /** oversized: a 200 whose JSON body is this many bytes, streamed (the desk must refuse it without reading it whole). */
  bytes?: number;
  /** oversized: say the length in Content-Length (default: chunked, so only counting while reading finds it). */
  declared?: boolean;
}

interface ActiveFault {
  spec: FaultSpec;
  remaining: number;
}

/** What applies to one request: delays first, then at most one failure. */
export interface FaultPlan {
  delayMs: number;
  failure: FaultSpec | undefined;
}

export function validateFault(input: unknown): FaultSpec {
  if (typeof input !== 'object' || input === null) throw new Error('A fault must be a JSON object');
  const spec = input as Record<string, unknown>;
  if (spec.route !== '*' && !isRouteName(spec.route)) throw new Error(`Unknown fault route "${String(spec.route)}"`);
  if (!(FAULT_KINDS as readonly unknown[]).includes(spec.kind)) {
    throw new Error(`Fault kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
  const positiveInteger = (name: string, min: number, max: number): void => {
    const value = spec[name];
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < min || (value as number) > max)) {
      throw new Error(`Fault ${name} must be an integer from ${min} to ${max}`);
    }
  };
  positiveInteger('times', 1, Number.MAX_SAFE_INTEGER);
  positiveInteger('ms', 0, 600_000);
  positiveInteger('retryAfterSeconds', 0, 86_400);
  positiveInteger('status', 500, 599);
  positiveInteger('bytes', 2, 1024 * 1024 * 1024);
  if (spec.declared !== undefined && typeof spec.declared !== 'boolean') throw new Error('Fault declared must be true or false');
  const p = spec.probability;
  if (p !== undefined && (typeof p !== 'number' || !(p > 0 && p <= 1))) throw new Error('Fault probability must be a number above 0, at most 1');
  if (spec.phase !== undefined && spec.phase !== 'before' && spec.phase !== 'after') {
    throw new Error("Fault phase must be 'before' or 'after'");
  }
  return { ...(spec as unknown as FaultSpec) };
}

export class FaultInjector {
  private faults: ActiveFault[] = [];
  /** Seeded, so a run with the same seed meets the same faults in the same order of requests. */
  private readonly rng: Rng;

  constructor(seed = 1) {
    this.rng = new Rng(seed, 0xfa17);
  }

  add(spec: FaultSpec): void {
    const valid = validateFault(spec);
    this.faults.push({ spec: valid, remaining: valid.times ?? Infinity });
  }

  clear(): void {
    this.faults = [];
  }

  /** Consumes the faults that apply to one request on `route`. */
  take(route: RouteName): FaultPlan {
    const plan: FaultPlan = { delayMs: 0, failure: undefined };
    for (const fault of this.faults) {
      if (fault.remaining <= 0 || (fault.spec.route !== '*' && fault.spec.route !== route)) continue;
      if (fault.spec.probability !== undefined && !this.rng.chance(fault.spec.probability)) continue;
      if (fault.spec.kind === 'latency') {
        plan.delayMs += fault.spec.ms ?? 1000;
      } else if (plan.failure === undefined) {
        plan.failure = fault.spec;
      } else {
        continue;
      }
      fault.remaining -= 1;
    }
    this.faults = this.faults.filter((fault) => fault.remaining > 0);
    return plan;
  }
}
