// What reading one policy source gives: nothing there (an unmanaged desk), the raw policy
// (still to be checked against the schema), or a refusal that makes the desk fail closed.
import { policyProblem, type PolicyProblem } from './problem.ts';

export type SourceRead =
  | { kind: 'absent' }
  | { kind: 'found'; source: string; raw: unknown }
  | { kind: 'refused'; source: string; problem: PolicyProblem };

export function refused(source: string, problem: PolicyProblem): SourceRead {
  return { kind: 'refused', source, problem };
}

// Strict UTF-8; the decoder also drops a byte-order mark (Notepad saves one, JSON.parse refuses it).
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseJsonPolicy(source: string, bytes: Uint8Array): SourceRead {
  try {
    return { kind: 'found', source, raw: JSON.parse(utf8.decode(bytes)) };
  } catch (error) {
    return refused(source, policyProblem('policy.not-json', { source, detail: error instanceof Error ? error.message : String(error) }));
  }
}
