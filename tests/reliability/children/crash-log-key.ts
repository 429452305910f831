// The action log's key for the crash-safety run: the writing child and the reader share it, as
// the desk and its next start share the keychain's.
export const CRASH_LOG_KEY = Buffer.alloc(32, 0x5a);
