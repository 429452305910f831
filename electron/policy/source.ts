// What reading one policy source gives: nothing there (an unmanaged desk), the raw policy
// (still to be checked against the schema), or a refusal that makes the desk fail closed.
import type { PolicyProblem } from './problem.ts';

export type SourceRead =
  | { kind: 'absent' }
  | { kind: 'found'; source: string; raw: unknown }
  | { kind: 'refused'; source: string; problem: PolicyProblem };

export function refused(source: string, problem: PolicyProblem): SourceRead {
  return { kind: 'refused', source, problem };
}
