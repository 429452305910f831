// The system clipboard as the desk uses it: staff copy a due-date slip or a card for the
// patron's email; on a shared desk PC that text must not outlive the shift. The desk remembers
// what it put there and, when the desk locks, empties the clipboard if that is still what it
// holds (something staff copied since, from elsewhere, is theirs and stays).
//
// Emptying the clipboard does not reach the copies others keep of it (issue #33): Windows'
// clipboard history (Win+V) and its cloud clipboard, KDE's Klipper, macOS clipboard managers. So
// every write of the desk's carries the formats those honour to leave an entry out:
// ExcludeClipboardContentFromMonitorProcessing, CanIncludeInClipboardHistory and
// CanUploadToCloudClipboard (both DWORD 0) on Windows; x-kde-passwordManagerHint = secret for KDE;
// org.nspasteboard.ConcealedType on macOS (nspasteboard.org). Each OS ignores the others' names.

/** One write: the text and, by MIME type or Electron's raw OS format name, what rides with it. */
export type ClipboardFormats = Record<string, string | Uint8Array>;

/** Electron's `clipboard` in the product (promise-based since Electron 45: app/electron-clipboard.ts); a memory one in tests and the Chromium host. */
export interface ClipboardPort {
  readText(): Promise<string>;
  /** Writes every format at once (one clipboard entry). */
  write(formats: ClipboardFormats): Promise<void>;
}

/** Electron's name for a raw platform clipboard format. */
export const osFormat = (name: string): string => `electron application/osclipboard;format="${name}"`;

const DWORD_ZERO = new Uint8Array(4);

/** What keeps an entry out of clipboard history, cloud clipboards and clipboard managers. */
export const UNRECORDED: ClipboardFormats = {
  [osFormat('ExcludeClipboardContentFromMonitorProcessing')]: DWORD_ZERO,
  [osFormat('CanIncludeInClipboardHistory')]: DWORD_ZERO,
  [osFormat('CanUploadToCloudClipboard')]: DWORD_ZERO,
  [osFormat('x-kde-passwordManagerHint')]: 'secret',
  [osFormat('org.nspasteboard.ConcealedType')]: '',
};

/** Text as the desk writes it: never to be kept by a clipboard's history. */
export const unrecordedText = (text: string): ClipboardFormats => ({ 'text/plain': text, ...UNRECORDED });

export class DeskClipboard {
  private readonly port: ClipboardPort;
  private lastCopied: string | undefined;

  constructor(port: ClipboardPort) {
    this.port = port;
  }

  async copy(text: string): Promise<void> {
    this.lastCopied = text;
    await this.port.write(unrecordedText(text));
  }

  /** At the lock: true when the desk's own text was still there and has been cleared. */
  async clearIfOurs(): Promise<boolean> {
    const copied = this.lastCopied;
    this.lastCopied = undefined;
    if (copied === undefined || (await this.port.readText()) !== copied) return false;
    await this.port.write(unrecordedText(''));
    return true;
  }
}

/** A clipboard in memory: its text, and every format of the last write. */
export function memoryClipboard(): ClipboardPort & { text: string; formats: ClipboardFormats } {
  return {
    text: '',
    formats: {},
    async readText() { return this.text; },
    async write(formats) {
      this.formats = formats;
      const text = formats['text/plain'];
      this.text = typeof text === 'string' ? text : new TextDecoder().decode(text);
    },
  };
}
