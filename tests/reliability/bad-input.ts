// Bad input (issue #7): thousands of generated arguments for every contract method — wrong
// types, huge strings, control, right-to-left and invisible characters, lone surrogates,
// path separators, `..`, percent-encodings, negative, float and huge ids, too many ids,
// prototype keys and valid-looking cards with all of those inside — sent through the contract
// as the renderer would. None may crash the desk, reach a route other than the one its method
// is for (read in the sandbox's request log, with the card, library and title it carried), or
// come back without a message staff can read out.
import { METHODS, type AppInfo, type MethodName, type ProfileView, type Result } from '../../electron/shared/contract.ts';
import type { LoggedRequest, RouteName } from '../../electron/main/sandbox/server.ts';
import { normalizeBaseUrl } from '../../electron/node/partner/transport.ts';
import { UNREADABLE, unclearBecause } from './clear-message.ts';
import { figure, zero, type Scale, type Section } from './report.ts';
import { addPatrons, expectOk, seeded, startRig, type Rig } from './rig.ts';
import { TEST_DESK_PIN } from '../support/desk-pin.ts';

type Random = () => number;

const PATRON_READ: RouteName[] = ['token', 'status', 'checkouts', 'holds'];
const SYNC: RouteName[] = ['token', 'globalContents', 'entitlements', 'libraryContent', 'contentInfo'];

/** The routes each method may reach; anything else (or no route at all) is a misrouted request. */
const INTENDED: Record<MethodName, readonly RouteName[]> = {
  appInfo: [], listProfiles: [], useSandbox: [], testPartnerConnection: ['token'], savePartnerProfile: ['token'],
  replaceCredentials: ['token'], forgetCredentials: [], activateProfile: [], removeProfile: [], updatePreferences: [],
  startShift: [], setDeskPin: ['token'], lockSession: [], reportActivity: [], copyText: [], lookupPatron: PATRON_READ, todaysActions: [],
  findCardElsewhere: ['token', 'status'],
  borrow: ['token', 'borrow', 'checkouts'], returnTitle: ['token', 'return', 'checkouts'],
  // placeHold reads the loans list to tell a 409 "already on loan" from "already on hold".
  placeHold: ['token', 'placeHold', 'holds', 'checkouts'], removeHold: ['token', 'removeHold', 'holds'],
  liveSearch: ['token', 'search'], listActions: [], exportActions: [],
  collectionBrowse: [], collectionTitle: [], collectionLiveAvailability: ['token', 'contentInfo'],
  syncStatus: [], syncNow: SYNC, liveAvailability: ['token', 'contentInfo'],
  // Read from the desk's mirror only: a titleId never reaches the service as a content id.
  titleContents: [],
  // A hit not in the copy: one page of the library's content, starting just before its id.
  lookUpTitles: ['token', 'libraryContent'],
  // A desk in a library: the keychain and the policy only.
  libraryMirror: [], setLibraryMirrorPassword: [],
  // Stops calls the renderer made; it asks the service nothing.
  cancelCalls: [],
  // A desk in a library's server (issue #31): a desk on its own has none, and sends nothing.
  libraryServer: [], enrolDesk: [],
  // A library desk's audit trail is the server's: a desk on its own has none.
  readAuditTrail: [],
};

/** Methods that ask the connection's other libraries about the argument's card, never the argument's own library. */
const ASKS_OTHER_LIBRARIES = new Set<MethodName>(['findCardElsewhere']);

/** Methods whose calls may change what the desk is connected to, its shift or its preferences: checked and put back after each call. */
const SIDE_EFFECTS = new Set<MethodName>([
  'lockSession', 'activateProfile', 'removeProfile', 'savePartnerProfile', 'useSandbox', 'updatePreferences',
  'forgetCredentials', 'replaceCredentials', 'startShift', 'setDeskPin', 'syncNow',
]);
/** Of those, the ones that can add, change or remove a connection profile or its credentials. */
const PROFILE_EFFECTS = new Set<MethodName>(['activateProfile', 'removeProfile', 'savePartnerProfile', 'forgetCredentials', 'replaceCredentials']);

