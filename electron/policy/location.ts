// Where the policy file lives: a machine-wide folder that only administrators can write, so a
// desk user cannot loosen what IT locked.
import { posix, win32 } from 'node:path';

export const POLICY_FILE_ENV = 'LENDING_DESK_POLICY_FILE';

export interface PolicyLocationOptions {
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  /**
   * Honour LENDING_DESK_POLICY_FILE. Only for tests and unpackaged builds: in an installed app
   * a user who can set an environment variable must not be able to point it at a laxer file.
   */
  allowEnvOverride?: boolean;
}

export function policyFilePath(options: PolicyLocationOptions = {}): string {
  const { platform = process.platform, env = process.env, allowEnvOverride = false } = options;
  const override = env[POLICY_FILE_ENV];
  if (allowEnvOverride && override) return override;
  if (platform === 'win32') {
    // %ProgramData% is almost always C:\ProgramData; the variable is read for the rare
    // machine where it was moved.
    return win32.join(env.ProgramData || env.PROGRAMDATA || 'C:\\ProgramData', 'Lending Desk', 'policy.json');
  }
  if (platform === 'darwin') return posix.join('/Library/Application Support/Lending Desk', 'policy.json');
  return posix.join('/etc/lending-desk', 'policy.json');
}
