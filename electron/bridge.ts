// The foundation's bridge between renderer and main: channel names and the shape the preload
// exposes as `window.lendingDesk`. Written once here; main and preload both import it.

export const CHANNELS = {
  connectionInfo: 'lending-desk:connection-info',
  testConnection: 'lending-desk:test-connection',
} as const;

export interface ConnectionInfo {
  mode: 'sandbox';
  baseUrl: string;
  libraries: { libraryId: number; country: string; cards: string[] }[];
}

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

export interface LendingDeskBridge {
  connectionInfo(): Promise<BridgeResult<ConnectionInfo>>;
  testConnection(): Promise<BridgeResult<{ tokenMs: number }>>;
}
