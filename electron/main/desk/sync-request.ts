// What "Sync now" asks of a connection's mirror: its profile's catalog source, for the
// countries and libraries of the connection (the sandbox's libraries differ in country).
import type { Connection } from '../connection/connection.ts';
import type { SyncRequest } from '../../node/sync/engine.ts';
import type { SyncStatusView } from '../../shared/contract.ts';
import type { DaysRule } from './days-rule.ts';

export const emptySyncStatus = (rules: { fullPass: DaysRule; catalogRefresh: DaysRule }): SyncStatusView =>
  ({ available: false, sources: [], counts: { titles: 0, entitlements: [] }, warnings: [], fullPass: { ...rules.fullPass }, catalogRefresh: { ...rules.catalogRefresh } });

/** `entitlementsOnly` with `full`: the full entitlement pass (full-pass.ts). */
export function syncRequest(connection: Pick<Connection, 'libraries' | 'profile'>, full: boolean, entitlementsOnly = false): SyncRequest {
  return {
    countries: [...new Set(connection.libraries.map((l) => l.country))],
    libraries: connection.libraries.map((l) => l.libraryId),
    source: connection.profile.catalogSource ?? 'global+entitlements',
    full,
    ...(entitlementsOnly ? { entitlementsOnly } : {}),
  };
}
