// The registry as the policy reader sees it: native-reg (RegOpenKeyEx/RegQueryValueEx in the
// app's own process, as Chrome, Edge and VS Code read their policies), and reg.exe when
// native-reg cannot load. native-reg is N-API with prebuilt Windows binaries inside its npm
// package (no install script needs to run); it is loaded on first use, not imported, because
// loading finds its binary, and a missing or blocked one must not stop the app from starting.
// reg.exe is second choice: it is refused on desks where IT set "Prevent access to registry
// editing tools" or allows only listed programs (AppLocker), and its text cannot carry every
// value exactly (reg-exe.ts says which). Only when neither can read is the policy unreadable,
// and the desk fails closed (windows-source.ts).
import { createRequire } from 'node:module';
import { WINDOWS_POLICY_KEY } from './location.ts';
import { regExeRegistry } from './reg-exe.ts';
import type { RegistryReader } from './windows-source.ts';

type NativeReg = typeof import('native-reg');

/** native-reg's reader; throws (at load) when its binary cannot be loaded. */
export function nativeRegistry(load: () => NativeReg = () => createRequire(import.meta.url)('native-reg') as NativeReg): RegistryReader {
  const { Access, closeKey, enumKeyNames, enumValueNames, HKLM, openKey, queryValueRaw } = load();
  return {
    readKey(path) {
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
}

/** Which reader read the key, for the log. */
export type RegistryReaderName = 'native-reg' | 'reg.exe';

/**
 * native-reg, or reg.exe when native-reg cannot load. Chosen on first use; `onChosen` hears which
 * (and why reg.exe, when it is).
 */
export function windowsRegistry(options: {
  native?: () => RegistryReader;
  fallback?: () => RegistryReader;
  onChosen?: (reader: RegistryReaderName, whyFallback?: string) => void;
} = {}): RegistryReader {
  const { native = () => nativeRegistry(), fallback = () => regExeRegistry(WINDOWS_POLICY_KEY), onChosen = () => {} } = options;
  let chosen: RegistryReader | undefined;
  const choose = (): RegistryReader => {
    try {
      const reader = native();
      onChosen('native-reg');
      return reader;
    } catch (error) {
      onChosen('reg.exe', error instanceof Error ? error.message : String(error));
      return fallback();
    }
  };
  return { readKey: (path) => (chosen ??= choose()).readKey(path) };
}
