// Bad input: thousands of generated arguments for every contract method — wrong types, huge
// strings, control and right-to-left characters, path separators, `..`, percent-encodings,
// negative, float and huge ids, too many ids — sent through the contract as the renderer
// would. None may crash the desk, reach a route other than the one the method is for (checked
// in the sandbox's request log), or come back without a message staff can read.
import { METHODS, type MethodName } from '../../electron/contract.ts';
import type { LoggedRequest, RouteName } from '../../electron/sandbox/server.ts';
import { unclearBecause } from './clear-message.ts';
import { figure, zero, type Scale, type Section } from './report.ts';
import { expectOk, seeded, startRig, type Rig } from './rig.ts';

const PATRON_READ: RouteName[] = ['token', 'status', 'checkouts', 'holds'];
const SYNC: RouteName[] = ['token', 'globalContents', 'entitlements', 'libraryContent', 'contentInfo'];

/** The routes each method may reach; anything else (or no route at all) is a misrouted request. */
const INTENDED: Record<MethodName, readonly RouteName[]> = {
  appInfo: [], listProfiles: [], useSandbox: [], testPartnerConnection: ['token'], savePartnerProfile: ['token'],
  replaceCredentials: ['token'], forgetCredentials: [], activateProfile: [], removeProfile: [], updatePreferences: [],
  startShift: [], lockSession: [], lookupPatron: PATRON_READ,
  borrow: ['token', 'borrow', 'checkouts'], returnTitle: ['token', 'return', 'checkouts'],
  placeHold: ['token', 'placeHold', 'holds'], removeHold: ['token', 'removeHold', 'holds'],
  searchCatalog: ['token', 'search'], listActions: [], exportActions: [],
  catalogBrowse: [], catalogTitle: [], catalogRefreshAvailability: ['token', 'contentInfo'],
  syncStatus: [], syncNow: SYNC, titleAvailability: ['token', 'contentInfo'],
};

/** Calls that change what the desk is connected to, or whether a shift is open. */
const CHANGES_STATE = new Set<string>(['useSandbox', 'savePartnerProfile', 'activateProfile', 'removeProfile', 'lockSession', 'startShift', 'forgetCredentials', 'replaceCredentials']);

/** A real sync each time: a handful are enough to show hostile arguments cannot steer one. */
const SYNC_CAP = 20;

const BIG = 'x'.repeat(100_000);
const HUGE = 'é'.repeat(1_000_000);
const HOSTILE_TEXT = [
  '', ' ', '\t\n', BIG, HUGE, '\u0000', '\u0000abc', '\u0007\u001b[31m', 'a\u007fb', '\u202eevil', 'abc\u200f', '\u2066x\u2069', '\ufeff21101000001',
  '\ud800', '\udfff\ud800', '📚🦄', '/', '\\', '..', '../..', '../../status', '..%2F..%2Fstatus', '%2e%2e', '%2F', '%00', '%', '%zz', '?x#y', '#', '?',
  'a/b', 'a\\b', '21101000001/../../holds', '2110100001%2F..', ' 2110100001 ', '2110100001\n', 'constructor', '__proto__', 'toString',
  'http://169.254.169.254/latest', 'file:///etc/passwd', 'javascript:alert(1)', '<script>alert(1)</script>', "'; DROP TABLE titles; --", '=SUM(A1)', '${7*7}', '{{7*7}}',
];
const HOSTILE_NUMBERS = [-1, 0, -0, 1.5, -2.5, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 + 2, Number.MAX_VALUE, 1e-9, 101.0000001];
const HOSTILE_OTHER: unknown[] = [null, true, false, [], {}, [1, 2], { libraryId: 101 }, [[]], { __proto__: { polluted: true } }, Object.create(null)];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function idList(random: () => number): unknown {
  const length = pick(random, [0, 51, 101, 501, 5000]);
  return Array.from({ length }, (_, i) => (random() < 0.1 ? pick(random, HOSTILE_NUMBERS) : i + 1));
}

function hostileValue(random: () => number): unknown {
  const roll = random();
  if (roll < 0.5) return pick(random, HOSTILE_TEXT);
  if (roll < 0.75) return pick(random, HOSTILE_NUMBERS);
  if (roll < 0.9) return pick(random, HOSTILE_OTHER);
  return idList(random);
}

/** A card that passes a glance: real digits with something hostile inside or around them. */
function hostileCard(random: () => number, card: string): string {
  const insert = pick(random, HOSTILE_TEXT.filter((t) => t.length < 100));
  const at = Math.floor(random() * (card.length + 1));
  return card.slice(0, at) + insert + card.slice(at);
}

