// Everything one running sandbox knows, in one place the routes receive.

import { CatalogStore } from './catalog-store.ts';
import { ContentIds, type IdReading } from './content-ids.ts';
import { ChangeLog } from './changes.ts';
import { Circulation } from './circulation.ts';
import { seedLibrary } from './demo-patrons.ts';
import type { DemoPatron } from './demo-patrons.ts';
import { FaultInjector } from './faults.ts';
import { EntitlementStore, LIBRARIES } from './libraries.ts';
import { RequestLog } from './request-log.ts';
import { zeroCounts } from './route-names.ts';
import type { RouteName } from './route-names.ts';
import { defaultShapes } from './shapes.ts';
import type { Shapes } from './shapes.ts';
import { CredentialRateLimit } from './rate-limit.ts';
import { toSeconds } from './time.ts';
import { TokenStore } from './tokens.ts';
import type { CoverMode } from './urls.ts';

export interface StateOptions {
  seed: number;
  catalogSize: number;
  tokenLifetimeSeconds: number;
  username: string;
  password: string;
  now: () => number;
  /** Requests a minute per credential before 429s (rate-limit.ts); no limit when absent. */
  rateLimitPerMinute?: number;
  rateLimitWindowMs?: number;
  /** How content ids and title ids relate (content-ids.ts). */
  ids: IdReading;
  /** How a delta shows a removal: `marked` (`removed: true`) or `absent` (not at all, as the published schemas show none). */
  removals: Removals;
  /** Where covers are: the sandbox's own host, or real-looking addresses on the partner's cover host (urls.ts). */
  covers: CoverMode;
  /** Whether the entitlements route applies its `purchaseModel` and `status` filters, or (as the spec leaves open) ignores them. */
  entitlementFilters: EntitlementFilters;
}

export type Removals = 'marked' | 'absent';
export const REMOVALS: readonly Removals[] = ['marked', 'absent'];
export type EntitlementFilters = 'honoured' | 'ignored';
export const ENTITLEMENT_FILTERS: readonly EntitlementFilters[] = ['honoured', 'ignored'];

export class SandboxState {
  readonly options: StateOptions;
  readonly catalog: CatalogStore;
  readonly entitlements: EntitlementStore;
  readonly contents: ContentIds;
  readonly changes = new ChangeLog();
  readonly circulation: Circulation;
  readonly tokens = new TokenStore();
  readonly faults: FaultInjector;
  readonly rateLimit: CredentialRateLimit;
  /** Every request that reached the router, newest last, capped: what tests check routing against. */
  readonly requestLog = new RequestLog();
  readonly demoPatrons = new Map<number, DemoPatron[]>();
  /** Full-pull totals, which would otherwise mean a scan of every id per request (one being counted is shared). Cleared on catalog changes. */
  readonly totals = new Map<string, Promise<number>>();
  counts: Record<RouteName, number> = zeroCounts();
  shapes: Shapes = defaultShapes();

  constructor(options: StateOptions) {
    this.options = options;
    this.faults = new FaultInjector(options.seed);
    this.rateLimit = new CredentialRateLimit(options.rateLimitPerMinute, options.rateLimitWindowMs);
    this.catalog = new CatalogStore(options.seed, options.catalogSize);
    this.entitlements = new EntitlementStore(this.catalog);
    this.contents = new ContentIds(options.ids, this.catalog);
    this.circulation = new Circulation({
      catalog: this.catalog,
      entitlements: this.entitlements,
      contents: this.contents,
      changes: this.changes,
      nowSeconds: () => this.nowSeconds(),
      covers: () => this.options.covers,
    });
    for (const library of LIBRARIES) {
      this.demoPatrons.set(library.libraryId, seedLibrary(library, {
        catalog: this.catalog,
        entitlements: this.entitlements,
        contents: this.contents,
        circulation: this.circulation,
        nowSeconds: this.nowSeconds(),
      }));
    }
  }

  nowSeconds(): number {
    return toSeconds(this.options.now());
  }

  total(key: string, compute: () => Promise<number>): Promise<number> {
    let value = this.totals.get(key);
    if (value === undefined) {
      value = compute();
      this.totals.set(key, value);
      // A count that failed is not kept: the next request counts again.
      value.catch(() => this.totals.get(key) === value && this.totals.delete(key));
    }
    return value;
  }
}
