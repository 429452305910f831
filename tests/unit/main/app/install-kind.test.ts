// How the running app knows whether it may update itself: a Windows copy installed for all users
// (the MSI, per-machine NSIS: Program Files or a folder IT chose) never does; a per-user NSIS
// install (in the user's own profile) may. macOS: only a build signed with a Developer ID, which
// the build wrote into its packaged package.json.
import { describe, expect, it } from 'vitest';
import { BUILD_INFO_FIELD, readBuildInfo } from '../../../../electron/main/app/build-info.ts';
import { installedForAllUsers } from '../../../../electron/main/app/install-kind.ts';
import { autoUpdatesRefusal } from '../../../../electron/main/policy/updates-eligibility.ts';

const HOME = 'C:\\Users\\jdoe';

describe('installedForAllUsers', () => {
  it.each([
    ['C:\\Program Files\\Lending Desk\\Lending Desk.exe', true],
    ['C:\\Program Files (x86)\\Lending Desk\\Lending Desk.exe', true],
    ['D:\\Apps\\Lending Desk\\Lending Desk.exe', true],
    ['C:\\Users\\jdoe-admin\\AppData\\Local\\Programs\\lending-desk\\Lending Desk.exe', true],
    ['C:\\Users\\jdoe\\AppData\\Local\\Programs\\lending-desk\\Lending Desk.exe', false],
    ['c:\\users\\JDOE\\appdata\\local\\programs\\lending-desk\\Lending Desk.exe', false],
  ])('%s: %s', (exe, forAll) => {
    expect(installedForAllUsers(exe, HOME)).toBe(forAll);
  });
});

describe('readBuildInfo', () => {
  it('reads the signing the build recorded, and counts anything else as unsigned', () => {
    expect(readBuildInfo(JSON.stringify({ [BUILD_INFO_FIELD]: { macSigned: true } }))).toEqual({ macSigned: true });
    expect(readBuildInfo(JSON.stringify({ [BUILD_INFO_FIELD]: { macSigned: 'yes' } }))).toEqual({ macSigned: false });
    expect(readBuildInfo(JSON.stringify({ name: 'lending-desk' }))).toEqual({ macSigned: false });
    expect(readBuildInfo('{ not json')).toEqual({ macSigned: false });
    expect(readBuildInfo(undefined)).toEqual({ macSigned: false });
  });
});

describe('which builds follow a policy\'s automatic updates', () => {
  const auto = { version: 1 as const, updates: { mode: 'auto' as const, url: 'https://updates.example.org/desk/' } };
  it('Windows: a signed per-user install only', () => {
    expect(autoUpdatesRefusal(auto, { platform: 'win32', windowsPublisherVerified: true })).toBeUndefined();
    expect(autoUpdatesRefusal(auto, { platform: 'win32', windowsPublisherVerified: true, installedForAllUsers: true })).toEqual({ reason: 'updates.installed-for-all-users', params: {} });
    expect(autoUpdatesRefusal(auto, { platform: 'win32', windowsPublisherVerified: false })).toEqual({ reason: 'updates.unverified-windows-build', params: {} });
  });

  it('macOS: a build signed with a Developer ID only', () => {
    expect(autoUpdatesRefusal(auto, { platform: 'darwin', windowsPublisherVerified: false, macSigned: true })).toBeUndefined();
    expect(autoUpdatesRefusal(auto, { platform: 'darwin', windowsPublisherVerified: false })).toEqual({ reason: 'updates.unsigned-mac-build', params: {} });
  });

  it('never Linux; and nothing is refused when the policy does not ask for auto', () => {
    expect(autoUpdatesRefusal(auto, { platform: 'linux', windowsPublisherVerified: false })).toEqual({ reason: 'updates.linux-auto', params: {} });
    expect(autoUpdatesRefusal({ version: 1, updates: { mode: 'it-managed' } }, { platform: 'win32', windowsPublisherVerified: false, installedForAllUsers: true })).toBeUndefined();
  });
});
