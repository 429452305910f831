// DeskService: the contract's implementation, the one object main, the IPC registry, the test
// host and the benches use. Plain TypeScript with every collaborator injected (settings, vault,
// fetch, sandbox starter, logger, clock), no `electron` import, so the same object runs in
// Electron's main process, in Vitest and in the Chromium test host.
//
// It composes the desk's areas (areas/): the shift, connections, the patron desk, the Collection
// and the action log, each handed what it needs here, dependencies pointing one way (shift <-
// connections <- action log <- patron desk; connections <- Collection). Every contract method is
// one of theirs, exposed only through the lock gate (lock-gate.ts): the one place that decides
// what answers while the desk is locked. The areas' background tasks (main's idle lock, the
// Collection's refreshes, the log's retention) run under one scheduler, `background`
// (background-tasks.ts), which main starts and stops as one.

import { DeskError } from '../../shared/desk-error.ts';
import {
  METHOD_NAMES, type CallOptions, type DeskHandlers, type EventName, type EventPayloads, type MethodName, type ParsedArgsOf, type ResultOf,
} from '../../shared/contract.ts';
import type { ActionLog } from '../action-log/action-log.ts';
import { logRules } from '../action-log/rules.ts';
import { Connections, type ConnectionsOptions } from '../connection/connections.ts';
import type { SandboxEndpoint } from '../connection/sandbox-endpoint.ts';
import { DESK_RECORDS, type DeskKeychain } from '../credentials/desk-keychain.ts';
import type { CredentialVault } from '../credentials/vault.ts';
import type { Logger } from '../../node/logging/logger.ts';
import type { PartnerClientOptions } from '../../node/partner/client.ts';
import type { FetchFn } from '../../node/partner/transport.ts';
import { PolicySettings, type Policy, type PolicyProblems } from '../policy/index.ts';
import type { DeskSettings, Settings } from '../settings/index.ts';
import { ActionLogArea } from './areas/action-log-area.ts';
import { CollectionArea } from './areas/collection-area.ts';
import { libraryMirrorOptions } from './library-fill-settings.ts';
import { LibraryServerSettings } from './library-server-settings.ts';
import { ConnectionsArea } from './areas/connections-area.ts';
import { PatronDeskArea } from './areas/patron-desk-area.ts';
import { ShiftArea, type LockReason } from './areas/shift-area.ts';
import { CardCheck } from './card-check.ts';
import { DeskClipboard, type ClipboardPort } from './clipboard.ts';
import { adoptEarlierConnections, ConnectionRecords } from './connection-records.ts';
import { catalogRefreshRule } from './catalog-refresh.ts';
import { fullPassRule } from './full-pass.ts';
import { gateWhileLocked } from './lock-gate.ts';
import { MIN_COST_LOG2 } from '../../node/pin/pin-hash-format.ts';
import { PRODUCT_PIN_COST, type PinCost } from '../../node/pin/pin-hash.ts';
import { BackgroundTasks, type BackgroundTask } from './background-tasks.ts';
import { SignInRecords } from './sign-in-record.ts';
import { currentOsUserName, StaffSignIn } from './staff-sign-in.ts';
import { TitlePages } from './title-pages.ts';
import { CancellableCalls } from './cancellable-calls.ts';

export { SANDBOX_PROFILE_ID } from './areas/connections-area.ts';
export type { DeskSettings };

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
  /** Where the mirrors live and how they are written. */
  mirrors: ConnectionsOptions['mirrors'];
  /** The system clipboard (Electron's in the product). */
  clipboard: ClipboardPort;
  /** The service's rate limit shared by desk, sync and refresh (about 100 a minute). */
  ratePerMinute?: number;
  /** Client options for tests (short timeouts, instant or simulated sleeps). */
  clientOptions?: Partial<PartnerClientOptions>;
}

/** The contract's methods as callers in main, tests and benches see them: a method that takes no argument is called without one. */
type ContractMethods = {
  [M in MethodName]: undefined extends ParsedArgsOf<M> ? (args?: ParsedArgsOf<M>) => Promise<ResultOf<M>> : DeskHandlers[M];
};

type TaskNameOf<Area extends { backgroundTasks(): BackgroundTask[] }> = ReturnType<Area['backgroundTasks']>[number]['name'];
/** The desk's background tasks, by name: main's idle lock, the Collection's, the action log's retention. */
export type DeskTaskName = TaskNameOf<ShiftArea> | TaskNameOf<CollectionArea> | TaskNameOf<ActionLogArea>;

/** The contract's methods, each defined once, gated, in the constructor. */
export interface DeskService extends ContractMethods {}

export class DeskService {
  readonly #connections: Connections;
  readonly #shift: ShiftArea;
  /** The areas' background tasks: main starts them once its window is up and stops them at quit (tests run one with `runNow`). */
  readonly background: BackgroundTasks<DeskTaskName>;
  /** The hosts of title pages the service named in what the desk showed: main opens links to them (title-pages.ts). */
  readonly #titlePages = new TitlePages();
  /** Reads the renderer may cancel once a newer one supersedes them (issue #34). */
  readonly #calls = new CancellableCalls();

