// Whether this build may follow a policy's `auto` updates: only where electron-updater can check
// that an update is really ours beyond its SHA-512 (which comes from the same server as the
// update). Windows: the new installer's Authenticode signature must name the publisher recorded
// in app-update.yml, which electron-builder writes only for a signed build; without it the check
// is skipped, so `auto` is refused. macOS: Squirrel.Mac accepts only an app signed by the same
// team. Linux: AppImage and deb updates carry no signature at all, so only `it-managed` or `off`.
import type { Policy } from './schema.ts';
import { policyProblem, type PolicyProblem } from './problem.ts';

export interface UpdateVerification {
  platform: NodeJS.Platform;
  /** Windows: app-update.yml names the publisher whose signature every update must carry. */
  windowsPublisherVerified: boolean;
}

export function autoUpdatesRefusal(policy: Policy | undefined, build: UpdateVerification): PolicyProblem | undefined {
  if (policy?.updates?.mode !== 'auto') return undefined;
  if (build.platform === 'darwin') return undefined;
  if (build.platform === 'win32') return build.windowsPublisherVerified ? undefined : policyProblem('updates.unverified-windows-build', {});
  return policyProblem('updates.linux-auto', {});
}
