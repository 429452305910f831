// The library mirror's password as IT's tooling leaves it in the keychain (issue #25): as
// keytar and secret-tool write it (UTF-8), or as Windows' cmdkey writes it (UTF-16LE, which keytar
// reads back with a NUL after each character). An empty entry is no password.
import { describe, expect, it } from 'vitest';
import { typedPassword } from '../../../../electron/main/desk/library-fill-settings.ts';

describe('the library mirror password read from the keychain', () => {
  it('is taken as written by keytar or secret-tool, non-ASCII included', () => {
    expect(typedPassword('c0rrect-horse-battery')).toBe('c0rrect-horse-battery');
    expect(typedPassword('mot-de-passe-été')).toBe('mot-de-passe-été');
  });

  it('is read as UTF-16 when cmdkey wrote it (each character then a NUL)', () => {
    const utf16le = Buffer.from('Xy7-generated-Q2', 'utf16le').toString('latin1'); // the bytes keytar hands back, one char each
    expect(typedPassword(utf16le)).toBe('Xy7-generated-Q2');
  });

  it('is no password when missing or empty', () => {
    expect(typedPassword(undefined)).toBeUndefined();
    expect(typedPassword('')).toBeUndefined();
  });
});
