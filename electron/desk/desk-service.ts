// DeskService: the contract's implementation. Plain TypeScript with every collaborator
// injected (settings, vault, fetch, sandbox starter, logger, clock), no `electron` import, so
// the same object runs in Electron's main process, in Vitest and in the Chromium test host.

import { createHash, timingSafeEqual } from 'node:crypto';
import {
  METHOD_NAMES,
  type ActionEntry, type ActionExport, type ActionOutcome, type ActionPage, type AppInfo, type CardElsewhere, type DeskHandlers, type EventName,
  type EventPayloads, type MethodName, type ParsedArgsOf, type PatronView, type Preferences, type ProfileView, type SignInView, type StaffSession,
} from '../shared/contract.ts';
import type { ActionKind, ActionLog } from '../action-log/action-log.ts';
import { logRules, retentionCutoff, type LogRules } from '../action-log/rules.ts';
import type { Connection } from '../connection/connection.ts';
import { Connections, originOf, type ConnectionsOptions } from '../connection/connections.ts';
import type { SandboxEndpoint } from '../connection/sandbox-endpoint.ts';
import type { CredentialVault } from '../credentials/vault.ts';
import type { Logger } from '../logging/logger.ts';
import type { PartnerClientOptions } from '../partner/client.ts';
import { isPartnerError, PartnerError } from '../partner/errors.ts';
import type { Hold, Loan } from '../shared/model.ts';
import { normalizeBaseUrl, type FetchFn } from '../partner/transport.ts';
import { PolicySettings, type Policy, type PolicyProblems } from '../policy/index.ts';
import type { ConnectionProfile, DeskSettings, Settings } from '../settings/index.ts';
import { repeatEvery, type RepeatingTask } from './repeating-task.ts';
import { EMPTY_SYNC_STATUS, syncRequest } from './sync-request.ts';
import { DeskClipboard, type ClipboardPort } from './clipboard.ts';
import { WHILE_LOCKED, type WhileLocked } from './lock-gate.ts';
import { patronView } from './patron-view.ts';
import { uniqueProfileId } from './profile-id.ts';
import { SignInFile } from './sign-in-file.ts';
import { currentOsUserName, StaffSignIn } from './staff-sign-in.ts';

export const SANDBOX_PROFILE_ID = 'sandbox';

export interface DeskServiceDeps {
  settings: Settings;
  /** The machine-wide policy file's content, when IT installed one; it wins over settings. */
  policy?: Policy | undefined;
  /** Why the machine policy was ignored (the desk fails closed) or its updates refused. */
  policyProblem?: PolicyProblems | undefined;
  vault: CredentialVault;
  /** The transport to partner services (Electron's net.fetch in the product: the OS proxy and certificates). */
  fetch: FetchFn;
  /** Starts the built-in sandbox for its connection (in-process in the product). */
  sandbox: () => Promise<SandboxEndpoint>;
  logger: Logger;
  /** The on-behalf action log, sealed with a key from the keychain. */
  actionLog: ActionLog;
  /** Where the desk PIN's hash and the count of wrong tries are kept (sign-in.json beside the settings). */
  signInFile: string;
  /** The operating system's user name, recorded beside the staff name (os.userInfo() unless given). */
  osUserName?: () => string;
  /** The scrypt cost (log2) of a desk PIN set here: 16 unless a test asks for the lowest the desk accepts (14). */
  deskPinCostLog2?: number;
  now: () => number;
  version: string;
  /** Windows: this copy is installed for all users (MSI or per-machine), so it never updates itself. */
  installedForAllUsers?: boolean;
  emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => void;
  /** Where the catalog mirrors live and how they are written. */
  mirrors: ConnectionsOptions['mirrors'];
  /** The system clipboard (Electron's in the product). */
  clipboard: ClipboardPort;
  /** The service's rate limit shared by desk, sync and refresh (about 100 a minute). */
  ratePerMinute?: number;
  /** Client options for tests (short timeouts, instant or simulated sleeps). */
  clientOptions?: Partial<PartnerClientOptions>;
}