/** Each syncNow that parses starts a real catalog sync: this many show hostile arguments cannot steer one; later valid ones are not sent. */
const SYNC_CAP = 20;
/** The run's own partner profile (on the sandbox), so the profile and credential methods have a real target. */
const FIXTURE_ID = 'bad-input-partner';
const STAFF = 'Reliability run';
const PREFERENCES = { idleLockMinutes: 5, language: 'en' } as const;

// ---- what the generator draws from ----

const BIG = 'x'.repeat(100_000);
const HUGE = 'é'.repeat(1_000_000);
const HUGE_DIGITS = '1'.repeat(1_000_000);
const CONTROL = [...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '\u007f'];

/** Hostile text by kind; a kind is drawn first, so the long kinds do not crowd out the rest. */
const TEXT_KINDS: Record<string, readonly string[]> = {
  empty: ['', ' ', '\t\n', '\u00a0', '\u3000 ', '\r\n'],
  huge: [BIG, HUGE, HUGE_DIGITS, `${BIG}/../../status`, ' '.repeat(100_000)],
  invisible: ['\u202eevil', 'abc\u200f', '\u2066x\u2069', '\ufeff', '\u200b', '\u202a1\u202c', '\u2060'],
  surrogate: ['\ud800', '\udfff\ud800', 'a\ud83dz', '\udc00abc'],
  emoji: ['📚🦄', '👨‍👩‍👧', '🏳️‍🌈', '🦄'.repeat(40)],
  path: ['/', '\\', '.', '..', '...', '../..', '../../status', '..\\..\\status', 'a/b', 'a\\b', './x', '/api/v1/get-token', '//evil', '2110100001/../../holds'],
  percent: ['%2e%2e', '%2E%2E%2F%2E%2E%2Fstatus', '%2F', '%2f', '%00', '%', '%zz', '%252F', '..%2F..%2Fstatus', '%E2%80%AE', '%ud800'],
  query: ['?x#y', '#', '?', '&x=1', ';x', '?card=1', 'a?b#c'],
  proto: ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf'],
  numeric: ['101', '-1', '0', '1e3', '0x65', 'NaN', 'Infinity', ' 101 ', '9007199254740993', '1.5'],
  near: ['EN', 'fr-ca', 'FR-CA', 'instant', 'ebook', 'STAFF', 'Idle', 'us', 'sandbox', 'SANDBOX', 'true', 'null', 'undefined'],
  injection: [
    'http://169.254.169.254/latest', 'file:///etc/passwd', 'javascript:alert(1)', '<script>alert(1)</script>', "'; DROP TABLE titles; --",
    '=SUM(A1)', '+cmd', '${7*7}', '{{7*7}}', '{"libraryId":101}', '[object Object]', 'Error: boom', '\n    at evil (x.js:1:1)',
  ],
};
const TEXT_KIND_NAMES = Object.keys(TEXT_KINDS);

const HOSTILE_NUMBERS = [
  -1, 0, -0, 1.5, -2.5, 0.1, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 + 2, 2 ** 64, Number.MAX_VALUE, Number.MIN_SAFE_INTEGER,
  1e-9, 101.0000001, 241, 501, 10_001, 10_000_001, -101,
];

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function hostileText(random: Random): string {
  const kind = pick(random, [...TEXT_KIND_NAMES, 'control', 'control']);
  if (kind === 'control') {
    const c = pick(random, CONTROL);
    return pick(random, [c, `abc${c}def`, `${c}101`, `101${c}`]);
  }
  return pick(random, TEXT_KINDS[kind] ?? ['']);
}

function hostileOther(random: Random): unknown {
  const items: (() => unknown)[] = [
    () => null, () => undefined, () => true, () => false, () => [], () => ({}), () => [1, 2], () => [[]], () => ({ libraryId: 101 }),
    () => ({ __proto__: { polluted: true } }), () => Object.create(null), () => JSON.parse('{"__proto__": {"polluted": true}}'),
    () => 10n, () => new Date(Number.NaN), () => new Map([['card', '1']]), () => new Uint8Array(3), () => /x/,
    () => [hostileText(random)], () => ({ card: hostileText(random) }),
  ];
  return pick(random, items)();
}

