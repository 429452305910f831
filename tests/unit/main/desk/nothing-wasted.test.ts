// Nothing wasted (issue #34, goal 7), through the contract as main's registry calls it, against
// the sandbox over HTTP: a lookup the renderer superseded is cancelled (its reads not yet sent
// never go: no budget spent), identical reads in flight share one request, a search's answer is
// kept a short while (an action forgets kept availability; the lock forgets everything), and what
// the renderer may send as a call's options is refused when it is not a plain call id.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxOverHttp } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { createMemoryVault } from '../../../../electron/main/credentials/index.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import { startSandbox, type SandboxHandle } from '../../../../electron/main/sandbox/server.ts';
import { TEST_DESK_PIN } from '../../../support/desk-pin.ts';
import { sandboxDeskOnShift } from '../../../support/node-desk.ts';

let dir: string;
let desk: DeskService;
let sandbox: SandboxHandle;
let closeLog: () => void;
const LIBRARY = 101;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nothing-wasted-'));
  sandbox = await startSandbox({ catalogSize: 800 });
  ({ desk, closeLog } = await sandboxDeskOnShift({ dir, vault: createMemoryVault(), sandbox: async () => sandboxOverHttp(sandbox), clientOptions: { timeoutMs: 5000 } }));
});

afterEach(async () => {
  await desk.close();
  closeLog();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const cards = (): string[] => sandbox.libraries.find((l) => l.libraryId === LIBRARY)!.cards;
/** The patron reads that reached the service since `from`, as (route, card). */
const patronReads = (from: number): string[] => sandbox.control.requestLog(from)
  .filter((r) => r.route === 'status' || r.route === 'checkouts' || r.route === 'holds').map((r) => `${r.route} ${r.params.card}`).sort();

describe('a superseded lookup', () => {
  it('sends none of its reads once the renderer cancels it: they went out even though its answer was dropped', async () => {
    expect(sandbox.control.requestCounts().token).toBe(0); // the first lookup needs a token: its reads wait for it
    sandbox.control.addFault({ route: 'token', kind: 'latency', ms: 200, times: 1 });
    const [first, second] = cards();
    const from = sandbox.control.requestLogNext();
    const superseded = dispatch(desk, 'lookupPatron', { libraryId: LIBRARY, card: first }, undefined, { callId: 's1-1' });
    const cancelled = dispatch(desk, 'cancelCalls', { callIds: ['s1-1'] });
    const next = dispatch(desk, 'lookupPatron', { libraryId: LIBRARY, card: second }, undefined, { callId: 's1-2' });
    expect(await cancelled).toEqual({ ok: true, value: null });
    expect(await superseded).toMatchObject({ ok: false, error: { reason: 'call.cancelled' } });
    expect(await next).toMatchObject({ ok: true, value: { libraryId: LIBRARY } });
    expect(patronReads(from)).toEqual([`checkouts ${second}`, `holds ${second}`, `status ${second}`]);
  });

  it('a call id of no call under way cancels nothing, and one under way elsewhere is untouched', async () => {
    const [card] = cards();
    const looking = dispatch(desk, 'lookupPatron', { libraryId: LIBRARY, card }, undefined, { callId: 's1-5' });
    expect(await dispatch(desk, 'cancelCalls', { callIds: ['s9-9'] })).toEqual({ ok: true, value: null });
    expect(await looking).toMatchObject({ ok: true });
  });

  it('an action is never cancelled: a borrow named by a call id runs to its end', async () => {
    const [card] = cards();
    const [contentId] = sandbox.control.sampleContent(LIBRARY, { purchaseModel: 'INSTANT', active: true, count: 1 });
    const borrowing = dispatch(desk, 'borrow', { libraryId: LIBRARY, card, contentId }, undefined, { callId: 's1-7' });
    await dispatch(desk, 'cancelCalls', { callIds: ['s1-7'] });
    expect(await borrowing).toMatchObject({ ok: true });
    expect(sandbox.control.patronState(LIBRARY, card as string).loans).toContain(contentId);
  });
});

describe('identical reads and kept answers', () => {
  it('two lookups of the same card at once send each read once', async () => {
    const [card] = cards();
    await dispatch(desk, 'lookupPatron', { libraryId: LIBRARY, card: cards()[1] }); // the token first
    const from = sandbox.control.requestLogNext();
    const [a, b] = await Promise.all([dispatch(desk, 'lookupPatron', { libraryId: LIBRARY, card }), dispatch(desk, 'lookupPatron', { libraryId: LIBRARY, card })]);
    expect(a).toMatchObject({ ok: true });
    expect(b).toEqual(a);
    expect(patronReads(from)).toEqual([`checkouts ${card}`, `holds ${card}`, `status ${card}`]);
  });

  it('a search asked again within a minute is answered from what was kept; the lock forgets it', async () => {
    const search = { libraryId: LIBRARY, q: 'the', limit: 20 };
    const first = await dispatch(desk, 'liveSearch', search);
    const again = await dispatch(desk, 'liveSearch', search);
    expect(again).toEqual(first);
    expect(sandbox.control.requestCounts().search).toBe(1);
    await dispatch(desk, 'lockSession', { reason: 'staff' });
    await dispatch(desk, 'startShift', { staffName: 'JD', pin: TEST_DESK_PIN });
    await dispatch(desk, 'liveSearch', search);
    expect(sandbox.control.requestCounts().search).toBe(2); // what was searched is what a patron asked for: not kept past the shift
  });

  it('availability asked again is kept a moment, but an action asks it afresh', async () => {
    const [card] = cards();
    const [contentId] = sandbox.control.sampleContent(LIBRARY, { purchaseModel: 'FLEX', status: 'BORROW', count: 1 });
    const ask = () => dispatch(desk, 'liveAvailability', { libraryId: LIBRARY, contentIds: [contentId as number] });
    await ask();
    await ask();
    expect(sandbox.control.requestCounts().contentInfo).toBe(1);
    expect(await dispatch(desk, 'borrow', { libraryId: LIBRARY, card, contentId })).toMatchObject({ ok: true });
    const after = await ask();
    expect(sandbox.control.requestCounts().contentInfo).toBe(2);
    expect(after).toMatchObject({ ok: true, value: [{ contentId, availableCopies: expect.any(Number) }] });
  });
});

describe('call options (what crosses IPC beside the argument)', () => {
  it('are refused unless they are a plain call id, and nothing runs', async () => {
    const from = sandbox.control.requestLogNext();
    const [card] = cards();
    for (const call of [{ callId: 'x'.repeat(65) }, { callId: 'a b' }, { callId: 7 }, { callId: 's1-1', extra: true }, 'plain', [1]]) {
      expect(await dispatch(desk, 'lookupPatron', { libraryId: LIBRARY, card }, undefined, call), JSON.stringify(call))
        .toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
    expect(sandbox.control.requestLog(from)).toEqual([]);
    expect(await dispatch(desk, 'cancelCalls', { callIds: [`${randomUUID()}`.slice(0, 8)] })).toEqual({ ok: true, value: null });
  });
});
