// macOS: the managed preferences an MDM profile installs for the app's bundle id, in
// /Library/Managed Preferences (root-owned; mdmclient writes them, usually as binary plists).
// The file passes the same ownership checks as on Linux, then Apple's own plutil turns the bytes
// we read (given on its standard input, so it reads exactly what was checked) into JSON. plutil
// ships with every Mac and reads every plist format, so no parser library is needed.
import { spawnSync } from 'node:child_process';
import { MACOS_POLICY_FILE } from './location.ts';
import { policyProblem } from './problem.ts';
import { parseJsonPolicy, refused, type SourceRead } from './source.ts';
import { readTrustedFile, type TrustedFileOptions } from './trusted-file.ts';

export type PlistToJson = (bytes: Buffer) => { ok: true; json: Buffer } | { ok: false; detail: string };

export interface ProcessResult { status: number | null; stdout: Buffer; stderr: Buffer; error?: Error | undefined }
export type RunProcess = (file: string, args: string[], options: { input: Buffer; timeout: number }) => ProcessResult;

/** By absolute path, so PATH cannot put another program in its place. */
export const PLUTIL = '/usr/bin/plutil';

const runProcess: RunProcess = (file, args, { input, timeout }) => {
  const result = spawnSync(file, args, { input, timeout, maxBuffer: 4 * 1024 * 1024, env: {} });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, error: result.error };
};

export function plutilToJson(run: RunProcess = runProcess): PlistToJson {
  return (bytes) => {
    const result = run(PLUTIL, ['-convert', 'json', '-o', '-', '-'], { input: bytes, timeout: 10_000 });
    if (result.error) return { ok: false, detail: (result.error as NodeJS.ErrnoException).code ?? result.error.message };
    if (result.status !== 0) {
      const said = `${result.stderr.toString('utf8')}\n${result.stdout.toString('utf8')}`.split('\n').map((line) => line.trim()).find(Boolean);
      return { ok: false, detail: (said ?? `plutil exited with ${String(result.status)}`).slice(0, 200) };
    }
    return { ok: true, json: result.stdout };
  };
}

export interface MacSourceOptions extends TrustedFileOptions {
  path?: string;
  toJson?: PlistToJson;
}

export function readMacPolicy(options: MacSourceOptions = {}): SourceRead {
  const { path = MACOS_POLICY_FILE, toJson = plutilToJson(), ...trust } = options;
  const file = readTrustedFile(path, trust);
  if (file.kind === 'absent') return file;
  if (file.kind === 'refused') return refused(path, file.problem);
  const converted = toJson(file.bytes);
  if (!converted.ok) return refused(path, policyProblem('policy.not-plist', { source: path, detail: converted.detail }));
  const read = parseJsonPolicy(path, converted.json);
  return read.kind === 'found' ? { ...read, raw: withoutProfileEnvelope(read.raw) } : read;
}

/**
 * A configuration profile's own bookkeeping (PayloadUUID, PayloadType, …) is not policy; should
 * it reach the managed preferences it is set aside here, and every other key still has to be
 * one the schema knows.
 */
function withoutProfileEnvelope(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !key.startsWith('Payload')));
}