export class DeskService implements DeskHandlers {
  private readonly deps: DeskServiceDeps;
  private readonly settings: PolicySettings;
  private readonly connections: Connections;
  private session: StaffSession | undefined;
  /** Who the operating system says is signed in, beside the staff name of the open shift. */
  private osUser = '';
  private readonly signIn: StaffSignIn;
  private readonly logRules: LogRules;
  private readonly osUserName: () => string;
  private readonly clipboard: DeskClipboard;
  /** On-behalf actions under way, so a double click or a repeated Enter joins the first instead of sending twice. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(deps: DeskServiceDeps) {
    this.deps = deps;
    this.settings = new PolicySettings(deps.settings, deps.policy, deps.policyProblem);
    // An ignored policy gives nothing, as everywhere: the desk PIN and the log's defaults apply.
    const policy = deps.policyProblem?.ignored ? undefined : deps.policy;
    this.osUserName = deps.osUserName ?? currentOsUserName;
    this.signIn = new StaffSignIn({
      file: new SignInFile(deps.signInFile), staffPins: policy?.staffPins, now: deps.now, logger: deps.logger, osUserName: this.osUserName,
      ...(deps.deskPinCostLog2 === undefined ? {} : { deskPinCostLog2: deps.deskPinCostLog2 }),
    });
    this.logRules = logRules(policy);
    this.clipboard = new DeskClipboard(deps.clipboard);
    this.connections = new Connections({
      fetch: deps.fetch, vault: deps.vault, sandbox: deps.sandbox, mirrors: deps.mirrors, now: deps.now, logger: deps.logger,
      ...(deps.ratePerMinute === undefined ? {} : { ratePerMinute: deps.ratePerMinute }),
      ...(deps.clientOptions ? { clientOptions: deps.clientOptions } : {}),
    });
    this.guardWhileLocked();
  }

  /**
   * Every contract method passes the lock gate (lock-gate.ts) before its body runs, whoever calls
   * it — the IPC registry, the test host, a bench — so no method can forget to check.
   */
  private guardWhileLocked(): void {
    for (const name of METHOD_NAMES) {
      const rule = WHILE_LOCKED[name];
      if (rule === 'open') continue;
      const handler = this[name] as (args: unknown) => Promise<unknown>;
      Object.defineProperty(this, name, {
        configurable: true,
        value: async (args: unknown): Promise<unknown> => {
          this.admit(name, rule, args);
          return handler.call(this, args);
        },
      });
    }
  }

  private admit(method: MethodName, rule: Exclude<WhileLocked, 'open'>, args: unknown): void {
    if (this.session) return;
    if (rule === 'before-any-connection' && this.activeProfile() === undefined) return;
    if (rule === 'language-only' && Object.entries(args as Record<string, unknown>).every(([key, value]) => key === 'language' || value === undefined)) return;
    throw new PartnerError('session-locked', `${method}: the desk is locked.`, undefined, { reason: 'session.locked', params: {} });
  }

  private activeProfile(): ConnectionProfile | undefined {
    const settings = this.settings.read();
    return settings.profiles.find((p) => p.id === settings.activeProfileId);
  }

  /** The open connection, if any (tests and the reliability runs look at its budget and sandbox). */
  openConnection(): Promise<Connection | undefined> {
    return this.connections.current();
  }

