// Whether this build, installed as it is, may follow a policy's `auto` updates: only where
// electron-updater can check that an update is really ours beyond its SHA-512 (which comes from
// the same server as the update), and only where installing it needs no administrator.
// Windows: the new installer's Authenticode signature must name the publisher recorded in
// app-update.yml, which electron-builder writes only for a signed build; without it the check is
// skipped, so `auto` is refused. A copy installed for all users (the MSI, or the NSIS installer's
// per-machine choice) never updates itself: electron-updater does not update MSI installs, a
// per-machine NSIS update needs elevation (a UAC prompt at quit for staff without admin rights),
// and IT deploys the versions there. macOS: Squirrel.Mac installs only an app signed by the same
// team as the running one, so an unsigned build can never take an update. Linux: the deb (the one
// Linux package) carries no signature electron-updater could check, so only `it-managed` or `off`.
import type { Policy } from './schema.ts';
import { policyProblem, type PolicyProblem } from './problem.ts';

export interface UpdateVerification {
  platform: NodeJS.Platform;
  /** Windows: app-update.yml names the publisher whose signature every update must carry. */
  windowsPublisherVerified: boolean;
  /** Windows: this copy is installed for all users of the computer (MSI, or per-machine NSIS). */
  installedForAllUsers?: boolean;
  /** macOS: this build was signed with a Developer ID (build-info.ts). */
  macSigned?: boolean;
}

export function autoUpdatesRefusal(policy: Policy | undefined, build: UpdateVerification): PolicyProblem | undefined {
  if (policy?.updates?.mode !== 'auto') return undefined;
  if (build.platform === 'darwin') return build.macSigned ? undefined : policyProblem('updates.unsigned-mac-build', {});
  if (build.platform === 'win32') {
    if (build.installedForAllUsers) return policyProblem('updates.installed-for-all-users', {});
    return build.windowsPublisherVerified ? undefined : policyProblem('updates.unverified-windows-build', {});
  }
  return policyProblem('updates.linux-auto', {});
}
