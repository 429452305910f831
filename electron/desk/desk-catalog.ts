// The catalog mirror of each connection profile (one database per profile, since each is a
// different service and collection), and the sync requests a profile implies.
import { join } from 'node:path';
import type { SyncStatusView } from '../shared/contract.ts';
import { CatalogService } from '../mirror/catalog-service.ts';
import type { ConnectionSpec } from '../mirror/sync-job.ts';
import type { SyncProgress, SyncRequest } from '../mirror/sync.ts';
import type { PartnerClient } from '../partner/client.ts';
import type { Country } from '../shared/model.ts';
import type { ConnectionProfile } from '../settings/index.ts';

export interface DeskCatalogOptions {
  /** Folder for the mirrors, in the user data folder. */
  dir: string;
  now: () => number;
  runner?: 'worker' | 'in-process';
  workerUrl?: URL | string;
  ratePerMinute?: number;
}

export interface ProfileConnection {
  profile: ConnectionProfile;
  /** The profile's libraries with their countries (the sandbox's differ per library). */
  libraries: { libraryId: number; country: Country }[];
  connection: () => Promise<ConnectionSpec>;
  client: () => Promise<PartnerClient>;
}

export const EMPTY_SYNC_STATUS: SyncStatusView = { available: false, sources: [], counts: { titles: 0, entitlements: [] } };

export class DeskCatalog {
  private readonly options: DeskCatalogOptions;
  private readonly services = new Map<string, CatalogService>();

  constructor(options: DeskCatalogOptions) {
    this.options = options;
  }

  service(target: ProfileConnection): CatalogService {
    let service = this.services.get(target.profile.id);
    if (!service) {
      const { runner, workerUrl, ratePerMinute, now } = this.options;
      service = new CatalogService({
        databasePath: join(this.options.dir, `catalog-${target.profile.id}.db`),
        connection: target.connection, client: target.client, now,
        ...(runner ? { runner } : {}), ...(workerUrl ? { workerUrl } : {}), ...(ratePerMinute ? { ratePerMinute } : {}),
      });
      this.services.set(target.profile.id, service);
    }
    return service;
  }

  request(target: ProfileConnection, full: boolean): SyncRequest {
    return {
      countries: [...new Set(target.libraries.map((l) => l.country))],
      libraries: target.libraries.map((l) => l.libraryId),
      source: target.profile.catalogSource ?? 'global+entitlements',
      full,
    };
  }

  async syncNow(target: ProfileConnection, full: boolean, onProgress: (p: SyncProgress) => void): Promise<SyncStatusView> {
    return { available: true, ...(await this.service(target).syncNow(this.request(target, full), onProgress)) };
  }

  status(target: ProfileConnection | undefined): SyncStatusView {
    return target ? { available: true, ...this.service(target).status() } : EMPTY_SYNC_STATUS;
  }

  /** The spec's 10-minute refresh, for a profile whose entitlements have been mirrored once. */
  async refreshChanged(target: ProfileConnection): Promise<boolean> {
    const service = this.service(target);
    const mirrored = service.status().sources.some((s) => s.source.startsWith('entitlements:') && s.lastSuccessAt !== undefined);
    if (mirrored) await service.refreshChanged(target.libraries.map((l) => l.libraryId));
    return mirrored;
  }

  close(): void {
    for (const service of this.services.values()) service.close();
    this.services.clear();
  }
}