/** A valid argument per method, pointing at the sandbox, that the generator mutates. */
function baseArguments(rig: Rig, card: string, contentIds: number[]): Record<MethodName, unknown> {
  const libraryId = 101;
  const contentId = contentIds[0] ?? 1;
  const title = { libraryId, card, contentId, title: 'A title' };
  return {
    appInfo: undefined, listProfiles: undefined, useSandbox: undefined, exportActions: undefined, syncStatus: undefined,
    testPartnerConnection: { baseUrl: rig.sandbox.url, wsApi: '2.1', username: rig.sandbox.username, password: rig.sandbox.password },
    savePartnerProfile: {
      profile: { name: 'Branch', baseUrl: rig.sandbox.url, libraries: [{ libraryId }], wsApi: '2.1', country: 'US' },
      username: rig.sandbox.username, password: rig.sandbox.password,
    },
    replaceCredentials: { profileId: 'sandbox', username: 'u', password: 'p' },
    forgetCredentials: { profileId: 'sandbox' }, activateProfile: { profileId: 'sandbox' }, removeProfile: { profileId: 'no-such-profile' },
    updatePreferences: { idleLockMinutes: 5, language: 'en' }, startShift: { staffName: 'Reliability run' }, lockSession: { reason: 'staff' },
    lookupPatron: { libraryId, card }, borrow: title, returnTitle: title, placeHold: title, removeHold: title,
    searchCatalog: { libraryId, q: 'the', limit: 5 }, listActions: { offset: 0, limit: 10 },
    catalogBrowse: { libraryId, limit: 5 }, catalogTitle: { libraryId, contentId },
    catalogRefreshAvailability: { libraryId, contentIds }, syncNow: { full: false }, titleAvailability: { libraryId, contentIds },
  };
}

/** One generated argument: mostly a valid one with one part made hostile. */
function generate(random: () => number, base: unknown, card: string): unknown {
  const roll = random();
  if (roll < 0.2 || typeof base !== 'object' || base === null) return hostileValue(random);
  const copy: Record<string, unknown> = structuredClone(base as Record<string, unknown>);
  const keys = Object.keys(copy);
  if (roll < 0.3) {
    copy[pick(random, ['extra', '__proto__', 'constructor', 'card', 'contentIds'])] = hostileValue(random);
    return copy;
  }
  if ('card' in copy && roll < 0.55) {
    copy.card = hostileCard(random, card);
    return copy;
  }
  const key = pick(random, keys);
  const inner = copy[key];
  if (typeof inner === 'object' && inner !== null && !Array.isArray(inner) && random() < 0.5) {
    const innerCopy = inner as Record<string, unknown>;
    innerCopy[pick(random, Object.keys(innerCopy))] = hostileValue(random);
  } else {
    copy[key] = Array.isArray(inner) && random() < 0.5 ? idList(random) : hostileValue(random);
  }
  return copy;
}

/** A generated address may point anywhere; keep it hostile but on the sandbox, so no DNS lookup hangs the run. */
function keepOnLoopback(rig: Rig, method: string, argument: unknown): unknown {
  if (method !== 'testPartnerConnection' && method !== 'savePartnerProfile') return argument;
  const holder = (method === 'savePartnerProfile' ? (argument as { profile?: unknown })?.profile : argument) as Record<string, unknown> | undefined;
  if (typeof holder !== 'object' || holder === null || typeof holder.baseUrl !== 'string') return argument;
  try {
    const url = new URL(holder.baseUrl.trim());
    const sandbox = new URL(rig.sandbox.url);
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      url.hostname = sandbox.hostname;
      url.port = sandbox.port;
      holder.baseUrl = url.href;
    }
  } catch {
    // Not a URL at all: the desk must refuse it without sending anything.
  }
  return argument;
}

/** The part of a request that must match the argument: the card and library it was for. */
function misrouted(method: MethodName, argument: unknown, requests: LoggedRequest[]): LoggedRequest[] {
  const intended = INTENDED[method];
  const arg = (typeof argument === 'object' && argument !== null ? argument : {}) as { card?: unknown; libraryId?: unknown; baseUrl?: unknown; profile?: { baseUrl?: unknown } };
  // A base address with a path of its own sends the token request under that path, as staff
  // configured it: that is where the desk was told the service is, not a misrouting.
  const ownBase = method === 'testPartnerConnection' || method === 'savePartnerProfile';
  return requests.filter((request) => {
    if (ownBase && request.route === undefined && request.path.endsWith('/get-token')) return false;
    if (request.route === undefined || !intended.includes(request.route)) return true;
    if (request.params.card !== undefined && typeof arg.card === 'string' && request.params.card !== arg.card.trim()) return true;
    if (request.params.libraryId !== undefined && typeof arg.libraryId === 'number' && request.params.libraryId !== String(arg.libraryId)) return true;
    return false;
  });
}

