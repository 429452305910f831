// Which connection is open: at most one, for the active profile. Asked for the connection of a
// profile, it reuses the open one only while everything that defines it is unchanged (address,
// ws-api, libraries, country, catalog source); any difference — saved in the app, edited into
// settings.json by hand, laid over by a policy — closes the old connection and opens a new one,
// so no cached token, client or mirror outlives the address it was made for.
import type { CredentialVault } from '../credentials/index.ts';
import type { Logger } from '../../node/logging/logger.ts';
import { PartnerClient, type PartnerClientOptions } from '../../node/partner/client.ts';
import { DeskError } from '../../shared/desk-error.ts';
import type { Credentials } from '../../node/partner/token.ts';
import { normalizeBaseUrl, type FetchFn } from '../../node/partner/transport.ts';
import type { Country } from '../../shared/model.ts';
import type { ServiceMismatch } from '../../shared/collection.ts';
import type { OwnerLogEntry } from '../../node/mirror-interface.ts';
import type { ConnectionProfile } from '../settings/index.ts';
import { serverName, type LibraryFillOptions } from '../mirror/library-fill.ts';
import { Connection, type ConnectionSpec, type MirrorPlace } from './connection.ts';
import type { LibraryServerLink } from './library-server-fetch.ts';
import { prepareMirror, removeMirrors } from './mirror-files.ts';
import type { SandboxEndpoint } from './sandbox-endpoint.ts';

export interface ConnectionsOptions {
  /** The product's transport for partner services (Electron's net.fetch). */
  fetch: FetchFn;
  vault: CredentialVault;
  /** Starts the built-in sandbox for its connection. */
  sandbox: () => Promise<SandboxEndpoint>;
  mirrors: MirrorPlace & { dir: string };
  /** The service's rate limit (about 100 a minute). */
  ratePerMinute?: number;
  now: () => number;
  clientOptions?: Partial<PartnerClientOptions>;
  logger: Logger;
  /**
   * IT's policy names the library mirror (issue #25): a partner profile's Collection is filled
   * from it (its libraries and country), never from the partner. The sandbox stays on its own.
   */
  libraryMirror?: Omit<LibraryFillOptions, 'libraries' | 'countries'>;
  /**
   * IT's policy names the library server (issue #31): a partner profile's calls go to it, not to
   * the partner, proven with this desk's workstation credentials; the desk keeps no partner
   * password and never sees the partner's token. The sandbox stays on its own.
   */
  libraryServer?: {
    link: LibraryServerLink;
    /** The workstation id and secret from the keychain, read when a token is needed. */
    workstation: () => Promise<Credentials>;
    /** The server told a staff call to wait this many seconds for its turn. */
    onWait: (seconds: number) => void;
    /** The signed-in member of staff's session at the server (issue #32), if any. */
    session?: () => string | undefined;
    /** The server said that session ended. */
    sessionEnded?: () => void;
  };
}

/** The state of a profile's saved password, as Settings shows it. */
export type CredentialsState = 'saved' | 'missing' | 'for-other-address';

/** What defines a connection. The sandbox's address, libraries and countries come from the sandbox itself. */
const identity = (profile: ConnectionProfile): string => JSON.stringify(profile.kind === 'sandbox'
  ? [profile.id, profile.kind, profile.wsApi, profile.catalogSource ?? '']
  : [profile.id, profile.kind, normalizeBaseUrl(profile.baseUrl), profile.wsApi, profile.libraries.map((l) => l.libraryId), profile.country, profile.catalogSource ?? '']);

export class Connections {
  private readonly options: ConnectionsOptions;
  private open: { key: string; connection: Promise<Connection> } | undefined;
  /**
   * The connection being closed, until it has let go of everything (its sync stopped, its
   * mirror's owner thread ended, the file closed). The next connection opens only after it: two
   * connections of one profile share the mirror file, and the file has one owner — a second
   * beside a cancelled sync's would wait on its lock, record the resumed run as failed, and
   * write under the first one's Collection index unseen.
   */
  private closing: Promise<void> = Promise.resolve();

  constructor(options: ConnectionsOptions) {
    this.options = options;
  }

  /**
   * The open connection for this profile, opening it (and closing any other) when needed.
   * Decided before anything is awaited, so calls arriving together share one connection.
   */
  for(profile: ConnectionProfile): Promise<Connection> {
    const key = identity(profile);
    if (this.open?.key === key) return this.open.connection;
    const previous = this.closeOpen();
    const opening = previous.then(() => this.connect(profile));
    this.open = { key, connection: opening };
    opening.catch(() => {
      if (this.open?.connection === opening) this.open = undefined;
    });
    return opening;
  }

  /** The open connection if it is this profile's (or any, without an id), without opening one. */
  async current(profileId?: string): Promise<Connection | undefined> {
    const connection = await this.open?.connection.catch(() => undefined);
    return connection && (profileId === undefined || connection.profile.id === profileId) ? connection : undefined;
  }

  /** After a save, a credential change or a removal: the profile's connection is closed and forgotten. */
  async discard(profileId: string): Promise<void> {
    if (await this.current(profileId)) await this.closeOpen();
  }

  /** A removed profile: its connection and every mirror file it had. */
  async remove(profileId: string): Promise<void> {
    await this.discard(profileId);
    removeMirrors(this.options.mirrors.dir, profileId);
  }

