// What "Sync now" asks of a connection's mirror: its profile's catalog source, for the
// countries and libraries of the connection (the sandbox's libraries differ in country).
import type { Connection } from '../connection/connection.ts';
import type { SyncRequest } from '../mirror/sync.ts';
import type { SyncStatusView } from '../shared/contract.ts';

export const EMPTY_SYNC_STATUS: SyncStatusView = { available: false, sources: [], counts: { titles: 0, entitlements: [] } };

export function syncRequest(connection: Pick<Connection, 'libraries' | 'profile'>, full: boolean): SyncRequest {
  return {
    countries: [...new Set(connection.libraries.map((l) => l.country))],
    libraries: connection.libraries.map((l) => l.libraryId),
    source: connection.profile.catalogSource ?? 'global+entitlements',
    full,
  };
}
