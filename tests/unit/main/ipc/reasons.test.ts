// Every error staff can see from the argument checks, the card and address rules, the partner
// paths, status codes and parsing, the settings and the keychain vault reaches the contract as a
// reason the locale files translate, or as a code the renderer has a sentence of its own for.
// `invalid-input` alone says nothing of what was wrong: it must come with a reason. The service's
// own words travel as serviceMessage, never as the sentence. Main's English stays for the log.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeytarVault, createMemoryVault, type KeytarLike } from '../../../../electron/main/credentials/index.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import { DeskError, isDeskError } from '../../../../electron/shared/desk-error.ts';
import type { ErrorInfo } from '../../../../electron/shared/errors.ts';
import * as normalize from '../../../../electron/node/partner/normalize.ts';
import { checkBaseUrl, checkCard, checkContentId, checkLibraryId } from '../../../../electron/node/partner/paths.ts';
import { errorForStatus, type Operation } from '../../../../electron/node/partner/status-codes.ts';
import { HttpStatusError } from '../../../../electron/node/partner/transport.ts';
import { readSettingsFile, Settings, type ConnectionProfile } from '../../../../electron/main/settings/index.ts';
import type { DeskHandlers } from '../../../../electron/shared/contract.ts';
import { REASONS } from '../../../../electron/shared/reasons.ts';
import { CODES_THAT_NEED_A_REASON, codeKey } from '../../../../src/gateway/error-text.ts';
import { frCA } from '../../../../src/i18n/fr-CA.ts';

/** Why staff would not get a sentence of their own language for this error, or undefined when they would. */
function unworded(error: ErrorInfo): string | undefined {
  if (error.reason !== undefined) {
    if (!Object.hasOwn(REASONS, error.reason)) return `reason ${error.reason} is not in REASONS`;
    if (!Object.hasOwn(frCA.reasons, error.reason)) return `reason ${error.reason} has no French`;
    for (const name of REASONS[error.reason].matchAll(/\{(\w+)\}/g)) {
      if (!Object.hasOwn(error.params ?? {}, name[1]!)) return `reason ${error.reason} lacks the parameter ${name[1]}`;
    }
    if (/\{\w+\}/.test(error.message)) return `the log's sentence left a placeholder: ${error.message}`;
    return undefined;
  }
  if (CODES_THAT_NEED_A_REASON.has(error.code)) return `${error.code} without a reason ("${error.message}")`;
  const key = codeKey(error, 'other').split('.');
  const french = key.reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], frCA);
  return typeof french === 'string' ? undefined : `no French sentence for ${error.code}`;
}

function expectWorded(errors: ErrorInfo[]): void {
  expect(errors.length).toBeGreaterThan(0);
  const problems = errors.map((e) => [e.message, unworded(e)]).filter(([, why]) => why !== undefined);
  expect(problems).toEqual([]);
}

function caught(run: () => unknown): ErrorInfo {
  try {
    run();
  } catch (error) {
    if (isDeskError(error)) return error.toInfo();
    throw error;
  }
  throw new Error('did not throw');
}

async function rejected(promise: Promise<unknown>): Promise<ErrorInfo> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!isDeskError(error)) throw new Error(`not a DeskError: ${String(error)}`);
  return error.toInfo();
}

const handlers = (fail?: () => never): DeskHandlers => new Proxy({}, { get: () => async () => (fail ? fail() : 'called') }) as DeskHandlers;
const credentials = { username: 'partner', password: 'secret' };
const profile = (changes: Record<string, unknown>) => ({ profile: { name: 'Main', baseUrl: 'https://lending.example.org', libraries: [{ libraryId: 101 }], country: 'US', ...changes }, ...credentials });

