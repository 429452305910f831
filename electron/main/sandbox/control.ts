// The in-process control surface tests and the app use to steer a running sandbox. Each
// method is mirrored as an HTTP admin route (admin.ts).

import { applyCatalogChanges } from './catalog-changes.ts';
import type { CatalogChanges } from './catalog-changes.ts';
import type { Format } from './catalog.ts';
import { BORROWS_ALLOWED_PER_MONTH } from './circulation.ts';
import type { FaultSpec } from './faults.ts';
import { LIBRARIES } from './libraries.ts';
import type { LoggedRequest } from './request-log.ts';
import type { PurchaseModel } from './libraries.ts';
import { zeroCounts } from './route-names.ts';
import type { RouteName } from './route-names.ts';
import { applyShapes } from './shapes.ts';
import type { ShapeChanges } from './shapes.ts';
import { ENTITLEMENT_FILTERS, type EntitlementFilters, type SandboxState } from './state.ts';
import { COVER_MODES, type CoverMode } from './urls.ts';
import type { WireContentId } from './content-ids.ts';

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
  /** Every bearer token issued so far (the last 100,000): what a secrets scan looks for. */
  issuedTokens(): string[];
  requestCounts(): Record<RouteName, number>;
  resetRequestCounts(): void;
  /** Requests that reached the router with `seq >= from`: method, raw path, matched route, decoded params. */
  requestLog(from?: number): LoggedRequest[];
  /** The seq the next request will get: note it before a call, read `requestLog(next)` after. */
  requestLogNext(): number;
  /** A patron account for scenario and load tests (a card beyond the demo ones), with its monthly Instant allowance. */
  addPatron(libraryId: number, card: string, borrowsAllowedPerMonth?: number): void;
  /** Moves the service's clock on (never back): token expiry, due dates and allowances follow. */
  advanceClock(ms: number): void;
  /** What the service holds for a card, the truth a test checks the desk against: content ids (as the wire gives them) on loan and on hold. */
  patronState(libraryId: number, card: string): { exists: boolean; loans: WireContentId[]; holds: WireContentId[] };
  applyCatalogChanges(changes: CatalogChanges): { added: number[] };
  setShapes(shapes: ShapeChanges): void;
  /** The highest content id ever generated or added (removed ids leave gaps below it). */
  maxContentId(): number;
  /** The first titles, in id order, of the library's that fit the filter (a cheap scan), each as its first content id on the wire. */
  sampleContent(libraryId: number, filter?: ContentFilter): WireContentId[];
  /** At most `perMinute` requests a minute per credential, then 429 with Retry-After; null turns it off. */
  setRateLimit(perMinute: number | null): void;
  /** The per-credential limit, and how many requests it has refused. */
  rateLimit(): { perMinute: number | null; refused: number };
  /** Switches strict modes of a running sandbox (issue #34): where covers are, whether entitlements apply their filters. */
  setModes(modes: { covers?: CoverMode; entitlementFilters?: EntitlementFilters }): void;
}

/** A scan that finds too few is not worth walking a million ids for. */
const SAMPLE_SCAN_LIMIT = 200_000;

export function createControl(state: SandboxState, advanceClock: (ms: number) => void): SandboxControl {
  return {
    advanceClock: (ms) => {
      if (!Number.isSafeInteger(ms) || ms < 0) throw new Error('The clock moves forward by a whole number of milliseconds, 0 or more');
      advanceClock(ms);
    },
    patronState: (libraryId, card) => ({
      exists: state.circulation.patron(libraryId, card) !== undefined,
      loans: state.circulation.loansOf(libraryId, card).map((loan) => state.contents.wire(loan.contentId)),
      holds: state.circulation.holdsOf(libraryId, card).map((hold) => state.contents.wire(hold.contentId)),
    }),
    addFault: (fault) => state.faults.add(fault),
    clearFaults: () => state.faults.clear(),
    revokeTokens: () => state.tokens.revokeAll(),
    issuedTokens: () => state.tokens.issued(),
    requestCounts: () => ({ ...state.counts }),
    resetRequestCounts: () => {
      state.counts = zeroCounts();
    },
    requestLog: (from) => state.requestLog.since(from),
    requestLogNext: () => state.requestLog.next,
    addPatron: (libraryId, card, borrowsAllowedPerMonth = BORROWS_ALLOWED_PER_MONTH) => {
      if (!LIBRARIES.some((library) => library.libraryId === libraryId)) throw new Error(`No sandbox library ${libraryId}`);
      if (typeof card !== 'string' || card.trim() === '' || card.length > 64) throw new Error('A patron card must be 1 to 64 characters');
      if (!Number.isInteger(borrowsAllowedPerMonth) || borrowsAllowedPerMonth < 0 || borrowsAllowedPerMonth > 100_000) {
        throw new Error('borrowsAllowedPerMonth must be an integer from 0 to 100000');
      }
      state.circulation.addPatron(libraryId, { card, role: 'added', description: 'Added by a test or scenario', borrowsAllowedPerMonth, instantBorrows: [] });
    },
    applyCatalogChanges: (changes) => applyCatalogChanges(state, changes),
    setShapes: (shapes) => {
      state.shapes = applyShapes(state.shapes, shapes);
    },
    maxContentId: () => state.catalog.maxId,
    setRateLimit: (perMinute) => state.rateLimit.set(perMinute ?? undefined),
    setModes: (modes) => {
      if (typeof modes !== 'object' || modes === null) throw new Error('Modes must be a JSON object');
      const { covers, entitlementFilters, ...rest } = modes;
      if (Object.keys(rest).length > 0) throw new Error(`Unknown modes: ${Object.keys(rest).join(', ')}`);
      if (covers !== undefined && !COVER_MODES.includes(covers)) throw new Error(`covers must be one of ${COVER_MODES.join(', ')}`);
      if (entitlementFilters !== undefined && !ENTITLEMENT_FILTERS.includes(entitlementFilters)) {
        throw new Error(`entitlementFilters must be one of ${ENTITLEMENT_FILTERS.join(', ')}`);
      }
      if (covers !== undefined) state.options.covers = covers;
      if (entitlementFilters !== undefined) state.options.entitlementFilters = entitlementFilters;
    },
    rateLimit: () => state.rateLimit.describe(),
    sampleContent: (libraryId, filter = {}) => {
      const wanted = filter.count ?? 10;
      const ids: WireContentId[] = [];
      const last = Math.min(state.catalog.maxId, SAMPLE_SCAN_LIMIT);
      for (let id = 1; id <= last && ids.length < wanted; id += 1) {
        const entitlement = state.entitlements.get(libraryId, id);
        if (entitlement === undefined) continue;
        if (filter.purchaseModel !== undefined && entitlement.purchaseModel !== filter.purchaseModel) continue;
        if (filter.active !== undefined && entitlement.active !== filter.active) continue;
        if (filter.format !== undefined && state.catalog.core(id).format !== filter.format) continue;
        const first = state.contents.contentsOf(id)[0] ?? id;
        if (filter.status !== undefined && state.circulation.availability(libraryId, first).status !== filter.status) continue;
        ids.push(state.contents.wire(first));
      }
      return ids;
    },
  };
}