function idList(random: Random): unknown[] {
  const length = pick(random, [0, 1, 51, 101, 501, 502, 5000]);
  return Array.from({ length }, (_, i) => (random() < 0.03 ? (random() < 0.5 ? hostileText(random) : hostileOther(random)) : random() < 0.1 ? pick(random, HOSTILE_NUMBERS) : i + 1));
}

function hostileValue(random: Random): unknown {
  const roll = random();
  if (roll < 0.5) return hostileText(random);
  if (roll < 0.75) return pick(random, HOSTILE_NUMBERS);
  if (roll < 0.92) return hostileOther(random);
  return random() < 0.5 ? idList(random) : Array.from({ length: pick(random, [2, 51, 600]) }, () => hostileText(random));
}

/** A card that passes a glance: real digits with something hostile inside or around it (kept short, as a scanner would send). */
function hostileCard(random: Random, card: string): string {
  let insert = hostileText(random);
  if (insert.length > 100 && random() < 0.8) insert = insert.slice(0, 1 + Math.floor(random() * 8));
  const at = pick(random, [0, card.length, Math.floor(random() * (card.length + 1))]);
  const cardLike = card.slice(0, at) + insert + card.slice(at);
  return random() < 0.15 ? ` ${cardLike}\t` : cardLike;
}

/** Sets a key as an own, enumerable property — `copy.__proto__ = x` would change the prototype instead. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Every place inside a value a mutation can land on: object keys and the first few array items, to depth 3. */
function places(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (path.length >= 3 || typeof value !== 'object' || value === null) return out;
  const keys: (string | number)[] = Array.isArray(value) ? value.slice(0, 3).map((_, i) => i) : Object.keys(value);
  for (const key of keys) {
    out.push([...path, key]);
    places((value as Record<string | number, unknown>)[key], [...path, key], out);
  }
  return out;
}

function holderOf(root: unknown, path: (string | number)[]): Record<string | number, unknown> {
  let at = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  return at;
}

/** One generated argument: mostly a valid one with one part made hostile. */
function generate(random: Random, base: unknown, cards: readonly string[]): unknown {
  const roll = random();
  if (roll < 0.15 || typeof base !== 'object' || base === null) return roll < 0.02 ? base : hostileValue(random);
  const copy = structuredClone(base) as Record<string, unknown>;
  if ('card' in copy) copy.card = pick(random, cards);
  if (roll < 0.28) {
    // A field added: unknown, a prototype key, or one that belongs to another method.
    const target = random() < 0.7 ? copy : (holderOf(copy, [...(pick(random, places(copy)) ?? ['x']), 'x']) as Record<string, unknown>);
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      setOwn(target, pick(random, ['extra', '__proto__', 'constructor', 'prototype', 'toString', 'card', 'contentIds', 'full', 'k'.repeat(1000)]), hostileValue(random));
      return copy;
    }
  }
  if (roll < 0.33) {
    const path = pick(random, places(copy));
    if (path) delete holderOf(copy, path)[path[path.length - 1] as string];
    return copy;
  }
  if (typeof copy.card === 'string' && roll < 0.58) {
    copy.card = hostileCard(random, copy.card);
    return copy;
  }
  const path = pick(random, places(copy));
  if (!path) return hostileValue(random);
  const holder = holderOf(copy, path);
  const key = path[path.length - 1] as string | number;
  if (key === 'contentIds' && random() < 0.5) holder[key] = idList(random);
  else if (key === 'libraryId' && random() < 0.2) holder[key] = pick(random, [102, 999, 1, Number.MAX_SAFE_INTEGER]);
  else holder[key] = hostileValue(random);
  return copy;
}

// ---- the run's fixtures: valid arguments pointing at the sandbox ----

interface Fixture {
  libraryId: number;
  cards: string[];
  contentIds: number[];
  partnerProfile: { profile: Record<string, unknown>; username: string; password: string };
}

