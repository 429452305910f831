// Linux: /etc/lending-desk/policy.json, used only when root owns it and every folder above it
// and none of them is writable by a group or other users. Found absent from inside a user namespace
// whose mounts cover its place, it is taken as hidden, not absent (user-namespace.ts).
import { LINUX_POLICY_FILE } from './location.ts';
import { policyProblem } from './problem.ts';
import { parseJsonPolicy, refused, type SourceRead } from './source.ts';
import { readTrustedFile, type TrustedFileOptions } from './trusted-file.ts';
import { policyHiddenBy, type ProcessView } from './user-namespace.ts';

export interface LinuxSourceOptions extends TrustedFileOptions {
  path?: string;
  /** What the desk reads of its own process (/proc/self), for the user namespace it runs in; tests give their own. */
  process?: ProcessView;
}

export function readLinuxPolicy(options: LinuxSourceOptions = {}): SourceRead {
  const { path = LINUX_POLICY_FILE, process: view, ...trust } = options;
  const file = readTrustedFile(path, trust);
  if (file.kind === 'absent') {
    const hiddenBy = policyHiddenBy(path, { ...(view ? { view } : {}), ...(trust.trustRoot ? { top: trust.trustRoot } : {}) });
    return hiddenBy === undefined ? file : refused(path, policyProblem('policy.hidden-in-namespace', { source: path, mount: hiddenBy }));
  }
  if (file.kind === 'refused') return refused(path, file.problem);
  return parseJsonPolicy(path, file.bytes);
}
