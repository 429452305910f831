// One open connection to one partner service (or the built-in sandbox), for the active
// profile. It owns everything that talks to that service: the transport (Electron's net.fetch
// in the product, which follows the OS proxy and certificate store; the sandbox's own fetch for
// the built-in sandbox), one token, one Retry-After gate and one request budget shared by desk
// work, sync and refresh, and the mirror. Nothing else builds a PartnerClient for
// stored credentials. Closing it cancels a sync under way and stops the sandbox it owns.
import { DeskMirror } from '../mirror/desk-mirror.ts';
import type { LibraryFillOptions } from '../mirror/library-fill.ts';
import { PartnerClient, type PartnerClientOptions } from '../../node/partner/client.ts';
import { RequestBudget } from '../../node/partner/request-budget.ts';
import { STAFF_WAIT_LIMIT_MS } from '../../node/partner/staff-wait.ts';
import type { Credentials } from '../../node/partner/token.ts';
import type { FetchFn } from '../../node/partner/transport.ts';
import type { Country } from '../../shared/model.ts';
import type { ServiceMismatch } from '../../shared/collection.ts';
import type { OwnerLogEntry } from '../../node/mirror-interface.ts';
import type { ConnectionProfile } from '../settings/index.ts';
import type { SandboxEndpoint } from './sandbox-endpoint.ts';

/** How the connection's mirror is kept: its owner thread's entry (main's bundled one), and for tests the disk space it leaves and when a call is slow. */
export interface MirrorPlace {
  workerUrl?: URL | string;
  diskSpaceKeptFree?: number;
  slowCallMs?: number;
}

export interface ConnectionSpec {
  profile: ConnectionProfile;
  /** The service's address as requests use it (origin and path). */
  baseUrl: string;
  fetch: FetchFn;
  /** Read when a token is needed; refuses a password saved for another origin. */
  credentials: () => Promise<Credentials>;
  libraries: { libraryId: number; country: Country }[];
  /** The service's rate limit, shared by everything this connection sends. */
  ratePerMinute: number;
  mirror: MirrorPlace & { databasePath: string };
  now: () => number;
  /** Timeouts and a simulated clock for tests and the reliability runs. */
  clientOptions?: Partial<PartnerClientOptions>;
  /** The built-in sandbox, when this is its connection: stopped with it. */
  sandbox?: SandboxEndpoint;
  /** The service's warnings beside a bulk page (`metadata.warnings`), for the app log. */
  onWarnings?: (source: string, warnings: string[]) => void;
  /** An answer of the service that disagrees with its question (issue #34), for the app log; the Sync view shows it too. */
  onMismatch?: (mismatch: ServiceMismatch) => void;
  /** The mirror owner's entries for the app log (a slow call). */
  onOwnerLog?: (entry: OwnerLogEntry) => void;
  /** A desk in a library: the mirror is filled from the library mirror, not from this service. */
  library?: LibraryFillOptions;
}

export class Connection {
  readonly profile: ConnectionProfile;
  readonly origin: string;
  readonly libraries: { libraryId: number; country: Country }[];
  /** Staff calls: patron work and what staff are waiting for, first through the budget. */
  readonly staff: PartnerClient;
  /** Sync and the 10-minute refresh: what is left of the budget, one request at a time. */
  readonly background: PartnerClient;
  readonly budget: RequestBudget;
  readonly mirror: DeskMirror;
  readonly sandbox: SandboxEndpoint | undefined;
  private closing: Promise<void> | undefined;

  constructor(spec: ConnectionSpec) {
    this.profile = spec.profile;
    this.origin = new URL(spec.baseUrl).origin;
    this.libraries = spec.libraries;
    this.sandbox = spec.sandbox;
    const { clientOptions = {} } = spec;
    this.budget = new RequestBudget({
      perMinute: spec.ratePerMinute,
      // A staff call that would wait longer for the window is told at once how long (staff-wait.ts).
      deskWaitLimitMs: STAFF_WAIT_LIMIT_MS,
      now: clientOptions.now ?? spec.now,
      ...(clientOptions.sleep ? { sleep: clientOptions.sleep } : {}),
    });
    // Whatever the client or the sync finds at odds with what was asked: logged, and kept for the Sync view by the mirror.
    const onMismatch = (mismatch: ServiceMismatch): void => {
      spec.onMismatch?.(mismatch);
      this.mirror.noteMismatch(mismatch);
    };
    this.staff = new PartnerClient({
      now: spec.now, ...clientOptions,
      baseUrl: spec.baseUrl, wsApi: spec.profile.wsApi, credentials: spec.credentials, fetch: spec.fetch, gate: this.budget.gate, onMismatch,
    });
    this.background = this.staff.withPriority('background');
    this.mirror = new DeskMirror({
      ...spec.mirror, staff: this.staff, background: this.background, now: spec.now,
      ...(spec.onWarnings ? { onWarnings: spec.onWarnings } : {}),
      ...(spec.onMismatch ? { onMismatch: spec.onMismatch } : {}),
      ...(spec.onOwnerLog ? { onOwnerLog: spec.onOwnerLog } : {}),
      ...(spec.library ? { library: spec.library } : {}),
    });
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.mirror.close();
      await this.sandbox?.close();
    })();
    return this.closing;
  }
}
