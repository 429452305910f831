// DeskService: the contract's implementation. Plain TypeScript with every collaborator
// injected (settings, vault, fetch, sandbox starter, logger, clock), no `electron` import, so
// the same object runs in Electron's main process, in Vitest and in the Chromium test host.

import type {
  ActionOutcome, ActionPage, AppInfo, DeskHandlers, EventName, EventPayloads, ParsedArgsOf, PatronView, Preferences, ProfileView,
  StaffSession,
} from '../shared/contract.ts';
import type { ActionKind, ActionLog } from '../action-log/action-log.ts';
import type { CredentialVault, PartnerCredentials } from '../credentials/vault.ts';
import type { Logger } from '../logging/logger.ts';
import { PartnerClient } from '../partner/client.ts';
import { PartnerError } from '../partner/errors.ts';
import type { Hold, Loan } from '../shared/model.ts';
import { normalizeBaseUrl, type FetchFn } from '../partner/transport.ts';
import type { SandboxHandle } from '../sandbox/server.ts';
import { PolicySettings, type Policy, type PolicyProblems } from '../policy/index.ts';
import type { ConnectionProfile, DeskSettings, Settings } from '../settings/index.ts';
import { DeskCatalog, EMPTY_SYNC_STATUS, type DeskCatalogOptions, type ProfileConnection } from './desk-catalog.ts';
import { patronView } from './patron-view.ts';
import { uniqueProfileId } from './profile-id.ts';

export const SANDBOX_PROFILE_ID = 'sandbox';

export interface DeskServiceDeps {
  settings: Settings;
  /** The machine-wide policy file's content, when IT installed one; it wins over settings. */
  policy?: Policy | undefined;
  /** Why the machine policy was ignored (the desk fails closed) or its updates refused. */
  policyProblem?: PolicyProblems | undefined;
  vault: CredentialVault;
  fetch: FetchFn;
  /** Starts the built-in sandbox; called at most once, when the sandbox profile is first used. */
  startSandbox: () => Promise<SandboxHandle>;
  logger: Logger;
  actionLog: ActionLog;
  now: () => number;
  version: string;
  emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => void;
  /** Where and how the catalog mirrors live and sync. */
  catalog: Omit<DeskCatalogOptions, 'now'>;
  /** Client options for tests (short timeouts, instant sleeps). */
  clientOptions?: Partial<ConstructorParameters<typeof PartnerClient>[0]>;
}

export class DeskService implements DeskHandlers {
  private readonly deps: DeskServiceDeps;
  private readonly settings: PolicySettings;
  private readonly catalog: DeskCatalog;
  private sandbox: Promise<SandboxHandle> | undefined;
  private client: { profileId: string; client: PartnerClient } | undefined;
  private session: StaffSession | undefined;
  /** On-behalf actions under way, so a double click or a repeated Enter joins the first instead of sending twice. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(deps: DeskServiceDeps) {
    this.deps = deps;
    this.settings = new PolicySettings(deps.settings, deps.policy, deps.policyProblem);
    this.catalog = new DeskCatalog({ ...deps.catalog, now: deps.now });
  }

  /** The running sandbox, if any: its password is a secret the logs must not hold. */
  async sandboxHandle(): Promise<SandboxHandle | undefined> {
    return this.sandbox;
  }

  async close(): Promise<void> {
    this.catalog.close();
    const sandbox = this.sandbox;
    this.sandbox = undefined;
    if (sandbox) await (await sandbox).close();
  }

  // ---- app and connection ----

  async appInfo(): Promise<AppInfo> {
    const { settings, managed } = this.settings.outcome();
    const active = settings.profiles.find((p) => p.id === settings.activeProfileId);
    const info: AppInfo = {
      version: this.deps.version,
      mode: active ? active.kind : 'unconfigured',
      preferences: { idleLockMinutes: settings.idleLockMinutes, language: settings.language },
      managed,
    };
    if (active) info.activeProfile = await this.view(active);
    if (active?.kind === 'sandbox') {
      const sandbox = await this.ensureSandbox();
      info.sandbox = {
        url: sandbox.url,
        libraries: sandbox.libraries.map((l) => ({ libraryId: l.libraryId, country: l.country, name: l.name, cards: [...l.cards] })),
      };
    }
    if (this.session) info.session = { ...this.session };
    const problem = this.settings.lastLoadProblem;
    if (problem) info.settingsProblem = problem;
    return info;
  }