function baseArguments(rig: Rig, f: Fixture): Record<MethodName, unknown> {
  const { libraryId, contentIds } = f;
  const contentId = contentIds[0] ?? 1;
  const title = { libraryId, card: f.cards[0], contentId, title: 'A title' };
  const credentials = { username: rig.sandbox.username, password: rig.sandbox.password };
  return {
    appInfo: undefined, listProfiles: undefined, useSandbox: undefined, exportActions: undefined, syncStatus: undefined, reportActivity: undefined,
    testPartnerConnection: { baseUrl: rig.sandbox.url, wsApi: '2.1', ...credentials },
    savePartnerProfile: f.partnerProfile,
    replaceCredentials: { profileId: FIXTURE_ID, ...credentials },
    forgetCredentials: { profileId: FIXTURE_ID }, activateProfile: { profileId: FIXTURE_ID }, removeProfile: { profileId: FIXTURE_ID },
    updatePreferences: { ...PREFERENCES }, startShift: { staffName: STAFF, pin: TEST_DESK_PIN }, lockSession: { reason: 'staff' },
    // The desk PIN set to what it is, with the proof this desk asks (the run's partner connection's password).
    setDeskPin: { pin: TEST_DESK_PIN, partnerPassword: rig.sandbox.password },
    todaysActions: { libraryId, card: f.cards[0] },
    copyText: { text: 'A title — due 1 December', purpose: 'slip' },
    lookupPatron: { libraryId, card: f.cards[0] }, findCardElsewhere: { libraryId, card: f.cards[0] }, borrow: title, returnTitle: title, placeHold: title, removeHold: title,
    liveSearch: { libraryId, q: 'the', limit: 5, offset: 0, kidsMode: false, formats: ['EBOOK'], purchaseModel: 'FLEX' },
    listActions: { offset: 0, limit: 10 },
    collectionBrowse: { libraryId, text: 'the', formats: ['EBOOK'], model: 'FLEX', sort: 'title', direction: 'asc', offset: 0, limit: 5 },
    collectionTitle: { libraryId, contentId },
    collectionLiveAvailability: { libraryId, contentIds }, syncNow: { full: false }, liveAvailability: { libraryId, contentIds },
    titleContents: { libraryId, titleIds: contentIds }, lookUpTitles: { libraryId, titleIds: contentIds.slice(0, 5) },
    libraryMirror: undefined, setLibraryMirrorPassword: { password: 'not-used-here' },
    cancelCalls: { callIds: ['s1-1'] },
    libraryServer: undefined, enrolDesk: { code: 'ABCD-EFGH-JKMN-PQRS' }, readAuditTrail: { offset: 0, limit: 10 },
  };
}

/**
 * A generated service address may point anywhere. When it parses as an http(s) URL whose host
 * is not loopback, its host and port are replaced with the sandbox's — the scheme, user info,
 * path, query and fragment stay as generated, so the call is as hostile as before but cannot
 * hang on a DNS lookup or reach a machine outside this one. Addresses that do not parse are
 * left alone: the desk must refuse them without sending anything.
 */
function keepOnLoopback(rig: Rig, method: MethodName, argument: unknown): unknown {
  if (method !== 'testPartnerConnection' && method !== 'savePartnerProfile') return argument;
  const holder = (method === 'savePartnerProfile' ? (argument as { profile?: unknown } | null)?.profile : argument) as Record<string, unknown> | null | undefined;
  if (typeof holder !== 'object' || holder === null || typeof holder.baseUrl !== 'string') return argument;
  if (!URL.canParse(holder.baseUrl.trim())) return argument;
  const url = new URL(holder.baseUrl.trim());
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
    const sandbox = new URL(rig.sandbox.url);
    url.hostname = sandbox.hostname;
    url.port = sandbox.port;
    holder.baseUrl = url.href;
  }
  return argument;
}

// ---- the checks ----

/** The token path under the address staff configured: where the desk was told the service is. */
function configuredTokenPath(method: MethodName, argument: unknown): string | undefined {
  const arg = argument as { baseUrl?: unknown; profile?: { baseUrl?: unknown } } | null | undefined;
  const base = method === 'testPartnerConnection' ? arg?.baseUrl : method === 'savePartnerProfile' ? arg?.profile?.baseUrl : undefined;
  if (typeof base !== 'string') return undefined;
  try {
    return `${new URL(normalizeBaseUrl(base)).pathname.replace(/\/+$/, '')}/api/v1/get-token`;
  } catch {
    return undefined;
  }
}

