// Linux: /etc/lending-desk/policy.json, used only when root owns it and every folder above it
// and none of them is writable by a group or other users.
import { LINUX_POLICY_FILE } from './location.ts';
import { policyProblem } from './problem.ts';
import { refused, type SourceRead } from './source.ts';
import { readTrustedFile, type TrustedFileOptions } from './trusted-file.ts';

export interface LinuxSourceOptions extends TrustedFileOptions {
  path?: string;
}

export function readLinuxPolicy(options: LinuxSourceOptions = {}): SourceRead {
  const { path = LINUX_POLICY_FILE, ...trust } = options;
  const file = readTrustedFile(path, trust);
  if (file.kind === 'absent') return file;
  if (file.kind === 'refused') return refused(path, file.problem);
  return parseJsonPolicy(path, file.bytes);
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
