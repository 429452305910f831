// The system clipboard as the desk uses it: staff copy a due-date slip or a card for the
// patron's email; on a shared desk PC that text must not outlive the shift. The desk remembers
// what it put there and, when the desk locks, empties the clipboard if that is still what it
// holds (something staff copied since, from elsewhere, is theirs and stays).

/** Electron's `clipboard` in the product (promise-based since Electron 45); a memory one in tests and the Chromium host. */
export interface ClipboardPort {
  readText(): Promise<string>;
  writeText(text: string): Promise<void>;
}

export class DeskClipboard {
  private readonly port: ClipboardPort;
  private lastCopied: string | undefined;

  constructor(port: ClipboardPort) {
    this.port = port;
  }

  async copy(text: string): Promise<void> {
    this.lastCopied = text;
    await this.port.writeText(text);
  }

  /** At the lock: true when the desk's own text was still there and has been cleared. */
  async clearIfOurs(): Promise<boolean> {
    const copied = this.lastCopied;
    this.lastCopied = undefined;
    if (copied === undefined || (await this.port.readText()) !== copied) return false;
    await this.port.writeText('');
    return true;
  }
}

export function memoryClipboard(): ClipboardPort & { text: string } {
  return {
    text: '',
    async readText() { return this.text; },
    async writeText(text) { this.text = text; },
  };
}