/** Requests a call sent that are not for its method, its card, its library or its title. */
function misrouted(method: MethodName, argument: unknown, requests: LoggedRequest[]): { request: LoggedRequest; why: string }[] {
  const intended = INTENDED[method];
  const arg = (typeof argument === 'object' && argument !== null ? argument : {}) as { card?: unknown; libraryId?: unknown; contentId?: unknown };
  const tokenPath = configuredTokenPath(method, argument);
  const wrong: { request: LoggedRequest; why: string }[] = [];
  for (const request of requests) {
    // A service address with a path of its own (say https://host/lending) puts the token
    // request under that path, exactly as staff configured it. With the sandbox's host put in
    // (keepOnLoopback) nothing answers there: that is the address's fault, not a misrouting.
    // Only the exact configured token path is excused.
    if (request.route === undefined && tokenPath !== undefined && request.path === tokenPath && request.method === 'POST') continue;
    if (request.route === undefined) wrong.push({ request, why: 'no route (404/405)' });
    else if (!intended.includes(request.route)) wrong.push({ request, why: `route ${request.route} is not for ${method}` });
    else if (request.params.card !== undefined && request.params.card !== (typeof arg.card === 'string' ? arg.card.trim() : undefined)) wrong.push({ request, why: 'another card' });
    else if (request.params.libraryId !== undefined && 'libraryId' in arg && (request.params.libraryId === String(arg.libraryId)) === ASKS_OTHER_LIBRARIES.has(method)) wrong.push({ request, why: 'another library' });
    else if (request.params.contentId !== undefined && typeof arg.contentId === 'number' && request.params.contentId !== String(arg.contentId)) wrong.push({ request, why: 'another title' });
  }
  return wrong;
}

/** Characters a message must not carry: they hide or reorder what staff read. */
// (U+200D, the zero-width joiner, is left out: emoji such as 👨‍👩‍👧 are made with it.)
/** Strings anywhere in the argument (values and keys), for the echo check. */
function stringsIn(value: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'object' && value !== null && depth < 4) {
    if (Array.isArray(value)) for (const item of value.slice(0, 600)) stringsIn(item, out, depth + 1);
    else for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsIn(item, out, depth + 1);
    }
  }
  return out;
}

/** Whether the message repeats more than 80 characters of the generated input in one piece. */
function echoes(message: string, argument: unknown): boolean {
  if (message.length <= 80) return false;
  const long = stringsIn(argument).filter((s) => s.length > 80);
  if (long.length === 0) return false;
  // Any 81 characters in a row hold one of these 40-character blocks whole: look for the blocks first.
  for (let block = 0; block + 40 <= message.length; block += 40) {
    const piece = message.slice(block, block + 40);
    if (!long.some((s) => s.includes(piece))) continue;
    for (let start = Math.max(0, block - 41); start <= block && start + 81 <= message.length; start++) {
      const window = message.slice(start, start + 81);
      if (long.some((s) => s.includes(window))) return true;
    }
  }
  return false;
}

/**
 * Whether the call was aimed at the sandbox: then "could not reach the lending service" is not
 * what happened (nothing here injects faults), and staff would be sent to check a network that works.
 */
function aimedAtSandbox(rig: Rig, method: MethodName, argument: unknown): boolean {
  if (method !== 'testPartnerConnection' && method !== 'savePartnerProfile') return true;
  const arg = argument as { baseUrl?: unknown; profile?: { baseUrl?: unknown } };
  const base = method === 'testPartnerConnection' ? arg.baseUrl : arg.profile?.baseUrl;
  if (typeof base !== 'string' || !URL.canParse(base.trim())) return false;
  return new URL(base.trim()).origin === new URL(rig.sandbox.url).origin;
}

