// Linux: a policy hidden by a user namespace (issue #33). Where unprivileged user namespaces are
// on (Debian's default; measured on this project's build machine, see docs/it-deployment.md), any
// user can start the desk with `unshare -Urm` and mount an empty folder over /etc/lending-desk:
// inside, the root-owned policy file is simply not there, and a managed desk would run as an
// unmanaged one, its locks gone. The file checks cannot see it (nothing is wrong with what is
// there: nothing is), so when no policy is found the desk also asks whether it runs in a user
// namespace other than the system's and, if so, whether a mount covers the policy's place (the file,
// its folder or a folder above it, or a root that is not the system's). Then a policy may exist
// outside, and the desk fails closed instead of running unmanaged. /proc itself can be mounted over
// inside such a namespace, so a /proc that does not answer counts as a namespace too.
//
// What this cannot see: a namespace whose root was built whole elsewhere (pivot_root into a tree of
// the user's own, with its own /proc). The docs tell IT to turn unprivileged user namespaces off
// where that matters (user.max_user_namespaces=0, with chrome-sandbox setuid).
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What the desk reads about its own process (tests give their own). */
export interface ProcessView {
  /** /proc/self/uid_map, or undefined when it cannot be read. */
  uidMap(): string | undefined;
  /** /proc/self/mountinfo, or undefined when it cannot be read. */
  mountInfo(): string | undefined;
}

const readOrUndefined = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

export const thisProcess: ProcessView = {
  uidMap: () => readOrUndefined('/proc/self/uid_map'),
  mountInfo: () => readOrUndefined('/proc/self/mountinfo'),
};

/** The system's own user namespace maps every id to itself: one line, 0 0 4294967295. */
export function inSystemUserNamespace(uidMap: string | undefined): boolean {
  if (uidMap === undefined) return false;
  const lines = uidMap.trim().split('\n').map((line) => line.trim().split(/\s+/));
  return lines.length === 1 && lines[0]!.join(' ') === '0 0 4294967295';
}

/** mountinfo's escapes for space, tab, newline and backslash. */
const unescapeMount = (text: string): string => text.replace(/\\([0-7]{3})/g, (_whole, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));

/**
 * Where a policy at `file` may be hidden from this process: a mount over the file, its folder or a
 * folder above it (but `/` itself), or a root that is not the system's; undefined when nothing says
 * so. Only asked in a user namespace other than the system's (in the system's, mounting needs root).
 */
export function policyHiddenBy(file: string, options: { view?: ProcessView; top?: string } = {}): string | undefined {
  const { view = thisProcess, top = '/' } = options;
  if (inSystemUserNamespace(view.uidMap())) return undefined;
  const info = view.mountInfo();
  if (info === undefined) return '/proc (it does not answer inside this namespace)';
  // The file and each folder above it, up to the highest the policy's checks go (`top`, `/` but for tests; `/` itself is the root, below).
  const covered = new Set<string>();
  const highest = path.posix.resolve(top);
  for (let at = path.posix.resolve(file); at !== '/'; at = path.posix.dirname(at)) {
    covered.add(at);
    if (at === highest) break;
  }
  for (const line of info.split('\n')) {
    // id parent major:minor root mount-point options … - type source super-options
    const fields = line.split(' ');
    if (fields.length < 5) continue;
    const root = unescapeMount(fields[3]!);
    const mountPoint = unescapeMount(fields[4]!);
    if (covered.has(mountPoint)) return mountPoint;
    if (mountPoint === '/' && root !== '/') return `/ (${root})`;
  }
  return undefined;
}