  async listProfiles(): Promise<ProfileView[]> {
    return Promise.all(this.settings.read().profiles.map((p) => this.view(p)));
  }

  async useSandbox(): Promise<AppInfo> {
    if (!this.settings.outcome().sandboxOffered) {
      throw new PartnerError('invalid-input', "The sandbox is turned off on this computer by your library's IT.");
    }
    const sandbox = await this.ensureSandbox();
    const libraries = sandbox.libraries.map((l) => ({ libraryId: l.libraryId, name: `${l.name} (${l.country})` }));
    this.settings.saveProfile({
      id: SANDBOX_PROFILE_ID, name: 'Built-in sandbox', kind: 'sandbox', baseUrl: '', libraries, wsApi: '2.1',
      country: (sandbox.libraries[0]?.country ?? 'US') as ConnectionProfile['country'],
    });
    this.activate(SANDBOX_PROFILE_ID);
    this.deps.logger.info('connection.sandbox', { url: sandbox.url });
    return this.appInfo();
  }

  async testPartnerConnection(args: ParsedArgsOf<'testPartnerConnection'>): Promise<{ tokenMs: number }> {
    const started = this.deps.now();
    await this.newClient(args.baseUrl, args.wsApi, { username: args.username, password: args.password }).testConnection();
    this.deps.logger.info('connection.test', { baseUrl: normalizeBaseUrl(args.baseUrl), outcome: 'ok' });
    return { tokenMs: this.deps.now() - started };
  }

  /** Tests the connection first; only then are the credentials saved, and only then the profile. */
  async savePartnerProfile(args: ParsedArgsOf<'savePartnerProfile'>): Promise<AppInfo> {
    const { profile, username, password } = args;
    const baseUrl = normalizeBaseUrl(profile.baseUrl);
    const existing = this.settings.read().profiles;
    const id = profile.id ?? uniqueProfileId(profile.name, existing.map((p) => p.id));
    if (id === SANDBOX_PROFILE_ID) throw new PartnerError('invalid-input', 'That profile name is reserved for the built-in sandbox.');
    const next: ConnectionProfile = { id, name: profile.name, kind: 'partner', baseUrl, libraries: profile.libraries, wsApi: profile.wsApi, country: profile.country };
    this.settings.validateProfile(next);
    await this.newClient(baseUrl, profile.wsApi, { username, password }).testConnection();
    await this.deps.vault.save(id, { username, password });
    try {
      this.settings.saveProfile(next);
    } catch (error) {
      await this.deps.vault.forget(id);
      throw error;
    }
    this.activate(id);
    this.deps.logger.info('connection.saved', { profileId: id, baseUrl });
    return this.appInfo();
  }

  async replaceCredentials(args: ParsedArgsOf<'replaceCredentials'>): Promise<ProfileView> {
    const profile = this.partnerProfile(args.profileId);
    const credentials = { username: args.username, password: args.password };
    await this.newClient(profile.baseUrl, profile.wsApi, credentials).testConnection();
    await this.deps.vault.save(profile.id, credentials);
    if (this.client?.profileId === profile.id) this.client = undefined;
    this.deps.logger.info('connection.credentials-replaced', { profileId: profile.id });
    return this.view(profile);
  }

  async forgetCredentials(args: ParsedArgsOf<'forgetCredentials'>): Promise<ProfileView> {
    const profile = this.partnerProfile(args.profileId);
    await this.deps.vault.forget(profile.id);
    if (this.client?.profileId === profile.id) this.client = undefined;
    this.deps.logger.info('connection.credentials-forgotten', { profileId: profile.id });
    return this.view(profile);
  }

  async activateProfile(args: ParsedArgsOf<'activateProfile'>): Promise<AppInfo> {
    this.activate(args.profileId);
    return this.appInfo();
  }