/** Why an error is not a clear message, or undefined when it is. */
function unclear(rig: Rig, method: MethodName, error: Result<unknown> & { ok: false }, argument: unknown): string | undefined {
  if (error.error.code === 'network' && aimedAtSandbox(rig, method, argument)) return 'says the service could not be reached while the sandbox was up';
  // A short value of the caller's, quoted back ("There is no connection profile "null"."), is
  // the caller's words, not machinery: the machinery patterns read the message without it.
  const message = error.error.message.trim();
  let own = message;
  for (const value of new Set(stringsIn(argument))) {
    if (value.trim() !== '' && value.length <= 80) own = own.replaceAll(`"${value.trim()}"`, '"…"');
  }
  const because = unclearBecause({ ...error.error, message: own });
  if (because) return because;
  // The caller's quoted words are no excuse for unreadable characters.
  if (UNREADABLE.test(message)) return 'message carries control, invisible or broken characters';
  if (echoes(message, argument)) return 'message echoes more than 80 characters of the input';
  return undefined;
}

// ---- keeping the desk usable between calls ----

function sameFixture(view: ProfileView | undefined, f: Fixture): boolean {
  const p = f.partnerProfile.profile as { name: string; baseUrl: string; libraries: { libraryId: number }[]; wsApi: string; country: string };
  return view !== undefined && view.kind === 'partner' && view.hasCredentials && view.name === p.name && view.baseUrl === p.baseUrl
    && view.wsApi === p.wsApi && view.country === p.country && JSON.stringify(view.libraries) === JSON.stringify(p.libraries);
}

/** Generated PINs and partner passwords count as wrong tries: the run waits them out on its simulated clock. */
async function waitOutWrongTries(rig: Rig): Promise<void> {
  const { signIn } = await expectOk<AppInfo>(rig, 'appInfo');
  if (signIn.waitSeconds > 0) rig.advanceTo(rig.clock.now() + signIn.waitSeconds * 1000);
}

/** Puts back the sandbox connection, the run's partner profile, an open shift and the preferences; returns how many calls that took. */
async function restore(rig: Rig, f: Fixture, method: MethodName, result: Result<unknown>): Promise<number> {
  let calls = 1;
  // A wrong PIN or partner password counts: waited out, so the next generated call meets the desk's rules, not its wait.
  if (method === 'startShift' || method === 'setDeskPin') {
    calls += 1;
    await waitOutWrongTries(rig);
  }
  const info = await expectOk<AppInfo>(rig, 'appInfo');
  // The shift first: connections and profiles answer only on shift.
  if (!info.session) {
    calls += 2;
    await waitOutWrongTries(rig);
    await expectOk(rig, 'startShift', { staffName: STAFF, pin: TEST_DESK_PIN });
  }
  let needSandbox = info.activeProfile?.id !== 'sandbox';
  if (PROFILE_EFFECTS.has(method)) {
    calls += 1;
    const profiles = await expectOk<ProfileView[]>(rig, 'listProfiles');
    for (const extra of profiles.filter((p) => p.id !== 'sandbox' && p.id !== FIXTURE_ID)) {
      calls += 1;
      await expectOk(rig, 'removeProfile', { profileId: extra.id });
    }
    if (!sameFixture(profiles.find((p) => p.id === FIXTURE_ID), f)) {
      calls += 1;
      await expectOk(rig, 'savePartnerProfile', f.partnerProfile);
      needSandbox = true;
    }
  }
  if (needSandbox) {
    calls += 1;
    await expectOk(rig, 'useSandbox');
  }
  if (method === 'setDeskPin' && result.ok) {
    // A generated PIN that passed the contract's checks, with the right proof, is now the desk PIN: set the run's back.
    calls += 2;
    await waitOutWrongTries(rig);
    await expectOk(rig, 'setDeskPin', { pin: TEST_DESK_PIN, partnerPassword: rig.sandbox.password });
  }
  if (info.preferences.idleLockMinutes !== PREFERENCES.idleLockMinutes || info.preferences.language !== PREFERENCES.language) {
    calls += 1;
    await expectOk(rig, 'updatePreferences', PREFERENCES);
  }
  return calls;
}

// ---- the run ----

interface MethodTally { tried: number; notSent: number; codes: Map<string, number> }

