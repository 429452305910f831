// DeskService: the contract's implementation. Plain TypeScript with every collaborator
// injected (settings, vault, fetch, sandbox starter, logger, clock), no `electron` import, so
// the same object runs in Electron's main process, in Vitest and in the Chromium test host.

import { createHash, timingSafeEqual } from 'node:crypto';
import {
  METHOD_NAMES,
  type ActionEntry, type ActionExport, type ActionOutcome, type ActionPage, type AppInfo, type CardElsewhere, type DeskHandlers, type EventName,
  type EventPayloads, type MethodName, type ParsedArgsOf, type PatronView, type Preferences, type ProfileView, type SignInView, type StaffSession, type SyncStatusView,
} from '../shared/contract.ts';
import type { ActionFilter, ActionKind, ActionLog } from '../action-log/action-log.ts';
import type { LogAuditKind } from '../shared/action-log.ts';
import { logRules, nextRetentionRun, retentionCutoff, type LogRules } from '../action-log/rules.ts';
import type { Connection } from '../connection/connection.ts';
import { Connections, originOf, type ConnectionsOptions } from '../connection/connections.ts';
import type { SandboxEndpoint } from '../connection/sandbox-endpoint.ts';
import { DESK_RECORDS, type DeskKeychain } from '../credentials/desk-keychain.ts';
import type { CredentialVault, SavedCredentials } from '../credentials/vault.ts';
import type { Logger } from '../logging/logger.ts';
import type { PartnerClientOptions } from '../partner/client.ts';
import { isPartnerError, PartnerError } from '../partner/errors.ts';
import type { ContentId, Hold, Loan } from '../shared/model.ts';
import { pinProblem } from '../shared/pin-rules.ts';
import { normalizeBaseUrl, type FetchFn } from '../partner/transport.ts';
import { PolicySettings, type Policy, type PolicyProblems } from '../policy/index.ts';
import { profileFingerprint, type ConnectionProfile, type DeskSettings, type Settings } from '../settings/index.ts';
import { repeatEvery, type RepeatingTask } from './repeating-task.ts';
import { emptySyncStatus, syncRequest } from './sync-request.ts';
import { fullPassDue, fullPassRule, fullPassView, type FullPassRule } from './full-pass.ts';
import { LIBRARY_FILL_CHECK_EVERY_MS, libraryFillDue, libraryMirrorOptions, libraryMirrorView, saveLibraryMirrorPassword } from './library-desk.ts';
import { TitlePages } from './title-pages.ts';
import { DeskClipboard, type ClipboardPort } from './clipboard.ts';
import { ConnectionRecords, type ConnectionRecord } from './connection-records.ts';
import { deskPinProof, type ProofConnection } from './desk-pin-proof.ts';
import { countsAsActivity, IdleClock } from './idle-clock.ts';
import { WHILE_LOCKED, type WhileLocked } from './lock-gate.ts';
import { patronView } from './patron-view.ts';
import { MIN_COST_LOG2, PRODUCT_PIN_COST, type PinCost } from './pin-hash.ts';
import { uniqueProfileId } from './profile-id.ts';
import { SignInRecords } from './sign-in-record.ts';
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
  /**
   * The desk's own records in the OS keychain: the sign-in record (the desk PIN's hash, wrong tries,
   * shifts), the connections it set up, the action log's head. Nothing a file edit can reach.
   */
  keychain: DeskKeychain;
  /** Where an earlier version kept the sign-in record (sign-in.json): found, it only says the desk was set up. */
  legacySignInFile: string;
  /** The operating system's user name, recorded beside the staff name (os.userInfo() unless given). */
  osUserName?: () => string;
  /**
   * Tests only (tests/support/weak-pin-cost.ts): a scrypt cost below 2^16, so suites that set many
   * PINs stay quick. Main never passes one, so a real desk neither makes nor accepts a weaker hash.
   */
  pinCost?: PinCost;
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
  /** Which partner connections this desk set up, and in which shift (in the keychain). */
  private readonly connectionRecords: ConnectionRecords;
  /** A machine policy exists but was refused: nobody signs in (it never falls back to a desk PIN). */
  private readonly policyRefused: boolean;
  private readonly logRules: LogRules;
  /** How often the full entitlement pass runs (IT's policy, or a week). */
  private readonly fullPass: FullPassRule;
  private readonly osUserName: () => string;
  private readonly clipboard: DeskClipboard;
  /** The last time someone used the desk, for main's own idle lock. */
  private readonly idle: IdleClock;
  /** The hosts of title pages the service named in what the desk showed: main opens links to them (title-pages.ts). */
  private readonly titlePages = new TitlePages();
  /** IT's policy names the library mirror: the Collection is filled from it (library-desk.ts). */
  private readonly libraryPolicy: Policy['libraryMirror'];
  /** On-behalf actions under way, so a double click or a repeated Enter joins the first instead of sending twice. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(deps: DeskServiceDeps) {
    this.deps = deps;
    this.settings = new PolicySettings(deps.settings, deps.policy, deps.policyProblem);
    this.policyRefused = deps.policyProblem?.ignored !== undefined;
    // A refused policy gives nothing: no staff PINs, the log's defaults — and no sign-in at all.
    const policy = this.policyRefused ? undefined : deps.policy;
    this.osUserName = deps.osUserName ?? currentOsUserName;
    const cost = deps.pinCost ?? PRODUCT_PIN_COST;
    if (cost.floorLog2 < MIN_COST_LOG2) deps.logger.warn('sign-in.test-pin-cost', { floorLog2: cost.floorLog2 });
    this.connectionRecords = new ConnectionRecords({
      keychain: deps.keychain,
      adopt: () => this.adoptEarlierConnections(),
      onNotOurs: () => deps.logger.warn('connection.records-not-ours', {}),
    });
    const records = new SignInRecords({
      keychain: deps.keychain, legacyFile: deps.legacySignInFile, floorLog2: cost.floorLog2, now: deps.now,
      setUpElsewhere: async () => (await this.connectionRecords.anyKept()) || (await deps.keychain.read(DESK_RECORDS.actionLogHead)) !== undefined,
      onLost: (why, legacyFileFound) => deps.logger.warn('sign-in.record-lost', { why, legacyFileFound }),
    });
    this.signIn = new StaffSignIn({ records, staffPins: policy?.staffPins, now: deps.now, logger: deps.logger, osUserName: this.osUserName, cost });
    this.logRules = logRules(policy);
    this.fullPass = fullPassRule(policy);
    this.clipboard = new DeskClipboard(deps.clipboard);
    this.idle = new IdleClock(deps.now);
    // A desk in a library (issue #25, library-desk.ts): IT's policy names the library mirror.
    const libraryMirror = libraryMirrorOptions(policy?.libraryMirror, deps.keychain);
    this.libraryPolicy = policy?.libraryMirror;
    this.connections = new Connections({
      fetch: deps.fetch, vault: deps.vault, sandbox: deps.sandbox, mirrors: deps.mirrors, now: deps.now, logger: deps.logger,
      ...(deps.ratePerMinute === undefined ? {} : { ratePerMinute: deps.ratePerMinute }),
      ...(deps.clientOptions ? { clientOptions: deps.clientOptions } : {}),
      ...(libraryMirror ? { libraryMirror } : {}),
    });
    this.guardWhileLocked();
  }

  /**
   * Every contract method passes the lock gate (lock-gate.ts) before its body runs, whoever calls
   * it — the IPC registry, the test host, a bench — so no method can forget to check. A call made
   * on shift is also activity, for main's own idle lock.
   */
  private guardWhileLocked(): void {
    for (const name of METHOD_NAMES) {
      const rule = WHILE_LOCKED[name];
      const handler = this[name] as (args: unknown) => Promise<unknown>;
      const activity = countsAsActivity(name);
      Object.defineProperty(this, name, {
        configurable: true,
        value: async (args: unknown): Promise<unknown> => {
          if (rule !== 'open') await this.admit(name, rule, args);
          if (activity && this.session) this.idle.touch();
          return handler.call(this, args);
        },
      });
    }
  }

  private async admit(method: MethodName, rule: Exclude<WhileLocked, 'open'>, args: unknown): Promise<void> {
    if (this.session) return;
    // The first-run methods answer while locked only on a desk nobody set up yet: on one that was,
    // a settings.json edited to name no connection must not let anyone add one (or re-address one).
    if (rule === 'before-any-connection' && this.activeProfile() === undefined && (await this.signIn.status()).firstRun) return;
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

  /** At quit, as at a lock: the shift ends and what the desk put on the clipboard goes (main waits for it: quit-ends-shift.ts). */
  endShiftForQuit(): Promise<void> {
    return this.endShift('quit');
  }

  async close(): Promise<void> {
    await this.endShift('quit');
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
    await this.signIn.markSetUp();
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

  /**
   * Tests the connection first; only then are the credentials saved (bound to this address), the
   * connection recorded in the keychain (its address, libraries and this shift), and the profile.
   */
  async savePartnerProfile(args: ParsedArgsOf<'savePartnerProfile'>): Promise<AppInfo> {
    const { profile, username, password } = args;
    const baseUrl = normalizeBaseUrl(profile.baseUrl);
    const existing = this.settings.read().profiles;
    const id = profile.id ?? uniqueProfileId(profile.name, existing.map((p) => p.id));
    if (id === SANDBOX_PROFILE_ID) throw PartnerError.because('invalid-input', 'profile.sandbox-name-reserved');
    const before = existing.find((p) => p.id === id);
    // A profile edited outside the desk is not re-saved from what the file now says: it is removed and added again.
    if (before && (await this.standingOf(before)) === 'changed-outside') throw changedOutside(before);
    const next: ConnectionProfile = { id, name: profile.name, kind: 'partner', baseUrl, libraries: profile.libraries, wsApi: profile.wsApi, country: profile.country };
    this.settings.validateProfile(next);
    await this.connections.probe(baseUrl, profile.wsApi, { username, password });
    await this.connections.discard(id);
    const shift = this.session ? (await this.signIn.status()).shifts : 0;
    await this.deps.vault.save(id, { username, password }, originOf(baseUrl));
    const record = (await this.connectionRecords.all()).get(id);
    const fingerprint = profileFingerprint(next);
    // Re-saved at the same address and libraries, a connection keeps its age; a new or re-addressed one is of this shift.
    await this.connectionRecords.record(id, record?.fingerprint === fingerprint ? record : { fingerprint, shift });
    try {
      this.settings.saveProfile(next);
    } catch (error) {
      await this.deps.vault.forget(id);
      await this.connectionRecords.forget(id);
      throw error;
    }
    await this.signIn.markSetUp();
    await this.activate(id);
    this.deps.logger.info('connection.saved', { profileId: id, baseUrl, shift });
    return this.appInfo();
  }

  /** New credentials for a profile, tested against its address and bound to it. */
  async replaceCredentials(args: ParsedArgsOf<'replaceCredentials'>): Promise<ProfileView> {
    const profile = await this.usableProfile(this.partnerProfile(args.profileId));
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
    await this.usableProfile(this.profile(args.profileId));
    await this.activate(args.profileId);
    return this.appInfo();
  }

  async removeProfile(args: ParsedArgsOf<'removeProfile'>): Promise<AppInfo> {
    this.profile(args.profileId);
    this.settings.removeProfile(args.profileId);
    await this.connections.remove(args.profileId);
    if (args.profileId !== SANDBOX_PROFILE_ID) {
      await this.deps.vault.forget(args.profileId);
      await this.connectionRecords.forget(args.profileId);
    }
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

  /**
   * Opens a shift for whoever the PIN lets in (staff-sign-in.ts): the name typed, or the policy's
   * spelling of it. Nobody signs in while IT's policy is refused: a broken policy never falls
   * back to the desk PIN it may have been written to replace.
   */
  async startShift(args: ParsedArgsOf<'startShift'>): Promise<StaffSession> {
    if (this.policyRefused) throw PartnerError.because('unauthorized', 'sign-in.policy-refused');
    const { staffName } = await this.signIn.signIn(args.staffName, args.pin);
    this.osUser = this.osUserName();
    this.session = { staffName, startedAt: this.deps.now() };
    this.idle.touch();
    this.deps.logger.info('session.start', { staff: staffName, osUser: this.osUser, signIn: this.signIn.method });
    return { ...this.session };
  }

  /**
   * The desk PIN, where the policy sets no per-staff PINs. What it takes is desk-pin-proof.ts's to
   * decide: the partner password of a connection that existed before this shift (tested against the
   * service, and saved, for IT's preset one when none is saved yet), the current PIN on a
   * sandbox-only desk, or nothing for a training desk's first PIN. The PIN itself must meet the rules.
   */
  async setDeskPin(args: ParsedArgsOf<'setDeskPin'>): Promise<AppInfo> {
    const proof = await this.deskPinProof();
    if (proof.kind === 'policy-refused') throw PartnerError.because('unauthorized', 'sign-in.policy-refused');
    if (proof.kind === 'policy') throw PartnerError.because('invalid-input', 'pin.set-by-policy');
    const rule = pinProblem(args.pin);
    if (rule) throw PartnerError.because('invalid-input', rule);
    switch (proof.kind) {
      case 'it': throw PartnerError.because('unauthorized', 'pin.ask-it');
      case 'next-shift': throw PartnerError.because('unauthorized', 'pin.connection-too-new', { profile: proof.profile });
      case 'partner-password':
        await this.provePartnerPassword(proof.connection, proof.saved, args.partnerUsername, args.partnerPassword);
        break;
      case 'current-pin': {
        const current = args.currentPin;
        if (current === undefined) throw PartnerError.because('invalid-input', 'pin.current-pin-needed');
        await this.signIn.prove('current-pin', () => this.signIn.isDeskPin(current), PartnerError.because('unauthorized', 'pin.current-pin-wrong'));
        break;
      }
      case 'nothing':
        await this.signIn.refuseWhileWaiting();
    }
    const status = await this.signIn.status();
    // Re-established, the desk counts every connection it holds as older than the next shift.
    const shiftsAtLeast = status.reestablish ? Math.max(0, ...[...(await this.connectionRecords.all()).values()].map((r) => r.shift)) + 1 : 0;
    await this.signIn.setDeskPin(args.pin, shiftsAtLeast);
    this.deps.logger.info('session.desk-pin-set', { osUser: this.osUserName(), proof: proof.kind, reestablished: status.reestablish ?? false });
    return this.appInfo();
  }

  private async deskPinProof() {
    const { settings, managed } = this.settings.outcome();
    return deskPinProof({
      policyRefused: this.policyRefused,
      status: await this.signIn.status(),
      records: await this.connectionRecords.all(),
      profiles: settings.profiles,
      activeProfileId: settings.activeProfileId,
      presetIds: managed.lockedProfileIds,
      vault: this.deps.vault,
      originOf,
    });
  }

  /**
   * The typed password against the one the keychain holds for that connection (compared here,
   * never sent anywhere); for IT's preset connection with none saved yet, against the service at
   * IT's address, and saved as Settings would.
   */
  private async provePartnerPassword(connection: ProofConnection, saved: SavedCredentials | undefined, username: string | undefined, password: string | undefined): Promise<void> {
    const params = { profile: connection.name };
    if (password === undefined) throw PartnerError.because('invalid-input', saved ? 'pin.partner-password-needed' : 'pin.partner-username-needed', params);
    const wrong = PartnerError.because('unauthorized', 'pin.partner-password-wrong', params);
    if (saved) {
      await this.signIn.prove('partner-password', async () => sameSecret(saved.password, password), wrong);
      return;
    }
    const preset = connection.preset;
    if (!preset) throw PartnerError.because('unauthorized', 'pin.ask-it');
    if (username === undefined) throw PartnerError.because('invalid-input', 'pin.partner-username-needed', params);
    await this.signIn.prove('partner-password', async () => {
      try {
        await this.connections.probe(preset.baseUrl, preset.wsApi, { username, password });
        return true;
      } catch (error) {
        if (error instanceof PartnerError && error.code === 'unauthorized') return false;
        throw error;
      }
    }, wrong);
    await this.connections.discard(preset.id);
    await this.deps.vault.save(preset.id, { username, password }, originOf(preset.baseUrl));
    this.deps.logger.info('connection.credentials-replaced', { profileId: preset.id });
  }

  private async signInView(): Promise<SignInView> {
    const status = await this.signIn.status();
    const view: SignInView = {
      method: status.method, ready: status.ready && !this.policyRefused, waitSeconds: status.waitSeconds, deskPinNeeds: 'nothing', setUp: !status.firstRun,
      ...(status.reestablish && status.method === 'desk-pin' ? { reestablish: status.reestablish } : {}),
      ...(this.policyRefused ? { policyRefused: true } : {}),
    };
    const proof = await this.deskPinProof();
    switch (proof.kind) {
      case 'policy-refused': view.deskPinNeeds = 'it'; break;
      case 'partner-password':
        view.deskPinNeeds = 'partner-password';
        view.partnerProfile = proof.connection.name;
        view.partnerUsernameNeeded = proof.saved === undefined;
        break;
      case 'next-shift':
        view.deskPinNeeds = 'next-shift';
        view.partnerProfile = proof.profile;
        break;
      default: view.deskPinNeeds = proof.kind;
    }
    return view;
  }

  /** The renderer's heartbeat while someone uses the window (at most every half minute): main's idle lock counts it. */
  async reportActivity(): Promise<null> {
    if (this.session) this.idle.touch();
    return null;
  }

  /**
   * Locks the desk when nothing happened for the idle minutes and a minute more: the renderer's
   * own lock comes first, this one holds when the renderer is frozen or gone. True when it locked.
   */
  async enforceIdleLock(): Promise<boolean> {
    if (!this.session || !this.idle.expired(this.settings.read().idleLockMinutes)) return false;
    await this.lock('idle');
    return true;
  }

  /** Main checks every `everyMs` (15 seconds in the product). */
  startIdleWatch(everyMs = 15_000): RepeatingTask {
    return this.every(everyMs, () => this.enforceIdleLock(), 'session.idle-check-failed');
  }

  /** Background work on a timer that never keeps the process alive; a failure is logged, not thrown (repeating-task.ts). */
  private every(everyMs: number, work: () => Promise<unknown>, failedEvent: string, options: { now?: boolean } = {}): RepeatingTask {
    return repeatEvery(everyMs, work, { ...options, onError: (error) => this.deps.logger.warn(failedEvent, { error }) });
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

  /** Also called by main when the operating system locks the screen, and by main's own idle lock. */
  async lock(reason: EventPayloads['sessionLocked']['reason']): Promise<void> {
    if (!this.session) return;
    // The shift ends (work is refused from here on) and the clipboard is emptied before the
    // renderer hears of the lock: whoever sees the lock screen finds nothing of the patron left.
    await this.endShift(reason);
    this.deps.emit('sessionLocked', { reason });
  }

  /** The shift ends: no staff name, and what the desk put on the clipboard goes if it is still there. */
  private async endShift(reason: EventPayloads['sessionLocked']['reason'] | 'quit'): Promise<void> {
    const staff = this.session?.staffName;
    this.session = undefined;
    this.osUser = '';
    const clipboardCleared = await this.clipboard.clearIfOurs().catch(() => false);
    if (staff !== undefined || clipboardCleared) this.deps.logger.info('session.lock', { staff: staff ?? '', reason, clipboardCleared });
  }

  // ---- patron work ----

  async lookupPatron(args: ParsedArgsOf<'lookupPatron'>): Promise<PatronView> {
    const { desk } = await this.connectionForWork(args.libraryId);
    const view = await patronView(desk, args.libraryId, args.card);
    this.titlePages.note([...view.loans, ...view.holds].map((item) => item.url));
    return view;
  }

  /** Whether a link the renderer opens is a title page the service named (main's window guard asks). */
  isTitlePage(url: string): boolean {
    return this.titlePages.opens(url);
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
    const page = await desk.search(libraryId, query);
    this.titlePages.note(page.hits.map((hit) => hit.url));
    return page;
  }

  async liveAvailability(args: ParsedArgsOf<'liveAvailability'>): ReturnType<DeskHandlers['liveAvailability']> {
    const { desk } = await this.connectionForWork(args.libraryId);
    return desk.contentInfo(args.libraryId, args.contentIds);
  }

  /** A search hit resolves through the mirror to the contents it stands for (title-contents.ts); the desk never borrows by a titleId. */
  async titleContents(args: ParsedArgsOf<'titleContents'>): ReturnType<DeskHandlers['titleContents']> {
    return (await this.connectionForWork(args.libraryId)).mirror.titleContents(args.libraryId, args.titleIds);
  }

  // ---- the catalog mirror ----

  async collectionBrowse(args: ParsedArgsOf<'collectionBrowse'>): ReturnType<DeskHandlers['collectionBrowse']> {
    return (await this.connectionForWork(args.libraryId)).mirror.browse(args);
  }

  async collectionTitle(args: ParsedArgsOf<'collectionTitle'>): ReturnType<DeskHandlers['collectionTitle']> {
    const detail = await (await this.connectionForWork(args.libraryId)).mirror.detail(args.libraryId, args.contentId);
    this.titlePages.note([detail?.record?.url]);
    return detail;
  }

  async collectionRefreshAvailability(args: ParsedArgsOf<'collectionRefreshAvailability'>): ReturnType<DeskHandlers['collectionRefreshAvailability']> {
    return (await this.connectionForWork(args.libraryId)).mirror.refreshAvailability(args.libraryId, args.contentIds);
  }

  async syncStatus(): ReturnType<DeskHandlers['syncStatus']> {
    const connection = await this.activeConnectionIfAny();
    return connection ? this.statusView(await connection.mirror.status()) : emptySyncStatus(this.fullPass);
  }

  async syncNow(args: ParsedArgsOf<'syncNow'>): ReturnType<DeskHandlers['syncNow']> {
    this.requireShift();
    const connection = await this.activeConnection();
    const entitlementsOnly = args.full && args.entitlementsOnly;
    this.deps.logger.info('catalog.sync', { profileId: connection.profile.id, full: args.full, entitlementsOnly });
    // A connection closed under the sync (a credential or address change, the app quitting)
    // cancels it: DeskMirror refuses it as `sync.cancelled` (the desk's words: it resumes from its
    // stored page on the next sync), and nothing is recorded as failed.
    const status = await connection.mirror.syncNow(syncRequest(connection, args.full, entitlementsOnly), (progress) => this.deps.emit('syncProgress', progress));
    if (entitlementsOnly) this.logFullPass(connection.profile.id, status.sources, 'staff');
    return this.statusView(status);
  }

  private statusView(status: Awaited<ReturnType<Connection['mirror']['status']>>): Awaited<ReturnType<DeskHandlers['syncStatus']>> {
    return { available: true, ...status, fullPass: fullPassView(status.sources, this.fullPass) };
  }

  /**
   * The full entitlement pass when it is due (full-pass.ts): checked now and every `everyMs` (an
   * hour in the product), so a desk that is off at the due time runs it soon after it starts.
   */
  startFullEntitlementPass(everyMs = 3_600_000): RepeatingTask {
    return this.every(everyMs, () => this.runDueFullPass(), 'catalog.full-pass-failed', { now: true });
  }

  /** Runs the full entitlement pass of the active connection if it is due; true when it ran. */
  async runDueFullPass(): Promise<boolean> {
    const connection = await this.activeConnectionIfAny();
    if (!connection || !fullPassDue((await connection.mirror.status()).sources, this.fullPass, this.deps.now())) return false;
    const status = await connection.mirror.syncNow(syncRequest(connection, true, true), (progress) => this.deps.emit('syncProgress', progress));
    this.logFullPass(connection.profile.id, status.sources, 'schedule');
    return true;
  }

  private logFullPass(profileId: string, sources: SyncStatusView['sources'], by: 'staff' | 'schedule'): void {
    const view = fullPassView(sources, this.fullPass);
    this.deps.logger.info('catalog.full-pass', { profileId, by, everyDays: view.everyDays, removed: view.removed ?? 0 });
  }

  /** Every `everyMs` (10 minutes in the product), availability of the titles changed since the last run. */
  startAvailabilityRefresh(everyMs = 600_000): RepeatingTask {
    return this.every(everyMs, () => this.refreshChanged(), 'catalog.refresh-failed');
  }

  /** The spec's 10-minute refresh, for a connection whose entitlements have been mirrored once. */
  async refreshChanged(): Promise<boolean> {
    const connection = await this.activeConnectionIfAny();
    if (!connection) return false;
    const mirrored = (await connection.mirror.status()).sources.some((s) => s.source.startsWith('entitlements:') && s.lastSuccessAt !== undefined);
    if (mirrored) await connection.mirror.refreshChanged(connection.libraries.map((l) => l.libraryId));
    return mirrored;
  }

  // ---- a desk in a library (issue #25, library-desk.ts) ----

  /** The library mirror's fill: checked now and every `everyMs`, run when due (a minute after the last). */
  startLibraryFill(everyMs = LIBRARY_FILL_CHECK_EVERY_MS): RepeatingTask {
    return this.every(everyMs, () => this.runDueLibraryFill(), 'catalog.library-fill-failed', { now: true });
  }

  /** Fills the active connection's Collection from the library mirror when it is due; true when it ran. Its failure is kept on the source and thrown. */
  async runDueLibraryFill(): Promise<boolean> {
    if (!this.libraryPolicy) return false; // a desk on its own: nothing opened, nothing logged
    const connection = await this.activeConnectionIfAny();
    if (!connection?.mirror.fromLibrary || !libraryFillDue((await connection.mirror.status()).sources, this.deps.now())) return false;
    await connection.mirror.fillFromLibrary();
    return true;
  }

  async libraryMirror(): ReturnType<DeskHandlers['libraryMirror']> {
    return libraryMirrorView(this.libraryPolicy, this.deps.keychain);
  }

  async setLibraryMirrorPassword(args: ParsedArgsOf<'setLibraryMirrorPassword'>): ReturnType<DeskHandlers['setLibraryMirrorPassword']> {
    this.requireShift();
    const view = await saveLibraryMirrorPassword(this.libraryPolicy, this.deps.keychain, args.password);
    this.deps.logger.info('library-mirror.password-set', { server: view.server, by: this.session?.staffName ?? '' });
    return view;
  }

  // ---- plumbing ----

  /** The active profile's connection, opened (or reopened after any change to the profile) as needed. */
  private async activeConnection(): Promise<Connection> {
    const connection = await this.activeConnectionIfAny();
    if (!connection) throw PartnerError.because('invalid-input', 'connection.none');
    return connection;
  }

  private async activeConnectionIfAny(): Promise<Connection | undefined> {
    const profile = this.activeProfile();
    return profile ? this.connections.for(await this.usableProfile(profile)) : undefined;
  }

  /**
   * A profile as the desk may use it: IT's (the policy), or one whose address and libraries are
   * what the keychain recorded when staff saved it. Anything else was changed outside the desk.
   */
  private async standingOf(profile: ConnectionProfile): Promise<'policy' | 'kept' | 'changed-outside'> {
    if (profile.kind === 'sandbox') return 'kept';
    if (this.settings.outcome().managed.lockedProfileIds.includes(profile.id)) return 'policy';
    const record = (await this.connectionRecords.all()).get(profile.id);
    return record?.fingerprint === profileFingerprint(profile) ? 'kept' : 'changed-outside';
  }

  private async usableProfile(profile: ConnectionProfile): Promise<ConnectionProfile> {
    if ((await this.standingOf(profile)) !== 'changed-outside') return profile;
    this.deps.logger.warn('connection.changed-outside', { profileId: profile.id });
    throw changedOutside(profile);
  }

  /**
   * The first start of this version: the partner connections an earlier one set up are those whose
   * keychain password is bound to their address (it wrote that binding itself). Taken as they are,
   * as made before any shift. A desk that has records never comes here again.
   */
  private async adoptEarlierConnections(): Promise<Map<string, ConnectionRecord>> {
    const { settings, managed } = this.settings.outcome();
    const adopted = new Map<string, ConnectionRecord>();
    for (const profile of settings.profiles) {
      if (profile.kind !== 'partner' || managed.lockedProfileIds.includes(profile.id)) continue;
      const saved = await this.deps.vault.read(profile.id).catch(() => undefined);
      let origin: string | undefined;
      try {
        origin = originOf(profile.baseUrl);
      } catch {
        origin = undefined;
      }
      if (saved?.origin !== undefined && saved.origin === origin) adopted.set(profile.id, { fingerprint: profileFingerprint(profile), shift: 0 });
    }
    if (adopted.size > 0) this.deps.logger.info('connection.records-adopted', { profiles: [...adopted.keys()] });
    return adopted;
  }

  /**
   * Every on-behalf action goes to the action log (what staff did, for the retention period) and
   * the app log (that it happened, without the card, the title or even the title's id: the app log
   * is kept by size, not by days, and is sent to support).
   */
  private async onBehalf<T extends { confirmedByReread: boolean }>(
    action: ActionKind, args: { libraryId: number; card: string; contentId: ContentId; title?: string | undefined }, work: () => Promise<T>,
  ): Promise<T> {
    const key = `${action}|${args.libraryId}|${args.card}|${args.contentId}`;
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const promise = this.recordedAction(action, args, work).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  private async recordedAction<T extends { confirmedByReread: boolean }>(
    action: ActionKind, args: { libraryId: number; card: string; contentId: ContentId; title?: string | undefined }, work: () => Promise<T>,
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

  /** A page of the log, newest first. Opening it (or a new filter: the first page) is itself logged, before it is read. */
  async listActions(args: ParsedArgsOf<'listActions'>): Promise<ActionPage> {
    const { offset, limit, ...filter } = args;
    if (this.logRules.retentionDays === 0) return { total: 0, entries: [], skipped: 0 };
    if (offset === 0) await this.recordLogAudit('log-read', filter);
    const page = await this.deps.actionLog.page(this.withinRetention(filter), offset, limit);
    return { ...page, ...await this.logChangedAt() };
  }

  /** The entries for a CSV, oldest first; the renderer words it in the desk's language (shared/action-log-csv.ts). The export is logged first. */
  async exportActions(args: ParsedArgsOf<'exportActions'>): Promise<ActionExport> {
    const fileName = `lending-desk-actions-${localDay(this.deps.now())}.csv`;
    if (this.logRules.retentionDays === 0) return { fileName, entries: [], skipped: 0 };
    await this.recordLogAudit('log-export', args);
    return { fileName, ...await this.deps.actionLog.matching(this.withinRetention(args)), ...await this.logChangedAt() };
  }

  /** Who read or exported the log, when, with which filter: in the action log itself (no card, no title) and, without the filter's values, the app log. */
  private async recordLogAudit(action: LogAuditKind, filter: ActionFilter): Promise<void> {
    const used = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as ActionFilter;
    await this.deps.actionLog.recordAudit({
      time: this.deps.now(), staff: this.session?.staffName ?? '', osUser: this.osUser, profile: this.activeProfile()?.name ?? '', action, filter: used,
    });
    this.deps.logger.info('action-log.audit', { action, staff: this.session?.staffName ?? '', osUser: this.osUser, filtered: Object.keys(used) });
  }

  private async logChangedAt(): Promise<{ changedAt?: number }> {
    const changed = await this.deps.actionLog.changed();
    return changed ? { changedAt: changed.at } : {};
  }

  /** What is past the retention period is never shown, even before the purge has run (a desk asleep at midnight). */
  private withinRetention<F extends { from?: number | undefined }>(filter: F): F {
    const cutoff = retentionCutoff(this.deps.now(), this.logRules.retentionDays);
    return { ...filter, from: Math.max(filter.from ?? cutoff, cutoff) };
  }

  /** What this desk did today (local time) for the patron on screen. */
  async todaysActions(args: ParsedArgsOf<'todaysActions'>): Promise<ActionEntry[]> {
    if (this.logRules.retentionDays === 0) return [];
    const today = new Date(this.deps.now());
    today.setHours(0, 0, 0, 0);
    return this.deps.actionLog.forPatron(args.libraryId, args.card, today.getTime());
  }

  /**
   * The retention period, applied now and at every local midnight after (the period is counted in
   * calendar days: rules.ts): old entries, and titles the policy no longer allows, go. Stopping
   * waits for a purge under way. `timers` is for tests that move the clock themselves.
   */
  startActionLogRetention(timers: RetentionTimers = { setTimeout, clearTimeout }): RepeatingTask {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let current: Promise<void> | undefined;
    const run = (): void => {
      current = this.applyRetention().catch((error: unknown) => this.deps.logger.warn('action-log.purge-failed', { error })).then(() => {
        current = undefined;
        if (stopped) return;
        const now = this.deps.now();
        timer = timers.setTimeout(run, nextRetentionRun(now) - now);
        (timer as { unref?: () => void }).unref?.();
      });
    };
    run();
    return {
      stop: async () => {
        stopped = true;
        if (timer !== undefined) timers.clearTimeout(timer);
        await current;
      },
    };
  }

  async applyRetention(): Promise<void> {
    const { retentionDays, titles } = this.logRules;
    if (retentionDays === 0) {
      const setAside = await this.deps.actionLog.erase();
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
    const changed = (await this.standingOf(profile).catch(() => 'kept')) === 'changed-outside';
    return {
      id: profile.id, name: profile.name, kind: profile.kind, baseUrl: profile.baseUrl,
      libraries: profile.libraries.map((l) => (l.name === undefined ? { libraryId: l.libraryId } : { libraryId: l.libraryId, name: l.name })),
      wsApi: profile.wsApi, country: profile.country, hasCredentials: credentials === 'saved', credentials,
      ...(changed ? { changedOutside: true } : {}),
    };
  }
}

/** A profile whose address or libraries are not what the desk recorded: refused, and no password is asked for its address. */
function changedOutside(profile: ConnectionProfile): PartnerError {
  return PartnerError.because('invalid-input', 'connection.changed-outside', { profile: profile.name });
}

export type { DeskSettings };

/** The timers the retention runs on (the global ones in the product). */
export interface RetentionTimers {
  setTimeout(run: () => void, ms: number): ReturnType<typeof setTimeout>;
  clearTimeout(timer: ReturnType<typeof setTimeout>): void;
}

/** Compared as digests so the time taken says nothing of where two passwords differ. */
function sameSecret(saved: string, typed: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(saved), digest(typed));
}

function localDay(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