/** Why a message is not clear, counting an echo of a long generated value as not clear. */
function unclear(error: { code: string; message: string } | undefined, argument: unknown): string | undefined {
  const because = unclearBecause(error as never);
  if (because || !error) return because;
  const text = JSON.stringify(argument) ?? '';
  for (const value of HOSTILE_TEXT) {
    if (value.length > 80 && text.includes(value.slice(0, 81)) && error.message.includes(value.slice(0, 81))) return 'echoes the generated input';
  }
  return undefined;
}

async function restore(rig: Rig): Promise<void> {
  const info = await expectOk<{ mode: string; session?: unknown }>(rig, 'appInfo');
  if (info.mode !== 'sandbox') await expectOk(rig, 'useSandbox');
  if (!info.session) await expectOk(rig, 'startShift', { staffName: 'Reliability run' });
}

interface MethodTally { tried: number; codes: Map<string, number> }

export async function runBadInput(scale: Scale): Promise<Section> {
  const rig = await startRig({ seed: 41, timeoutMs: 2000 });
  const crashes: string[] = [];
  const onCrash = (error: unknown): void => void crashes.push(String(error));
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  const random = seeded(41);
  const started = Date.now();
  try {
    const card = rig.sandbox.libraries[0]?.cards[0] ?? '2110100001';
    const contentIds = rig.sandbox.control.sampleContent(101, { count: 5 });
    const bases = baseArguments(rig, card, contentIds);
    // Reading methods of the action log first, while the log is short: each reads it whole.
    const methods = (Object.keys(METHODS) as MethodName[]).sort((a, b) => Number(b.endsWith('Actions')) - Number(a.endsWith('Actions')));
    const tallies = new Map<MethodName, MethodTally>();
    const misroutes: string[] = [];
    const unclearExamples: string[] = [];
    let unclearCount = 0;
    let tried = 0;
    let syncs = 0;
    for (const method of methods) {
      const tally: MethodTally = { tried: 0, codes: new Map() };
      tallies.set(method, tally);
      for (let i = 0; i < scale.badInputsPerMethod; i++) {
        const argument = keepOnLoopback(rig, method, generate(random, bases[method], card));
        if (method === 'syncNow' && syncs >= SYNC_CAP && METHODS.syncNow.args.safeParse(argument).success) continue;
        const next = rig.sandbox.control.requestLogNext();
        let result: Awaited<ReturnType<Rig['call']>>;
        try {
          result = await rig.call(method, argument);
        } catch (error) {
          crashes.push(`${method} threw: ${String(error)}`);
          continue;
        }
        if (method === 'syncNow' && result.ok) syncs += 1;
        tried += 1;
        tally.tried += 1;
        const code = result.ok ? 'ok' : result.error.code;
        tally.codes.set(code, (tally.codes.get(code) ?? 0) + 1);
        const wrong = misrouted(method, argument, rig.sandbox.control.requestLog(next));
        for (const request of wrong) misroutes.push(`${method}: ${request.method} ${request.path.slice(0, 100)} → ${request.route ?? 'no route'}`);
        if (!result.ok) {
          const why = unclear(result.error, argument);
          if (why) {
            unclearCount += 1;
            if (unclearExamples.length < 5) unclearExamples.push(`${method}: ${why}: ${result.error.message.slice(0, 100)}`);
          }
        }
        if (CHANGES_STATE.has(method)) await restore(rig);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    const notes = [...tallies].map(([method, t]) => {
      const codes = [...t.codes].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(', ');
      return `${method}: ${t.tried.toLocaleString('en-US')} tried — ${codes}`;
    });
    notes.push(`syncNow ran for real ${syncs} times (capped at ${SYNC_CAP}; further valid syncNow arguments were not sent)`);
    notes.push(...crashes.slice(0, 5).map((c) => `crash: ${c.slice(0, 300)}`), ...rig.unexpected.slice(0, 5).map((u) => `unexpected: ${u.method}: ${u.error.slice(0, 400)}`));
    notes.push(...misroutes.slice(0, 5).map((m) => `misrouted: ${m}`), ...unclearExamples.map((u) => `unclear: ${u}`));
    return {
      title: `Bad input (${scale.badInputsPerMethod.toLocaleString('en-US')} generated arguments for each of ${methods.length} contract methods, ${seconds.toFixed(0)} s)`,
      figures: [
        figure('arguments tried', tried, `${scale.badInputsPerMethod.toLocaleString('en-US')} a method`, tried > 0, 'every method met wrong types, huge and hostile strings, bad ids and lists'),
        zero('crashes', crashes.length + rig.unexpected.length, 'no call threw, failed unexpectedly, or left an uncaught error behind'),
        zero('requests to another route', misroutes.length, "every request reached the route its method is for, with the argument's card and library, in the sandbox's log"),
        zero('errors without a clear message', unclearCount, 'each refusal names the field and the problem in one sentence'),
      ],
      notes,
    };
  } finally {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    await rig.close();
  }
}