  async close(): Promise<void> {
    await this.connections.close();
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
      signIn: await this.signInView(),
    };
    if (this.deps.installedForAllUsers) info.installedForAllUsers = true;
    if (active) info.activeProfile = await this.view(active);
    // The demo patrons are training data, but a locked desk shows no patron at all.
    if (active?.kind === 'sandbox' && this.session) {
      const sandbox = (await this.connections.for(active)).sandbox;
      if (sandbox) {
        info.sandbox = { libraries: sandbox.libraries.map((l) => ({ libraryId: l.libraryId, country: l.country, name: l.name, cards: [...l.cards] })) };
      }
    }
    if (this.session) info.session = { ...this.session };
    const problem = this.settings.lastLoadProblem;
    if (problem) info.settingsProblem = { reason: problem.reason, params: problem.params };
    return info;
  }

  async listProfiles(): Promise<ProfileView[]> {
    return Promise.all(this.settings.read().profiles.map((p) => this.view(p)));
  }

  async useSandbox(): Promise<AppInfo> {
    if (!this.settings.outcome().sandboxOffered) {
      throw PartnerError.because('invalid-input', 'policy.sandbox-off');
    }
    const profile: ConnectionProfile = { id: SANDBOX_PROFILE_ID, name: 'Built-in sandbox', kind: 'sandbox', baseUrl: '', libraries: [], wsApi: '2.1', country: 'US' };
    const existing = this.settings.read().profiles.find((p) => p.id === SANDBOX_PROFILE_ID);
    if (!existing) this.settings.saveProfile(profile);
    await this.activate(SANDBOX_PROFILE_ID);
    // The sandbox names its libraries; the profile keeps them for the library picker.
    const { sandbox } = await this.connections.for(existing ?? profile);
    if (sandbox) {
      this.settings.saveProfile({
        ...profile,
        libraries: sandbox.libraries.map((l) => ({ libraryId: l.libraryId, name: `${l.name} (${l.country})` })),
        country: (sandbox.libraries[0]?.country ?? 'US') as ConnectionProfile['country'],
      });
    }
    this.deps.logger.info('connection.sandbox', { inProcess: sandbox?.fetch !== undefined });
    return this.appInfo();
  }

  async testPartnerConnection(args: ParsedArgsOf<'testPartnerConnection'>): Promise<{ tokenMs: number }> {
    const started = this.deps.now();
    await this.connections.probe(args.baseUrl, args.wsApi, { username: args.username, password: args.password });
    this.deps.logger.info('connection.test', { baseUrl: normalizeBaseUrl(args.baseUrl), outcome: 'ok' });
    return { tokenMs: this.deps.now() - started };
  }

  /** Tests the connection first; only then are the credentials saved (bound to this address), and only then the profile. */
  async savePartnerProfile(args: ParsedArgsOf<'savePartnerProfile'>): Promise<AppInfo> {
    const { profile, username, password } = args;
    const baseUrl = normalizeBaseUrl(profile.baseUrl);
    const existing = this.settings.read().profiles;
    const id = profile.id ?? uniqueProfileId(profile.name, existing.map((p) => p.id));
    if (id === SANDBOX_PROFILE_ID) throw PartnerError.because('invalid-input', 'profile.sandbox-name-reserved');
    const next: ConnectionProfile = { id, name: profile.name, kind: 'partner', baseUrl, libraries: profile.libraries, wsApi: profile.wsApi, country: profile.country };
    this.settings.validateProfile(next);
    await this.connections.probe(baseUrl, profile.wsApi, { username, password });
    await this.connections.discard(id);
    await this.deps.vault.save(id, { username, password }, originOf(baseUrl));
    try {
      this.settings.saveProfile(next);
    } catch (error) {
      await this.deps.vault.forget(id);
      throw error;
    }
    await this.activate(id);
    this.deps.logger.info('connection.saved', { profileId: id, baseUrl });
    return this.appInfo();
  }

  /** New credentials for a profile, tested against its address and bound to it. */
  async replaceCredentials(args: ParsedArgsOf<'replaceCredentials'>): Promise<ProfileView> {
    const profile = this.partnerProfile(args.profileId);
    const credentials = { username: args.username, password: args.password };
    await this.connections.probe(profile.baseUrl, profile.wsApi, credentials);
    await this.connections.discard(profile.id);
    await this.deps.vault.save(profile.id, credentials, originOf(profile.baseUrl));
    this.deps.logger.info('connection.credentials-replaced', { profileId: profile.id });
    return this.view(profile);
  }

  async forgetCredentials(args: ParsedArgsOf<'forgetCredentials'>): Promise<ProfileView> {
    const profile = this.partnerProfile(args.profileId);
    await this.connections.discard(profile.id);
    await this.deps.vault.forget(profile.id);
    this.deps.logger.info('connection.credentials-forgotten', { profileId: profile.id });
    return this.view(profile);
  }

  async activateProfile(args: ParsedArgsOf<'activateProfile'>): Promise<AppInfo> {
    await this.activate(args.profileId);
    return this.appInfo();
  }

  async removeProfile(args: ParsedArgsOf<'removeProfile'>): Promise<AppInfo> {
    this.profile(args.profileId);
    this.settings.removeProfile(args.profileId);
    await this.connections.remove(args.profileId);
    if (args.profileId !== SANDBOX_PROFILE_ID) await this.deps.vault.forget(args.profileId);
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

  /** Opens a shift for whoever the PIN lets in (staff-sign-in.ts): the name typed, or the policy's spelling of it. */
  async startShift(args: ParsedArgsOf<'startShift'>): Promise<StaffSession> {
    const staffName = await this.signIn.signIn(args.staffName, args.pin);
    this.osUser = this.osUserName();
    this.session = { staffName, startedAt: this.deps.now() };
    this.deps.logger.info('session.start', { staff: staffName, osUser: this.osUser, signIn: this.signIn.method });
    return { ...this.session };
  }

  /**
   * The desk PIN, where the policy sets no per-staff PINs. Setting or changing it takes the
   * active partner connection's password (tested against the service, and saved, when none is
   * saved here yet); on a sandbox-only training desk, the current PIN (nothing for the first).
   */
  async setDeskPin(args: ParsedArgsOf<'setDeskPin'>): Promise<AppInfo> {
    if (this.signIn.method === 'staff-pins') throw PartnerError.because('invalid-input', 'pin.set-by-policy');
    const partner = this.pinPartnerProfile();
    let proof: SignInView['deskPinNeeds'] = 'nothing';
    if (partner) {
      proof = 'partner-password';
      await this.provePartnerPassword(partner, args.partnerUsername, args.partnerPassword);
    } else if (this.signIn.ready) {
      proof = 'current-pin';
      const current = args.currentPin;
      if (current === undefined) throw PartnerError.because('invalid-input', 'pin.current-pin-needed');
      await this.signIn.prove('current-pin', () => this.signIn.isDeskPin(current), PartnerError.because('unauthorized', 'pin.current-pin-wrong'));
    }
    await this.signIn.setDeskPin(args.pin);
    this.deps.logger.info('session.desk-pin-set', { osUser: this.osUserName(), proof });
    return this.appInfo();
  }

  /**
   * Whose partner password sets the desk PIN: the active connection's, or on a desk training on
   * the sandbox, the first partner connection it holds (its PIN guards that connection too). None
   * on a sandbox-only desk.
   */
  private pinPartnerProfile(): ConnectionProfile | undefined {
    const active = this.activeProfile();
    return active?.kind === 'partner' ? active : this.settings.read().profiles.find((p) => p.kind === 'partner');
  }

  private async provePartnerPassword(profile: ConnectionProfile, username: string | undefined, password: string | undefined): Promise<void> {
    const params = { profile: profile.name };
    const saved = (await this.connections.credentialsState(profile)) === 'saved' ? await this.deps.vault.read(profile.id) : undefined;
    if (password === undefined) throw PartnerError.because('invalid-input', saved ? 'pin.partner-password-needed' : 'pin.partner-username-needed', params);
    const wrong = PartnerError.because('unauthorized', 'pin.partner-password-wrong', params);
    if (saved) {
      await this.signIn.prove('partner-password', async () => sameSecret(saved.password, password), wrong);
      return;
    }
    if (username === undefined) throw PartnerError.because('invalid-input', 'pin.partner-username-needed', params);
    // Nothing saved (a preset connection on its first start): whoever the service accepts holds the password; it is saved as Settings would.
    await this.signIn.prove('partner-password', async () => {
      try {
        await this.connections.probe(profile.baseUrl, profile.wsApi, { username, password });
        return true;
      } catch (error) {
        if (error instanceof PartnerError && error.code === 'unauthorized') return false;
        throw error;
      }
    }, wrong);
    await this.connections.discard(profile.id);
    await this.deps.vault.save(profile.id, { username, password }, originOf(profile.baseUrl));
    this.deps.logger.info('connection.credentials-replaced', { profileId: profile.id });
  }

  private async signInView(): Promise<SignInView> {
    const { method, ready, waitSeconds } = this.signIn;
    const view: SignInView = { method, ready, waitSeconds, deskPinNeeds: 'nothing' };
    const partner = method === 'desk-pin' ? this.pinPartnerProfile() : undefined;
    if (method === 'staff-pins') view.deskPinNeeds = 'policy';
    else if (partner) {
      view.deskPinNeeds = 'partner-password';
      view.partnerProfile = partner.name;
      view.partnerUsernameNeeded = (await this.connections.credentialsState(partner).catch(() => 'missing' as const)) !== 'saved';
    } else if (ready) view.deskPinNeeds = 'current-pin';
    return view;
  }

  async copyText(args: ParsedArgsOf<'copyText'>): Promise<null> {
    this.requireShift();
    await this.clipboard.copy(args.text);
    this.deps.logger.info('clipboard.copy', { purpose: args.purpose, characters: args.text.length });
    return null;
  }

  async lockSession(args: ParsedArgsOf<'lockSession'>): Promise<null> {
    await this.lock(args.reason);
    return null;
  }

  /** Also called by main when the operating system locks the screen. */
  async lock(reason: EventPayloads['sessionLocked']['reason']): Promise<void> {
    if (!this.session) return;
    const staff = this.session.staffName;
    this.session = undefined;
    this.osUser = '';
    this.deps.emit('sessionLocked', { reason });
    const clipboardCleared = await this.clipboard.clearIfOurs().catch(() => false);
    this.deps.logger.info('session.lock', { staff, reason, clipboardCleared });
  }

  // ---- patron work ----

  async lookupPatron(args: ParsedArgsOf<'lookupPatron'>): Promise<PatronView> {
    const { desk } = await this.connectionForWork(args.libraryId);
    return patronView(desk, args.libraryId, args.card);
  }

  /** A card this library does not know, tried at the profile's other libraries at once: staff switch to one that knows it. */
  async findCardElsewhere(args: ParsedArgsOf<'findCardElsewhere'>): Promise<CardElsewhere[]> {
    const { desk, libraries } = await this.connectionForWork(args.libraryId);
    const others = libraries.map((l) => l.libraryId).filter((libraryId) => libraryId !== args.libraryId);
    return Promise.all(others.map(async (libraryId): Promise<CardElsewhere> => {
      try {
        await desk.patronStatus(libraryId, args.card);
        return { libraryId, known: true };
      } catch (error) {
        if (!isPartnerError(error)) throw error;
        return error.code === 'invalid-patron' ? { libraryId, known: false } : { libraryId, known: false, error: error.toInfo() };
      }
    }));
  }

  async borrow(args: ParsedArgsOf<'borrow'>): Promise<ActionOutcome<Loan>> {
    const { desk } = await this.connectionForWork(args.libraryId);
    return this.onBehalf('borrow', args, () => desk.borrow(args.libraryId, args.card, args.contentId));
  }

  async returnTitle(args: ParsedArgsOf<'returnTitle'>): Promise<ActionOutcome<null>> {
    const { desk } = await this.connectionForWork(args.libraryId);
    const outcome = await this.onBehalf('return', args, () => desk.returnTitle(args.libraryId, args.card, args.contentId));
    return { value: null, confirmedByReread: outcome.confirmedByReread };
  }

  async placeHold(args: ParsedArgsOf<'placeHold'>): Promise<ActionOutcome<Hold>> {
    const { desk } = await this.connectionForWork(args.libraryId);
    return this.onBehalf('place-hold', args, () => desk.placeHold(args.libraryId, args.card, args.contentId));
  }

  async removeHold(args: ParsedArgsOf<'removeHold'>): Promise<ActionOutcome<null>> {
    const { desk } = await this.connectionForWork(args.libraryId);
    const outcome = await this.onBehalf('remove-hold', args, () => desk.removeHold(args.libraryId, args.card, args.contentId));
    return { value: null, confirmedByReread: outcome.confirmedByReread };
  }

  async liveSearch(args: ParsedArgsOf<'liveSearch'>): ReturnType<DeskHandlers['liveSearch']> {
    const { desk } = await this.connectionForWork(args.libraryId);
    const { libraryId, ...query } = args;
    return desk.search(libraryId, query);
  }

  async liveAvailability(args: ParsedArgsOf<'liveAvailability'>): ReturnType<DeskHandlers['liveAvailability']> {
    const { desk } = await this.connectionForWork(args.libraryId);
    return desk.contentInfo(args.libraryId, args.contentIds);
  }

  // ---- the catalog mirror ----

  async collectionBrowse(args: ParsedArgsOf<'collectionBrowse'>): ReturnType<DeskHandlers['collectionBrowse']> {
    return (await this.connectionForWork(args.libraryId)).mirror.browse(args);
  }

  async collectionTitle(args: ParsedArgsOf<'collectionTitle'>): ReturnType<DeskHandlers['collectionTitle']> {
    return (await this.connectionForWork(args.libraryId)).mirror.detail(args.libraryId, args.contentId) ?? null;
  }

  async collectionRefreshAvailability(args: ParsedArgsOf<'collectionRefreshAvailability'>): ReturnType<DeskHandlers['collectionRefreshAvailability']> {
    return (await this.connectionForWork(args.libraryId)).mirror.refreshAvailability(args.libraryId, args.contentIds);
  }

  async syncStatus(): ReturnType<DeskHandlers['syncStatus']> {
    const connection = await this.activeConnectionIfAny();
    return connection ? { available: true, ...connection.mirror.status() } : EMPTY_SYNC_STATUS;
  }

  async syncNow(args: ParsedArgsOf<'syncNow'>): ReturnType<DeskHandlers['syncNow']> {
    this.requireShift();
    const connection = await this.activeConnection();
    this.deps.logger.info('catalog.sync', { profileId: connection.profile.id, full: args.full });
    try {
      const status = await connection.mirror.syncNow(syncRequest(connection, args.full), (progress) => this.deps.emit('syncProgress', progress));
      return { available: true, ...status };
    } catch (error) {
      // Its connection closed under it (a credential or address change, the app quitting): the
      // run was cancelled, not failed. It resumes from its stored page on the next sync, and
      // staff see the state it stopped in, not an error.
      if (!connection.closed) throw error;
      this.deps.logger.info('catalog.sync-cancelled', { profileId: connection.profile.id });
      return this.syncStatus();
    }
  }

  /** Every `everyMs` (10 minutes in the product), availability of the titles changed since the last run. */
  startAvailabilityRefresh(everyMs = 600_000): RepeatingTask {
    return repeatEvery(everyMs, () => this.refreshChanged(), { onError: (error) => this.deps.logger.warn('catalog.refresh-failed', { error }) });
  }

  /** The spec's 10-minute refresh, for a connection whose entitlements have been mirrored once. */
  async refreshChanged(): Promise<boolean> {
    const connection = await this.activeConnectionIfAny();
    if (!connection) return false;
    const mirrored = connection.mirror.status().sources.some((s) => s.source.startsWith('entitlements:') && s.lastSuccessAt !== undefined);
    if (mirrored) await connection.mirror.refreshChanged(connection.libraries.map((l) => l.libraryId));
    return mirrored;
  }

  // ---- plumbing ----

  /** The active profile's connection, opened (or reopened after any change to the profile) as needed. */
  private async activeConnection(): Promise<Connection> {
    const connection = await this.activeConnectionIfAny();
    if (!connection) throw PartnerError.because('invalid-input', 'connection.none');
    return connection;
  }

  private async activeConnectionIfAny(): Promise<Connection | undefined> {
    const settings = this.settings.read();
    const profile = settings.profiles.find((p) => p.id === settings.activeProfileId);
    return profile ? this.connections.for(profile) : undefined;
  }

  /**
   * Every on-behalf action goes to the action log (what staff did, for the retention period) and
   * the app log (that it happened, without the card, the title or even the title's id: the app log
   * is kept by size, not by days, and is sent to support).
   */
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
    const keeping = this.logRules.retentionDays > 0;
    // No key, no action: an action the log cannot record safely is not sent (there is no plaintext fallback).
    if (keeping) await this.deps.actionLog.open();
    const profile = this.activeProfile();
    const libraryName = profile?.libraries.find((l) => l.libraryId === args.libraryId)?.name;
    const entry = {
      time: this.deps.now(), staff: this.session?.staffName ?? '', osUser: this.osUser, profile: profile?.name ?? '',
      libraryId: args.libraryId, ...(libraryName ? { libraryName } : {}), card: args.card,
      action, contentId: args.contentId, ...(args.title && this.logRules.titles ? { title: args.title } : {}),
    };
    const record = async (outcome: string, confirmedByReread?: boolean): Promise<void> => {
      const fields = { action, outcome, ...(confirmedByReread === undefined ? {} : { confirmedByReread }) };
      if (outcome === 'ok') this.deps.logger.info('patron.action', fields);
      else this.deps.logger.warn('patron.action', fields);
      if (!keeping) return;
      // The action happened (or failed) whatever the disk says: a write that fails is reported, not thrown at staff.
      await this.deps.actionLog.record({ ...entry, ...fields }).catch((error: unknown) => this.deps.logger.error('action-log.write-failed', { error }));
    };
    try {
      const result = await work();
      await record('ok', result.confirmedByReread);
      return result;
    } catch (error) {
      await record(error instanceof PartnerError ? error.code : 'error');
      throw error;
    }
  }

  async listActions(args: ParsedArgsOf<'listActions'>): Promise<ActionPage> {
    const { offset, limit, ...filter } = args;
    if (this.logRules.retentionDays === 0) return { total: 0, entries: [], skipped: 0 };
    return this.deps.actionLog.page(filter, offset, limit);
  }

  /** The entries for a CSV, oldest first; the renderer words it in the desk's language (shared/action-log-csv.ts). */
  async exportActions(args: ParsedArgsOf<'exportActions'>): Promise<ActionExport> {
    const fileName = `lending-desk-actions-${localDay(this.deps.now())}.csv`;
    if (this.logRules.retentionDays === 0) return { fileName, entries: [], skipped: 0 };
    return { fileName, ...await this.deps.actionLog.matching(args) };
  }

  /** What this desk did today (local time) for the patron on screen. */
  async todaysActions(args: ParsedArgsOf<'todaysActions'>): Promise<ActionEntry[]> {
    if (this.logRules.retentionDays === 0) return [];
    const today = new Date(this.deps.now());
    today.setHours(0, 0, 0, 0);
    return this.deps.actionLog.forPatron(args.libraryId, args.card, today.getTime());
  }

  /** The retention period, applied now and every `everyMs` (a day in the product): old entries, and titles the policy no longer allows, go. */
  startActionLogRetention(everyMs = 86_400_000): RepeatingTask {
    return repeatEvery(everyMs, () => this.applyRetention(), { now: true, onError: (error) => this.deps.logger.warn('action-log.purge-failed', { error }) });
  }

  async applyRetention(): Promise<void> {
    const { retentionDays, titles } = this.logRules;
    if (retentionDays === 0) {
      const setAside = this.deps.actionLog.erase();
      this.deps.logger.info('action-log.purged', { retentionDays, erased: true, setAsideRemoved: setAside });
      return;
    }
    const result = await this.deps.actionLog.purge({ before: retentionCutoff(this.deps.now(), retentionDays), titles });
    this.deps.logger.info('action-log.purged', { retentionDays, keepTitles: titles, ...result });
  }

  /** Patron and catalog work: an open shift and a library of the active connection. */
  private async connectionForWork(libraryId: number): Promise<Connection> {
    this.requireShift();
    const connection = await this.activeConnection();
    if (!connection.libraries.some((l) => l.libraryId === libraryId)) {
      throw PartnerError.because('invalid-input', 'connection.library-not-in-profile', { libraryId, profile: connection.profile.name });
    }
    return connection;
  }

  private requireShift(): void {
    if (!this.session) throw PartnerError.because('session-locked', 'session.locked');
  }

  /** Another profile becomes active: the open connection (and a sandbox it runs) closes. */
  private async activate(profileId: string): Promise<void> {
    this.settings.setActiveProfile(profileId);
    const open = await this.connections.current();
    if (open && open.profile.id !== profileId) await this.connections.discard(open.profile.id);
  }

  private profile(id: string): ConnectionProfile {
    const profile = this.settings.read().profiles.find((p) => p.id === id);
    if (!profile) throw PartnerError.because('invalid-input', 'profile.not-found', { id });
    return profile;
  }

  private partnerProfile(id: string): ConnectionProfile {
    const profile = this.profile(id);
    if (profile.kind !== 'partner') throw PartnerError.because('invalid-input', 'profile.sandbox-needs-no-credentials');
    return profile;
  }

  private async view(profile: ConnectionProfile): Promise<ProfileView> {
    const credentials = profile.kind === 'sandbox' ? 'saved' : await this.connections.credentialsState(profile).catch(() => 'missing' as const);
    return {
      id: profile.id, name: profile.name, kind: profile.kind, baseUrl: profile.baseUrl,
      libraries: profile.libraries.map((l) => (l.name === undefined ? { libraryId: l.libraryId } : { libraryId: l.libraryId, name: l.name })),
      wsApi: profile.wsApi, country: profile.country, hasCredentials: credentials === 'saved', credentials,
    };
  }
}

export type { DeskSettings };

/** Compared as digests so the time taken says nothing of where two passwords differ. */
function sameSecret(saved: string, typed: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(saved), digest(typed));
}

function localDay(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
