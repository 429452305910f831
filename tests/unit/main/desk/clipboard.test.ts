// The desk's clipboard writes (issue #33): every one carries the formats that keep it out of
// Windows' clipboard history and cloud clipboard, KDE's Klipper and macOS clipboard managers; the
// lock empties it the same way, and leaves what staff copied from elsewhere.
import { describe, expect, it } from 'vitest';
import { DeskClipboard, memoryClipboard, osFormat, UNRECORDED } from '../../../../electron/main/desk/clipboard.ts';

describe('the desk\'s clipboard', () => {
  it('names every format the history and the managers honour, with the values they read', () => {
    expect(Object.keys(UNRECORDED).sort()).toEqual([
      osFormat('CanIncludeInClipboardHistory'), osFormat('CanUploadToCloudClipboard'), osFormat('ExcludeClipboardContentFromMonitorProcessing'),
      osFormat('org.nspasteboard.ConcealedType'), osFormat('x-kde-passwordManagerHint'),
    ].sort());
    expect([...(UNRECORDED[osFormat('CanIncludeInClipboardHistory')] as Uint8Array)]).toEqual([0, 0, 0, 0]);
    expect(UNRECORDED[osFormat('x-kde-passwordManagerHint')]).toBe('secret');
    expect(osFormat('CanIncludeInClipboardHistory')).toBe('electron application/osclipboard;format="CanIncludeInClipboardHistory"');
  });

  it('copies and clears with them; something copied since from elsewhere stays', async () => {
    const port = memoryClipboard();
    const clipboard = new DeskClipboard(port);
    await clipboard.copy('Due 1 December: The Night Garden');
    expect(port.formats).toEqual({ 'text/plain': 'Due 1 December: The Night Garden', ...UNRECORDED });
    expect(await clipboard.clearIfOurs()).toBe(true);
    expect(port.formats).toEqual({ 'text/plain': '', ...UNRECORDED });
    await clipboard.copy('card 21101000000042');
    await port.write({ 'text/plain': 'an email address from another window' });
    expect(await clipboard.clearIfOurs()).toBe(false);
    expect(port.text).toBe('an email address from another window');
  });
});