  async removeProfile(args: ParsedArgsOf<'removeProfile'>): Promise<AppInfo> {
    this.profile(args.profileId);
    if (args.profileId !== SANDBOX_PROFILE_ID) await this.deps.vault.forget(args.profileId);
    this.settings.removeProfile(args.profileId);
    if (this.client?.profileId === args.profileId) this.client = undefined;
    this.deps.logger.info('connection.removed', { profileId: args.profileId });
    return this.appInfo();
  }

  async updatePreferences(args: ParsedArgsOf<'updatePreferences'>): Promise<Preferences> {
    const patch: Partial<Preferences> = {};
    if (args.idleLockMinutes !== undefined) patch.idleLockMinutes = args.idleLockMinutes;
    if (args.language !== undefined) patch.language = args.language;
    const settings = this.settings.update(patch);
    return { idleLockMinutes: settings.idleLockMinutes, language: settings.language };
  }

  // ---- staff session ----

  async startShift(args: ParsedArgsOf<'startShift'>): Promise<StaffSession> {
    this.session = { staffName: args.staffName, startedAt: this.deps.now() };
    this.deps.logger.info('session.start', { staff: args.staffName });
    return { ...this.session };
  }

  async lockSession(args: ParsedArgsOf<'lockSession'>): Promise<null> {
    this.lock(args.reason);
    return null;
  }

  /** Also called by main when the operating system locks the screen. */
  lock(reason: EventPayloads['sessionLocked']['reason']): void {
    if (!this.session) return;
    this.deps.logger.info('session.lock', { staff: this.session.staffName, reason });
    this.session = undefined;
    this.deps.emit('sessionLocked', { reason });
  }

  // ---- patron work ----

  async lookupPatron(args: ParsedArgsOf<'lookupPatron'>): Promise<PatronView> {
    const client = await this.clientForWork(args.libraryId);
    return patronView(client, args.libraryId, args.card);
  }

  async borrow(args: ParsedArgsOf<'borrow'>): Promise<ActionOutcome<Loan>> {
    const client = await this.clientForWork(args.libraryId);
    return this.onBehalf('borrow', args, () => client.borrow(args.libraryId, args.card, args.contentId));
  }

  async returnTitle(args: ParsedArgsOf<'returnTitle'>): Promise<ActionOutcome<null>> {
    const client = await this.clientForWork(args.libraryId);
    const outcome = await this.onBehalf('return', args, () => client.returnTitle(args.libraryId, args.card, args.contentId));
    return { value: null, confirmedByReread: outcome.confirmedByReread };
  }

  async placeHold(args: ParsedArgsOf<'placeHold'>): Promise<ActionOutcome<Hold>> {
    const client = await this.clientForWork(args.libraryId);
    return this.onBehalf('place-hold', args, () => client.placeHold(args.libraryId, args.card, args.contentId));
  }

  async removeHold(args: ParsedArgsOf<'removeHold'>): Promise<ActionOutcome<null>> {
    const client = await this.clientForWork(args.libraryId);
    const outcome = await this.onBehalf('remove-hold', args, () => client.removeHold(args.libraryId, args.card, args.contentId));
    return { value: null, confirmedByReread: outcome.confirmedByReread };
  }

  async liveSearch(args: ParsedArgsOf<'liveSearch'>): ReturnType<DeskHandlers['liveSearch']> {
    const client = await this.clientForWork(args.libraryId);
    const { libraryId, ...query } = args;
    return client.search(libraryId, query);
  }

  async liveAvailability(args: ParsedArgsOf<'liveAvailability'>): ReturnType<DeskHandlers['liveAvailability']> {
    const client = await this.clientForWork(args.libraryId);
    return client.contentInfo(args.libraryId, args.contentIds);
  }

  // ---- the catalog mirror ----

  async collectionBrowse(args: ParsedArgsOf<'collectionBrowse'>): ReturnType<DeskHandlers['collectionBrowse']> {
    await this.clientForWork(args.libraryId);
    return this.catalog.service(await this.activeConnection()).browse(args);
  }

