// Connections: the saved profiles (the built-in sandbox, partner services), their credentials in
// the keychain, which one is active, and the active connection every other area works through. A
// profile is used only as the desk recorded it (connection-records.ts): IT's, or one whose address
// and libraries are what staff saved; one changed outside the desk is refused. Also the app's
// description (appInfo), which every change here answers with. Asks the shift area who is on shift
// (and marks the desk set up); nothing else of the other areas.

import type { AppInfo, LibraryServerView, ParsedArgsOf, ProfileView } from '../../../shared/contract.ts';
import type { LibraryRules } from '../../../shared/card-rules.ts';
import type { Connection } from '../../connection/connection.ts';
import { originOf, type Connections } from '../../connection/connections.ts';
import type { CredentialVault } from '../../credentials/vault.ts';
import type { Logger } from '../../../node/logging/logger.ts';
import { DeskError } from '../../../shared/desk-error.ts';
import { normalizeBaseUrl } from '../../../node/partner/transport.ts';
import type { PolicySettings } from '../../policy/index.ts';
import { profileFingerprint, type ConnectionProfile } from '../../settings/index.ts';
import type { ConnectionRecords } from '../connection-records.ts';
import type { LibraryServerSettings } from '../library-server-settings.ts';
import { uniqueProfileId } from '../profile-id.ts';
import type { ShiftArea } from './shift-area.ts';

export const SANDBOX_PROFILE_ID = 'sandbox';

export interface ConnectionsAreaParts {
  settings: PolicySettings;
  connections: Connections;
  connectionRecords: ConnectionRecords;
  vault: CredentialVault;
  shift: ShiftArea;
  logger: Logger;
  now: () => number;
  version: string;
  /** Windows: this copy is installed for all users (MSI or per-machine), so it never updates itself. */
  installedForAllUsers: boolean;
  /** From IT's policy (issue #35): each library's name and card rules, and how many recent patrons the card field keeps. */
  desk?: { libraryRules?: LibraryRules[] | undefined; recentPatrons?: number | undefined };
  /** A desk in a library (issue #31): the library server IT's policy names, which carries every partner call. */
  libraryServer?: LibraryServerSettings;
}

export class ConnectionsArea {
  readonly #parts: ConnectionsAreaParts;

  constructor(parts: ConnectionsAreaParts) {
    this.#parts = parts;
  }

