// A file the policy names must be where only administrators can change it (issue #33): whoever
// can replace the library mirror's CA file (`libraryMirror.caFile`) can make the desk trust a
// server of their own, so a CA file in a folder ordinary users can write refuses the policy.
//   - Linux and macOS: the file (where it is already) and every folder above it that exists are
//     root's alone, no link on the way (trusted-file.ts, the same rules as for the policy file).
//   - Windows: it is inside the Windows folder or the Program Files folders of the drive Windows is
//     on, which ordinary users cannot write; nothing else is taken (C:\ProgramData and the root of a
//     drive let any user make folders). Where the Windows folder is comes from Windows itself
//     (reg-exe.ts: where ntdll.dll was loaded from), never from %SystemRoot% or %ProgramFiles%.
import path from 'node:path';
import { policyProblem, type PolicyProblem } from './problem.ts';
import { windowsSystemDirectory } from './reg-exe.ts';
import { writableByOthersProblem, type TrustedFileOptions } from './trusted-file.ts';

export interface ProtectedPlaces extends Pick<TrustedFileOptions, 'ownerUid' | 'trustRoot'> {
  /** Windows: the Windows folder (C:\Windows), as Windows reports it; tests name one. */
  windowsFolder?: () => string;
}

/** The folders of a Windows computer only administrators can write, from where Windows is. */
export function windowsProtectedFolders(windowsFolder: string): string[] {
  const drive = path.win32.parse(windowsFolder).root.replace(/\\$/, '');
  return [windowsFolder, `${drive}\\Program Files`, `${drive}\\Program Files (x86)`];
}

/** Why `file` (named by the policy in `source`, as `setting`) could be replaced by an ordinary user of this computer, or undefined. */
export function unprotectedFileProblem(file: string, platform: NodeJS.Platform, places: ProtectedPlaces, where: { source: string; setting: string }): PolicyProblem | undefined {
  if (platform !== 'win32') {
    const problem = writableByOthersProblem(file, places);
    // Named with the setting it is for (the problem's own path may be a folder above the file).
    return problem && { ...problem, params: { ...problem.params, source: `${String(problem.params.source)} [${where.setting}]` } };
  }
  let folders: string[];
  try {
    folders = windowsProtectedFolders((places.windowsFolder ?? (() => path.win32.dirname(windowsSystemDirectory())))());
  } catch (error) {
    return policyProblem('policy.unreadable', { source: where.source, code: error instanceof Error ? error.message : String(error) });
  }
  const resolved = path.win32.normalize(file).toLowerCase();
  const inside = folders.some((folder) => resolved.startsWith(`${path.win32.normalize(folder).toLowerCase()}\\`));
  return inside ? undefined : policyProblem('policy.file-unprotected', { source: where.source, setting: where.setting, file, folders: folders.join(', ') });
}
