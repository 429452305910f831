// A page's items as main names them to the writer thread when the page reader and the writer
// are threads joined by a channel (page-reader.ts, mirror-writer.ts): not the items, which the
// reader sent the writer itself, but the number of the page they came with. So main, which
// only fetches, never holds, copies or collects a page's records.
export interface HandedOver { readonly handedOver: number }

/** What the reader thread sends the writer thread for a handed-over page. */
export interface HandedOverItems { page: number; items: unknown }

/** Items as main passes them to the writer: themselves, or handed over. */
export type ForWriter<T> = T | HandedOver;

export const isHandedOver = (value: unknown): value is HandedOver =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as HandedOver).handedOver === 'number';