  /** The library server IT's policy names, and whether this desk is enrolled there; null on a desk on its own. */
  async libraryServer(): Promise<LibraryServerView | null> {
    return (await this.#parts.libraryServer?.view()) ?? null;
  }

  /** IT's one-time code traded for this desk's workstation credentials; the open connection starts again with them. */
  async enrolDesk(args: ParsedArgsOf<'enrolDesk'>): Promise<LibraryServerView> {
    const server = this.#parts.libraryServer;
    if (!server) throw DeskError.because('invalid-input', 'library-server.none');
    const view = await server.enrol(args.code);
    this.#parts.logger.info('library-server.enrolled', { server: view.server, workstation: view.workstationId ?? null });
    const active = this.#parts.settings.read().activeProfileId;
    if (active) await this.#parts.connections.discard(active);
    return view;
  }

  async appInfo(): Promise<AppInfo> {
    const { settings: policySettings, connections, shift } = this.#parts;
    const { settings, managed } = policySettings.outcome();
    const active = settings.profiles.find((p) => p.id === settings.activeProfileId);
    const session = shift.session;
    const info: AppInfo = {
      version: this.#parts.version,
      mode: active ? active.kind : 'unconfigured',
      preferences: { idleLockMinutes: settings.idleLockMinutes, language: settings.language },
      managed,
      signIn: await shift.signInView(),
    };
    if (this.#parts.installedForAllUsers) info.installedForAllUsers = true;
    if (this.#parts.desk?.libraryRules) info.libraryRules = this.#parts.desk.libraryRules.map((rules) => ({ ...rules }));
    info.recentPatrons = this.#parts.desk?.recentPatrons ?? 0;
    if (active) info.activeProfile = await this.#view(active);
    // The demo patrons are training data, but a locked desk shows no patron at all.
    if (active?.kind === 'sandbox' && session) {
      const sandbox = (await connections.for(active)).sandbox;
      if (sandbox) {
        info.sandbox = { libraries: sandbox.libraries.map((l) => ({ libraryId: l.libraryId, country: l.country, name: l.name, cards: [...l.cards] })) };
      }
    }
    if (session) info.session = session;
    const problem = policySettings.lastLoadProblem;
    if (problem) info.settingsProblem = { reason: problem.reason, params: problem.params };
    return info;
  }

  async listProfiles(): Promise<ProfileView[]> {
    return Promise.all(this.#parts.settings.read().profiles.map((p) => this.#view(p)));
  }

  async useSandbox(): Promise<AppInfo> {
    const { settings, connections } = this.#parts;
    if (!settings.outcome().sandboxOffered) throw DeskError.because('invalid-input', 'policy.sandbox-off');
    const profile: ConnectionProfile = { id: SANDBOX_PROFILE_ID, name: 'Built-in sandbox', kind: 'sandbox', baseUrl: '', libraries: [], wsApi: '2.1', country: 'US' };
    const existing = settings.read().profiles.find((p) => p.id === SANDBOX_PROFILE_ID);
    if (!existing) settings.saveProfile(profile);
    await this.#parts.shift.markSetUp();
    await this.#activate(SANDBOX_PROFILE_ID);
    // The sandbox names its libraries; the profile keeps them for the library picker.
    const { sandbox } = await connections.for(existing ?? profile);
    if (sandbox) {
      settings.saveProfile({
        ...profile,
        libraries: sandbox.libraries.map((l) => ({ libraryId: l.libraryId, name: `${l.name} (${l.country})` })),
        country: (sandbox.libraries[0]?.country ?? 'US') as ConnectionProfile['country'],
      });
    }
    this.#parts.logger.info('connection.sandbox', { inProcess: sandbox?.fetch !== undefined });
    return this.appInfo();
  }

  async testPartnerConnection(args: ParsedArgsOf<'testPartnerConnection'>): Promise<{ tokenMs: number }> {
    const started = this.#parts.now();
    await this.#parts.connections.probe(args.baseUrl, args.wsApi, { username: args.username, password: args.password });
    this.#parts.logger.info('connection.test', { baseUrl: normalizeBaseUrl(args.baseUrl), outcome: 'ok' });
    return { tokenMs: this.#parts.now() - started };
  }

  /**
   * Tests the connection first; only then are the credentials saved (bound to this address), the
   * connection recorded in the keychain (its address, libraries and this shift), and the profile.
   */
  async savePartnerProfile(args: ParsedArgsOf<'savePartnerProfile'>): Promise<AppInfo> {
    const { settings, connections, connectionRecords, vault } = this.#parts;
    const { profile, username, password } = args;
    const baseUrl = normalizeBaseUrl(profile.baseUrl);
    const existing = settings.read().profiles;
    const id = profile.id ?? uniqueProfileId(profile.name, existing.map((p) => p.id));
    if (id === SANDBOX_PROFILE_ID) throw DeskError.because('invalid-input', 'profile.sandbox-name-reserved');
    const before = existing.find((p) => p.id === id);
    // A profile edited outside the desk is not re-saved from what the file now says: it is removed and added again.
    if (before && (await this.#standingOf(before)) === 'changed-outside') throw changedOutside(before);
    const next: ConnectionProfile = { id, name: profile.name, kind: 'partner', baseUrl, libraries: profile.libraries, wsApi: profile.wsApi, country: profile.country };
    settings.validateProfile(next);
    await connections.probe(baseUrl, profile.wsApi, { username, password });
    await connections.discard(id);
    const shift = await this.#parts.shift.number();
    await vault.save(id, { username, password }, originOf(baseUrl));
    const record = (await connectionRecords.all()).get(id);
    const fingerprint = profileFingerprint(next);
    // Re-saved at the same address and libraries, a connection keeps its age; a new or re-addressed one is of this shift.
    await connectionRecords.record(id, record?.fingerprint === fingerprint ? record : { fingerprint, shift });
    try {
      settings.saveProfile(next);
    } catch (error) {
      await vault.forget(id);
      await connectionRecords.forget(id);
      throw error;
    }
    await this.#parts.shift.markSetUp();
    await this.#activate(id);
    this.#parts.logger.info('connection.saved', { profileId: id, baseUrl, shift });
    return this.appInfo();
  }

  /** New credentials for a profile, tested against its address and bound to it. */
  async replaceCredentials(args: ParsedArgsOf<'replaceCredentials'>): Promise<ProfileView> {
    const { connections, vault } = this.#parts;
    const profile = await this.#usableProfile(this.#partnerProfile(args.profileId));
    const credentials = { username: args.username, password: args.password };
    await connections.probe(profile.baseUrl, profile.wsApi, credentials);
    await connections.discard(profile.id);
    await vault.save(profile.id, credentials, originOf(profile.baseUrl));
    this.#parts.logger.info('connection.credentials-replaced', { profileId: profile.id });
    return this.#view(profile);
  }

  async forgetCredentials(args: ParsedArgsOf<'forgetCredentials'>): Promise<ProfileView> {
    const profile = this.#partnerProfile(args.profileId);
    await this.#parts.connections.discard(profile.id);
    await this.#parts.vault.forget(profile.id);
    this.#parts.logger.info('connection.credentials-forgotten', { profileId: profile.id });
    return this.#view(profile);
  }

  async activateProfile(args: ParsedArgsOf<'activateProfile'>): Promise<AppInfo> {
    await this.#usableProfile(this.#profile(args.profileId));
    await this.#activate(args.profileId);
    return this.appInfo();
  }

  async removeProfile(args: ParsedArgsOf<'removeProfile'>): Promise<AppInfo> {
    this.#profile(args.profileId);
    this.#parts.settings.removeProfile(args.profileId);
    await this.#parts.connections.remove(args.profileId);
    if (args.profileId !== SANDBOX_PROFILE_ID) {
      await this.#parts.vault.forget(args.profileId);
      await this.#parts.connectionRecords.forget(args.profileId);
    }
    this.#parts.logger.info('connection.removed', { profileId: args.profileId });
    return this.appInfo();
  }

  activeProfile(): ConnectionProfile | undefined {
    const settings = this.#parts.settings.read();
    return settings.profiles.find((p) => p.id === settings.activeProfileId);
  }

  /** The active profile's connection, opened (or reopened after any change to the profile) as needed. */
  async active(): Promise<Connection> {
    const connection = await this.activeIfAny();
    if (!connection) throw DeskError.because('invalid-input', 'connection.none');
    return connection;
  }

  async activeIfAny(): Promise<Connection | undefined> {
    const profile = this.activeProfile();
    return profile ? this.#parts.connections.for(await this.#usableProfile(profile)) : undefined;
  }

  /** Patron and Collection work: the active connection, which must serve that library. */
  async forLibrary(libraryId: number): Promise<Connection> {
    const connection = await this.active();
    if (!connection.libraries.some((l) => l.libraryId === libraryId)) {
      throw DeskError.because('invalid-input', 'connection.library-not-in-profile', { libraryId, profile: connection.profile.name });
    }
    return connection;
  }

  /**
   * A profile as the desk may use it: IT's (the policy), or one whose address and libraries are
   * what the keychain recorded when staff saved it. Anything else was changed outside the desk.
   */
  async #standingOf(profile: ConnectionProfile): Promise<'policy' | 'kept' | 'changed-outside'> {
    if (profile.kind === 'sandbox') return 'kept';
    if (this.#parts.settings.outcome().managed.lockedProfileIds.includes(profile.id)) return 'policy';
    const record = (await this.#parts.connectionRecords.all()).get(profile.id);
    return record?.fingerprint === profileFingerprint(profile) ? 'kept' : 'changed-outside';
  }

  async #usableProfile(profile: ConnectionProfile): Promise<ConnectionProfile> {
    if ((await this.#standingOf(profile)) !== 'changed-outside') return profile;
    this.#parts.logger.warn('connection.changed-outside', { profileId: profile.id });
    throw changedOutside(profile);
  }

  /** Another profile becomes active: the open connection (and a sandbox it runs) closes. */
  async #activate(profileId: string): Promise<void> {
    this.#parts.settings.setActiveProfile(profileId);
    const open = await this.#parts.connections.current();
    if (open && open.profile.id !== profileId) await this.#parts.connections.discard(open.profile.id);
  }

  #profile(id: string): ConnectionProfile {
    const profile = this.#parts.settings.read().profiles.find((p) => p.id === id);
    if (!profile) throw DeskError.because('invalid-input', 'profile.not-found', { id });
    return profile;
  }

  #partnerProfile(id: string): ConnectionProfile {
    const profile = this.#profile(id);
    if (profile.kind !== 'partner') throw DeskError.because('invalid-input', 'profile.sandbox-needs-no-credentials');
    return profile;
  }

  async #view(profile: ConnectionProfile): Promise<ProfileView> {
    const credentials = profile.kind === 'sandbox' ? 'saved' : await this.#parts.connections.credentialsState(profile).catch(() => 'missing' as const);
    const changed = (await this.#standingOf(profile).catch(() => 'kept')) === 'changed-outside';
    return {
      id: profile.id, name: profile.name, kind: profile.kind, baseUrl: profile.baseUrl,
      libraries: profile.libraries.map((l) => (l.name === undefined ? { libraryId: l.libraryId } : { libraryId: l.libraryId, name: l.name })),
      wsApi: profile.wsApi, country: profile.country, hasCredentials: credentials === 'saved', credentials,
      ...(changed ? { changedOutside: true } : {}),
    };
  }
}

/** A profile whose address or libraries are not what the desk recorded: refused, and no password is asked for its address. */
function changedOutside(profile: ConnectionProfile): DeskError {
  return DeskError.because('invalid-input', 'connection.changed-outside', { profile: profile.name });
}
