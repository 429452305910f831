// Electron's clipboard as the desk's ClipboardPort (desk/clipboard.ts): one ClipboardItem per write,
// raw payloads as Blobs, text as text (Electron 45's clipboard is the W3C-style, promise-based one).
import type { ClipboardFormats, ClipboardPort } from '../desk/clipboard.ts';

export interface ElectronClipboardLike {
  readText(): Promise<string>;
  write(items: unknown[]): Promise<void>;
}

export type ClipboardItemClass = new (items: Record<string, string | Blob>) => unknown;

export function electronClipboard(clipboard: ElectronClipboardLike, ClipboardItem: ClipboardItemClass): ClipboardPort {
  return {
    readText: () => clipboard.readText(),
    write: (formats: ClipboardFormats) => clipboard.write([new ClipboardItem(Object.fromEntries(
      Object.entries(formats).map(([type, payload]) => [type, typeof payload === 'string' ? payload : new Blob([new Uint8Array(payload)])]),
    ))]),
  };
}
