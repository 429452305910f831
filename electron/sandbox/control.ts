// The in-process control surface tests and the app use to steer a running sandbox. Each
// method is mirrored as an HTTP admin route (admin.ts).

import { applyCatalogChanges } from './catalog-changes.ts';
import type { CatalogChanges } from './catalog-changes.ts';
import type { Format } from './catalog.ts';
import type { FaultSpec } from './faults.ts';
import type { PurchaseModel } from './libraries.ts';
import { zeroCounts } from './route-names.ts';
import type { RouteName } from './route-names.ts';
import { applyShapes } from './shapes.ts';
import type { ShapeChanges } from './shapes.ts';
import type { SandboxState } from './state.ts';

export interface ContentFilter {
  purchaseModel?: PurchaseModel;
  active?: boolean;
  /** The availability content info would report now. */
  status?: 'BORROW' | 'HOLD' | 'UNAVAILABLE';
  format?: Format;
  /** How many ids to return at most (default 10). */
  count?: number;
}

export interface SandboxControl {
  addFault(fault: FaultSpec): void;
  clearFaults(): void;
  revokeTokens(): void;
  requestCounts(): Record<RouteName, number>;
  resetRequestCounts(): void;
  applyCatalogChanges(changes: CatalogChanges): { added: number[] };
  setShapes(shapes: ShapeChanges): void;
  /** The highest content id ever generated or added (removed ids leave gaps below it). */
  maxContentId(): number;
  /** The first ids, in id order, of the library's titles that fit the filter: a cheap scan. */
  sampleContent(libraryId: number, filter?: ContentFilter): number[];
}

/** A scan that finds too few is not worth walking a million ids for. */
const SAMPLE_SCAN_LIMIT = 200_000;

export function createControl(state: SandboxState): SandboxControl {
  return {
    addFault: (fault) => state.faults.add(fault),
    clearFaults: () => state.faults.clear(),
    revokeTokens: () => state.tokens.revokeAll(),
    requestCounts: () => ({ ...state.counts }),
    resetRequestCounts: () => {
      state.counts = zeroCounts();
    },
    applyCatalogChanges: (changes) => applyCatalogChanges(state, changes),
    setShapes: (shapes) => {
      state.shapes = applyShapes(state.shapes, shapes);
    },
    maxContentId: () => state.catalog.maxId,
    sampleContent: (libraryId, filter = {}) => {
      const wanted = filter.count ?? 10;
      const ids: number[] = [];
      const last = Math.min(state.catalog.maxId, SAMPLE_SCAN_LIMIT);
      for (let id = 1; id <= last && ids.length < wanted; id += 1) {
        const entitlement = state.entitlements.get(libraryId, id);
        if (entitlement === undefined) continue;
        if (filter.purchaseModel !== undefined && entitlement.purchaseModel !== filter.purchaseModel) continue;
        if (filter.active !== undefined && entitlement.active !== filter.active) continue;
        if (filter.format !== undefined && state.catalog.core(id).format !== filter.format) continue;
        if (filter.status !== undefined && state.circulation.availability(libraryId, id).status !== filter.status) continue;
        ids.push(id);
      }
      return ids;
    },
  };
}
