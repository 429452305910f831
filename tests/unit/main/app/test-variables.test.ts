// The test variables (a data folder and a keychain service of its own): heeded by an unpackaged
// app, ignored by an installed one, which names (never shows) what it found.
import { describe, expect, it } from 'vitest';
import { testVariables } from '../../../../electron/main/app/test-variables.ts';

describe('the test variables', () => {
  it('an unpackaged app takes its data folder and keychain service from them', () => {
    expect(testVariables({ LENDING_DESK_USER_DATA_DIR: '/tmp/desk', LENDING_DESK_KEYCHAIN_SERVICE: 'Training desk', PATH: '/usr/bin' }, false))
      .toEqual({ userDataDir: '/tmp/desk', keychainService: 'Training desk', ignored: [] });
    expect(testVariables({ LENDING_DESK_USER_DATA_DIR: '' }, false)).toEqual({ ignored: [] });
  });

  it('an installed app ignores every LENDING_DESK_ variable, in any spelling Windows accepts, and lists their names', () => {
    const env = { Lending_Desk_User_Data_Dir: 'C:\\Users\\mallory\\desk', LENDING_DESK_KEYCHAIN_SERVICE: 'mine', LENDING_DESK_ANYTHING: '1', LENDING_DESK_EMPTY: '', PATH: 'C:\\Windows' };
    expect(testVariables(env, true)).toEqual({ ignored: ['LENDING_DESK_ANYTHING', 'LENDING_DESK_KEYCHAIN_SERVICE', 'Lending_Desk_User_Data_Dir'] });
  });

  it('an unpackaged app on Windows reads them in any spelling', () => {
    expect(testVariables({ Lending_Desk_User_Data_Dir: 'C:\\desk' }, false)).toEqual({ userDataDir: 'C:\\desk', ignored: [] });
  });
});