  constructor(deps: DeskServiceDeps) {
    const { logger, now, vault, keychain } = deps;
    const settings = new PolicySettings(deps.settings, deps.policy, deps.policyProblem);
    const policyRefused = deps.policyProblem?.ignored !== undefined;
    // A refused policy gives nothing: no staff PINs, the log's defaults — and no sign-in at all.
    const policy = policyRefused ? undefined : deps.policy;
    const osUserName = deps.osUserName ?? currentOsUserName;
    const cost = deps.pinCost ?? PRODUCT_PIN_COST;
    if (cost.floorLog2 < MIN_COST_LOG2) logger.warn('sign-in.test-pin-cost', { floorLog2: cost.floorLog2 });
    const connectionRecords = new ConnectionRecords({
      keychain,
      adopt: () => adoptEarlierConnections(settings, vault, logger),
      onNotOurs: () => logger.warn('connection.records-not-ours', {}),
    });
    const records = new SignInRecords({
      keychain, legacyFile: deps.legacySignInFile, floorLog2: cost.floorLog2, now,
      setUpElsewhere: async () => (await connectionRecords.anyKept()) || (await keychain.read(DESK_RECORDS.actionLogHead)) !== undefined,
      onLost: (why, legacyFileFound) => logger.warn('sign-in.record-lost', { why, legacyFileFound }),
    });
    const signIn = new StaffSignIn({ records, staffPins: policy?.staffPins, deskPinNames: policy?.deskPinNames, now, logger, osUserName, cost });
    const clipboard = new DeskClipboard(deps.clipboard);
    const libraryMirror = libraryMirrorOptions(policy?.libraryMirror, keychain);
    // A desk in a library (issue #31): every partner call goes to the library server IT's policy names.
    const libraryServer = policy?.libraryServer ? new LibraryServerSettings(policy.libraryServer, keychain) : undefined;
    const connections = this.#connections = new Connections({
      fetch: deps.fetch, vault, sandbox: deps.sandbox, mirrors: deps.mirrors, now, logger,
      ...(deps.ratePerMinute === undefined ? {} : { ratePerMinute: deps.ratePerMinute }),
      ...(deps.clientOptions ? { clientOptions: deps.clientOptions } : {}),
      // A desk in a library (issue #25, library-fill-settings.ts): IT's policy names the library mirror.
      ...(libraryMirror ? { libraryMirror } : {}),
      ...(libraryServer ? { libraryServer: libraryServer.options((seconds) => deps.emit('serviceWait', { seconds })) } : {}),
    });
    const calls = this.#calls;
    const shift = this.#shift = new ShiftArea({
      signIn, settings, policyRefused, connectionRecords, vault, connections, clipboard, osUserName, logger, now, emit: deps.emit,
      maxShiftHours: policy?.maxShiftHours,
      ...(libraryServer ? { libraryServer } : {}),
      roles: { deskPin: policy?.deskPinRole, deskPinNames: policy?.deskPinNames },
      // Nothing the renderer asked is wanted after the shift, and answers kept for it go (what was searched is what a patron asked for).
      onEnd: async () => {
        calls.cancelAll();
        await connections.forgetAnswers();
      },
    });
    const connectionsArea = new ConnectionsArea({
      settings, connections, connectionRecords, vault, shift, logger, now, version: deps.version, installedForAllUsers: deps.installedForAllUsers ?? false,
      desk: { libraryRules: policy?.libraries, recentPatrons: policy?.recentPatrons },
      ...(libraryServer ? { libraryServer } : {}),
    });
    // Libraries as staff read them (issue #35): IT's name for it, the profile's, or its number.
    const policyLibraryName = (libraryId: number) => policy?.libraries?.find((l) => l.libraryId === libraryId)?.name;
    const libraryName = (libraryId: number) => policyLibraryName(libraryId)
      ?? connectionsArea.activeProfile()?.libraries.find((l) => l.libraryId === libraryId)?.name ?? String(libraryId);
    const actionLog = new ActionLogArea({
      log: deps.actionLog, rules: logRules(policy), shift, connections: connectionsArea, logger, now, libraryName: policyLibraryName,
      titles: async (libraryId, contentIds) => {
        const titles = new Map<string, string>();
        for (const contentId of contentIds) {
          const title = (await collection.collectionTitle({ libraryId, contentId }))?.record?.title;
          if (title) titles.set(String(contentId), title);
        }
        return titles;
      },
    });
    const cards = policy?.libraries?.some((l) => l.cards || l.items) ? new CardCheck(policy.libraries, libraryName) : undefined;
    const patronDesk = new PatronDeskArea({ connections: connectionsArea, actionLog, titlePages: this.#titlePages, clipboard, logger, ...(cards ? { cards } : {}) });
    const collection = new CollectionArea({
      connections: connectionsArea, fullPass: fullPassRule(policy), catalogRefresh: catalogRefreshRule(policy), titlePages: this.#titlePages, logger, now, emit: deps.emit,
      library: { policy: policy?.libraryMirror, keychain, staff: () => shift.who().staff },
    });
    this.background = new BackgroundTasks([...shift.backgroundTasks(), ...actionLog.backgroundTasks(), ...collection.backgroundTasks()], logger);
    const handlers: DeskHandlers = {
      ...methodsOf(shift, 'startShift', 'lockSession', 'reportActivity', 'updatePreferences'),
      setDeskPin: async (args) => {
        await shift.setDeskPin(args);
        return connectionsArea.appInfo();
      },
      ...methodsOf(connectionsArea, 'appInfo', 'listProfiles', 'useSandbox', 'testPartnerConnection', 'savePartnerProfile',
        'replaceCredentials', 'forgetCredentials', 'activateProfile', 'removeProfile', 'libraryServer', 'enrolDesk'),
      ...methodsOf(patronDesk, 'borrow', 'returnTitle', 'placeHold', 'removeHold', 'copyText'),
      ...cancellable(calls, patronDesk, 'lookupPatron', 'findCardElsewhere', 'liveSearch', 'liveAvailability'),
      ...methodsOf(collection, 'syncStatus', 'syncNow', 'libraryMirror', 'lookUpTitles'),
      ...cancellable(calls, collection, 'collectionBrowse', 'collectionTitle', 'collectionLiveAvailability', 'titleContents'),
      cancelCalls: async (args) => {
        calls.cancel(args.callIds);
        return null;
      },
      // Issue #33: the library mirror's password is replaced by IT's own tools, or by a manager here.
      setLibraryMirrorPassword: async (args) => {
        // Where IT's policy lets it be typed at all (otherwise the collection area says IT's tools set it).
        if (policy?.libraryMirror?.passwordEntry === 'settings') shift.requireMay('replaceLibraryMirrorPassword', 'library-mirror.managers-only');
        return collection.setLibraryMirrorPassword(args);
      },
      ...methodsOf(actionLog, 'listActions', 'exportActions', 'todaysActions'),
      // Issue #32: a library desk's audit trail is the server's; reading a patron's entries, and the export, are a manager's.
      readAuditTrail: async ({ pin, ...args }) => {
        if (!libraryServer) throw DeskError.because('invalid-input', 'library-server.none');
        if (args.card !== undefined) shift.requireMay('readLogByCard', 'log.managers-only');
        if (args.export) {
          shift.requireMay('exportLog', 'log.managers-only');
          await shift.confirmPin(pin, 'log.export-pin-needed');
        }
        return libraryServer.readAudit(args);
      },
    };
    const gated = gateWhileLocked(handlers, {
      onShift: () => shift.onShift(),
      firstRunOpen: async () => connectionsArea.activeProfile() === undefined && (await shift.status()).firstRun,
      activity: () => shift.noteActivity(),
    });
    for (const name of METHOD_NAMES) Object.defineProperty(this, name, { value: gated[name] });
  }

  /** At quit, as at a lock: the shift ends and what the desk put on the clipboard goes (main waits for it: quit-ends-shift.ts). */
  endShiftForQuit(): Promise<void> {
    return this.#shift.endShift('quit');
  }

  /** The background tasks stop (waiting for a run under way), the shift ends, the connection closes. */
  async close(): Promise<void> {
    await this.background.stop();
    await this.#shift.endShift('quit');
    await this.#connections.close();
  }

  /** Also called by main when the operating system locks the screen, and by main's own idle lock. */
  lock(reason: LockReason): Promise<void> {
    return this.#shift.lock(reason);
  }

  /** Whether a link the renderer opens is a title page the service named (main's window guard asks). */
  isTitlePage(url: string): boolean {
    return this.#titlePages.opens(url);
  }
}

/** Reads the renderer may cancel: each runs with its call's signal (cancellable-calls.ts). */
function cancellable<K extends keyof DeskHandlers>(
  calls: CancellableCalls, area: { [M in K]: (args: Parameters<DeskHandlers[M]>[0], signal?: AbortSignal) => ReturnType<DeskHandlers[M]> }, ...names: K[]
): Pick<DeskHandlers, K> {
  return Object.fromEntries(names.map((name) => [name, (args: Parameters<DeskHandlers[K]>[0], call?: CallOptions) =>
    calls.run(call?.callId, (signal) => area[name].call(area, args, signal))])) as unknown as Pick<DeskHandlers, K>;
}

/** An area's contract methods, bound to it. */
function methodsOf<K extends keyof DeskHandlers>(area: Pick<DeskHandlers, K>, ...names: K[]): Pick<DeskHandlers, K> {
  return Object.fromEntries(names.map((name) => [name, area[name].bind(area)])) as Pick<DeskHandlers, K>;
}
