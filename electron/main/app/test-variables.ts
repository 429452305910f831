// The variables that keep a copy of the desk apart from the real one: its own data folder
// (LENDING_DESK_USER_DATA_DIR) and its own keychain entries (LENDING_DESK_KEYCHAIN_SERVICE). Tests
// and development need them; an installed app must not heed them, since any user can set a
// variable for the programs they start (`setx`). With another keychain service over the real data
// folder, a desk user was offered a fresh desk PIN with no proof, signed in, and the start-up
// retention moved the real action log aside (issue #33). So a packaged build ignores every
// LENDING_DESK_* variable and names them in its log; an unpackaged one (npm start, the end-to-end
// specs' Electron host) keeps them.

export const USER_DATA_VARIABLE = 'LENDING_DESK_USER_DATA_DIR';
export const KEYCHAIN_SERVICE_VARIABLE = 'LENDING_DESK_KEYCHAIN_SERVICE';

/** Windows spells variable names in any case; they are one variable. */
const OURS = /^LENDING_DESK_/i;

export interface TestVariables {
  /** A data folder of its own (unpackaged builds only). */
  userDataDir?: string;
  /** A keychain service of its own (unpackaged builds only). */
  keychainService?: string;
  /** What a packaged build found set and ignored: names only, never values. */
  ignored: string[];
}

export function testVariables(env: Record<string, string | undefined>, packaged: boolean): TestVariables {
  const set = Object.keys(env).filter((name) => OURS.test(name) && Boolean(env[name])).sort();
  if (packaged) return { ignored: set };
  const valueOf = (wanted: string): string | undefined => env[set.find((name) => name.toUpperCase() === wanted) ?? ''];
  const userDataDir = valueOf(USER_DATA_VARIABLE);
  const keychainService = valueOf(KEYCHAIN_SERVICE_VARIABLE);
  return { ...(userDataDir ? { userDataDir } : {}), ...(keychainService ? { keychainService } : {}), ignored: [] };
}
