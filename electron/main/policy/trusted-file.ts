// Reads a policy file only when nobody but the administrator could have written it: the file
// and every folder above it (up to the trust root, `/` in production) are owned by root and
// writable by no group or other user. A user-writable folder anywhere on the way would let the
// file be swapped for another, so folders are checked as well as the file. The file itself is
// opened without following a symbolic link and checked through its open descriptor, so what is
// checked is what is read.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { MAX_POLICY_BYTES } from './location.ts';
import { policyProblem, type PolicyProblem } from './problem.ts';

export interface TrustedFileOptions {
  /** The only owner accepted for the file and its folders: 0 (root). Tests may name another uid. */
  ownerUid?: number;
  /** The highest folder checked: `/` in production; tests use a temporary folder of their own. */
  trustRoot?: string;
  maxBytes?: number;
}

export type TrustedFileRead =
  | { kind: 'absent' }
  | { kind: 'read'; bytes: Buffer }
  | { kind: 'refused'; problem: PolicyProblem };

const ABSENT = new Set(['ENOENT', 'ENOTDIR']);
/** Group- or other-writable. */
const WRITABLE_BY_OTHERS = 0o022;

export function readTrustedFile(path: string, options: TrustedFileOptions = {}): TrustedFileRead {
  const { ownerUid = 0, trustRoot = '/', maxBytes = MAX_POLICY_BYTES } = options;
  const expected = ownerUid === 0 ? 'root' : `user ${ownerUid}`;
  const refuse = (reason: PolicyProblem['reason'], params: PolicyProblem['params']): TrustedFileRead => ({ kind: 'refused', problem: policyProblem(reason, params) });

  let fd: number;
  try {
    // O_NONBLOCK: a FIFO put in the file's place must not hang the desk at start.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    if (ABSENT.has(code)) return { kind: 'absent' };
    if (code === 'ELOOP') return refuse('policy.symbolic-link', { source: path });
    return refuse('policy.unreadable', { source: path, code });
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return refuse('policy.not-a-file', { source: path });
    const untrusted = ownershipProblem(path, stats, ownerUid, expected) ?? foldersProblem(path, trustRoot, ownerUid, expected);
    if (untrusted) return { kind: 'refused', problem: untrusted };
    if (stats.size > maxBytes) return refuse('policy.too-large', { source: path, limit: maxBytes / 1024 });
    // Read one byte past the limit: a file that grew since fstat is still caught.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes) return refuse('policy.too-large', { source: path, limit: maxBytes / 1024 });
    return { kind: 'read', bytes: buffer.subarray(0, length) };
  } catch (error) {
    return refuse('policy.unreadable', { source: path, code: errorCode(error) });
  } finally {
    closeSync(fd);
  }
}

function ownershipProblem(path: string, stats: Stats, ownerUid: number, expected: string): PolicyProblem | undefined {
  if (stats.uid !== ownerUid) return policyProblem('policy.wrong-owner', { source: path, owner: stats.uid, expected });
  if ((stats.mode & WRITABLE_BY_OTHERS) !== 0) {
    return policyProblem('policy.writable-by-others', { source: path, expected, mode: (stats.mode & 0o7777).toString(8).padStart(4, '0') });
  }
  return undefined;
}

/**
 * Why someone other than the owner could put another file at `path` (a CA file the policy names:
 * protected-path.ts), or undefined. The file, where it is already, must be a regular file (not a
 * link) the owner's alone, and every folder above it that exists likewise: a folder not made yet
 * can only be made by whoever may write the one above it.
 */
export function writableByOthersProblem(path: string, options: TrustedFileOptions = {}): PolicyProblem | undefined {
  const { ownerUid = 0, trustRoot = '/' } = options;
  const expected = ownerUid === 0 ? 'root' : `user ${ownerUid}`;
  let stats: Stats | undefined;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if (!ABSENT.has(errorCode(error))) return policyProblem('policy.unreadable', { source: path, code: errorCode(error) });
  }
  if (stats?.isSymbolicLink()) return policyProblem('policy.symbolic-link', { source: path });
  if (stats && !stats.isFile()) return policyProblem('policy.not-a-file', { source: path });
  return (stats && ownershipProblem(path, stats, ownerUid, expected)) ?? foldersProblem(path, trustRoot, ownerUid, expected, true);
}

/** Every folder from the file's up to the trust root, each a real folder (not a link) held by the owner alone (one not there yet is passed over when `missingAllowed`). */
function foldersProblem(path: string, trustRoot: string, ownerUid: number, expected: string, missingAllowed = false): PolicyProblem | undefined {
  const root = resolve(trustRoot);
  let folder = dirname(resolve(path));
  const under = relative(root, folder);
  if (under.startsWith('..') || isAbsolute(under)) return policyProblem('policy.unreadable', { source: path, code: `outside ${root}` });
  for (;;) {
    let stats: Stats;
    try {
      stats = lstatSync(folder);
    } catch (error) {
      if (!missingAllowed || !ABSENT.has(errorCode(error))) return policyProblem('policy.unreadable', { source: folder, code: errorCode(error) });
      if (folder === root) return undefined;
      folder = dirname(folder);
      continue;
    }
    if (stats.isSymbolicLink()) return policyProblem('policy.symbolic-link', { source: folder });
    const problem = ownershipProblem(folder, stats, ownerUid, expected);
    if (problem) return problem;
    if (folder === root) return undefined;
    folder = dirname(folder);
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}
