// Whether this Windows copy was installed for all users of the computer (the MSI, or the NSIS
// installer's per-machine choice) or for one user (the NSIS installer's per-user choice). Read
// from where the executable is, which the installer decided and a standard user cannot change:
// a per-user install lives in the user's own profile (%LOCALAPPDATA%\Programs\…, as
// electron-builder's NSIS installs it); anything else — Program Files, a folder IT chose — is an
// install for all users, which only an administrator could make and only IT updates. Deciding
// from the path errs on the side IT wants: a copy that is not clearly the user's own never runs
// an installer by itself.
import path from 'node:path';

/** `exePath`: the running executable (process.execPath); `userProfile`: the user's home folder (app.getPath('home')). */
export function installedForAllUsers(exePath: string, userProfile: string): boolean {
  const exe = path.win32.resolve(exePath).toLowerCase();
  const profile = path.win32.resolve(userProfile).toLowerCase();
  const relative = path.win32.relative(profile, exe);
  const insideProfile = relative !== '' && !relative.startsWith('..') && !path.win32.isAbsolute(relative);
  return !insideProfile;
}
