// Reads the policy file once at start. A missing file is the normal case (an unmanaged desk).
// A file that is there but cannot be used is reported and ignored: the desk still opens with
// its own settings, and the problem is shown and logged so IT learns their file is wrong,
// rather than a typo in policy.json leaving a circulation desk unable to serve patrons.
import { readFileSync } from 'node:fs';
import { describePolicyIssue, policySchema, type Policy } from './schema.ts';

export interface LoadPolicyOptions {
  path: string;
  /** Throws like fs.readFileSync (an error with `code`) when the file cannot be read. */
  readFile?: (path: string) => string;
}

export interface LoadedPolicy {
  policy?: Policy;
  problem?: string;
  path: string;
}

const IGNORED = 'The app runs with its own settings and nothing is locked until the file is fixed.';
const ABSENT = new Set(['ENOENT', 'ENOTDIR']);

export function loadPolicy({ path, readFile = (file) => readFileSync(file, 'utf8') }: LoadPolicyOptions): LoadedPolicy {
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && ABSENT.has(code)) return { path };
    const why = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
    return { path, problem: `The policy file ${path} could not be read (${why}). ${IGNORED}` };
  }

  let raw: unknown;
  try {
    // Notepad saves UTF-8 with a byte-order mark, which JSON.parse refuses.
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { path, problem: `The policy file ${path} is not valid JSON (${detail}). ${IGNORED}` };
  }

  const parsed = policySchema.safeParse(raw);
  if (!parsed.success) return { path, problem: `The policy file ${path} is not valid: ${describePolicyIssue(parsed.error)} ${IGNORED}` };
  return { path, policy: parsed.data };
}
