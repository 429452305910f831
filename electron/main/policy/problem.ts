// What the desk says about the machine policy beyond its content: why a source that exists was
// refused (the desk then fails closed) and why a requested update mode was refused. Both travel
// as a reason key with its parameters, so staff read them in their own language; the English
// sentence of the same key goes to the log.
import type { ErrorParams } from '../../shared/errors.ts';
import { reasonText, type Reason } from '../../shared/reasons.ts';

export interface PolicyProblem {
  reason: Reason;
  params: ErrorParams;
}

export interface PolicyProblems {
  /** A policy source exists but was refused: nobody signs in; profile editing, the sandbox and automatic updates are off. */
  ignored?: PolicyProblem;
  /** The policy asks for `auto` updates and this build cannot verify them: updates are off. */
  updatesRefused?: PolicyProblem;
  /** Top-level settings this version does not know: set aside (the rest applies) and listed for IT. */
  unknownSettings?: string[];
}

export function policyProblem(reason: Reason, params: ErrorParams): PolicyProblem {
  return { reason, params };
}

/** The log's line for an ignored policy, in the words IT searches for. */
export function ignoredLine(problem: PolicyProblem): string {
  return `policy ignored: ${reasonText(problem.reason, problem.params)}`;
}

export function updatesRefusedLine(problem: PolicyProblem): string {
  return `automatic updates refused: ${reasonText(problem.reason, problem.params)}`;
}