  async collectionTitle(args: ParsedArgsOf<'collectionTitle'>): ReturnType<DeskHandlers['collectionTitle']> {
    await this.clientForWork(args.libraryId);
    return this.catalog.service(await this.activeConnection()).detail(args.libraryId, args.contentId) ?? null;
  }

  async collectionRefreshAvailability(args: ParsedArgsOf<'collectionRefreshAvailability'>): ReturnType<DeskHandlers['collectionRefreshAvailability']> {
    await this.clientForWork(args.libraryId);
    return this.catalog.service(await this.activeConnection()).refreshAvailability(args.libraryId, args.contentIds);
  }

  async syncStatus(): ReturnType<DeskHandlers['syncStatus']> {
    const settings = this.settings.read();
    return settings.activeProfileId ? this.catalog.status(await this.activeConnection()) : EMPTY_SYNC_STATUS;
  }

  async syncNow(args: ParsedArgsOf<'syncNow'>): ReturnType<DeskHandlers['syncNow']> {
    this.requireShift();
    const target = await this.activeConnection();
    this.deps.logger.info('catalog.sync', { profileId: target.profile.id, full: args.full });
    return this.catalog.syncNow(target, args.full, (progress) => this.deps.emit('syncProgress', progress));
  }

  /** Every `everyMs` (10 minutes in the product), availability of the titles changed since the last run. */
  startAvailabilityRefresh(everyMs = 600_000): () => void {
    const timer = setInterval(() => {
      void (async () => {
        if (!this.settings.read().activeProfileId) return;
        await this.catalog.refreshChanged(await this.activeConnection());
      })().catch((error: unknown) => this.deps.logger.warn('catalog.refresh-failed', { error }));
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  // ---- plumbing ----

  /** The active profile with what its catalog mirror needs to reach the service. */
  private async activeConnection(): Promise<ProfileConnection> {
    const settings = this.settings.read();
    const profile = settings.profiles.find((p) => p.id === settings.activeProfileId);
    if (!profile) throw new PartnerError('invalid-input', 'No connection is set up yet. Choose the sandbox or a partner service first.');
    if (profile.kind === 'sandbox') {
      const sandbox = await this.ensureSandbox();
      return {
        profile,
        libraries: sandbox.libraries.map((l) => ({ libraryId: l.libraryId, country: l.country as ConnectionProfile['country'] })),
        connection: async () => ({ baseUrl: sandbox.url, username: sandbox.username, password: sandbox.password, wsApi: profile.wsApi }),
        client: () => this.clientFor(profile),
      };
    }
    return {
      profile,
      libraries: profile.libraries.map((l: { libraryId: number }) => ({ libraryId: l.libraryId, country: profile.country })),
      connection: async () => ({ baseUrl: profile.baseUrl, wsApi: profile.wsApi, ...(await this.savedCredentials(profile)) }),
      client: () => this.clientFor(profile),
    };
  }

  /** Every on-behalf action goes to the action log (what staff did) and the app log (what happened). */
  private async onBehalf<T extends { confirmedByReread: boolean }>(
    action: ActionKind, args: { libraryId: number; card: string; contentId: number; title?: string | undefined }, work: () => Promise<T>,
  ): Promise<T> {
    const key = `${action}|${args.libraryId}|${args.card}|${args.contentId}`;
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const promise = this.recordedAction(action, args, work).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  private async recordedAction<T extends { confirmedByReread: boolean }>(
    action: ActionKind, args: { libraryId: number; card: string; contentId: number; title?: string | undefined }, work: () => Promise<T>,
  ): Promise<T> {
    const settings = this.settings.read();
    const profile = settings.profiles.find((p) => p.id === settings.activeProfileId)?.name ?? '';
    const entry = {
      time: this.deps.now(), staff: this.session?.staffName ?? '', profile, libraryId: args.libraryId, card: args.card,
      action, contentId: args.contentId, ...(args.title ? { title: args.title } : {}),
    };
    try {
      const result = await work();
      this.deps.actionLog.record({ ...entry, outcome: 'ok', confirmedByReread: result.confirmedByReread });
      this.deps.logger.info('patron.action', { ...entry, outcome: 'ok', confirmedByReread: result.confirmedByReread });
      return result;
    } catch (error) {
      const outcome = error instanceof PartnerError ? error.code : 'error';
      this.deps.actionLog.record({ ...entry, outcome });
      this.deps.logger.warn('patron.action', { ...entry, outcome });
      throw error;
    }
  }

  async listActions(args: ParsedArgsOf<'listActions'>): Promise<ActionPage> {
    return this.deps.actionLog.list(args.offset, args.limit);
  }

  async exportActions(): Promise<{ fileName: string; csv: string }> {
    const day = new Date(this.deps.now()).toISOString().slice(0, 10);
    return { fileName: `lending-desk-actions-${day}.csv`, csv: this.deps.actionLog.toCsv() };
  }

  private ensureSandbox(): Promise<SandboxHandle> {
    this.sandbox ??= this.deps.startSandbox().catch((error: unknown) => {
      this.sandbox = undefined;
      throw error;
    });
    return this.sandbox;
  }

  private newClient(baseUrl: string, wsApi: string, credentials: PartnerCredentials | (() => Promise<PartnerCredentials>)): PartnerClient {
    return new PartnerClient({ baseUrl, wsApi, credentials, fetch: this.deps.fetch, now: this.deps.now, ...this.deps.clientOptions });
  }

  /** The active profile's client, for patron and catalog work: needs an open shift and a library of the profile. */
  private async clientForWork(libraryId: number): Promise<PartnerClient> {
    this.requireShift();
    const { profile, libraries } = await this.activeConnection();
    if (!libraries.some((l) => l.libraryId === libraryId)) throw new PartnerError('invalid-input', `Library ${libraryId} is not part of the connection "${profile.name}".`);
    if (this.client?.profileId !== profile.id) this.client = { profileId: profile.id, client: await this.clientFor(profile) };
    return this.client.client;
  }

  private async clientFor(profile: ConnectionProfile): Promise<PartnerClient> {
    if (profile.kind === 'sandbox') {
      const sandbox = await this.ensureSandbox();
      return this.newClient(sandbox.url, profile.wsApi, { username: sandbox.username, password: sandbox.password });
    }
    return this.newClient(profile.baseUrl, profile.wsApi, () => this.savedCredentials(profile));
  }

  /** A partner profile's credentials from the keychain, read when a token is needed. */
  private async savedCredentials(profile: ConnectionProfile): Promise<PartnerCredentials> {
    const credentials = await this.deps.vault.read(profile.id);
    if (!credentials) throw new PartnerError('unauthorized', `No saved username and password for "${profile.name}". Enter them in Settings → Connections.`);
    return credentials;
  }

  private requireShift(): void {
    if (!this.session) throw new PartnerError('session-locked', 'The desk is locked. Enter your name to start a shift.');
  }

  private activate(profileId: string): void {
    this.settings.setActiveProfile(profileId);
    this.client = undefined;
  }

  private profile(id: string): ConnectionProfile {
    const profile = this.settings.read().profiles.find((p) => p.id === id);
    if (!profile) throw new PartnerError('invalid-input', `There is no connection profile "${id}".`);
    return profile;
  }

  private partnerProfile(id: string): ConnectionProfile {
    const profile = this.profile(id);
    if (profile.kind !== 'partner') throw new PartnerError('invalid-input', 'The built-in sandbox needs no credentials.');
    return profile;
  }

  private async view(profile: ConnectionProfile): Promise<ProfileView> {
    const hasCredentials = profile.kind === 'sandbox' ? true : await this.deps.vault.has(profile.id).catch(() => false);
    return {
      id: profile.id, name: profile.name, kind: profile.kind, baseUrl: profile.baseUrl,
      libraries: profile.libraries.map((l) => (l.name === undefined ? { libraryId: l.libraryId } : { libraryId: l.libraryId, name: l.name })),
      wsApi: profile.wsApi, country: profile.country, hasCredentials,
    };
  }
}

export type { DeskSettings };
