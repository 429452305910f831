// Linux: /etc/lending-desk/policy.json, used only when root owns it and every folder above it
// and none of them is writable by a group or other users.
import { LINUX_POLICY_FILE } from './location.ts';
import { parseJsonPolicy, refused, type SourceRead } from './source.ts';
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