/** Each kind of refusal the contract's checks can give, at least once. */
const BAD_ARGUMENTS: [string, unknown][] = [
  ['lookupPatron', 'abc'], ['appInfo', { x: 1 }], ['lookupPatron', { card: '1' }], ['lookupPatron', { libraryId: 'abc', card: '1' }],
  ['lookupPatron', { libraryId: 1.5, card: '1' }], ['lookupPatron', { libraryId: -(2 ** 64), card: '1' }],
  ['forgetCredentials', { profileId: 5 }], ['syncNow', { full: 'yes' }], ['liveSearch', { libraryId: 1, q: 'x', formats: 'EBOOK' }],
  ['liveSearch', { libraryId: 1, q: 'x', formats: [{}] }], ['startShift', { staffName: '  ' }], ['startShift', { staffName: 'x'.repeat(61) }],
  ['liveAvailability', { libraryId: 1, contentIds: [] }], ['liveAvailability', { libraryId: 1, contentIds: Array.from({ length: 501 }, (_, i) => i + 1) }],
  ['listActions', { limit: 2 ** 64 }], ['listActions', { offset: -1 }], ['updatePreferences', { language: 'de' }],
  ['savePartnerProfile', profile({ id: 'Main Branch' })], ['listActions', { offset: 0, a: 1 }], ['listActions', { offset: 0, a: 1, b: 2 }],
  ['listActions', Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i]))],
  ['startShift', { staffName: 'Ann\u202eeroc' }], ['forgetCredentials', { profileId: 'Main Branch' }],
  ['testPartnerConnection', { baseUrl: 'https://lending.example.org', wsApi: '2\n1', ...credentials }],
  ...['', '1'.repeat(65), '12\u00073', '21101\ud800', '2110\u200b1', '..', 7].map((card): [string, unknown] => ['lookupPatron', { libraryId: 101, card }]),
  ...[5, 'abc\u0005', 'x'.repeat(40), 'ftp://lending.example.org', 'https://lending.example.org/?x', 'https://staff:pw@lending.example.org']
    .map((baseUrl): [string, unknown] => ['testPartnerConnection', { baseUrl, ...credentials }]),
  ['noSuchMethod', {}],
];

describe('refusals at the contract', () => {
  it('each carry a reason with its parameters, translated, the field by key', async () => {
    const errors: ErrorInfo[] = [];
    for (const [method, args] of BAD_ARGUMENTS) {
      const result = await dispatch(handlers(), method, args);
      if (result.ok) throw new Error(`${method} accepted ${JSON.stringify(args)?.slice(0, 60)}`);
      errors.push(result.error);
    }
    expectWorded(errors);
    const reasons = new Set(errors.map((e) => e.reason));
    expect(reasons.size).toBeGreaterThanOrEqual(30);
    expect(errors.find((e) => e.reason === 'input.too-long')).toMatchObject({ params: { field: 'staffName', max: 60 }, message: 'Staff name: is too long (at most 60 characters).' });
    expect(errors.find((e) => e.reason === 'card.too-long')).toMatchObject({ params: { field: 'card' }, message: 'Library card: That library card is too long (more than 64 characters).' });
  });

  it('a handler that fails unexpectedly is a reason too, and the cause stays out of it', async () => {
    const result = await dispatch(handlers(() => { throw new TypeError('x is undefined at /secret/path.ts'); }), 'syncStatus', undefined);
    expect(result).toMatchObject({ ok: false, error: { code: 'server', reason: 'desk.unexpected' } });
    expect(JSON.stringify(result)).not.toContain('/secret/path.ts');
  });

  it('plays a renderer sending junk: whatever it sends, a reason or a worded code comes back', async () => {
    const junk: unknown[] = [null, 0, '', [], [1], { __proto__: { card: 1 } }, { libraryId: {}, card: [] }, { libraryId: 1, card: { toString: 1 } }, { constructor: 1 }];
    const errors: ErrorInfo[] = [];
    for (const method of ['lookupPatron', 'borrow', 'savePartnerProfile', 'liveSearch', 'collectionBrowse', 'updatePreferences', 'replaceCredentials']) {
      for (const args of junk) {
        const result = await dispatch(handlers(), method, args);
        if (!result.ok) errors.push(result.error);
      }
    }
    expectWorded(errors);
  });
});

describe('the partner client edge', () => {
  it('refuses bad ids, cards and addresses with reasons; the log still learns what was given', () => {
    const errors = [
      caught(() => checkLibraryId('12')), caught(() => checkContentId(-1)), caught(() => checkCard('\u202e1')), caught(() => checkCard(null)),
      caught(() => checkBaseUrl('mailto:x@y')), caught(() => checkBaseUrl(5)),
    ];
    expectWorded(errors);
    expect(errors[0]).toMatchObject({ reason: 'input.library-id', message: 'The library id must be a positive whole number (got "12").' });
  });

  it("words every status of every operation by its code, and keeps the service's words apart", () => {
    const operations: Operation[] = ['borrow', 'placeHold', 'returnTitle', 'removeHold', 'patronRead', 'bulk', 'search', 'contentInfo'];
    const errors: ErrorInfo[] = [];
    for (const operation of operations) {
      for (const status of [400, 401, 403, 404, 405, 409, 410, 422, 429, 500, 502, 503]) {
        const words = errorForStatus(operation, new HttpStatusError(status, 'Patron has reached the monthly limit.', undefined)).toInfo();
        expect(words.serviceMessage).toBe('Patron has reached the monthly limit.');
        errors.push(words, errorForStatus(operation, new HttpStatusError(status, undefined, undefined)).toInfo());
      }
    }
    expectWorded(errors);
    expect(errors.filter((e) => e.reason === 'service.invalid-request').length).toBeGreaterThan(0);
  });

  it('an unreadable answer is bad-response, which the renderer words; the detail stays in the log', () => {
    const errors = [
      caught(() => normalize.parseLoans('x')), caught(() => normalize.parseHolds(5)), caught(() => normalize.parseToken(null)),
      caught(() => normalize.parseLoan({ title: 'no id' })), caught(() => normalize.parseSearchPage([])),
    ];
    expect(errors.every((e) => e.code === 'bad-response')).toBe(true);
    expectWorded(errors);
  });
});