export async function runBadInput(scale: Scale): Promise<Section> {
  const started = Date.now();
  const rig = await startRig({ seed: 41, timeoutMs: 2000, watchTitles: false });
  const processErrors: string[] = [];
  const onProcessError = (error: unknown): void => void processErrors.push(String((error as Error)?.stack ?? error));
  process.on('uncaughtException', onProcessError);
  process.on('unhandledRejection', onProcessError);
  try {
    const random = seeded(41);
    const libraryId = 101;
    const demo = rig.sandbox.libraries.find((l) => l.libraryId === libraryId)?.cards ?? [];
    const cards = [...demo.slice(0, 4), ...(await addPatrons(rig, libraryId, 'BI', 3))];
    const contentIds = rig.sandbox.control.sampleContent(libraryId, { count: 5 }) as number[];
    const fixture: Fixture = {
      libraryId, cards, contentIds,
      partnerProfile: {
        profile: { id: FIXTURE_ID, name: 'Bad input partner', baseUrl: rig.sandbox.url, libraries: [{ libraryId }], wsApi: '2.1', country: 'US' },
        username: rig.sandbox.username, password: rig.sandbox.password,
      },
    };
    await expectOk(rig, 'savePartnerProfile', fixture.partnerProfile);
    await expectOk(rig, 'useSandbox');
    await expectOk(rig, 'updatePreferences', PREFERENCES);
    await expectOk(rig, 'syncNow', { full: false }); // so the catalog methods read a filled mirror
    const bases = baseArguments(rig, fixture);

    // The action log's readers first, while the log is short: each reads it whole.
    const methods = (Object.keys(METHODS) as MethodName[]).sort((a, b) => Number(b.endsWith('Actions')) - Number(a.endsWith('Actions')));
    const tallies = new Map<MethodName, MethodTally>();
    const examples = new Map<string, Set<string>>();
    const misroutes: string[] = [];
    const unclearExamples: string[] = [];
    const thrown: string[] = [];
    let unclearCount = 0;
    let tried = 0;
    let syncs = 0;
    let restoringCalls = 0;
    let underConfiguredPath = 0;

    for (const method of methods) {
      const tally: MethodTally = { tried: 0, notSent: 0, codes: new Map() };
      tallies.set(method, tally);
      for (let i = 0; i < scale.badInputsPerMethod; i++) {
        let argument = keepOnLoopback(rig, method, generate(random, bases[method], cards));
        if (method === 'syncNow') {
          const parsed = METHODS.syncNow.args.safeParse(argument);
          if (parsed.success && syncs >= SYNC_CAP) {
            tally.notSent += 1;
            continue;
          }
          // A full sync re-reads the whole catalog: hostile or not, a valid argument runs a delta.
          if (parsed.success && parsed.data.full) argument = { ...(argument as object), full: false };
        }
        const next = rig.sandbox.control.requestLogNext();
        let result: Result<unknown>;
        try {
          result = await rig.call(method, argument);
        } catch (error) {
          thrown.push(`${method} threw out of dispatch: ${String(error).slice(0, 200)}`);
          continue;
        }
        if (method === 'syncNow' && result.ok) syncs += 1;
        // Requests the call left on their way (a sync's page asked for ahead) reach the sandbox's log before it is read.
        await rig.requestsSettled();
        tried += 1;
        tally.tried += 1;
        const code = result.ok ? 'ok' : result.error.code;
        tally.codes.set(code, (tally.codes.get(code) ?? 0) + 1);

        const requests = rig.sandbox.control.requestLog(next);
        const tokenPath = configuredTokenPath(method, argument);
        if (requests.some((r) => r.route === undefined && r.path === tokenPath)) underConfiguredPath += 1;
        for (const { request, why } of misrouted(method, argument, requests)) {
          misroutes.push(`${method}: ${why}: ${request.method} ${request.path.slice(0, 100)}`);
        }
        if (!result.ok) {
          const seen = examples.get(code) ?? new Set<string>();
          examples.set(code, seen);
          // A few distinct ones per code; for refusals, one per field named, so the examples show several fields.
          const shown = result.error.message.slice(0, 100);
          const field = shown.includes(': ') ? shown.slice(0, shown.indexOf(': ')) : shown;
          if (seen.size < (code === 'invalid-input' ? 8 : 4) && ![...seen].some((m) => m.startsWith(`${field}: `) || m === shown)) seen.add(shown);
          const why = unclear(rig, method, result, argument);
          if (why) {
            unclearCount += 1;
            if (unclearExamples.length < 8) unclearExamples.push(`${method}: ${why}: ${JSON.stringify(result.error.message.slice(0, 100))}`);
          }
        }
        if (SIDE_EFFECTS.has(method)) restoringCalls += await restore(rig, fixture, method, result);
      }
    }
    // Anything a call set going after it returned (a sync's threads, a background request) has
    // had its chance to fail once the desk has closed: closing waits for all of it.
    await rig.requestsSettled();
    await rig.desk.close();

    const crashes = thrown.length + rig.unexpected.length + processErrors.length;
    const notes: string[] = [];
    for (const [method, t] of tallies) {
      const invalid = t.codes.get('invalid-input') ?? 0;
      const ok = t.codes.get('ok') ?? 0;
      const others = [...t.codes].filter(([c]) => c !== 'ok' && c !== 'invalid-input').sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`);
      const skipped = t.notSent > 0 ? ` (${t.notSent} valid arguments not sent: sync cap)` : '';
      notes.push(`${method}: ${t.tried.toLocaleString('en-US')} tried${skipped} — ${invalid.toLocaleString('en-US')} refused as invalid-input, ${ok.toLocaleString('en-US')} answered ok, other: ${others.join(', ') || 'none'}`);
    }
    notes.push(`syncNow started a real (delta) catalog sync ${syncs} times, capped at ${SYNC_CAP}; a valid full:true was sent as full:false (one more ran before the run, so the catalog methods read a filled mirror)`);
    notes.push(`${restoringCalls.toLocaleString('en-US')} set-up calls put the sandbox connection, the run's partner profile, the shift and the preferences back between calls`);
    notes.push(`${underConfiguredPath} connection tests sent their token request under the generated address's own path (host replaced by the sandbox's): no route there, as expected`);
    for (const [code, messages] of [...examples].sort()) {
      notes.push(`${code}: ${[...messages].map((m) => JSON.stringify(m)).join(' | ')}`);
    }
    notes.push(...thrown.slice(0, 5).map((c) => `crash: ${c}`));
    notes.push(...rig.unexpected.slice(0, 5).map((u) => `unexpected: ${u.method}: ${u.error.slice(0, 400)}`));
    notes.push(...processErrors.slice(0, 5).map((e) => `uncaught: ${e.slice(0, 400)}`));
    notes.push(...misroutes.slice(0, 8).map((m) => `misrouted: ${m}`), ...unclearExamples.map((u) => `unclear: ${u}`));
    const expected = methods.length * scale.badInputsPerMethod - (tallies.get('syncNow')?.notSent ?? 0);
    const seconds = (Date.now() - started) / 1000;
    return {
      title: `Bad input (${scale.badInputsPerMethod.toLocaleString('en-US')} generated arguments for each of ${methods.length} contract methods, ${seconds.toFixed(0)} s)`,
      figures: [
        figure('arguments tried', tried, `${expected.toLocaleString('en-US')} (${scale.badInputsPerMethod.toLocaleString('en-US')} a method, syncNow capped)`, tried === expected,
          'every method met wrong types, huge and hostile strings, bad ids and lists, prototype keys and hostile cards'),
        zero('crashes', crashes, 'no call threw out of dispatch, failed unexpectedly, or left an uncaught error or rejection behind'),
        zero('requests to another route', misroutes.length, "every request reached a route its method is for, with the argument's card, library and title, in the sandbox's log"),
        zero('errors without a clear message', unclearCount, 'each refusal is a known code and one short sentence naming the problem, with no machinery or echoed input'),
      ],
      notes,
    };
  } finally {
    process.off('uncaughtException', onProcessError);
    process.off('unhandledRejection', onProcessError);
    await rig.close();
  }
}
