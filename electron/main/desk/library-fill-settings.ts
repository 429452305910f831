// A desk in a library (issue #25): where IT's policy names the library mirror, the connection's
// Collection is filled from it (electron/main/mirror/library-fill.ts) — the first fill, then what
// changed, every minute — and the desk sends the partner no catalog, entitlement or
// availability-refresh request. This module holds what DeskService needs for that: the
// connection options made from the policy and the keychain, and when the next fill is due.
import { asWrittenByTooling, DESK_RECORDS, type DeskKeychain } from '../credentials/desk-keychain.ts';
import type { ConnectionsOptions } from '../connection/connections.ts';
import { serverName } from '../mirror/library-fill.ts';
import { DeskError } from '../../shared/desk-error.ts';
import type { LibraryMirrorView } from '../../shared/contract.ts';
import { LIBRARY_FILL_SOURCE } from '../../node/mirror-interface.ts';
import type { LibraryMirrorPolicy } from '../policy/library-mirror-policy.ts';
import type { SourceState } from '../../shared/collection.ts';

/** How often a desk in a library asks the library mirror what changed. */
export const LIBRARY_FILL_EVERY_MS = 60_000;
/** How often the desk looks whether a fill is due: a minute after the last attempt began, give or take this. */
export const LIBRARY_FILL_CHECK_EVERY_MS = 15_000;

/** The connections' library-mirror settings from IT's policy; the password is read from the keychain at each fill. */
export function libraryMirrorOptions(policy: LibraryMirrorPolicy | undefined, keychain: DeskKeychain): ConnectionsOptions['libraryMirror'] {
  if (!policy) return undefined;
  const { host, port, database, user, caFile } = policy;
  return {
    target: { host, port, database, user, ...(caFile === undefined ? {} : { caFile }) },
    password: async () => typedPassword(await keychain.read(DESK_RECORDS.libraryMirrorPassword)),
  };
}

/** The password as IT's tooling left it (UTF-8, or cmdkey's UTF-16: asWrittenByTooling); an empty one is none. */
export function typedPassword(saved: string | undefined): string | undefined {
  if (saved === undefined) return undefined;
  const password = asWrittenByTooling(saved);
  return password === '' ? undefined : password;
}

/** The first fill at once; then one a minute after the last attempt began (a failed one too: the desk tries again a minute later). */
export function libraryFillDue(sources: readonly SourceState[], now: number, everyMs = LIBRARY_FILL_EVERY_MS): boolean {
  const state = sources.find((s) => s.source === LIBRARY_FILL_SOURCE);
  const last = state?.lastAttemptAt ?? state?.lastSuccessAt;
  return last === undefined || now - last >= everyMs;
}

/** What Settings shows of the library mirror; null on a desk on its own. */
export async function libraryMirrorView(policy: LibraryMirrorPolicy | undefined, keychain: DeskKeychain): Promise<LibraryMirrorView | null> {
  if (!policy) return null;
  const saved = typedPassword(await keychain.read(DESK_RECORDS.libraryMirrorPassword)) !== undefined;
  return { server: serverName(policy), user: policy.user, passwordEntry: policy.passwordEntry, passwordSaved: saved };
}

/** The role's password typed in Settings, kept in the keychain — only where IT's policy lets it be typed there. */
export async function saveLibraryMirrorPassword(policy: LibraryMirrorPolicy | undefined, keychain: DeskKeychain, password: string): Promise<LibraryMirrorView> {
  if (policy?.passwordEntry !== 'settings') throw DeskError.because('invalid-input', 'library-mirror.password-entry-off');
  await keychain.write(DESK_RECORDS.libraryMirrorPassword, password);
  return (await libraryMirrorView(policy, keychain)) as LibraryMirrorView;
}