  async close(): Promise<void> {
    await this.closeOpen();
  }

  /** The open connection forgets the answers it kept for the desk (the shift ended). */
  async forgetAnswers(): Promise<void> {
    (await this.current())?.staff.forgetAnswers();
  }

  /** Whether a partner profile's saved password may be sent to its address. */
  async credentialsState(profile: ConnectionProfile): Promise<CredentialsState> {
    const saved = await this.options.vault.read(profile.id);
    if (!saved) return 'missing';
    return saved.origin === originOf(profile.baseUrl) ? 'saved' : 'for-other-address';
  }

  /** Tries unsaved credentials against an address: a token proves both. Nothing is kept. */
  async probe(baseUrl: string, wsApi: string, credentials: Credentials): Promise<void> {
    const { now, clientOptions, fetch } = this.options;
    await new PartnerClient({ now, ...clientOptions, baseUrl, wsApi, credentials, fetch }).testConnection();
  }

  private closeOpen(): Promise<void> {
    const open = this.open;
    this.open = undefined;
    const previous = this.closing;
    const closed = (async () => {
      const connection = await open?.connection.catch(() => undefined);
      await connection?.close();
      await previous;
    })();
    // A close that failed has still ended; it is its caller's to report, not every later opening's.
    this.closing = closed.catch(() => {});
    return closed;
  }

  private async connect(profile: ConnectionProfile): Promise<Connection> {
    const { options } = this;
    const common = {
      profile, ratePerMinute: options.ratePerMinute ?? 100, now: options.now,
      // The service's own words beside a bulk page: logged (they name no patron), and shown on the Sync page.
      onWarnings: (source: string, warnings: string[]) => options.logger.warn('sync.service-warnings', { profileId: profile.id, source, warnings }),
      // What the service answered at odds with the question (issue #34): content ids and counts, no patron.
      onMismatch: (mismatch: ServiceMismatch) => options.logger.warn('service.mismatch', { profileId: profile.id, ...mismatch }),
      // The mirror owner's own entries (a slow call: its name, time and statements' shapes, no values).
      onOwnerLog: (entry: OwnerLogEntry) => options.logger.info(entry.event, { profileId: profile.id, ...entry.fields }),
      ...(options.clientOptions ? { clientOptions: options.clientOptions } : {}),
    };
    if (profile.kind === 'sandbox') {
      const sandbox = await options.sandbox();
      const origin = originOf(sandbox.baseUrl);
      return new Connection({
        ...common, sandbox, baseUrl: sandbox.baseUrl, fetch: sandbox.fetch ?? options.fetch,
        credentials: async () => ({ username: sandbox.username, password: sandbox.password }),
        libraries: sandbox.libraries.map((l) => ({ libraryId: l.libraryId, country: l.country as Country })),
        mirror: this.mirrorOf(profile.id, origin),
      });
    }
    const server = options.libraryServer;
    const baseUrl = server ? server.link.baseUrl : normalizeBaseUrl(profile.baseUrl);
    const origin = originOf(baseUrl);
    const library = options.libraryMirror;
    options.logger.info('connection.open', {
      profileId: profile.id, origin, ...(library ? { libraryMirror: serverName(library.target) } : {}), ...(server ? { libraryServer: true } : {}),
    });
    const libraries = profile.libraries.map((l) => ({ libraryId: l.libraryId, country: profile.country }));
    return new Connection({
      ...common, baseUrl,
      // Through the library server: its own fetch (its CA, both instances), the workstation's credentials.
      fetch: server ? server.link.fetchWith(server.onWait, server.session, server.sessionEnded) : options.fetch,
      credentials: server ? server.workstation : () => this.savedCredentials(profile, origin),
      libraries,
      // A copy filled from the library mirror is its own file: one filled from the partner is never mixed into it.
      mirror: this.mirrorOf(profile.id, library ? `postgres://${serverName(library.target)}` : origin),
      ...(library ? { library: { ...library, libraries: libraries.map((l) => l.libraryId), countries: [profile.country] } } : {}),
    });
  }

  private mirrorOf(profileId: string, origin: string): ConnectionSpec['mirror'] {
    const { dir, ...place } = this.options.mirrors;
    return { ...place, databasePath: prepareMirror(dir, profileId, origin) };
  }

  /**
   * The keychain entry, only for the origin it was saved for. A password is never sent to
   * another address: the profile's address changed (a hand edit, a policy, a name re-added
   * elsewhere), so staff are asked for this address's password instead.
   */
  private async savedCredentials(profile: ConnectionProfile, origin: string): Promise<Credentials> {
    const saved = await this.options.vault.read(profile.id);
    if (!saved) throw DeskError.because('unauthorized', 'connection.no-credentials', { profile: profile.name });
    if (saved.origin !== origin) {
      this.options.logger.warn('connection.password-origin-mismatch', { profileId: profile.id, origin, savedFor: saved.origin ?? null });
      throw saved.origin === undefined
        ? DeskError.because('unauthorized', 'connection.password-not-bound', { profile: profile.name, origin })
        : DeskError.because('unauthorized', 'connection.password-for-other-address', { profile: profile.name, origin, savedOrigin: saved.origin });
    }
    return { username: saved.username, password: saved.password };
  }
}

export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}
