// The registry through native-reg: RegOpenKeyEx/RegQueryValueEx in the app's own process, as
// Chrome, Edge and VS Code read their policies. Chosen over running `reg.exe query`: reg.exe is
// refused on desks where IT set "Prevent access to registry editing tools" or allows only listed
// programs (AppLocker), it writes in the console's code page (a French library name would arrive
// garbled), its REG_MULTI_SZ output cannot tell a line break from a literal "\0", and finding it
// would mean trusting %SystemRoot%, an environment variable. native-reg is N-API with prebuilt
// Windows binaries inside its npm package (no install script needs to run). It is loaded on first
// use, not imported: loading it finds its binary, and a missing one must make the policy
// unreadable (the desk fails closed), not stop the app from starting.
import { createRequire } from 'node:module';
import type { RegistryReader } from './windows-source.ts';

type NativeReg = typeof import('native-reg');
let loaded: NativeReg | undefined;
const nativeReg = (): NativeReg => (loaded ??= createRequire(import.meta.url)('native-reg') as NativeReg);

export const nativeRegistry: RegistryReader = {
  readKey(path) {
    const { Access, closeKey, enumKeyNames, enumValueNames, HKLM, openKey, queryValueRaw } = nativeReg();
    // The 64-bit view whatever the build, the one Group Policy writes.
    const key = openKey(HKLM, path, Access.READ | Access.WOW64_64KEY);
    if (key === null) return null;
    try {
      const values = enumValueNames(key).map((name) => {
        const value = queryValueRaw(key, name);
        return { name, type: value?.type ?? 0, data: value === null ? Buffer.alloc(0) : Buffer.from(value) };
      });
      return { values, subkeys: enumKeyNames(key) };
    } finally {
      closeKey(key);
    }
  },
};
