// Each library's card rules at the contract (issue #35). The card field refuses what breaks them;
// main refuses it again, whoever calls: an item barcode, a wrong check digit, a wrong prefix and
// another library's card are refused with the reason staff read, and the sandbox (the lending
// service here) sees not one request for them — its request log says so. A card that keeps the
// rules is looked up as before, and "try the other libraries" asks only libraries whose rules the
// card keeps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { createMemoryVault } from '../../../../electron/main/credentials/index.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import type { Policy } from '../../../../electron/main/policy/index.ts';
import { createSandboxService, type SandboxService } from '../../../../electron/main/sandbox/server.ts';
import type { AppInfo, MethodName } from '../../../../electron/shared/contract.ts';
import type { ErrorInfo } from '../../../../electron/shared/errors.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { LIBRARY_RULES, mapleCard, riversideCard, riversideItem, wrongDigit } from '../../../support/library-rules.ts';
import { createNodeDesk } from '../../../support/node-desk.ts';
import { answerOf } from '../../../support/desk-calls.ts';

const POLICY: Policy = { version: 1, libraries: [...LIBRARY_RULES] };
const CARD_101 = riversideCard(77);
const CARD_202 = mapleCard(7);
const ITEM_101 = riversideItem(12345);
const WRONG_DIGIT = wrongDigit(CARD_101);

let dir: string;
let sandbox: SandboxService;
let desk: DeskService;
let closeLog: () => void;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'card-rules-'));
  sandbox = createSandboxService({ catalogSize: 300 });
  const created = createNodeDesk({ dir, vault: createMemoryVault(), policy: POLICY, sandbox: async () => inProcessSandbox(sandbox) });
  desk = created.desk;
  closeLog = () => created.logger.close();
  await ok('useSandbox');
  await ok('startShift', { pin: TEST_DESK_PIN });
  sandbox.control.addPatron(101, CARD_101);
  sandbox.control.addPatron(202, CARD_202);
});
afterEach(async () => {
  await desk.close();
  closeLog();
  rmSync(dir, { recursive: true, force: true });
});

async function ok<T = unknown>(name: MethodName, args?: unknown): Promise<T> {
  return answerOf<T>(desk, name, args);
}
async function refused(name: MethodName, args: unknown): Promise<ErrorInfo> {
  const result = await dispatch(desk, name, args);
  if (result.ok) throw new Error(`${name} was accepted`);
  return result.error;
}
/** The patron requests the sandbox saw since `from`, by card. */
const patronRequests = (from: number) => sandbox.control.requestLog(from).filter((r) => r.params.card !== undefined).map((r) => `${r.route}:${r.params.card}`);

describe('a card that breaks its library\'s rules', () => {
  it('is refused with the reason, before any request: item barcode, check digit, prefix, length, another library\'s card', async () => {
    const from = sandbox.control.requestLogNext();
    expect(await refused('lookupPatron', { libraryId: 101, card: ITEM_101 })).toMatchObject({ code: 'invalid-input', reason: 'card.item-barcode' });
    expect(await refused('lookupPatron', { libraryId: 101, card: WRONG_DIGIT })).toMatchObject({ reason: 'card.check-digit', params: { library: 'Riverside Public Library' } });
    expect(await refused('lookupPatron', { libraryId: 101, card: '29999000000000' })).toMatchObject({ reason: 'card.wrong-prefix', params: { library: 'Riverside Public Library', prefix: '21101' } });
    expect(await refused('lookupPatron', { libraryId: 202, card: '2021' })).toMatchObject({ reason: 'card.wrong-length', params: { length: 11, count: 4 } });
    expect(await refused('lookupPatron', { libraryId: 101, card: CARD_202 })).toMatchObject({ reason: 'card.other-library', params: { library: 'Riverside Public Library', other: 'Maple Valley Library' } });
    // Acting for such a card is refused the same way.
    expect(await refused('borrow', { libraryId: 101, card: WRONG_DIGIT, contentId: 5 })).toMatchObject({ reason: 'card.check-digit' });
    expect(await refused('placeHold', { libraryId: 101, card: ITEM_101, contentId: 5 })).toMatchObject({ reason: 'card.item-barcode' });
    expect(patronRequests(from)).toEqual([]);
  });

  it('a card that keeps the rules is looked up as before; the other libraries are asked only where the card may be theirs', async () => {
    const from = sandbox.control.requestLogNext();
    const view = await ok<{ libraryId: number }>('lookupPatron', { libraryId: 101, card: CARD_101 });
    expect(view.libraryId).toBe(101);
    expect(new Set(patronRequests(from))).toEqual(new Set([`status:${CARD_101}`, `checkouts:${CARD_101}`, `holds:${CARD_101}`]));
    const next = sandbox.control.requestLogNext();
    // Library 303 has no rules (any card may be one of its): asked. 202's rules refuse this card: answered "not known" without a request.
    expect(await ok('findCardElsewhere', { libraryId: 101, card: CARD_101 })).toEqual(expect.arrayContaining([{ libraryId: 202, known: false }, { libraryId: 303, known: false }]));
    const asked = sandbox.control.requestLog(next).filter((r) => r.params.card !== undefined).map((r) => r.params.libraryId);
    expect(asked).toEqual(['303']);
  });

  it('the library\'s name and rules reach the desk with its description; a desk with no rules refuses nothing', async () => {
    const info = await ok<AppInfo>('appInfo');
    expect(info.libraryRules).toEqual(POLICY.libraries);
    expect(info.recentPatrons).toBe(0);
    await desk.close();
    closeLog();
    const plain = createNodeDesk({ dir: mkdtempSync(join(tmpdir(), 'card-rules-plain-')), vault: createMemoryVault(), sandbox: async () => inProcessSandbox(sandbox) });
    desk = plain.desk;
    closeLog = () => plain.logger.close();
    await ok('useSandbox');
    await ok('startShift', { pin: TEST_DESK_PIN });
    sandbox.control.addPatron(101, ITEM_101);
    expect(await ok<{ libraryId: number }>('lookupPatron', { libraryId: 101, card: ITEM_101 })).toMatchObject({ libraryId: 101 });
    expect((await ok<AppInfo>('appInfo')).libraryRules).toBeUndefined();
  });
});