describe('settings and the keychain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lending-desk-reasons-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const branch: ConnectionProfile = {
    id: 'main-branch', name: 'Main branch', kind: 'partner', baseUrl: 'https://partner.example.org/',
    libraries: [{ libraryId: 1204 }], wsApi: '2.1', country: 'CA',
  };

  it('a profile or preference the settings refuse names its rule as a reason', () => {
    const settings = new Settings(new Conf<Record<string, unknown>>({ cwd: dir, projectName: 'lending-desk-reasons', deserialize: readSettingsFile }));
    const changes: [() => unknown, string][] = [
      [() => settings.update({ idleLockMinutes: 0 }), 'settings.idle-lock'],
      [() => settings.update({ language: 'de' as never }), 'settings.language'],
      [() => settings.saveProfile({ ...branch, id: 'Main' }), 'settings.profile-id'],
      [() => settings.saveProfile({ ...branch, name: ' ' }), 'settings.profile-name-empty'],
      [() => settings.saveProfile({ ...branch, name: 'n'.repeat(81) }), 'settings.profile-name-long'],
      [() => settings.saveProfile({ ...branch, baseUrl: 'http://partner.example.org' }), 'settings.service-address'],
      [() => settings.saveProfile({ ...branch, libraries: [] }), 'settings.needs-library'],
      [() => settings.saveProfile({ ...branch, libraries: Array.from({ length: 21 }, (_, i) => ({ libraryId: i + 1 })) }), 'settings.too-many-libraries'],
      [() => settings.saveProfile({ ...branch, libraries: [{ libraryId: 4 }, { libraryId: 4 }] }), 'settings.library-repeated'],
      [() => settings.saveProfile({ ...branch, libraries: [{ libraryId: 0 }] }), 'settings.library-id'],
      [() => settings.saveProfile({ ...branch, libraries: [{ libraryId: 1, name: 'x'.repeat(81) }] }), 'settings.library-name-long'],
      [() => settings.saveProfile({ ...branch, wsApi: '2.1.0.0.0.0.0' }), 'settings.ws-api-long'],
      [() => settings.saveProfile({ ...branch, country: 'GB' as never }), 'settings.country'],
      [() => settings.update({ window: { width: 10, height: 10, maximized: false } }), 'settings.not-valid'],
      [() => settings.setActiveProfile('nowhere'), 'profile.not-found'],
    ];
    const errors = changes.map(([change]) => caught(change));
    expect(errors.map((e) => e.reason)).toEqual(changes.map(([, reason]) => reason));
    expectWorded(errors);
  });

  it('credentials refused before the keychain, and a keychain that fails, are reasons; the native cause stays in the log', async () => {
    const failing: KeytarLike = {
      getPassword: async () => { throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'); },
      setPassword: async () => { throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'); },
      deletePassword: async () => { throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'); },
    };
    const errors = [
      await rejected(createMemoryVault().save('', credentials, 'https://lending.example.org')),
      await rejected(createMemoryVault().save('p1', { username: '', password: 'p' }, 'https://lending.example.org')),
      await rejected(createMemoryVault().save('p1', { username: 'a\tb', password: 'p' }, 'https://lending.example.org')),
      await rejected(createMemoryVault().save('p1', { username: 'u', password: 'p'.repeat(1001) }, 'https://lending.example.org')),
      await rejected(createKeytarVault({ keytar: failing }).read('p1')),
    ];
    expectWorded(errors);
    expect(errors.at(-1)).toMatchObject({ code: 'keychain-unavailable', reason: 'keychain.unavailable', params: {} });
    expect(errors.at(-1)!.message).toContain('Cannot autolaunch D-Bus');
  });
});

describe('the check itself', () => {
  it('fails an invalid-input without a reason, a reason without French, and a reason missing a parameter', () => {
    expect(unworded({ code: 'invalid-input', message: 'The library id is wrong.' })).toMatch(/without a reason/);
    expect(unworded({ code: 'invalid-input', message: 'x', reason: 'input.no-such-thing' as never })).toMatch(/not in REASONS/);
    expect(unworded(DeskError.because('invalid-input', 'input.too-long', { field: 'card' }).toInfo())).toMatch(/lacks the parameter max/);
    expect(unworded({ code: 'network', message: 'Could not reach the lending service.' })).toBeUndefined();
  });
});
