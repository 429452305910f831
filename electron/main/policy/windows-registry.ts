// The registry as the policy reader sees it: native-reg (RegOpenKeyEx/RegQueryValueEx in the
// app's own process, as Chrome, Edge and VS Code read their policies), and reg.exe when
// native-reg cannot load. native-reg is N-API with prebuilt Windows binaries inside its npm
// package (no install script needs to run). Its binary is loaded on first use, not imported, because
// a missing or blocked one must not stop the app from starting; and it is loaded here, by its
// absolute path inside the app's own files, never through native-reg's own entry: that goes
// through node-gyp-build, which honours NATIVE_REG_PREBUILD and PREBUILDS_ONLY, variables any
// user can set, to load a `.node` of their choosing into main or to make native-reg fail (issue
// #33). reg.exe is second choice: it is refused on desks where IT set "Prevent access to registry
// editing tools" or allows only listed programs (AppLocker), and its text cannot carry every
// value exactly (reg-exe.ts says which). Only when neither can read is the policy unreadable,
// and the desk fails closed (windows-source.ts).
import { join } from 'node:path';
import { SOURCE_MODULES } from '../credentials/keytar-module.ts';
import { WINDOWS_POLICY_KEY } from './location.ts';
import { regExeRegistry } from './reg-exe.ts';
import type { RegistryReader } from './windows-source.ts';

/** The part of native-reg's binary this reads with (its reg.cc: the functions its JS entry wraps). */
interface NativeRegBinding {
  openKey(hkey: number, subKey: string, options: number, access: number): unknown;
  enumKeyNames(key: unknown): string[];
  enumValueNames(key: unknown): string[];
  /** The value's bytes, with its REG_* type as `type`; null when there is no such value. */
  queryValue(key: unknown, name: string): (Uint8Array & { type: number }) | null;
  closeKey(key: unknown): void;
}

/** winreg.h: HKEY_LOCAL_MACHINE; KEY_READ; KEY_WOW64_64KEY (the 64-bit view whatever the build, the one Group Policy writes). */
const HKEY_LOCAL_MACHINE = 0x80000002;
const KEY_READ = 0x20019;
const KEY_WOW64_64KEY = 0x0100;

/** native-reg's prebuilt binary for this process's architecture, under the app's own node_modules. */
export function nativeRegBinary(modules: string, arch: string = process.arch): string {
  return join(modules, 'native-reg', 'prebuilds', `win32-${arch}`, 'node.napi.node');
}

/** Loads the binary at that one path (process.dlopen: no search, no variable consulted); throws when it cannot. */
export function loadNativeReg(modules: string = SOURCE_MODULES): NativeRegBinding {
  const module = { exports: {} as NativeRegBinding };
  process.dlopen(module, nativeRegBinary(modules));
  return module.exports;
}

/** native-reg's reader; throws (at load) when its binary cannot be loaded. */
export function nativeRegistry(load: () => NativeRegBinding = () => loadNativeReg()): RegistryReader {
  const binding = load();
  return {
    readKey(path) {
      const key = binding.openKey(HKEY_LOCAL_MACHINE, path, 0, KEY_READ | KEY_WOW64_64KEY);
      if (key === null || key === undefined) return null;
      try {
        const values = binding.enumValueNames(key).map((name) => {
          const value = binding.queryValue(key, name);
          return { name, type: value?.type ?? 0, data: value === null ? Buffer.alloc(0) : Buffer.from(value) };
        });
        return { values, subkeys: binding.enumKeyNames(key) };
      } finally {
        binding.closeKey(key);
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
  /** The app's own node_modules (app-files.ts), where native-reg's binary is. */
  modules?: string;
  native?: () => RegistryReader;
  fallback?: () => RegistryReader;
  onChosen?: (reader: RegistryReaderName, whyFallback?: string) => void;
} = {}): RegistryReader {
  const { modules = SOURCE_MODULES, native = () => nativeRegistry(() => loadNativeReg(modules)), fallback = () => regExeRegistry(WINDOWS_POLICY_KEY), onChosen = () => {} } = options;
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
